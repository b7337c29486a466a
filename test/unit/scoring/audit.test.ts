import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerInHand, scoreAudit, type AuditCase } from '../../../src/core/scoring/audit';
import { scoreRunFolderSync } from '../../../src/core/scoring/scoreRunFolder';
import { tempDir } from '../helpers';

const close = (actual: number | null | undefined, expected: number) =>
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-12, `expected ${expected}, got ${actual}`);

// Six gold cases, hand-scored below.
const CASES: AuditCase[] = [
  // 1: exact step, right class, repair passes every rubric.
  {
    id: '1',
    gold: { criticalStep: 5, span: [4, 6], rootCause: 'candidate_mismanagement', finalIndex: 10 },
    prediction: { criticalStep: 5, rootCause: 'candidate_mismanagement' },
    grades: [true, true],
    answerInHand: true,
  },
  // 2: inside the span, right class, one rubric fails.
  {
    id: '2',
    gold: { criticalStep: 10, span: [8, 12], rootCause: 'search_coverage_gap', finalIndex: 15 },
    prediction: { criticalStep: 12, rootCause: 'search_coverage_gap' },
    grades: [true, false],
    answerInHand: false,
  },
  // 3: right class, outside the span: unsound, so its (passing) grades are never used.
  {
    id: '3',
    gold: { criticalStep: 3, span: [3, 3], rootCause: 'constraint_neglect' },
    prediction: { criticalStep: 7, rootCause: 'constraint_neglect' },
    grades: [true],
  },
  // 4: exact step, wrong class.
  {
    id: '4',
    gold: { criticalStep: 8, span: [6, 9], rootCause: 'unverified_source_reliance', finalIndex: 8 },
    prediction: { criticalStep: 8, rootCause: 'candidate_mismanagement' },
  },
  // 5: no prediction: a miss everywhere.
  { id: '5', gold: { criticalStep: 2, span: [2, 4], rootCause: 'entity_relation_misbinding' } },
  // 6: Who&When-style gold: no span ([k, k]) and no root cause.
  { id: '6', gold: { criticalStep: 20, span: [20, 20] }, prediction: { criticalStep: 20, rootCause: 'unsupported_answer' } },
];

describe('audit scoring (seed 002 §5.1)', () => {
  it('computes every metric on hand-checked cases', () => {
    const s = scoreAudit(CASES);
    assert.equal(s.n, 6);
    close(s.metrics.cs_strict, 3 / 6); // cases 1, 4, 6
    close(s.metrics.cs_loose, 4 / 6); // 1, 2, 4, 6
    close(s.metrics.rc_acc, 3 / 6); // 1, 2, 3
    close(s.metrics.diag, 2 / 6); // 1, 2
    close(s.metrics.rep_at_diag, 1 / 2); // 1 passes, 2 does not
    close(s.metrics.fps, 1 / 6);
    close(s.metrics.fps, s.metrics.diag * s.metrics.rep_at_diag);
    // Per class: CM predicted twice (1, 4), right once; USR/ERM never predicted; UA predicted once with no gold UA.
    assert.deepEqual(s.per_class.candidate_mismanagement, { precision: 0.5, recall: 1, f1: 2 / 3, support: 1 });
    assert.deepEqual(s.per_class.search_coverage_gap, { precision: 1, recall: 1, f1: 1, support: 1 });
    assert.deepEqual(s.per_class.constraint_neglect, { precision: 1, recall: 1, f1: 1, support: 1 });
    assert.deepEqual(s.per_class.unverified_source_reliance, { precision: 0, recall: 0, f1: 0, support: 1 });
    assert.deepEqual(s.per_class.entity_relation_misbinding, { precision: 0, recall: 0, f1: 0, support: 1 });
    assert.deepEqual(s.per_class.unsupported_answer, { precision: 0, recall: 0, f1: 0, support: 0 });
    close(s.metrics.rc_f1, (2 / 3 + 1 + 1) / 6); // absent/zero classes contribute 0 over all six
    assert.equal(s.confusion.unverified_source_reliance.candidate_mismanagement, 1);
    assert.equal(s.confusion.entity_relation_misbinding.none, 1);
    assert.equal(s.confusion.candidate_mismanagement.candidate_mismanagement, 1);
    assert.equal(
      Object.values(s.confusion.unsupported_answer).reduce((a, b) => a + b, 0),
      0,
    );
    assert.deepEqual(Object.keys(s.confusion.search_coverage_gap), [
      'candidate_mismanagement',
      'search_coverage_gap',
      'constraint_neglect',
      'unverified_source_reliance',
      'entity_relation_misbinding',
      'unsupported_answer',
      'none',
    ]);
    assert.equal(s.counts.gold_without_root_cause, 1);
    assert.equal(s.counts.missing_predictions, 1);
    assert.equal(s.counts.sound_diagnoses, 2);
    // Positions: gold 5/10, 10/15 (= 2/3, the start of the final third), 8/8; predicted 5/10, 12/15, 8/8.
    assert.equal(s.positions.gold.n, 3);
    close(s.positions.gold.median, 2 / 3);
    close(s.positions.gold.final_third_share, 2 / 3);
    close(s.positions.predicted.median, 0.8);
    close(s.positions.predicted.final_third_share, 2 / 3);
    assert.deepEqual(s.answer_in_hand, { n: 2, rate: 0.5 });
  });

  it('empty set: every metric 0, no positions, no answer-in-hand rate', () => {
    const s = scoreAudit([]);
    assert.equal(s.n, 0);
    assert.deepEqual(s.metrics, { cs_strict: 0, cs_loose: 0, rc_acc: 0, rc_f1: 0, diag: 0, rep_at_diag: 0, fps: 0 });
    assert.deepEqual(s.positions.gold, { n: 0, median: null, final_third_share: null });
    assert.equal(s.answer_in_hand, null);
  });

  it('rep_at_diag is 0 without sound diagnoses; ungraded sound repairs count as failing', () => {
    const unsound = scoreAudit([
      {
        id: 'a',
        gold: { criticalStep: 1, span: [1, 1], rootCause: 'unsupported_answer' },
        prediction: { criticalStep: 2, rootCause: 'unsupported_answer' },
        grades: [true],
      },
    ]);
    assert.equal(unsound.metrics.rep_at_diag, 0);
    assert.equal(unsound.metrics.fps, 0);
    const ungraded = scoreAudit([
      {
        id: 'b',
        gold: { criticalStep: 1, span: [1, 1], rootCause: 'unsupported_answer' },
        prediction: { criticalStep: 1, rootCause: 'unsupported_answer', repair: 'x' },
      },
    ]);
    assert.equal(ungraded.metrics.diag, 1);
    assert.equal(ungraded.metrics.rep_at_diag, 0);
    assert.equal(ungraded.counts.ungraded_repairs, 1);
  });

  it('answer in hand: verbatim (NFKC, case, whitespace folded) in a tool return at or before k*', () => {
    const tools = [
      { position: 3, content: 'The winner was  GROVER Cleveland.' },
      { position: 9, content: 'Paris' },
    ];
    assert.equal(answerInHand('Grover Cleveland', tools, 3), true);
    assert.equal(answerInHand('Grover Cleveland', tools, 2), false);
    assert.equal(answerInHand('Paris', tools, 8), false);
    assert.equal(answerInHand('', tools, 9), false);
  });
});

describe('audit run folders', () => {
  it('gold.jsonl + predictions.jsonl: detection reason, repair_grades, messages for positions', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'gold.jsonl'),
      [
        { id: 'a', critical_step: 4, tolerance_span: [4, 6], root_cause: 'Candidate Mismanagement', repair_rubrics: ['r1', 'r2'], messages: 13 },
        { id: 'b', critical_step: 9, root_cause: 'search_coverage_gap', final_index: 9 },
        { id: 'c', critical_step: 2, tolerance_span: [1, 3], root_cause: 'constraint_neglect' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    writeFileSync(
      join(dir, 'predictions.jsonl'),
      [
        { id: 'a', critical_step: 6, root_cause: 'candidate_mismanagement', repair_directive: 'do x', repair_grades: [true, true] },
        { id: 'b', critical_step: 9, root_cause: 'search_coverage_gap' },
        { id: 'zzz', critical_step: 1, root_cause: 'constraint_neglect' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const r = scoreRunFolderSync(dir);
    assert.equal(r.detection.kind, 'audit');
    assert.equal(r.detection.reason, 'no manifest; found gold.jsonl and predictions.jsonl');
    const s = r.score;
    assert.equal(s.kind, 'audit');
    if (s.kind !== 'audit') return;
    assert.equal(s.n, 3);
    assert.equal(s.metrics.diag, 2 / 3);
    // a passes; b is sound but has no repair directive (fails); c has no prediction.
    assert.equal(s.metrics.rep_at_diag, 0.5);
    assert.equal(s.metrics.cs_strict, 1 / 3);
    assert.equal(s.positions.gold.n, 2);
    close(s.positions.gold.median, (4 / 12 + 1) / 2);
    assert.equal(s.positions.gold.final_third_share, 0.5);
    assert.ok(r.notes.some((n) => n.includes('1 prediction(s) have no gold case')));
    assert.ok(r.notes.some((n) => n.includes('no repair directive')));
  });

  it('rejects bad lines with file:line and what was expected', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'gold.jsonl'), `${JSON.stringify({ id: 'a', critical_step: 4, tolerance_span: [5, 6], root_cause: 'constraint_neglect' })}\n`);
    writeFileSync(join(dir, 'predictions.jsonl'), '{"id": "a"}\n');
    assert.throws(() => scoreRunFolderSync(dir), /gold\.jsonl:1:\d+: at \$\.tolerance_span: tolerance span \[5, 6\] does not contain the critical step 4/);
    writeFileSync(join(dir, 'gold.jsonl'), `${JSON.stringify({ id: 'a', critical_step: 4, root_cause: 'bogus' })}\n`);
    assert.throws(() => scoreRunFolderSync(dir), /gold\.jsonl:1:\d+: at \$\.root_cause: unknown root cause "bogus"/);
    writeFileSync(join(dir, 'gold.jsonl'), `${JSON.stringify({ id: 'a', critical_step: 4, root_cause: 'constraint_neglect', repair_rubrics: ['x', 'y'] })}\n`);
    writeFileSync(
      join(dir, 'predictions.jsonl'),
      `\n${JSON.stringify({ id: 'a', critical_step: 4, root_cause: 'constraint_neglect', repair_grades: [true] })}\n`,
    );
    assert.throws(() => scoreRunFolderSync(dir), /predictions\.jsonl:2:1: repair_grades has 1 entries but gold case "a" has 2 rubrics/);
    writeFileSync(join(dir, 'predictions.jsonl'), '{"id": "a", "critical_step": 4,,}\n');
    assert.throws(() => scoreRunFolderSync(dir), /predictions\.jsonl:1:\d+: invalid JSON/);
  });

  it('a folder of trajectories with sidecars: annotation = gold, newest audit (or --method) = prediction', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sub'));
    const trajectory = {
      question: 'Who?',
      answer: 'Grover Cleveland',
      prediction: 'Someone',
      messages: [
        { role: 'user', content: 'Who?' },
        { role: 'assistant', content: '<think>search</think><tool_call>{"name": "search", "arguments": {"query": "x"}}</tool_call>' },
        { role: 'user', content: '<tool_response>Grover Cleveland served twice</tool_response>' },
        { role: 'assistant', content: '<think>t</think><tool_call>{"name": "search", "arguments": {"query": "y"}}</tool_call>' },
        { role: 'user', content: '<tool_response>nothing</tool_response>' },
        { role: 'assistant', content: '<answer>Someone</answer>' },
      ],
    };
    writeFileSync(join(dir, 'sub', 't1.json'), JSON.stringify(trajectory));
    const audit = (id: string, method: string, createdAt: string, step: number, rootCause: string) => ({
      id,
      method,
      createdAt,
      diagnosis: { criticalStep: step, rootCause },
      repair: { directives: ['verify'] },
    });
    writeFileSync(
      join(dir, 'sub', 't1.json.audit.json'),
      JSON.stringify({
        schema: 'trajaudit.audit/v1',
        trajectory: { file: 't1.json' },
        records: {
          '0': {
            annotation: { criticalStep: 3, toleranceSpan: [3, 5], rootCause: 'candidate_mismanagement', repairRubrics: ['r1'] },
            audits: [
              audit('a1', 'heuristic', '2026-01-02T00:00:00Z', 3, 'candidate_mismanagement'),
              audit('a2', 'searchauditor', '2026-01-01T00:00:00Z', 1, 'constraint_neglect'),
            ],
          },
        },
      }),
    );
    const r = scoreRunFolderSync(dir);
    assert.equal(r.detection.reason, 'no manifest; found 1 *.audit.json sidecar(s) beside trajectories');
    const s = r.score;
    if (s.kind !== 'audit') throw new Error('kind');
    assert.equal(s.n, 1);
    assert.equal(s.metrics.diag, 1); // newest = heuristic (2026-01-02)
    assert.equal(s.counts.ungraded_repairs, 1); // no grades, no model
    assert.ok(r.notes.some((n) => n.includes('rubric grader')));
    assert.deepEqual(s.positions.gold, { n: 1, median: 3 / 5, final_third_share: 0 });
    assert.deepEqual(s.answer_in_hand, { n: 1, rate: 1 }); // the gold answer is in the tool return at message 2 ≤ 3
    const bySearchAuditor = scoreRunFolderSync(dir, { method: 'searchauditor' }).score;
    if (bySearchAuditor.kind !== 'audit') throw new Error('kind');
    assert.equal(bySearchAuditor.metrics.diag, 0);
    assert.equal(bySearchAuditor.metrics.rc_acc, 0);
    const none = scoreRunFolderSync(dir, { method: 'nope' });
    if (none.score.kind !== 'audit') throw new Error('kind');
    assert.equal(none.score.counts.missing_predictions, 1);
  });
});
