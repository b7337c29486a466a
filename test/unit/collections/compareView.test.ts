// The compare view's model (src/core/collections/compareView.ts) over test/fixtures/collections/compare:
// before.traj.json (annotated, two audits) against after.jsonl's run-1 (no sidecar entry) and
// run-2 (annotated); every value below is read off the fixtures by hand.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { collectFile } from '../../../src/core/collections/collect';
import { buildCompareView, STEP_TEXT_CHARS, type CompareSideInput } from '../../../src/core/collections/compareView';
import { trajectoryOf } from '../helpers';

const FIXTURES = join(__dirname, '../../fixtures/collections/compare');

function side(name: string, record: string): CompareSideInput {
  const collected = collectFile(join(FIXTURES, name));
  assert.deepEqual(collected.unreadable, []);
  const found = collected.trajectories.find((t) => t.record === record);
  assert.ok(found, `${name} has no record ${record}`);
  return { ...found, file: name };
}

describe('collections: the compare view model', function () {
  it('before vs run-1: rows of the alignment, the first divergence marked, labels from the sidecars', function () {
    const view = buildCompareView(side('before.traj.json', '0'), side('after.jsonl', 'run-1'));
    // The searches align ({river, ljubljana} both); the answers do not ({answer, sava} vs {answer, ljubljanica}).
    assert.deepEqual(
      view.rows.map((r) => [r.a?.position ?? null, r.b?.position ?? null, r.kind, r.firstDivergence]),
      [
        [1, 1, 'aligned', false],
        [3, null, 'a-only', true],
        [null, 3, 'b-only', true],
        [null, 5, 'b-only', true],
      ],
    );
    assert.equal(view.firstDivergenceRow, 1);
    assert.deepEqual(view.firstDivergence, { a: 3, b: 3 });
    assert.equal(view.alignedRows, 1);
    assert.equal(view.sameQuery, true);

    assert.deepEqual(view.rows[0].a, {
      position: 1,
      tools: ['search'],
      text: 'search({"query": "river Ljubljana"})',
      result: 'The Sava passes north of the city; the Ljubljanica flows through it.',
      truncated: false,
      humanCritical: false,
      inHumanSpan: false,
      auditCritical: false,
      finalAnswer: false,
    });
    // The answer step: the human's critical step (span [3, 3]) and the newest audit's.
    assert.deepEqual(view.rows[1].a, {
      position: 3,
      tools: [],
      text: '<answer>Sava</answer>',
      result: '',
      truncated: false,
      humanCritical: true,
      inHumanSpan: true,
      auditCritical: true,
      finalAnswer: true,
    });
    assert.equal(view.rows[2].b?.text, 'visit({"url": "https://example.org/ljubljanica"})');
    assert.equal(view.rows[2].b?.result, 'The Ljubljanica flows through the centre of Ljubljana.');
    assert.equal(view.rows[3].b?.finalAnswer, true);

    assert.deepEqual(view.a, {
      file: 'before.traj.json',
      record: '0',
      format: 'searchauditbench',
      model: null,
      dataset: null,
      query: 'Which river flows through Ljubljana?',
      predictedAnswer: 'Sava',
      goldAnswer: null,
      messages: 4,
      decisionSteps: 2,
      human: { source: 'annotation', criticalStep: 3, rootCause: 'candidate_mismanagement', toleranceSpan: [3, 3], annotator: 'ann-1' },
      // The searchauditor audit of 1 February is newer than the heuristic one of 15 January listed after it.
      audit: { method: 'searchauditor', model: 'gpt-test', createdAt: '2026-02-01T10:00:00Z', criticalStep: 3, rootCause: 'unsupported_answer' },
      audits: 2,
    });
    // run-1 has no entry in after.jsonl's sidecar.
    assert.equal(view.b.record, 'run-1');
    assert.equal(view.b.human, null);
    assert.equal(view.b.audit, null);
    assert.equal(view.b.audits, 0);
    assert.equal(view.b.decisionSteps, 3);
  });

  it('run-2 vs run-1: the other side’s annotation marks its step; a reply-only run diverges at once', function () {
    const view = buildCompareView(side('after.jsonl', 'run-2'), side('after.jsonl', 'run-1'));
    assert.deepEqual(view.b.human, null);
    assert.deepEqual(view.a.human, { source: 'annotation', criticalStep: 1, rootCause: 'search_coverage_gap', toleranceSpan: null, annotator: 'ann-2' });
    // run-2's only step is its answer at 1: {answer, sava} against run-1's search, visit and answer.
    assert.deepEqual(
      view.rows.map((r) => [r.a?.position ?? null, r.b?.position ?? null]),
      [
        [1, null],
        [null, 1],
        [null, 3],
        [null, 5],
      ],
    );
    assert.equal(view.firstDivergenceRow, 0);
    assert.deepEqual(
      view.rows.map((r) => r.firstDivergence),
      [true, true, true, true],
    );
    assert.equal(view.rows[0].a?.humanCritical, true);
    assert.equal(view.rows[0].a?.inHumanSpan, false);
  });

  it('identical runs never diverge; the gold in the file is the human label when there is no sidecar', function () {
    const messages = [
      { role: 'user', content: 'Q?' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"query": "q"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'r' },
      { role: 'assistant', content: '<answer>x</answer>' },
    ];
    const t = trajectoryOf({ query: 'Q?', trajectory: messages, critical_step: 3, root_cause_primary: 'unsupported_answer' });
    const view = buildCompareView({ file: 'x.json', record: '0', trajectory: t }, { file: 'y.json', record: '0', trajectory: t });
    assert.equal(view.firstDivergenceRow, null);
    assert.equal(view.firstDivergence, null);
    assert.deepEqual(
      view.rows.map((r) => [r.kind, r.firstDivergence]),
      [
        ['aligned', false],
        ['aligned', false],
      ],
    );
    assert.deepEqual(view.a.human, { source: 'gold', criticalStep: 3, rootCause: 'unsupported_answer', toleranceSpan: null, annotator: null });
    assert.equal(view.rows[1].b?.humanCritical, true);
  });

  it('different queries are flagged; long step text is cut with a mark and whitespace runs collapsed', function () {
    const long = `find ${'word '.repeat(400)}`;
    const a = trajectoryOf({
      query: 'First question?',
      trajectory: [
        { role: 'user', content: 'First question?' },
        { role: 'assistant', content: `thinking\n\n  aloud ${long}` },
      ],
    });
    const b = trajectoryOf({ query: 'Second question?', trajectory: [{ role: 'user', content: 'Second question?' }] });
    const view = buildCompareView({ file: 'a.json', record: '0', trajectory: a }, { file: 'b.json', record: '0', trajectory: b });
    assert.equal(view.sameQuery, false);
    const step = view.rows[0].a!;
    assert.equal(step.text.length, STEP_TEXT_CHARS);
    assert.ok(step.text.startsWith('thinking aloud find word word'), step.text.slice(0, 40));
    assert.ok(step.text.endsWith('…'));
    assert.equal(step.truncated, true);
    assert.deepEqual(
      view.rows.map((r) => r.kind),
      ['a-only'],
    );
  });
});
