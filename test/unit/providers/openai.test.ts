import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { createServer } from 'node:net';
import { ModelError } from '../../../src/core/providers/errors';
import { createModelClient } from '../../../src/core/providers/factory';
import { faults } from '../../mock/mockModelServer';
import { ANTHROPIC_KEY, OPENAI_KEY, anthropicClient, openaiClient, rejection, useMockServer, user } from './helpers';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('providers: OpenAI chat completions (real SDK against the mock server)', () => {
  const ctx = useMockServer();

  it('completes with text, usage and cached prompt tokens', async () => {
    ctx.server.reply({ text: 'The agent stopped early.', usage: { inputTokens: 1500, outputTokens: 12, cachedInputTokens: 1280 } });
    const client = openaiClient(ctx.server, { temperature: 0.2, reasoningEffort: 'low', maxOutputTokens: 300 });
    const result = await client.complete({ system: 'You audit trajectories.', messages: [user('Why did it fail?')] });

    assert.equal(result.text, 'The agent stopped early.');
    assert.deepEqual(result.usage, { inputTokens: 1500, outputTokens: 12, cachedInputTokens: 1280, cacheWriteInputTokens: 0 });
    assert.equal(result.attempts, 1);
    assert.equal(result.finishReason, 'stop');
    assert.equal(result.truncated, false);
    assert.equal(result.requestId, 'req_mock_1');
    assert.ok(result.latencyMs >= 0);

    const [request] = ctx.server.requests;
    assert.equal(request.path, '/v1/chat/completions');
    assert.equal(request.auth, 'bearer');
    assert.equal(request.headers.authorization, undefined, 'the log never keeps credentials');
    assert.deepEqual(request.body.messages, [
      { role: 'system', content: 'You audit trajectories.' },
      { role: 'user', content: 'Why did it fail?' },
    ]);
    assert.equal(request.body.model, 'gpt-mock');
    assert.equal(request.body.temperature, 0.2);
    assert.equal(request.body.reasoning_effort, 'low');
    assert.equal(request.body.max_tokens, 300, 'custom base URL: max_tokens');
    assert.equal(request.body.max_completion_tokens, undefined);
    assert.equal(request.body.response_format, undefined, 'plain text without json');
  });

  it('sends response_format json_schema (strict when the schema allows it) and plain instructions in prompt mode', async () => {
    ctx.server.reply({ text: '{}' }, { text: '{}' }, { text: '{}' });
    const strictSchema = { type: 'object', properties: { step: { type: 'integer' } }, required: ['step'], additionalProperties: false };
    const looseSchema = { type: 'object', properties: { step: { type: 'integer' }, note: { type: 'string' } }, required: ['step'] };
    const client = openaiClient(ctx.server);
    await client.complete({ messages: [user('find the step')], json: { name: 'critical_step', schema: strictSchema } });
    await client.complete({ messages: [user('find the step')], json: { name: 'critical_step', schema: looseSchema } });
    await openaiClient(ctx.server, { structuredOutput: 'prompt' }).complete({
      messages: [user('find the step')],
      json: { name: 'critical_step', schema: strictSchema },
    });

    const [strict, loose, prompt] = ctx.server.requests.map((r) => r.body);
    assert.deepEqual(strict.response_format, { type: 'json_schema', json_schema: { name: 'critical_step', schema: strictSchema, strict: true } });
    assert.equal(strict.messages[0].content, 'find the step', 'native mode adds no prompt text');
    assert.equal(loose.response_format.json_schema.strict, false);
    assert.equal(prompt.response_format, undefined);
    assert.match(prompt.messages[0].content, /^find the step\n\nRespond with only one JSON object .*"critical_step"/s);
    assert.ok(prompt.messages[0].content.includes(JSON.stringify(strictSchema)));
  });

  it('puts the cacheable prefix first, byte-identical, so later branches hit the prompt cache', async () => {
    ctx.server.script((r) => ({ text: `answer ${r.seq}` }));
    const client = openaiClient(ctx.server);
    const trajectory = `TRAJECTORY ${'step … '.repeat(1200)}`;
    const first = await client.complete({ system: 'S', cacheablePrefix: trajectory, messages: [user('Branch A: find the first error.')] });
    const second = await client.complete({ system: 'S', cacheablePrefix: trajectory, messages: [user('Branch B: find the root cause.')] });

    const [a, b] = ctx.server.requests.map((r) => r.body.messages[1].content as string);
    assert.ok(a.startsWith(`${trajectory}\n\nBranch A`));
    assert.ok(b.startsWith(`${trajectory}\n\nBranch B`));
    assert.equal(first.usage.cachedInputTokens, 0);
    assert.ok(second.usage.cachedInputTokens >= 1024, `cached ${second.usage.cachedInputTokens}`);
    assert.ok(second.usage.cachedInputTokens < second.usage.inputTokens);
  });

  it('different json_schemas break the shared prefix (schema goes first); request-level prompt mode keeps it cacheable', async () => {
    ctx.server.script(() => ({ text: '{}' }));
    const client = openaiClient(ctx.server);
    const trajectory = `TRAJECTORY ${'step … '.repeat(1200)}`;
    const schema = (field: string) => ({ type: 'object', properties: { [field]: { type: 'string' } }, required: [field], additionalProperties: false });
    const branch = (field: string, structuredOutput?: 'prompt') =>
      client.complete({ cacheablePrefix: trajectory, messages: [user(`Branch ${field}`)], json: { name: field, schema: schema(field) }, structuredOutput });
    await branch('holistic');
    assert.equal((await branch('backward')).usage.cachedInputTokens, 0, 'native: the schemas differ, so the prefixes differ');
    ctx.server.reset().script(() => ({ text: '{}' }));
    await branch('holistic', 'prompt');
    assert.ok((await branch('backward', 'prompt')).usage.cachedInputTokens >= 1024, 'prompt mode: the trajectory is the shared prefix');
    assert.equal(ctx.server.requests[1].body.response_format, undefined);
  });

  it('retries a 429 and succeeds: two requests reach the server, retry-after is honoured', async () => {
    ctx.server.failNext(faults.rateLimit(0.2)).reply({ text: 'ok' });
    const started = Date.now();
    const result = await openaiClient(ctx.server).complete({ messages: [user('hi')] });
    assert.equal(result.text, 'ok');
    assert.equal(result.attempts, 2);
    assert.equal(ctx.server.requests.length, 2);
    assert.deepEqual(
      ctx.server.requests.map((r) => r.status),
      [429, 200],
    );
    assert.ok(Date.now() - started >= 180, 'waited for retry-after: 0.2 s');
    assert.ok(ctx.server.requests[1].startedAt - ctx.server.requests[0].endedAt! >= 180);
  });

  it('retries 500 and 503, then succeeds', async () => {
    ctx.server.failNext(faults.serverError(500)).failNext(faults.serverError(503)).reply({ text: 'ok' });
    const result = await openaiClient(ctx.server).complete({ messages: [user('hi')] });
    assert.equal(result.text, 'ok');
    assert.equal(result.attempts, 3);
    assert.deepEqual(
      ctx.server.requests.map((r) => r.status),
      [500, 503, 200],
    );
  });

  it('times out a hanging request and retries it', async () => {
    ctx.server.failNext(faults.hang()).script(() => ({ text: 'late but fine' }));
    const started = Date.now();
    const result = await openaiClient(ctx.server, { timeoutMs: 400 }).complete({ messages: [user('hi')] });
    assert.equal(result.text, 'late but fine');
    assert.ok(result.attempts >= 2);
    assert.ok(Date.now() - started >= 390);
    await ctx.server.waitForEnded(2);
    assert.equal(ctx.server.requests[0].outcome, 'client-closed', 'the client dropped the hung request');
  });

  it('times out when the headers arrive but the body stalls (the SDK timeout stops at the headers)', async () => {
    ctx.server.failNext(faults.stalledBody()).script(() => ({ text: 'ok' }));
    const result = await openaiClient(ctx.server, { timeoutMs: 400 }).complete({ messages: [user('hi')] });
    assert.equal(result.text, 'ok');
    assert.ok(result.attempts >= 2);
    await ctx.server.waitForEnded(2);
    assert.equal(ctx.server.requests[0].outcome, 'client-closed');
  });

  it('retries a body cut off by a dropped connection', async () => {
    ctx.server.failNext(faults.brokenBody()).reply({ text: 'ok' });
    const result = await openaiClient(ctx.server).complete({ messages: [user('hi')] });
    assert.equal(result.text, 'ok');
    assert.equal(result.attempts, 2);
  });

  it('retries connection resets and non-JSON 200 bodies', async () => {
    ctx.server.failNext(faults.reset()).failNext(faults.invalidJsonBody()).reply({ text: 'ok' });
    const result = await openaiClient(ctx.server).complete({ messages: [user('hi')] });
    assert.equal(result.text, 'ok');
    assert.equal(result.attempts, 3);
    assert.equal(ctx.server.requests.length, 3);
  });

  it('does not retry a 400, and reports it on one line', async () => {
    ctx.server.failNext(faults.status(400, { message: "Unsupported parameter: 'max_tokens'.\nUse 'max_completion_tokens' instead." }));
    const error = await rejection(openaiClient(ctx.server).complete({ messages: [user('hi')] }));
    assert.ok(error instanceof ModelError);
    assert.equal(error.kind, 'bad_request');
    assert.equal(error.status, 400);
    assert.equal(error.attempts, 1);
    assert.equal(ctx.server.requests.length, 1);
    assert.ok(!error.message.includes('\n'));
    assert.match(
      error.message,
      /^openai gpt-mock: HTTP 400 invalid_request_error: Unsupported parameter: 'max_tokens'\. Use 'max_completion_tokens' instead\.$/,
    );
  });

  it('gives up after maxRetries with the count in the message', async () => {
    ctx.server.failNext(faults.rateLimit(0), 5);
    const error = await rejection(openaiClient(ctx.server, { maxRetries: 2 }).complete({ messages: [user('hi')] }));
    assert.equal(error.kind, 'rate_limit');
    assert.equal(error.attempts, 3);
    assert.equal(ctx.server.requests.length, 3);
    assert.match(error.message, /HTTP 429 requests: Rate limit reached \(mock\) \(after 3 attempts\)$/);
  });

  it('explains a 200 that is not JSON (wrong base URL) without retrying', async () => {
    ctx.server.failNext(faults.htmlBody());
    const error = await rejection(openaiClient(ctx.server).complete({ messages: [user('hi')] }));
    assert.equal(error.kind, 'bad_response');
    assert.equal(ctx.server.requests.length, 1);
    assert.match(error.message, /non-JSON text .*check the base URL/);
  });

  it('aborts an in-flight request promptly: the server sees it start, the client rejects within ~100 ms', async () => {
    ctx.server.failNext(faults.hang());
    const controller = new AbortController();
    const pending = rejection(openaiClient(ctx.server).complete({ messages: [user('hi')] }, controller.signal));
    await ctx.server.waitForRequests(1);
    const abortedAt = Date.now();
    controller.abort();
    const error = await pending;
    const elapsed = Date.now() - abortedAt;
    assert.equal(error.name, 'AbortError');
    assert.equal(error.kind, 'aborted');
    assert.ok(elapsed < 100, `rejected ${elapsed} ms after abort`);
    await ctx.server.waitForEnded(1);
    assert.equal(ctx.server.requests[0].outcome, 'client-closed', 'the HTTP request was really cancelled');
    assert.equal(ctx.server.requests.length, 1, 'no retry after an abort');
  });

  it('aborts during the back-off before a retry (the SDK retry sleep would not)', async () => {
    ctx.server.failNext(faults.rateLimit(30));
    const controller = new AbortController();
    const pending = rejection(openaiClient(ctx.server).complete({ messages: [user('hi')] }, controller.signal));
    await ctx.server.waitForEnded(1);
    await new Promise((r) => setTimeout(r, 20));
    const abortedAt = Date.now();
    controller.abort();
    const error = await pending;
    assert.equal(error.name, 'AbortError');
    assert.ok(Date.now() - abortedAt < 100);
    assert.equal(ctx.server.requests.length, 1);
  });

  it('rejects at once, without a request, when the signal is already aborted', async () => {
    const error = await rejection(openaiClient(ctx.server).complete({ messages: [user('hi')] }, AbortSignal.abort()));
    assert.equal(error.name, 'AbortError');
    assert.equal(ctx.server.requests.length, 0);
  });

  it('runs concurrent requests concurrently (server-side start/end times overlap)', async () => {
    // Each reply waits until all three requests have arrived: a client that serialized them would fail here.
    ctx.server.script(async (r) => {
      await ctx.server.waitForRequests(3, 3_000);
      return { text: `reply to ${r.lastUserText}`, delayMs: 50 };
    });
    const client = openaiClient(ctx.server);
    const results = await Promise.all(['A', 'B', 'C'].map((b) => client.complete({ messages: [user(b)] })));
    assert.deepEqual(
      results.map((r) => r.text),
      ['reply to A', 'reply to B', 'reply to C'],
    );
    const log = ctx.server.requests;
    assert.equal(log.length, 3);
    const lastStart = Math.max(...log.map((r) => r.startedAt));
    const firstEnd = Math.min(...log.map((r) => r.endedAt!));
    assert.ok(lastStart < firstEnd, 'all three were in flight at once');
    assert.ok(results.every((r) => r.attempts === 1));
  });
});

describe('providers: API keys never appear in errors', () => {
  const RIGHT_KEY = 'sk-right-key-0123456789-SECRET';
  const ctx = useMockServer({ apiKey: RIGHT_KEY, echoKeyInAuthErrors: true });

  function assertNoKey(error: Error, key: string): void {
    for (const text of [error.message, String(error), error.stack ?? '', JSON.stringify(error), inspect(error, { depth: 5 })]) {
      assert.ok(!text.includes(key), `key leaked in: ${text.slice(0, 300)}`);
      assert.ok(!text.includes(key.slice(0, 20)), 'no key prefix either');
    }
  }

  it('scrubs a key the server echoes in a 401 (OpenAI and Anthropic)', async () => {
    const openaiError = await rejection(openaiClient(ctx.server).complete({ messages: [user('hi')] }));
    assert.equal(openaiError.kind, 'auth');
    assert.equal(openaiError.status, 401);
    assert.match(openaiError.message, /HTTP 401 .*Incorrect API key provided: \[redacted\]/);
    assertNoKey(openaiError, OPENAI_KEY);

    const anthropicError = await rejection(anthropicClient(ctx.server).complete({ messages: [user('hi')] }));
    assert.equal(anthropicError.kind, 'auth');
    assert.match(anthropicError.message, /HTTP 401 authentication_error: Incorrect API key provided: \[redacted\]/);
    assertNoKey(anthropicError, ANTHROPIC_KEY);
    assert.equal(ctx.server.requests.length, 2, '401 is not retried');
  });

  it('keeps keys out of connection, timeout and settings errors', async () => {
    const key = 'sk-live-connection-test-SECRET-KEY-123';
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const closed = await rejection(
      createModelClient({ provider: 'openai', model: 'm', baseUrl, apiKey: key, maxRetries: 1, retryBaseDelayMs: 1 }).complete({ messages: [user('hi')] }),
    );
    assert.equal(closed.kind, 'connection');
    assert.match(closed.message, /connection failed: .*ECONNREFUSED/);
    assertNoKey(closed, key);

    ctx.server.failNext(faults.hang());
    const timeout = await rejection(openaiClient(ctx.server, { apiKey: RIGHT_KEY, timeoutMs: 100, maxRetries: 0 }).complete({ messages: [user('hi')] }));
    assert.equal(timeout.kind, 'timeout');
    assert.match(timeout.message, /no complete response within 100 ms/);
    assertNoKey(timeout, RIGHT_KEY);

    const settings = rejection(
      Promise.resolve().then(() => createModelClient({ provider: 'openai', model: 'm', baseUrl: `ftp://user:${key}@127.0.0.1/v1`, apiKey: key })),
    );
    const settingsError = await settings;
    assert.equal(settingsError.kind, 'config');
    assertNoKey(settingsError, key);
  });
});
