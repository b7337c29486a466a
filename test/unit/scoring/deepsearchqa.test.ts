import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scoreDeepSearchQa, scoreJudgment, type DsqaItem } from '../../../src/core/scoring/deepsearchqa';
import type { AnswerCorrectness, DeepSearchQaJudgeInput } from '../../../src/core/scoring/judges/answerCorrectness';
import { exactJudgment } from '../../../src/core/scoring/judges/exact';
import type { Judge } from '../../../src/core/scoring/judges/judge';
import { scoreRunFolder, scoreRunFolderSync } from '../../../src/core/scoring/scoreRunFolder';
import { tempDir } from '../helpers';

const close = (actual: number | null | undefined, expected: number) =>
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-12, `expected ${expected}, got ${actual}`);
const j = (details: Record<string, boolean>, excessive: string[] = []): AnswerCorrectness => ({
  Explanation: '',
  CorrectnessDetails: details,
  ExcessiveAnswers: excessive,
});

// Five items, hand-scored: A fully correct; B partially (1 of 2, 1 extra); C Single with an extra
// candidate; D fully incorrect; E all found plus one extra.
const ITEMS: DsqaItem[] = [
  { id: 'A', answerType: 'Set Answer', category: 'Sports', samples: [{ sample: 0, judgment: j({ a: true, b: true, c: true }) }] },
  { id: 'B', answerType: 'Set Answer', category: 'Sports', samples: [{ sample: 0, judgment: j({ a: true, b: false }, ['x']) }] },
  { id: 'C', answerType: 'Single Answer', category: 'Geography', samples: [{ sample: 0, judgment: j({ Canberra: true }, ['Sydney']) }] },
  { id: 'D', answerType: 'Single Answer', category: 'Geography', samples: [{ sample: 0, judgment: j({ X: false }) }] },
  { id: 'E', answerType: 'Set Answer', category: 'Science', samples: [{ sample: 0, judgment: j({ a: true, b: true }, ['z']) }] },
];

describe('DeepSearchQA scoring (seed 001 §3)', () => {
  it('scores one judgment: P, R, F1 and the four categories', () => {
    assert.deepEqual(scoreJudgment(ITEMS[0].samples[0].judgment, 'Set Answer'), {
      found: 3,
      expected: 3,
      submitted: 3,
      precision: 1,
      recall: 1,
      f1: 1,
      category: 'fully_correct',
    });
    assert.deepEqual(scoreJudgment(ITEMS[1].samples[0].judgment, 'Set Answer'), {
      found: 1,
      expected: 2,
      submitted: 2,
      precision: 0.5,
      recall: 0.5,
      f1: 0.5,
      category: 'partially_correct',
    });
    // Single Answer with an extraneous candidate: P = 1/2, R = 1, but F1 is binary → 0.
    assert.deepEqual(scoreJudgment(ITEMS[2].samples[0].judgment, 'Single Answer'), {
      found: 1,
      expected: 1,
      submitted: 2,
      precision: 0.5,
      recall: 1,
      f1: 0,
      category: 'correct_with_extraneous',
    });
    // |S| = 0: P = 0 by convention.
    assert.deepEqual(scoreJudgment(ITEMS[3].samples[0].judgment, 'Single Answer'), {
      found: 0,
      expected: 1,
      submitted: 0,
      precision: 0,
      recall: 0,
      f1: 0,
      category: 'fully_incorrect',
    });
    const e = scoreJudgment(ITEMS[4].samples[0].judgment, 'Set Answer');
    close(e.precision, 2 / 3);
    close(e.f1, 0.8);
    assert.equal(e.category, 'correct_with_extraneous');
    // |G| = 0 (an empty CorrectnessDetails): nothing found → fully incorrect, R = 0.
    assert.deepEqual(scoreJudgment(j({}, ['y']), 'Set Answer'), {
      found: 0,
      expected: 0,
      submitted: 1,
      precision: 0,
      recall: 0,
      f1: 0,
      category: 'fully_incorrect',
    });
  });

  it('aggregates means, shares, Wilson and normal intervals, by answer type and category', () => {
    const s = scoreDeepSearchQa(ITEMS);
    assert.equal(s.n, 5);
    close(s.metrics.f1, (1 + 0.5 + 0 + 0 + 0.8) / 5);
    close(s.metrics.precision, (1 + 0.5 + 0.5 + 0 + 2 / 3) / 5);
    close(s.metrics.recall, (1 + 0.5 + 1 + 0 + 1) / 5);
    assert.equal(s.metrics.fully_correct, 0.2);
    assert.equal(s.metrics.fully_incorrect, 0.2);
    assert.equal(s.metrics.partially_correct, 0.2);
    assert.equal(s.metrics.correct_with_extraneous, 0.4);
    // numpy/hand values: Wilson(1, 5) and mean ± 1.96·s/√n of [1, .5, 0, 0, .8].
    close(s.ci95.fully_correct?.[0] as number, 0.03622410863243014);
    close(s.ci95.fully_correct?.[1] as number, 0.6244653702374747);
    assert.ok(Math.abs((s.ci95.f1?.[0] as number) - 0.06024421587564788) < 1e-9);
    assert.ok(Math.abs((s.ci95.precision?.[1] as number) - 0.850042597637209) < 1e-9);
    assert.deepEqual(Object.keys(s.by_answer_type), ['Set Answer', 'Single Answer']);
    close(s.by_answer_type['Set Answer'].f1, (1 + 0.5 + 0.8) / 3);
    assert.equal(s.by_answer_type['Single Answer'].f1, 0);
    assert.equal(s.by_answer_type['Single Answer'].n, 2);
    assert.deepEqual(Object.keys(s.by_category), ['Geography', 'Science', 'Sports']);
    assert.equal(s.by_category.Sports.fully_correct, 0.5);
    assert.equal(s.fully_correct_at_n, null);
  });

  it('empty set: zeros, no intervals', () => {
    const s = scoreDeepSearchQa([]);
    assert.equal(s.n, 0);
    assert.equal(s.metrics.f1, 0);
    assert.equal(s.ci95.f1, null);
    assert.equal(s.ci95.fully_correct, null);
    assert.deepEqual(s.by_answer_type, {});
  });

  it('fully correct at n = 1, 2, 4, 8 over items with at least n samples', () => {
    const ok = j({ a: true });
    const bad = j({ a: false });
    const s = scoreDeepSearchQa([
      {
        id: 'I1',
        answerType: 'Single Answer',
        category: '',
        samples: [
          { sample: 1, judgment: ok },
          { sample: 0, judgment: bad },
        ],
      },
      { id: 'I2', answerType: 'Single Answer', category: '', samples: [{ sample: 0, judgment: ok }] },
      {
        id: 'I3',
        answerType: 'Single Answer',
        category: '',
        samples: [0, 1, 2].map((k) => ({ sample: k, judgment: bad })).concat([{ sample: 3, judgment: ok }]),
      },
    ]);
    assert.deepEqual(s.fully_correct_at_n, { 1: { items: 3, rate: 1 / 3 }, 2: { items: 2, rate: 0.5 }, 4: { items: 1, rate: 1 }, 8: { items: 0, rate: null } });
    // The primary metrics use each item's first sample.
    close(s.metrics.fully_correct, 1 / 3);
  });
});

function writeRun(dir: string, responses: unknown[], judgments?: unknown[]): void {
  writeFileSync(
    join(dir, 'data.csv'),
    'problem,problem_category,answer,answer_type\n"Capital of Australia?",Geo,Canberra,Single Answer\n"Two planets without moons?",Science,"Mercury and Venus",Set Answer\n"Largest ocean?",Geo,Pacific,Single Answer\n',
  );
  writeFileSync(join(dir, 'responses.jsonl'), responses.map((r) => JSON.stringify(r)).join('\n'));
  if (judgments) writeFileSync(join(dir, 'judgments.jsonl'), judgments.map((r) => JSON.stringify(r)).join('\n'));
}

/** A fake model-backed judge: the exact judgment, counted. */
function countingJudge(): Judge<DeepSearchQaJudgeInput, AnswerCorrectness> & { calls: number } {
  const judge = {
    id: 'llm/fake/v1',
    usesModel: true,
    calls: 0,
    judge: async (input: DeepSearchQaJudgeInput) => {
      judge.calls++;
      return exactJudgment(input);
    },
  };
  return judge;
}

describe('DeepSearchQA run folders and the judgment cache', () => {
  it('detects the kind from the files, judges with the exact judge, writes nothing into the folder', () => {
    const dir = tempDir();
    writeRun(dir, [
      { id: 0, response: 'Canberra or Sydney' },
      { id: '1', response: 'Mercury, Venus' },
      { id: '2', response: '' },
    ]);
    const r = scoreRunFolderSync(dir);
    assert.equal(r.detection.reason, 'no manifest; found responses.jsonl and the dataset data.csv');
    if (r.score.kind !== 'deepsearchqa') throw new Error('kind');
    assert.equal(r.score.n, 3);
    assert.equal(r.score.metrics.fully_correct, 1 / 3);
    assert.equal(r.score.metrics.correct_with_extraneous, 1 / 3);
    assert.equal(r.score.metrics.fully_incorrect, 1 / 3); // the empty response, judged without a call
    assert.equal(r.judging.judged, 2);
    assert.equal(r.judging.modelCalls, 0);
    assert.throws(() => readFileSync(join(dir, 'judgments.jsonl')), /ENOENT/);
  });

  it('caches model verdicts: re-scoring calls the judge 0 times and reports the calls saved', async () => {
    const dir = tempDir();
    writeRun(dir, [
      { id: 0, response: 'Canberra' },
      { id: 1, response: 'Mercury and Venus' },
      { id: 2, response: 'Atlantic' },
    ]);
    const judge = countingJudge();
    const first = await scoreRunFolder(dir, { answerJudge: judge });
    assert.equal(judge.calls, 3);
    assert.deepEqual([first.judging.cached, first.judging.judged, first.judging.modelCalls], [0, 3, 3]);
    const lines = readFileSync(join(dir, 'judgments.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 3);
    assert.equal(lines[0].judge, 'llm/fake/v1');
    assert.match(lines[0].input_sha256, /^[0-9a-f]{64}$/);
    const again = await scoreRunFolder(dir, { answerJudge: judge });
    assert.equal(judge.calls, 3);
    assert.deepEqual([again.judging.cached, again.judging.judged], [3, 0]);
    assert.deepEqual(again.score, first.score);
    // A changed response makes its cached verdict stale: only that one is judged again.
    writeRun(dir, [
      { id: 0, response: 'Canberra' },
      { id: 1, response: 'Mercury and Venus' },
      { id: 2, response: 'Pacific' },
    ]);
    const changed = await scoreRunFolder(dir, { answerJudge: judge });
    assert.equal(judge.calls, 4);
    assert.deepEqual([changed.judging.cached, changed.judging.judged], [2, 1]);
    if (changed.score.kind !== 'deepsearchqa') throw new Error('kind');
    assert.equal(changed.score.metrics.fully_correct, 1);
  });

  it('reuses judgments written by others (no hash) and keys samples', () => {
    const dir = tempDir();
    writeRun(
      dir,
      [
        { id: 0, response: 'Sydney', sample: 0 },
        { id: 0, response: 'Canberra', sample: 1 },
      ],
      [
        { id: '0', sample: 0, AnswerCorrectness: { CorrectnessDetails: { Canberra: false }, ExcessiveAnswers: ['Sydney'] } },
        { id: '0', sample: 1, AnswerCorrectness: { Explanation: 'ok', CorrectnessDetails: { Canberra: true }, ExcessiveAnswers: [] } },
      ],
    );
    const r = scoreRunFolderSync(dir);
    assert.deepEqual([r.judging.cached, r.judging.judged], [2, 0]);
    if (r.score.kind !== 'deepsearchqa') throw new Error('kind');
    assert.equal(r.score.metrics.fully_correct, 0);
    assert.deepEqual(r.score.fully_correct_at_n?.['2'], { items: 1, rate: 1 });
    assert.ok(r.notes.some((n) => n.includes('2 of 3 dataset item(s) have no response')));
  });

  it('rejects responses for unknown ids, duplicate samples and malformed judgments, with line numbers', () => {
    const dir = tempDir();
    writeRun(dir, [
      { id: 0, response: 'a' },
      { id: 7, response: 'b' },
    ]);
    assert.throws(() => scoreRunFolderSync(dir), /responses\.jsonl:2:1: response id "7" is not in the dataset/);
    writeRun(dir, [
      { id: 0, response: 'a' },
      { id: 0, response: 'b' },
    ]);
    assert.throws(() => scoreRunFolderSync(dir), /responses\.jsonl:2:1: response 0 sample 0 appears twice \(first on line 1\)/);
    writeRun(dir, [{ id: 0, response: 'a' }], [{ id: 0, AnswerCorrectness: { CorrectnessDetails: { a: 'yes' }, ExcessiveAnswers: [] } }]);
    assert.throws(() => scoreRunFolderSync(dir), /judgments\.jsonl:1:\d+: at \$\.AnswerCorrectness\.CorrectnessDetails\.a: expected boolean/);
  });
});
