import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createModelClient } from '../../../src/core/providers/factory';
import { scriptFromJson, startMockModelServer, type MockScriptFile } from '../../mock/mockModelServer';
import { tempDir } from '../helpers';
import { FAST, openaiClient, rejection, useMockServer, user } from './helpers';

describe('mock model server', () => {
  const ctx = useMockServer();

  it('routes a JSON script by system text, cycles, then falls back to the queue and the default', async () => {
    const script: MockScriptFile = {
      routes: [
        { match: { systemIncludes: 'BACKWARD' }, replies: [{ text: 'b1' }, { text: 'b2' }], cycle: true },
        { match: { userIncludes: 'repair' }, reply: { text: 'repaired' } },
        { match: { systemIncludes: 'ONCE' }, replies: [{ text: 'once' }] },
      ],
      replies: [{ text: 'queued' }],
      default: { text: 'default' },
    };
    ctx.server.script(scriptFromJson(script));
    const client = openaiClient(ctx.server);
    const ask = async (system: string, text = 'q') => (await client.complete({ system, messages: [user(text)] })).text;
    assert.deepEqual(
      [
        await ask('BACKWARD audit'),
        await ask('BACKWARD audit'),
        await ask('BACKWARD audit'),
        await ask('x', 'please repair'),
        await ask('ONCE'),
        await ask('ONCE'),
        await ask('other'),
      ],
      ['b1', 'b2', 'b1', 'repaired', 'once', 'queued', 'default'],
    );
  });

  it('answers a clear, non-retried 400 when the script has no reply left', async () => {
    ctx.server.reply({ text: 'only one' });
    const client = openaiClient(ctx.server);
    await client.complete({ messages: [user('1')] });
    const error = await rejection(client.complete({ messages: [user('2')] }));
    assert.match(error.message, /HTTP 400 mock_script_exhausted: mock server: no scripted reply left for request #2/);
    assert.equal(ctx.server.requests.length, 2);
  });

  it('logs method, path, protocol, system and user text, and serves GET /v1/models', async () => {
    const response = await fetch(`${ctx.server.openaiBaseUrl}/models`, { headers: { authorization: 'Bearer sk-never-logged-000000' } });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { data: unknown[] }).data.length, 1);
    const [entry] = ctx.server.requests;
    assert.equal(entry.protocol, 'other');
    assert.equal(entry.path, '/v1/models');
    assert.equal(entry.auth, 'bearer');
    assert.ok(!JSON.stringify(entry).includes('sk-never-logged'));
  });

  it('close() ends hung requests and frees the port', async () => {
    const server = await startMockModelServer({ script: { fault: { type: 'hang' } } });
    const pending = rejection(
      createModelClient({ provider: 'openai', model: 'm', baseUrl: server.openaiBaseUrl, ...FAST, maxRetries: 0 }).complete({ messages: [user('hi')] }),
    );
    await server.waitForRequests(1);
    await server.close();
    const error = await pending;
    assert.equal(error.kind, 'connection');
    assert.equal(server.requests[0].outcome, 'server-closed');
  });

  it('runs from a shell with a script file (test/mock/serve.ts)', async function () {
    this.timeout(15_000);
    const dir = tempDir();
    const scriptPath = join(dir, 'script.json');
    const logPath = join(dir, 'requests.jsonl');
    writeFileSync(scriptPath, JSON.stringify([{ text: '{"critical_step": 3}', usage: { inputTokens: 42, outputTokens: 7 } }]));
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/mock/serve.ts', '--script', scriptPath, '--log', logPath, '--quiet'], {
      cwd: join(__dirname, '../../..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /MOCK_URL=(\S+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.on('exit', (code) => reject(new Error(`serve.ts exited ${code}: ${err}`)));
      });
      const client = createModelClient({ provider: 'openai', model: 'mock', baseUrl: `${url}/v1`, ...FAST });
      const result = await client.complete({ messages: [user('audit')] });
      assert.equal(result.text, '{"critical_step": 3}');
      assert.equal(result.usage.inputTokens, 42);
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    const logged = readFileSync(logPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { path: string; status: number });
    assert.deepEqual(
      logged.map((r) => [r.path, r.status]),
      [['/v1/chat/completions', 200]],
    );
  });
});
