import assert from 'node:assert/strict';
import { AnthropicMessagesClient } from '../../../src/core/providers/anthropic';
import { warmThenParallel } from '../../../src/core/providers/fanout';
import { createModelClient } from '../../../src/core/providers/factory';
import { faults } from '../../mock/mockModelServer';
import { ANTHROPIC_KEY, anthropicClient, FAST, rejection, useMockServer, user } from './helpers';

describe('providers: Anthropic messages (real SDK against the mock server)', () => {
  const ctx = useMockServer();

  it('completes with text and usage; cache reads count as cachedInputTokens, inputTokens is the total', async () => {
    ctx.server.reply({ text: 'Step 7 is decisive.', usage: { inputTokens: 3000, outputTokens: 9, cachedInputTokens: 2048, cacheWriteInputTokens: 512 } });
    const result = await anthropicClient(ctx.server, { maxOutputTokens: 256, reasoningEffort: 'medium' }).complete({
      system: 'You audit trajectories.',
      messages: [user('Which step?')],
    });

    assert.equal(result.text, 'Step 7 is decisive.');
    assert.deepEqual(result.usage, { inputTokens: 3000, outputTokens: 9, cachedInputTokens: 2048, cacheWriteInputTokens: 512 });
    assert.equal(result.finishReason, 'end_turn');
    assert.equal(result.attempts, 1);
    assert.equal(result.requestId, 'req_mock_1');

    const [request] = ctx.server.requests;
    assert.equal(request.path, '/v1/messages');
    assert.equal(request.auth, 'bearer', '@anthropic-ai/sdk 1.x sends the key as Authorization: Bearer');
    assert.equal(request.headers.authorization, undefined, 'the log never keeps credentials');
    assert.ok(request.headers['anthropic-version']);
    assert.equal(request.body.system, 'You audit trajectories.');
    assert.deepEqual(request.body.messages, [{ role: 'user', content: 'Which step?' }]);
    assert.equal(request.body.max_tokens, 256);
    assert.deepEqual(request.body.output_config, { effort: 'medium' });
    assert.equal(request.body.temperature, undefined, 'this API version has no temperature');
  });

  it('marks the cacheable prefix with cache_control; the trajectory is written once and read by later branches', async () => {
    ctx.server.script(() => ({ text: 'ok' }));
    const client = anthropicClient(ctx.server);
    const trajectory = `TRAJECTORY ${'step … '.repeat(1200)}`;
    const branch = (name: string) => client.complete({ system: 'S', cacheablePrefix: trajectory, messages: [user(`Branch ${name}`)] });

    const [warm, b, c] = await warmThenParallel(['A', 'B', 'C'].map((name) => () => branch(name)));

    assert.deepEqual(ctx.server.requests[0].body.messages[0].content, [
      { type: 'text', text: trajectory, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Branch A' },
    ]);
    assert.ok(warm.usage.cacheWriteInputTokens >= 1024);
    assert.equal(warm.usage.cachedInputTokens, 0);
    for (const r of [b, c]) {
      assert.equal(r.usage.cachedInputTokens, warm.usage.cacheWriteInputTokens, 'read what the first branch wrote');
      assert.equal(r.usage.cacheWriteInputTokens, 0);
    }
  });

  it('three branches fired at once all write the cache (why the pipeline warms it with one request first)', async () => {
    ctx.server.script(async () => {
      await ctx.server.waitForRequests(3, 3_000);
      return { text: 'ok' };
    });
    const client = anthropicClient(ctx.server);
    const trajectory = `TRAJECTORY ${'step … '.repeat(1200)}`;
    const results = await Promise.all(['A', 'B', 'C'].map((n) => client.complete({ cacheablePrefix: trajectory, messages: [user(n)] })));
    assert.deepEqual(
      results.map((r) => r.usage.cachedInputTokens),
      [0, 0, 0],
    );
    assert.ok(results.every((r) => r.usage.cacheWriteInputTokens > 0));
  });

  it('asks for JSON with instructions after the conversation (no native format unless configured)', async () => {
    ctx.server.reply({ text: '{}' }, { text: '{}' });
    const schema = { type: 'object', properties: { step: { type: 'integer' } }, required: ['step'], additionalProperties: false };
    await anthropicClient(ctx.server).complete({ cacheablePrefix: 'T', messages: [user('find the step')], json: { name: 'critical_step', schema } });
    await anthropicClient(ctx.server, { structuredOutput: 'native' }).complete({ messages: [user('find the step')], json: { name: 'critical_step', schema } });

    const [prompt, native] = ctx.server.requests.map((r) => r.body);
    assert.equal(prompt.output_config, undefined);
    assert.equal(prompt.messages[0].content[0].text, 'T', 'the prefix block is untouched');
    assert.match(prompt.messages[0].content[1].text, /^find the step\n\nRespond with only one JSON object .*"critical_step"/s);
    assert.deepEqual(native.output_config, { format: { type: 'json_schema', schema } });
    assert.equal(native.messages[0].content, 'find the step');
  });

  it('retries 429 (rate_limit_error) and 529 (overloaded_error), then succeeds', async () => {
    ctx.server.failNext(faults.rateLimit(0)).failNext(faults.overloaded()).reply({ text: 'ok' });
    const result = await anthropicClient(ctx.server).complete({ messages: [user('hi')] });
    assert.equal(result.text, 'ok');
    assert.equal(result.attempts, 3);
    assert.deepEqual(
      ctx.server.requests.map((r) => r.status),
      [429, 529, 200],
    );
  });

  it('reports the Anthropic error type and message when retries run out', async () => {
    ctx.server.failNext(faults.overloaded(), 3);
    const error = await rejection(anthropicClient(ctx.server, { maxRetries: 2 }).complete({ messages: [user('hi')] }));
    assert.equal(error.kind, 'server');
    assert.equal(error.status, 529);
    assert.equal(error.requestId, 'req_mock_3');
    assert.equal(error.message, 'anthropic claude-mock: HTTP 529 overloaded_error: Overloaded (mock) (after 3 attempts)');
  });

  it('times out a hanging request and retries it', async () => {
    ctx.server.failNext(faults.hang()).script(() => ({ text: 'ok' }));
    const result = await anthropicClient(ctx.server, { timeoutMs: 400 }).complete({ messages: [user('hi')] });
    assert.equal(result.text, 'ok');
    assert.ok(result.attempts >= 2);
    assert.equal(ctx.server.requests[0].fault, 'hang');
  });

  it('aborts an in-flight request promptly', async () => {
    ctx.server.reply({ text: 'too late', delayMs: 10_000 });
    const controller = new AbortController();
    const pending = rejection(anthropicClient(ctx.server).complete({ messages: [user('hi')] }, controller.signal));
    await ctx.server.waitForRequests(1);
    const abortedAt = Date.now();
    controller.abort();
    const error = await pending;
    assert.equal(error.name, 'AbortError');
    assert.ok(Date.now() - abortedAt < 100);
    await ctx.server.waitForEnded(1);
    assert.equal(ctx.server.requests[0].outcome, 'client-closed');
  });

  it('accepts a base URL with or without /v1 (the SDK adds /v1/messages itself)', async () => {
    ctx.server.reply({ text: 'a' }, { text: 'b' });
    for (const baseUrl of [`${ctx.server.url}/v1`, `${ctx.server.url}/`]) {
      const client = createModelClient({ provider: 'anthropic', model: 'claude-mock', baseUrl, apiKey: ANTHROPIC_KEY, ...FAST });
      await client.complete({ messages: [user('hi')] });
    }
    assert.deepEqual(
      ctx.server.requests.map((r) => r.path),
      ['/v1/messages', '/v1/messages'],
    );
  });

  it('builds a request for a conversation that does not start with a user turn', () => {
    const client = anthropicClient(ctx.server) as AnthropicMessagesClient;
    const body = client.buildBody({ cacheablePrefix: 'P', messages: [{ role: 'assistant', content: 'x' }, user('y')] });
    assert.deepEqual(body.messages[0], { role: 'user', content: [{ type: 'text', text: 'P', cache_control: { type: 'ephemeral' } }] });
    assert.equal(body.max_tokens, 8192, 'a default max_tokens (required by the API)');
  });
});
