import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { caseKey, runSearchAuditorBatch, type BatchCase, type SearchAuditorBatchOptions } from '../../../../src/core/audit/batch/searchAuditorBatch';
import { estimateSearchAuditorBatch } from '../../../../src/core/audit/batch/estimate';
import { planSearchAuditor, runSearchAuditor } from '../../../../src/core/audit/searchAuditor';
import { tokenCount } from '../../../../src/core/stats/tokens';
import type { AuditResult } from '../../../../src/core/audit/types';
import { createBatchProvider } from '../../../../src/core/providers/batch';
import { createModelClient } from '../../../../src/core/providers/factory';
import type { ModelSettings } from '../../../../src/core/providers/types';
import { startMockModelServer, type MockModelServer } from '../../../mock/mockModelServer';
import { kindOf, searchAuditorScript } from '../fixtures';
import { corpusTrajectory } from './corpus';

type Flavour = 'openai' | 'anthropic';
const FAST = { retryBaseDelayMs: 1, retryMaxDelayMs: 5, timeoutMs: 5000 };

function settingsFor(server: MockModelServer, flavour: Flavour): ModelSettings {
  return flavour === 'openai'
    ? { provider: 'openai', model: 'mock-gpt', baseUrl: server.openaiBaseUrl, apiKey: 'sk-test-secret', ...FAST }
    : { provider: 'anthropic', model: 'mock-claude', baseUrl: server.anthropicBaseUrl, apiKey: 'sk-ant-test-secret', ...FAST };
}

/** The parts of an audit that depend on the replies, not on when or how it ran. */
function comparable(audit: AuditResult) {
  const { id: _id, createdAt: _createdAt, usage, ...rest } = audit;
  return { ...rest, usage: { calls: usage.calls, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } };
}

const cases = (n: number): BatchCase[] => Array.from({ length: n }, (_, i) => ({ caseId: `corpus/case-${i}.json#${i}`, trajectory: corpusTrajectory(i) }));

describe('SearchAuditor in batch mode, stage by stage (issue 17)', function () {
  this.timeout(60000);
  let server: MockModelServer;
  let dir: string;
  beforeEach(async () => {
    server = await startMockModelServer({ script: searchAuditorScript({}, 0) });
    dir = mkdtempSync(join(tmpdir(), 'trajaudit-batch-audit-'));
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const options = (flavour: Flavour, extra: Partial<SearchAuditorBatchOptions> = {}): SearchAuditorBatchOptions => {
    const settings = settingsFor(server, flavour);
    return { search: { client: createModelClient(settings) }, provider: createBatchProvider(settings), jobDir: join(dir, 'job'), pollIntervalMs: 1, ...extra };
  };

  it('audits 100 cases in exactly three submissions (branches, adjudication, repair) with the same results as the sync audit (OpenAI)', async () => {
    const corpus = cases(100);
    const result = await runSearchAuditorBatch(corpus, options('openai'));
    assert.equal(result.status, 'complete');
    assert.deepEqual(
      server.batchSubmissions.map((b) => b.customIds.length),
      [300, 100, 100],
    );
    assert.equal(server.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 0, 'no sync call');
    assert.deepEqual(new Set(server.batchItemRequests.slice(0, 300).map(kindOf)), new Set(['holistic', 'backward', 'forward']));
    assert.deepEqual(new Set(server.batchItemRequests.slice(300, 400).map(kindOf)), new Set(['adjudicator']));
    assert.deepEqual(new Set(server.batchItemRequests.slice(400).map(kindOf)), new Set(['repair']));
    assert.equal(result.cases.size, 100);
    // The stage states live in the job folder, one per stage.
    assert.deepEqual(readdirSync(join(dir, 'job')).sort(), ['stage-1-branches.json', 'stage-2-adjudication.json', 'stage-3-repair.json']);
    assert.equal(result.usage.calls, 500);

    const client = createModelClient(settingsFor(server, 'openai'));
    for (const i of [0, 41, 99]) {
      const batched = result.cases.get(corpus[i].caseId);
      assert.ok(batched && 'audit' in batched, JSON.stringify(batched));
      const sync = await runSearchAuditor(corpus[i].trajectory, { client });
      assert.deepEqual(comparable(batched.audit), comparable(sync));
    }
  });

  it('the estimate is within 5% of the input tokens later sent, and its cost is at half the list prices (null without them)', async () => {
    const corpus = cases(10);
    const settings = settingsFor(server, 'openai');
    const client = createModelClient(settings);
    const plans = corpus.map((c) => planSearchAuditor(c.trajectory, { client }));
    const estimate = estimateSearchAuditorBatch(plans, client, { input: 2, cachedInput: 0.5, output: 8 });
    assert.equal(estimate.requests, 50);
    await runSearchAuditorBatch(corpus, options('openai'));
    const sent = server.batchItemRequests.map(
      (r) => tokenCount(r.system) + tokenCount(r.userText) + tokenCount(JSON.stringify(r.body.response_format.json_schema.schema)),
    );
    const branches = sent.slice(0, 30).reduce((a, b) => a + b, 0);
    const all = sent.reduce((a, b) => a + b, 0);
    const unpriced = estimateSearchAuditorBatch(plans, client, undefined);
    assert.ok(Math.abs(estimate.inputTokens - all) / all < 0.05, `estimated ${estimate.inputTokens}, sent ${all}`);
    assert.ok(branches < estimate.inputTokens, `the branches alone (${branches}) are less than the estimate of all three stages`);
    assert.equal(unpriced.costUsd, null);
    assert.equal(unpriced.inputTokens, estimate.inputTokens);
    assert.equal(estimate.costUsd, (estimate.inputTokens * 1 + estimate.outputTokens * 4) / 1e6);
  });

  it('a detached run submits one stage and stops; later runs collect and continue without resubmitting (Anthropic)', async () => {
    const corpus = cases(12);
    // Stage 1's batch is still running at the first poll.
    server.batchOutcome({ pollsUntilDone: 1 });
    const first = await runSearchAuditorBatch(corpus, options('anthropic', { detach: true }));
    assert.equal(first.status, 'waiting');
    assert.deepEqual(first.waiting && { stage: first.waiting.stage, phase: first.waiting.phase }, { stage: 'branches', phase: 'submitted' });
    assert.equal(server.batchSubmissions.length, 1);

    const running = await runSearchAuditorBatch(corpus, options('anthropic', { detach: true }));
    assert.deepEqual(running.waiting, { stage: 'branches', phase: 'in_progress', batchIds: [server.batchSubmissions[0].id], requests: 36 });
    assert.equal(server.batchSubmissions.length, 1);

    const second = await runSearchAuditorBatch(corpus, options('anthropic', { detach: true }));
    assert.deepEqual(second.waiting && { stage: second.waiting.stage, phase: second.waiting.phase }, { stage: 'adjudication', phase: 'submitted' });
    assert.equal(server.batchSubmissions.length, 2);

    const done = await runSearchAuditorBatch(corpus, options('anthropic'));
    assert.equal(done.status, 'complete');
    assert.deepEqual(
      server.batchSubmissions.map((b) => b.customIds.length),
      [36, 12, 12],
    );
    for (const c of corpus) assert.ok('audit' in done.cases.get(c.caseId)!);

    const client = createModelClient(settingsFor(server, 'anthropic'));
    const sync = await runSearchAuditor(corpus[3].trajectory, { client });
    assert.deepEqual(comparable((done.cases.get(corpus[3].caseId) as { audit: AuditResult }).audit), comparable(sync));
  });

  it('a run aborted right after its first submission is resumed by a rerun that submits nothing twice', async () => {
    const corpus = cases(10);
    // The first batch stays in progress for a few polls, so the abort lands while it runs.
    server.batchOutcome({ pollsUntilDone: 3 });
    const controller = new AbortController();
    await assert.rejects(
      runSearchAuditorBatch(corpus, options('openai', { signal: controller.signal, pollIntervalMs: 5, onSubmitted: () => controller.abort() })),
      (error: Error) => error.name === 'AbortError',
    );
    assert.equal(server.batchSubmissions.length, 1);
    const rerun = await runSearchAuditorBatch(corpus, options('openai'));
    assert.equal(rerun.status, 'complete');
    assert.deepEqual(
      server.batchSubmissions.map((b) => b.customIds.length),
      [30, 10, 10],
    );
    for (const c of corpus) assert.ok('audit' in rerun.cases.get(c.caseId)!);
  });

  it('an invalid reply is re-asked in the stage’s next submission; an item failing past the attempt limit ends its case with an error', async () => {
    const corpus = cases(4);
    const badCase = caseKey(corpus[1].caseId);
    const deadCase = caseKey(corpus[2].caseId);
    // Case 1's first adjudication reply is not JSON: the same validation as a sync call asks again.
    let adjudications = 0;
    const script = searchAuditorScript({}, 0);
    server.script((request) => {
      if (kindOf(request) === 'adjudicator' && request.userText.includes('clock tower number 1 ') && adjudications++ === 0) return { text: 'I think step 3.' };
      return script(request);
    });
    // Case 2's holistic branch errors in both of its submissions (maxAttempts 2).
    const dead = { items: { [`${deadCase}-holistic-a1`]: 'errored' as const } };
    server.batchOutcome(dead, dead);
    const result = await runSearchAuditorBatch(corpus, options('anthropic', { maxAttempts: 2 }));
    assert.equal(result.status, 'complete');
    assert.deepEqual(
      server.batchSubmissions.map((b) => b.customIds.length),
      [12, 1, 3, 1, 3],
      'branches, the retried branch, adjudication, the re-ask, repair',
    );
    assert.deepEqual(server.batchSubmissions[3].customIds, [`${badCase}-adj-a2`]);
    const failed = result.cases.get(corpus[2].caseId)!;
    assert.ok('error' in failed && failed.stage === 'branches', JSON.stringify(failed));
    assert.match(failed.error, /^stage branches: holistic: batch item errored \(500\): /);
    const repaired = result.cases.get(corpus[1].caseId)!;
    assert.ok('audit' in repaired);
    assert.equal(repaired.audit.usage.calls, 6, 'five calls and one re-ask');
    for (const i of [0, 3]) assert.equal((result.cases.get(corpus[i].caseId) as { audit: AuditResult }).audit.usage.calls, 5);
  });
});
