import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBaselineBatch, type BaselineBatchOptions } from '../../../../src/core/audit/batch/baselineBatch';
import type { BatchCase } from '../../../../src/core/audit/batch/searchAuditorBatch';
import { runBaseline, type BaselineMethod } from '../../../../src/core/audit/baselines';
import type { AuditResult } from '../../../../src/core/audit/types';
import { createBatchProvider } from '../../../../src/core/providers/batch';
import { createModelClient } from '../../../../src/core/providers/factory';
import type { ModelSettings } from '../../../../src/core/providers/types';
import { startMockModelServer, type MockModelServer } from '../../../mock/mockModelServer';
import { baselineScript, criticalOf } from './baselineScript';
import { corpusTrajectory } from './corpus';

const FAST = { retryBaseDelayMs: 1, retryMaxDelayMs: 5, timeoutMs: 5000 };

function comparable(audit: AuditResult) {
  const { id: _id, createdAt: _createdAt, usage: _usage, ...rest } = audit;
  return rest;
}

const cases = (n: number): BatchCase[] => Array.from({ length: n }, (_, i) => ({ caseId: `corpus/case-${i}.json#${i}`, trajectory: corpusTrajectory(i) }));

describe('baselines in batch mode, round by round (issue 17)', function () {
  this.timeout(60000);
  let server: MockModelServer;
  let dir: string;
  beforeEach(async () => {
    server = await startMockModelServer({ script: baselineScript });
    dir = mkdtempSync(join(tmpdir(), 'trajaudit-baseline-batch-'));
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const settings = (flavour: 'openai' | 'anthropic'): ModelSettings =>
    flavour === 'openai'
      ? { provider: 'openai', model: 'mock-gpt', baseUrl: server.openaiBaseUrl, apiKey: 'sk-test', ...FAST }
      : { provider: 'anthropic', model: 'mock-claude', baseUrl: server.anthropicBaseUrl, apiKey: 'sk-ant-test', ...FAST };
  const options = (method: BaselineMethod, extra: Partial<BaselineBatchOptions> = {}, flavour: 'openai' | 'anthropic' = 'openai'): BaselineBatchOptions => ({
    method,
    search: { client: createModelClient(settings(flavour)) },
    provider: createBatchProvider(settings(flavour)),
    jobDir: join(dir, `job-${method}`),
    pollIntervalMs: 1,
    ...extra,
  });

  it('all-at-once: one submission; binary-search: one per halving round, then the final judgment; results equal the sync audit', async () => {
    const corpus = cases(14);
    const client = createModelClient(settings('openai'));
    for (const method of ['all-at-once', 'binary-search'] as const) {
      server.reset();
      server.script(baselineScript);
      const result = await runBaselineBatch(corpus, options(method));
      assert.equal(result.status, 'complete');
      // 7 decision steps: two halvings (7 → 3 or 4 → 1 or 2), then the final judgment, every case in every round.
      const sizes = server.batchSubmissions.map((b) => b.customIds.length);
      assert.deepEqual(sizes, method === 'all-at-once' ? [14] : [14, 14, 14]);
      assert.equal(server.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 0, 'no sync call');
      assert.equal(readdirSync(join(dir, `job-${method}`)).filter((f) => f.startsWith('round-')).length, sizes.length, 'one state file per round');
      for (const [i, c] of corpus.entries()) {
        const batched = result.cases.get(c.caseId);
        assert.ok(batched && 'audit' in batched, JSON.stringify(batched));
        assert.equal(batched.audit.diagnosis.criticalStep, criticalOf(i));
        const sync = await runBaseline(c.trajectory, method, { client });
        assert.deepEqual(comparable(batched.audit), comparable(sync));
        assert.equal(batched.audit.usage.calls, sync.usage.calls);
        assert.equal(batched.audit.usage.inputTokens, sync.usage.inputTokens);
      }
    }
  });

  it('step-by-step: the next stepsPerRound prefixes per round, committing at the first decisive one as the sync walk does', async () => {
    const corpus = cases(7);
    const result = await runBaselineBatch(corpus, options('step-by-step', { stepsPerRound: 3 }));
    assert.equal(result.status, 'complete');
    // Critical step index k (0…6) ends in round ⌈(k+1)/3⌉: 3 cases in round 1, 3 in round 2, 1 in round 3.
    assert.deepEqual(
      server.batchSubmissions.map((b) => b.customIds.length),
      [21, 12, 1],
    );
    const client = createModelClient(settings('openai'));
    for (const [i, c] of corpus.entries()) {
      const batched = result.cases.get(c.caseId);
      assert.ok(batched && 'audit' in batched);
      const sync = await runBaseline(c.trajectory, 'step-by-step', { client });
      assert.deepEqual(comparable(batched.audit), comparable(sync));
      assert.equal(sync.usage.calls, (i % 7) + 1, 'the sync walk stops at the decisive step');
      assert.equal(batched.audit.usage.calls, Math.min(7, 3 * Math.ceil(((i % 7) + 1) / 3)), 'a batch pays for the rest of its round');
    }
    assert.equal(result.usage.calls, 21 + 12 + 1);
  });

  it('a detached run submits one round and stops; reruns collect and continue without resubmitting (Anthropic)', async () => {
    const corpus = cases(5);
    const first = await runBaselineBatch(corpus, options('binary-search', { detach: true }, 'anthropic'));
    assert.equal(first.status, 'waiting');
    assert.deepEqual(first.waiting && { round: first.waiting.round, phase: first.waiting.phase }, { round: 1, phase: 'submitted' });
    assert.equal(server.batchSubmissions.length, 1);
    let rounds = 1;
    for (;;) {
      const next = await runBaselineBatch(corpus, options('binary-search', { detach: true }, 'anthropic'));
      if (next.status === 'complete') break;
      rounds++;
      assert.equal(next.waiting!.round, rounds);
      assert.equal(server.batchSubmissions.length, rounds, 'each rerun submits only the next round');
      assert.ok(rounds < 6, 'the search ends');
    }
    const done = await runBaselineBatch(corpus, options('binary-search', {}, 'anthropic'));
    assert.equal(done.status, 'complete');
    assert.equal(server.batchSubmissions.length, rounds, 'a completed job submits nothing more');
    for (const [i, c] of corpus.entries()) {
      const o = done.cases.get(c.caseId);
      assert.ok(o && 'audit' in o);
      assert.equal(o.audit.diagnosis.criticalStep, criticalOf(i));
    }
  });

  it('an invalid reply is re-asked in the round’s next submission; a case failing past the attempt limit ends with an error naming its round', async () => {
    const corpus = cases(3);
    let invalidOnce = true;
    server.script((request) => {
      const i = Number(/tower number (\d+)/.exec(request.userText)?.[1] ?? 0);
      if (i === 1 && invalidOnce) {
        invalidOnce = false;
        return { text: JSON.stringify({ critical_step: 4, root_cause: 'not-a-cause', rationale: 'x', directives: ['y'] }) };
      }
      if (i === 2) return { text: 'not json' };
      return baselineScript(request);
    });
    const result = await runBaselineBatch(corpus, options('all-at-once'));
    assert.equal(result.status, 'complete');
    assert.deepEqual(
      server.batchSubmissions.map((b) => b.customIds.length),
      [3, 2, 1],
    );
    const ok = result.cases.get(corpus[1].caseId);
    assert.ok(ok && 'audit' in ok);
    assert.equal(ok.audit.usage.calls, 2);
    const failed = result.cases.get(corpus[2].caseId);
    assert.ok(failed && 'error' in failed);
    assert.equal(failed.round, 1);
    assert.match(failed.error, /^round 1: .*3 attempts/);
  });
});
