// pass@n (seed 001: fully correct at n samples): the unbiased estimator per item, averaged, against
// a hand computation; `harness run-agent --samples N` records samples 0..N-1 that `score --json`
// turns into pass_at; Delegation scores by mode, language and domain.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DelegationItem } from '../../../src/core/items/schemas';
import { passAtK, scoreDeepSearchQa, type DsqaItem } from '../../../src/core/scoring/deepsearchqa';
import { scoreDelegation } from '../../../src/core/scoring/delegation';
import { runCli, tempDir } from '../helpers';
import { DSQA_CSV } from '../harness/helpers';

const SAMPLING_AGENT = resolve(__dirname, '..', '..', 'fixtures', 'harness', 'sampling-agent.mjs');
const close = (actual: number | undefined, expected: number, what: string) =>
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-12, `${what}: expected ${expected}, got ${actual}`);

/** An item with n samples, the ones at `correct` fully correct (Single Answer, gold "x"). */
function item(id: string, n: number, correct: number[]): DsqaItem {
  return {
    id,
    answerType: 'Single Answer',
    category: 'c',
    samples: Array.from({ length: n }, (_, sample) => ({
      sample,
      judgment: { Explanation: '', CorrectnessDetails: { x: correct.includes(sample) }, ExcessiveAnswers: [] },
    })),
  };
}

describe('pass@n (seed 001)', () => {
  it('passAtK is 1 − C(n−c, k) / C(n, k)', () => {
    close(passAtK(4, 1, 1), 1 / 4, 'n=4 c=1 k=1');
    close(passAtK(4, 1, 2), 1 - 3 / 6, 'n=4 c=1 k=2: 1 − C(3,2)/C(4,2)');
    assert.equal(passAtK(4, 1, 4), 1, 'n − c < k: every draw of 4 holds the correct one');
    close(passAtK(8, 2, 2), 1 - 15 / 28, 'n=8 c=2 k=2: 1 − C(6,2)/C(8,2)');
    close(passAtK(8, 2, 4), 1 - 15 / 70, 'n=8 c=2 k=4: 1 − C(6,4)/C(8,4)');
    assert.equal(passAtK(5, 0, 3), 0);
    close(passAtK(200, 3, 8), 1 - (197 * 196 * 195 * 194 * 193 * 192 * 191 * 190) / (200 * 199 * 198 * 197 * 196 * 195 * 194 * 193), 'large n');
    assert.throws(() => passAtK(2, 1, 4), /1 ≤ k ≤ n/);
  });

  it('pass_at averages the estimate over the items with ≥ k samples; a k no item reaches is left out', () => {
    // P: n=4, c=1 → 1/4, 1/2, 1.  Q: n=2, c=0 → 0, 0.  R: n=8, c=2 → 1/4, 13/28, 11/14, 1.
    const s = scoreDeepSearchQa([item('P', 4, [2]), item('Q', 2, []), item('R', 8, [0, 5])]);
    close(s.pass_at['1'], (1 / 4 + 0 + 1 / 4) / 3, 'pass@1');
    close(s.pass_at['2'], (1 / 2 + 0 + 13 / 28) / 3, 'pass@2');
    close(s.pass_at['4'], (1 + 11 / 14) / 2, 'pass@4 (P and R)');
    close(s.pass_at['8'], 1, 'pass@8 (R only)');
    assert.deepEqual(Object.keys(scoreDeepSearchQa([item('Q', 2, [1])]).pass_at), ['1', '2'], 'k > n omitted');
    // pass@1 over single samples is the fully-correct share.
    assert.deepEqual(scoreDeepSearchQa([item('A', 1, [0]), item('B', 1, [])]).pass_at, { '1': 0.5 });
  });

  it('harness run-agent --samples N records samples 0..N-1; score --json gives pass_at', async function () {
    this.timeout(60_000);
    const dir = tempDir();
    const out = join(dir, 'run');
    const command = `SAMPLING_AGENT_DIR=${dir} node ${SAMPLING_AGENT}`;
    const run = (samples: string) =>
      runCli(['harness', 'run-agent', DSQA_CSV, '--command', command, '--limit', '4', '--samples', samples, '--concurrency', '1', '--out', out, '--json']);
    const first = await run('2');
    assert.equal(first.code, 0, first.err);
    assert.equal((JSON.parse(first.out) as { total: number }).total, 8);
    const more = await run('4');
    assert.equal(more.code, 0, more.err);
    const summary = JSON.parse(more.out) as { total: number; skipped: number; completed: number };
    assert.deepEqual([summary.total, summary.skipped, summary.completed], [16, 8, 8], 'a larger N runs only the missing samples');
    const lines = readFileSync(join(out, 'responses.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; sample: number; response: string });
    for (const id of ['0', '1', '2', '3'])
      assert.deepEqual(
        lines
          .filter((l) => l.id === id)
          .map((l) => l.sample)
          .sort(),
        [0, 1, 2, 3],
        id,
      );
    const scored = await runCli(['score', out, '--json']);
    assert.equal(scored.code, 0, scored.err);
    // Row 3 (the melting point, gold Tungsten) is right in its sample 1 only: n=4, c=1 → 1/4, 1/2, 1;
    // the other three rows are never right. Averaged over the four rows:
    const score = JSON.parse(scored.out) as { pass_at: Record<string, number>; metrics: { fully_correct: number } };
    assert.deepEqual(score.pass_at, { '1': 1 / 16, '2': 1 / 8, '4': 1 / 4 });
    assert.equal(score.metrics.fully_correct, 0, 'the figures above pass@ use sample 0');
    const refused = await runCli(['harness', 'run-agent', DSQA_CSV, '--command', command, '--samples', '0']);
    assert.equal(refused.code, 2);
    assert.match(refused.err, /--samples expects a whole number ≥ 1, got "0"/);
  });
});

describe('Delegation scores by mode, language and domain', () => {
  const doc = (doc_id: string) => ({ doc_id, title: doc_id, content: doc_id });
  const itemOf = (id: string, extra: Record<string, string>) =>
    ({
      id,
      query: 'q',
      golden_answer: 'a',
      golden_docs: [doc(`${id}g`)],
      irrelevant_docs: [],
      distractor_docs: [],
      evidence_spans: [],
      reasoning_steps: [],
      ...extra,
    }) as unknown as DelegationItem;
  const items = new Map([
    ['en1', itemOf('en1', { mode: 'timeliness', language: 'en', domain: 'finance' })],
    ['zh1', itemOf('zh1', { mode: 'timeliness', language: 'zh', domain: 'sports' })],
    ['zh2', itemOf('zh2', { language: 'zh', domain: 'sports' })],
  ]);
  it('groups every figure by the item fields, (unspecified) when absent', () => {
    const s = scoreDelegation(
      [
        { id: 'en1', setting: 'full', answer: 'a', cited: ['en1g'], correct: true },
        { id: 'zh1', setting: 'full', answer: 'b', cited: [], correct: false },
        { id: 'zh2', setting: 'full', answer: 'c', cited: ['zh2g'], correct: true },
      ],
      items,
    );
    assert.deepEqual(Object.keys(s.by_mode), ['(unspecified)', 'timeliness']);
    assert.deepEqual([s.by_mode.timeliness.n, s.by_mode.timeliness.answer_accuracy, s.by_mode.timeliness.golden_citation_recall], [2, 0.5, 0.5]);
    assert.deepEqual(Object.keys(s.by_language), ['en', 'zh']);
    assert.deepEqual([s.by_language.zh.n, s.by_language.zh.answer_accuracy], [2, 0.5]);
    assert.deepEqual([s.by_domain.finance.n, s.by_domain.finance.golden_citation_recall], [1, 1]);
    assert.deepEqual([s.by_domain.sports.n, s.by_domain.sports.golden_citation_recall], [2, 0.5]);
  });
});
