// Keys never leave the process in any form (issue 20, finding 4): upper-cased, base64, base64url
// and URL-encoded copies in a 401 body, keys inside successful replies (the sidecar and --json),
// and everything the CLI prints.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clearRegisteredSecrets, redactDeep, redactSecrets, registerSecret, registeredSecrets } from '../../../src/core/secrets/redact';
import { withoutProviderKeys } from '../../../src/core/secrets/keyEnv';
import { scrubSecrets } from '../../../src/core/providers/errors';
import { faults, startMockModelServer, type MockModelServer } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';
import { OPENAI_KEY, anthropicClient, openaiClient, rejection, useMockServer, user } from './helpers';

const KEY = 'sk-proj-Redact0123456789abcdefXYZ_key';

/** Every form of `key` the tests look for in output. */
function forms(key: string): Record<string, string> {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const url = (s: string) => Buffer.from(s).toString('base64url');
  return {
    verbatim: key,
    upper: key.toUpperCase(),
    lower: key.toLowerCase(),
    base64: b64(key),
    'base64 after 1 byte': b64(`:${key}`),
    'base64 after 2 bytes': b64(`u:${key}`),
    'basic auth': `Basic ${b64(`user:${key}`)}`,
    base64url: url(`ab${key}`),
    'url-encoded': encodeURIComponent(`${key}/+=`),
    'percent-encoded': [...Buffer.from(key)].map((b) => `%${b.toString(16).toUpperCase()}`).join(''),
    hex: Buffer.from(key).toString('hex'),
  };
}

/** Fails when any recognizable piece of any form of `key` is in `text`. */
function assertNoKey(text: string, key: string, where: string): void {
  const pieces = [key.slice(8, 24), key.toUpperCase().slice(8, 24), Buffer.from(key).toString('hex').slice(16, 48)];
  for (const prefix of ['', ':', 'u:', 'user:', 'ab']) {
    const encoded = Buffer.from(`${prefix}${key}`).toString('base64');
    pieces.push(encoded.slice(8, 28), Buffer.from(`${prefix}${key}`).toString('base64url').slice(8, 28));
  }
  for (const piece of pieces) assert.ok(!text.includes(piece), `${where}: key piece ${piece} in ${text.slice(0, 400)}`);
}

describe('redactSecrets: every form of a registered key', () => {
  afterEach(() => clearRegisteredSecrets());

  it('redacts the key as it is, in any case, base64 and base64url at each alignment, URL-encoded, hex', () => {
    registerSecret(KEY);
    for (const [name, form] of Object.entries(forms(KEY))) {
      const text = `before ${form} after`;
      const out = redactSecrets(text);
      assert.match(out, /\[redacted\]/, name);
      assertNoKey(out, KEY, name);
      assert.ok(out.startsWith('before ') && out.endsWith(' after'), `${name}: the text around stays (${out})`);
    }
  });

  it('leaves other text alone, and ignores short or placeholder "keys"', () => {
    registerSecret('no-key');
    registerSecret('short');
    registerSecret('');
    assert.deepEqual(registeredSecrets(), []);
    registerSecret(KEY);
    const text = 'The answer is 42 (see https://example.org/a?b=c); base64 aGVsbG8gd29ybGQ=';
    assert.equal(redactSecrets(text), text);
  });

  it('redactDeep reaches every string of a JSON value; scrubSecrets adds the look-alike patterns', () => {
    registerSecret(KEY);
    const value = redactDeep({ a: [KEY.toUpperCase(), { b: `x ${Buffer.from(KEY).toString('base64')}` }], n: 3 });
    assertNoKey(JSON.stringify(value), KEY, 'redactDeep');
    assert.equal(value.n, 3);
    assert.equal(scrubSecrets('key SK-OTHER-abcdef123456 here'), 'key [redacted] here');
  });

  it('withoutProviderKeys drops the provider key variables and variables holding a registered key', () => {
    const env = withoutProviderKeys({ OPENAI_API_KEY: 'a', ANTHROPIC_API_KEY: 'b', ANTHROPIC_AUTH_TOKEN: 'c', MY_VERIFIER_KEY: KEY, PATH: '/bin' }, [KEY]);
    assert.deepEqual(env, { PATH: '/bin' });
  });
});

describe('model clients: keys in error bodies and in replies', () => {
  const ctx = useMockServer();
  afterEach(() => clearRegisteredSecrets());

  it('a 401 body with upper-cased, base64, base64url and URL-encoded copies of the key prints none of them', async () => {
    const f = forms(OPENAI_KEY);
    const body = `Incorrect API key provided: ${f.upper}; token ${f['base64 after 2 bytes']}; ${f['basic auth']}; url ${f['url-encoded']}; ${f.base64url}`;
    ctx.server.failNext(faults.status(401, { message: body }));
    const openaiError = await rejection(openaiClient(ctx.server).complete({ messages: [user('hi')] }));
    assert.equal(openaiError.status, 401);
    assertNoKey(openaiError.message, OPENAI_KEY, 'openai 401');
    ctx.server.failNext(faults.status(401, { message: body }));
    const anthropicError = await rejection(anthropicClient(ctx.server, { apiKey: OPENAI_KEY }).complete({ messages: [user('hi')] }));
    assertNoKey(anthropicError.message, OPENAI_KEY, 'anthropic 401');
  });

  it('a key inside a successful reply (text and tool-call arguments) is redacted before the reply is returned', async () => {
    const f = forms(OPENAI_KEY);
    ctx.server.script(() => ({
      text: `Your key is ${OPENAI_KEY}, upper ${f.upper}, b64 ${f.base64}.`,
      toolCalls: [{ name: 'search', arguments: JSON.stringify({ query: OPENAI_KEY }) }],
    }));
    for (const client of [openaiClient(ctx.server), anthropicClient(ctx.server, { apiKey: OPENAI_KEY })]) {
      const reply = await client.complete({
        messages: [user('hi')],
        tools: [{ type: 'function', function: { name: 'search', description: 's', parameters: { type: 'object', properties: {} } } }],
      });
      assert.match(reply.text, /Your key is \[redacted\], upper \[redacted\], b64 \[redacted\]\./);
      assertNoKey(JSON.stringify(reply), OPENAI_KEY, client.provider);
      assert.deepEqual(JSON.parse(reply.toolCalls?.[0].arguments ?? '{}'), { query: '[redacted]' }, 'arguments stay JSON');
    }
  });
});

describe('trajaudit audit: a key in the model reply reaches neither the sidecar nor --json', function () {
  this.timeout(60_000);
  let server: MockModelServer;
  let saved: string | undefined;
  before(async () => {
    server = await startMockModelServer();
  });
  after(async () => server.close());
  beforeEach(() => {
    saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = KEY;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved;
    clearRegisteredSecrets();
  });

  it('all-at-once whose rationale and directive quote the key in three forms', async () => {
    const file = join(tempDir('trajaudit-redact-'), 'case.traj.json');
    copyFileSync(join(__dirname, '..', '..', '..', 'samples', 'trajectories', 'tongyi', 'alpine-footbridge-span.traj.json'), file);
    const f = forms(KEY);
    server.script(() => ({
      text: JSON.stringify({
        critical_step: 4,
        root_cause: 'unverified_source_reliance',
        rationale: `used ${KEY} and ${f.upper}`,
        directives: [`Do not print ${f['basic auth']}.`],
      }),
    }));
    const r = await runCli(['audit', file, '--method', 'all-at-once', '--model', 'mock-gpt', '--base-url', server.openaiBaseUrl, '--json']);
    assert.equal(r.code, 0, r.err);
    assert.ok(server.requests.length > 0);
    assertNoKey(r.out, KEY, '--json');
    assertNoKey(r.err, KEY, 'stderr');
    const sidecar = readFileSync(`${file}.audit.json`, 'utf8');
    assert.match(sidecar, /used \[redacted\] and \[redacted\]/);
    assertNoKey(sidecar, KEY, 'sidecar');
  });
});
