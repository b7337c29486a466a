import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchJob, createBatchProvider, type BatchItem, type BatchProvider } from '../../../src/core/providers/batch';
import type { MockModelServer, MockRequest } from '../../mock/mockModelServer';
import OpenAI, { toFile } from 'openai';
import { ANTHROPIC_KEY, FAST, OPENAI_KEY, rejection, useMockServer, user } from './helpers';

type Flavour = 'openai' | 'anthropic';

function batchProvider(server: MockModelServer, flavour: Flavour): BatchProvider {
  return flavour === 'openai'
    ? createBatchProvider({ provider: 'openai', model: 'gpt-mock', baseUrl: server.openaiBaseUrl, apiKey: OPENAI_KEY, ...FAST })
    : createBatchProvider({ provider: 'anthropic', model: 'claude-mock', baseUrl: server.anthropicBaseUrl, apiKey: ANTHROPIC_KEY, ...FAST });
}

/** `count` requests sharing a long cacheable prefix; item i asks "echo i". */
function items(count: number): BatchItem[] {
  const prefix = 'TRAJECTORY '.repeat(600);
  return Array.from({ length: count }, (_, i) => ({
    customId: `case-${i}`,
    request: { system: 'You audit trajectories.', cacheablePrefix: prefix, messages: [user(`echo ${i}`)], maxOutputTokens: 50 },
  }));
}

/** Answers each request with the number it was asked to echo, like a sync script would. */
const echo = (request: MockRequest) => ({ text: `answer ${/echo (\d+)/.exec(request.lastUserText)?.[1] ?? '?'}` });

function textOf(outcome: unknown): string {
  assert.ok(outcome && typeof outcome === 'object' && 'ok' in outcome, `expected a result, got ${JSON.stringify(outcome)}`);
  return (outcome as { ok: { text: string } }).ok.text;
}

for (const flavour of ['openai', 'anthropic'] as const) {
  describe(`batch client (${flavour}) against the mock batch API`, () => {
    const ctx = useMockServer();
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'trajaudit-batch-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const job = (extra: Partial<ConstructorParameters<typeof BatchJob>[0]> = {}) =>
      new BatchJob({ statePath: join(dir, 'batch-state.json'), provider: batchProvider(ctx.server, flavour), pollIntervalMs: 1, ...extra });

    it('submits 100 requests in one batch, polls until it ends, and collects every result with its usage', async () => {
      ctx.server.script(echo).batchOutcome({ pollsUntilDone: 3 });
      const outcomes = await job().run(items(100));
      assert.equal(ctx.server.batchSubmissions.length, 1);
      assert.equal(ctx.server.batchSubmissions[0].customIds.length, 100);
      assert.equal(outcomes.size, 100);
      for (let i = 0; i < 100; i++) assert.equal(textOf(outcomes.get(`case-${i}`)), `answer ${i}`);
      // Every item went through the sync script with the body the sync client builds.
      assert.equal(ctx.server.batchItemRequests.length, 100);
      assert.equal(ctx.server.batchItemRequests[0].system, 'You audit trajectories.');
      // The shared prefix is cached after the first item, as in a real batch.
      const later = outcomes.get('case-5') as { ok: { usage: { inputTokens: number; cachedInputTokens: number } } };
      assert.ok(later.ok.usage.cachedInputTokens > 1000, JSON.stringify(later.ok.usage));
      assert.ok(later.ok.usage.inputTokens > later.ok.usage.cachedInputTokens);
      // No sync call was made; four retrieves saw the batch (three in progress, then ended).
      assert.equal(ctx.server.requests.filter((r) => r.protocol !== 'other').length, 0);
      const state = JSON.parse(readFileSync(join(dir, 'batch-state.json'), 'utf8'));
      assert.equal(state.batches[0].polls, 4);
      assert.equal(state.batches[0].collected, true);
      assert.ok(Object.values(state.items).every((i: any) => i.status === 'succeeded' && i.attempts === 1));
    });

    it('an expired batch and errored items are resubmitted once, in a second batch, and then succeed', async () => {
      ctx.server.script(echo).batchOutcome({ end: 'expired', answeredBeforeExpiry: 6, items: { 'case-1': 'errored', 'case-2': 'errored' } });
      const outcomes = await job({ maxAttempts: 2 }).run(items(10));
      assert.equal(ctx.server.batchSubmissions.length, 2);
      assert.deepEqual(ctx.server.batchSubmissions[1].customIds, ['case-1', 'case-2', 'case-6', 'case-7', 'case-8', 'case-9']);
      for (let i = 0; i < 10; i++) assert.equal(textOf(outcomes.get(`case-${i}`)), `answer ${i}`);
      const state = JSON.parse(readFileSync(join(dir, 'batch-state.json'), 'utf8'));
      assert.equal(state.items['case-7'].attempts, 2);
      assert.equal(state.items['case-0'].attempts, 1);
    });

    it('stops at the attempt limit and returns the last error of an item that keeps failing', async () => {
      ctx.server.script(echo).batchOutcome({ items: { 'case-3': 'expired' } }, { items: { 'case-3': 'expired' } }, { items: { 'case-3': 'expired' } });
      const outcomes = await job({ maxAttempts: 2 }).run(items(5));
      assert.equal(ctx.server.batchSubmissions.length, 2);
      const failed = outcomes.get('case-3') as { error: { kind: string; retryable: boolean } };
      assert.equal(failed.error.kind, 'expired');
      assert.equal(textOf(outcomes.get('case-4')), 'answer 4');
    });

    it('a request the script answers with a 400 is not resubmitted (it would fail again)', async () => {
      ctx.server.script((r) => (r.lastUserText.endsWith('echo 1') ? { fault: { type: 'status', status: 400, message: 'bad schema' } } : echo(r)));
      const outcomes = await job().run(items(3));
      assert.equal(ctx.server.batchSubmissions.length, 1);
      const failed = outcomes.get('case-1') as { error: { kind: string; status: number; message: string; retryable: boolean } };
      assert.deepEqual([failed.error.kind, failed.error.status, failed.error.retryable], ['errored', 400, false]);
      assert.match(failed.error.message, /bad schema/);
    });

    it('after a kill (the job dropped after submit), a new job from the state file polls and collects without resubmitting', async () => {
      ctx.server.script(echo).batchOutcome({ pollsUntilDone: 2 });
      const first = job();
      const ids = await first.submit(items(20));
      assert.equal(ids.length, 1);
      assert.equal(ctx.server.batchSubmissions.length, 1);
      // A new process: the same command rebuilds the same requests.
      const outcomes = await job().run(items(20));
      assert.equal(ctx.server.batchSubmissions.length, 1, 'nothing submitted twice');
      for (let i = 0; i < 20; i++) assert.equal(textOf(outcomes.get(`case-${i}`)), `answer ${i}`);
      // A rerun after completion reads the results back and still submits nothing.
      const again = await job().run(items(20));
      assert.equal(ctx.server.batchSubmissions.length, 1);
      assert.equal(textOf(again.get('case-19')), 'answer 19');
    });

    it('a batch the mock holds in progress ends at the next retrieve after endBatchesAtNextRetrieve, and is collected', async () => {
      ctx.server.script(echo).batchOutcome({ pollsUntilDone: 100_000 });
      await job().submit(items(3));
      ctx.server.endBatchesAtNextRetrieve();
      const outcomes = await job().run(items(3));
      assert.equal(ctx.server.batchSubmissions.length, 1, 'nothing submitted twice');
      for (let i = 0; i < 3; i++) assert.equal(textOf(outcomes.get(`case-${i}`)), `answer ${i}`);
      assert.equal(JSON.parse(readFileSync(join(dir, 'batch-state.json'), 'utf8')).batches[0].polls, 1);
    });
  });
}

describe('batch client: provider-specific outcomes', () => {
  const ctx = useMockServer();
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'trajaudit-batch-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('OpenAI: a failed batch reports its error, and its items are resubmitted', async () => {
    ctx.server.script(echo).batchOutcome({ end: 'failed', message: 'quota exceeded for batches' });
    const provider = batchProvider(ctx.server, 'openai');
    const id = await provider.submit(items(2));
    const poll = await provider.poll(id);
    assert.equal(poll.phase, 'ended');
    assert.equal(poll.status, 'failed');
    assert.match(poll.error ?? '', /quota exceeded for batches/);
    const outcomes = await new BatchJob({ statePath: join(dir, 's.json'), provider, pollIntervalMs: 1 }).run(items(2));
    assert.equal(textOf(outcomes.get('case-0')), 'answer 0');
  });

  it('OpenAI: the uploaded file is JSONL of {custom_id, method, url, body} with the sync body', async () => {
    ctx.server.script(echo);
    const provider = batchProvider(ctx.server, 'openai');
    await provider.submit(items(2));
    const upload = ctx.server.requests.find((r) => r.path === '/v1/files');
    assert.ok(upload);
    assert.match(upload.rawBody, /name="purpose"\r\n\r\nbatch/);
    const create = ctx.server.requests.find((r) => r.path === '/v1/batches');
    assert.deepEqual({ endpoint: create?.body.endpoint, window: create?.body.completion_window }, { endpoint: '/v1/chat/completions', window: '24h' });
    assert.match(upload.rawBody, /"custom_id":"case-1","method":"POST","url":"\/v1\/chat\/completions","body":\{"model":"gpt-mock"/);
  });

  it('Anthropic: counts while in progress and after the end, and the requests carry the cache breakpoint', async () => {
    ctx.server.script(echo).batchOutcome({ pollsUntilDone: 1, items: { 'case-0': 'canceled' } });
    const provider = batchProvider(ctx.server, 'anthropic');
    const id = await provider.submit(items(3));
    assert.deepEqual(await provider.poll(id), { phase: 'in_progress', status: 'in_progress', counts: { total: 3, succeeded: 0, failed: 0, processing: 3 } });
    assert.deepEqual(await provider.poll(id), { phase: 'ended', status: 'ended', counts: { total: 3, succeeded: 2, failed: 1, processing: 0 } });
    const results = await provider.results(id);
    assert.equal((results.get('case-0') as { error: { kind: string } }).error.kind, 'canceled');
    const create = ctx.server.requests.find((r) => r.path === '/v1/messages/batches');
    assert.deepEqual(create?.body.requests[0].params.messages[0].content[0].cache_control, { type: 'ephemeral' });
  });

  it('the mock validates like the real APIs: a bad input line fails an OpenAI batch, a bad custom id is a 400 from Anthropic', async () => {
    ctx.server.script(echo);
    const openai = new OpenAI({ apiKey: OPENAI_KEY, baseURL: ctx.server.openaiBaseUrl, maxRetries: 0 });
    const lines = `${JSON.stringify({ custom_id: 'a', method: 'POST', url: '/v1/chat/completions', body: { model: 'm', messages: [] } })}\n{oops\n`;
    const file = await openai.files.create({ file: await toFile(Buffer.from(lines), 'in.jsonl'), purpose: 'batch' });
    const created = await openai.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    assert.equal(created.status, 'validating');
    const poll = await batchProvider(ctx.server, 'openai').poll(created.id);
    assert.equal(poll.status, 'failed');
    assert.match(poll.error ?? '', /line 2: not JSON/);
    const error = await rejection(batchProvider(ctx.server, 'anthropic').submit([{ customId: 'has space', request: { messages: [user('x')] } }]));
    assert.equal(error.kind, 'bad_request');
    assert.match(error.message, /^anthropic claude-mock: .*custom_id/);
    assert.equal(ctx.server.batchSubmissions.length, 1);
  });

  it('a state file of another model, or a broken one, is refused with a one-line error naming the file', async () => {
    const statePath = join(dir, 'batch-state.json');
    ctx.server.script(echo);
    await new BatchJob({ statePath, provider: batchProvider(ctx.server, 'openai'), pollIntervalMs: 1 }).submit(items(1));
    assert.throws(
      () => new BatchJob({ statePath, provider: batchProvider(ctx.server, 'anthropic') }),
      (e: Error) => e.message.startsWith(`${statePath}: provider/model: the batches were submitted to openai gpt-mock`) && !e.message.includes('\n'),
    );
    const state = JSON.parse(readFileSync(statePath, 'utf8'));
    state.items['case-0'].status = 'done';
    writeFileSync(statePath, JSON.stringify(state));
    assert.throws(
      () => new BatchJob({ statePath, provider: batchProvider(ctx.server, 'openai') }),
      (e: Error) => e.message.startsWith(`${statePath}: items.case-0.status: `) && !e.message.includes('\n'),
    );
  });

  it('a changed request under a custom id already submitted is refused, not silently reused', async () => {
    const statePath = join(dir, 'batch-state.json');
    ctx.server.script(echo);
    const provider = batchProvider(ctx.server, 'openai');
    await new BatchJob({ statePath, provider }).submit(items(1));
    const changed = [{ customId: 'case-0', request: { messages: [user('something else')] } }];
    await assert.rejects(new BatchJob({ statePath, provider }).submit(changed), /case-0.*differs from the one this job submitted/);
    assert.equal(ctx.server.batchSubmissions.length, 1);
  });
});
