import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyQuestion, dimensionOf, isUnknownAnswer } from '../../../src/core/scoring/cqRegion';
import { restoreScore100, scoreNuggets, type NuggetResult } from '../../../src/core/scoring/nuggets';
import { scoreRunFolderSync } from '../../../src/core/scoring/scoreRunFolder';
import { tempDir } from '../helpers';

const close = (actual: number | null | undefined, expected: number, eps = 1e-9) =>
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < eps, `expected ${expected}, got ${actual}`);

describe('nugget restoration (seed 004)', () => {
  it('restore_score_100 = 100 · Σ w·v / Σ w with partial credit 0.5 by default, configurable', () => {
    close(restoreScore100(['full', 'none', 'partial'], [1, 2, 3]), (100 * (1 + 0 + 1.5)) / 6);
    close(restoreScore100(['full', 'none', 'partial'], [1, 2, 3], 0), 100 / 6);
    close(restoreScore100(['partial', 'partial'], [2, 2], 1), 100);
    assert.equal(restoreScore100(['none'], [3]), 0);
    assert.throws(() => restoreScore100(['full'], [1, 2]), /1 labels for 2 nuggets/);
  });

  // Gold: i1 weights [1,2,3], i2 [2,2], i3 [3]. orig: i1 41.67, i2 0, i3 100; k1: i1 75, i2 75
  // (i3 missing); k2: i1 100, i3 0.
  const results: NuggetResult[] = [
    { id: 'i1', condition: 'orig', score: 250 / 6 },
    { id: 'i2', condition: 'orig', score: 0 },
    { id: 'i3', condition: 'orig', score: 100 },
    { id: 'i1', condition: 'k1', score: 75 },
    { id: 'i2', condition: 'k1', score: 75 },
    { id: 'i1', condition: 'k2', score: 100 },
    { id: 'i3', condition: 'k2', score: 0 },
  ];

  it('per condition: mean, p50, p90 (numpy linear), min, max', () => {
    const s = scoreNuggets(results);
    assert.deepEqual(Object.keys(s.conditions), ['orig', 'k1', 'k2']);
    const orig = s.conditions.orig;
    assert.equal(orig.n, 3);
    close(orig.mean, (250 / 6 + 100) / 3);
    close(orig.p50, 250 / 6);
    close(orig.p90, 88.33333333333334); // numpy.percentile([0, 41.67, 100], 90)
    assert.equal(orig.min, 0);
    assert.equal(orig.max, 100);
    assert.equal(orig.ua_unknown_rate, undefined); // no clarifications for this condition
  });

  it('improvement over orig: paired over instances present in both, bootstrap 2.5/97.5 percentiles', () => {
    const s = scoreNuggets(results);
    // k1 pairs: i1 75 − 41.67 = 33.33, i2 75 − 0 = 75 (i3 has no k1 result and is left out).
    assert.equal(s.improvement_pairs.k1, 2);
    close(s.improvement.k1.mean, (75 - 250 / 6 + 75) / 2);
    // With two differences, resampled means are 33.33, 54.17 or 75; each extreme has probability 1/4.
    close(s.improvement.k1.ci95?.[0], 75 - 250 / 6);
    close(s.improvement.k1.ci95?.[1], 75);
    // k2 pairs: i1 +58.33, i3 −100 (i2 has no k2 result).
    close(s.improvement.k2.mean, (100 - 250 / 6 - 100) / 2);
    close(s.improvement.k2.ci95?.[0], -100);
    close(s.improvement.k2.ci95?.[1], 100 - 250 / 6);
    assert.deepEqual(scoreNuggets(results).improvement, s.improvement); // fixed seed
    // A condition with no instance in common with orig.
    const lone = scoreNuggets([...results, { id: 'i9', condition: 'k3', score: 50 }]);
    assert.deepEqual(lone.improvement.k3, { mean: null, ci95: null });
    // Without orig there is nothing to improve on.
    assert.deepEqual(scoreNuggets(results.filter((r) => r.condition !== 'orig')).improvement, {});
  });

  it('clarification diagnostics: unknown rates, every-turn-unknown instances, region questions', () => {
    const s = scoreNuggets(results, [
      {
        id: 'i1',
        condition: 'k1',
        turns: [
          { question: 'Which city?', answer: 'unknown' },
          { question: 'What year?', answer: '2024' },
        ],
      },
      { id: 'i2', condition: 'k1', turns: [{ question: '您想了解哪个地区？', answer: '未知' }] },
      { id: 'i3', condition: 'k1', turns: [] },
      {
        id: 'i1',
        condition: 'k2',
        turns: [
          { question: 'Scope?', answer: 'Unknown.', dimension: 'region' },
          { question: 'Where?', answer: 'UNKNOWN', dimension: 'time' },
        ],
      },
    ]);
    const k1 = s.conditions.k1;
    close(k1.ua_unknown_rate, 2 / 3); // 2 of 3 turns
    close(k1.all_unknown_rate, 1 / 2); // i2 of the two instances with turns (i3 has none)
    close(k1.cq_region_rate, 2 / 3); // "Which city?" and "哪个地区" classified region
    const k2 = s.conditions.k2;
    assert.equal(k2.ua_unknown_rate, 1);
    assert.equal(k2.all_unknown_rate, 1); // every clarification answer unknown
    assert.equal(k2.cq_region_rate, 0.5); // the given dimension wins over the classifier
  });

  it('empty inputs: no conditions, no improvements', () => {
    assert.deepEqual(scoreNuggets([]).conditions, {});
    assert.deepEqual(scoreNuggets([]).improvement, {});
  });

  it('the cq_region classifier: region-only questions, English and Chinese', () => {
    assert.equal(classifyQuestion('Which city are you interested in?'), 'region');
    assert.equal(classifyQuestion('您想了解哪个地区的情况？'), 'region');
    assert.equal(classifyQuestion('Which country, and which year?'), 'mixed');
    assert.equal(classifyQuestion('What time period should it cover?'), 'time');
    assert.equal(classifyQuestion('Do you want a summary?'), 'other');
    assert.equal(dimensionOf({ question: 'x', dimension: 'Location' }), 'region');
    assert.equal(isUnknownAnswer(' Unknown. '), true);
    assert.equal(isUnknownAnswer('known'), false);
  });
});

describe('nuggets run folders', () => {
  const write = (dir: string, name: string, lines: unknown[]) => writeFileSync(join(dir, name), lines.map((l) => JSON.stringify(l)).join('\n'));
  const gold = [
    {
      id: 'i1',
      nuggets: [
        { text: 'a', weight: 1 },
        { text: 'b', weight: 2 },
        { text: 'c', weight: 3 },
      ],
    },
    { id: 'i2', nuggets: [{ text: 'd', weight: 2 }] },
  ];

  it('scores judgments.jsonl against gold_nuggets.jsonl, with --partial', () => {
    const dir = tempDir();
    write(dir, 'gold_nuggets.jsonl', gold);
    write(dir, 'judgments.jsonl', [
      { id: 'i1', condition: 'orig', coverage: ['full', 'none', 'partial'] },
      { id: 'i2', condition: 'orig', coverage: ['none'] },
      { id: 'i1', condition: 'k1', coverage: ['full', 'full', 'partial'] },
    ]);
    const r = scoreRunFolderSync(dir);
    assert.equal(r.detection.reason, 'no manifest; found gold_nuggets.jsonl and judgments.jsonl');
    if (r.score.kind !== 'nuggets') throw new Error('kind');
    close(r.score.conditions.orig.mean, 250 / 6 / 2);
    close(r.score.improvement.k1.mean as number, 75 - 250 / 6);
    assert.ok(!r.notes.some((n) => n.includes('paired'))); // k1's only instance has an orig result
    const zero = scoreRunFolderSync(dir, { partialCredit: 0 });
    if (zero.score.kind !== 'nuggets') throw new Error('kind');
    close(zero.score.conditions.orig.max, 100 / 6);
  });

  it('answers without cached coverage need the nugget judge (a model): a clear error offline', () => {
    const dir = tempDir();
    write(dir, 'gold_nuggets.jsonl', gold);
    write(dir, 'answers.jsonl', [{ id: 'i1', condition: 'orig', answer: 'a' }]);
    assert.throws(() => scoreRunFolderSync(dir), /1 answer\(s\) have no cached coverage.*needs a model/);
    // With judgments for some instances and not others, unpaired instances are noted.
    write(dir, 'judgments.jsonl', [
      { id: 'i1', condition: 'orig', coverage: ['full', 'none', 'none'] },
      { id: 'i1', condition: 'k1', coverage: ['full', 'full', 'none'] },
      { id: 'i2', condition: 'k1', coverage: ['full'] },
    ]);
    write(dir, 'answers.jsonl', [{ id: 'i1', condition: 'orig', answer: 'a' }]);
    const r = scoreRunFolderSync(dir);
    assert.ok(r.notes.includes('improvement of k1: 1 of 2 instance(s) are paired with orig; unpaired ones are left out'));
    assert.deepEqual([r.judging.cached, r.judging.judged], [1, 0]);
  });

  it('rejects coverage of the wrong length and unknown instances, with line numbers', () => {
    const dir = tempDir();
    write(dir, 'gold_nuggets.jsonl', gold);
    write(dir, 'judgments.jsonl', [{ id: 'i1', condition: 'orig', coverage: ['full'] }]);
    assert.throws(() => scoreRunFolderSync(dir), /judgments\.jsonl:1:1: coverage has 1 label\(s\) but instance "i1" has 3 nugget\(s\)/);
    write(dir, 'judgments.jsonl', [
      { id: 'i1', condition: 'orig', coverage: ['full', 'none', 'none'] },
      { id: 'i9', condition: 'orig', coverage: ['full'] },
    ]);
    assert.throws(() => scoreRunFolderSync(dir), /judgments\.jsonl:2:1: instance "i9" is not in/);
    write(dir, 'judgments.jsonl', [{ id: 'i1', condition: 'orig', coverage: ['full', 'most', 'none'] }]);
    assert.throws(() => scoreRunFolderSync(dir), /judgments\.jsonl:1:\d+: at \$\.coverage\[1\]: expected "full", "partial" or "none"/);
  });
});
