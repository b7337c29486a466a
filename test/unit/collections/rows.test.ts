// Collection rows (issue 16 item 1): every field of rowOf computed by hand from
// test/fixtures/collections/rows (tokens excepted: they come from the one tokenizer, countTokens).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { collectTrajectories } from '../../../src/core/collections/collect';
import { agreementOf, rowOf, stateOf, type RowLabel } from '../../../src/core/collections/rows';
import { countTokens } from '../../../src/core/stats/statistics';

const FOLDER = join(__dirname, '../../fixtures/collections/rows');
const RUNS = join(FOLDER, 'runs.jsonl');

function collected() {
  const collection = collectTrajectories([FOLDER]);
  assert.deepEqual(collection.unreadable, []);
  return collection.trajectories;
}

const label = (criticalStep: number | null, rootCause: string | null, toleranceSpan: [number, number] | null = null): RowLabel => ({
  criticalStep,
  rootCause,
  toleranceSpan,
});

describe('collections: rows of the collection view', function () {
  it('an annotated, twice-audited record: counts, tool calls by kind, the newest audit, agreement within the span', function () {
    const [first] = collected();
    const row = rowOf(first, { displayFile: 'rows/runs.jsonl' });
    assert.deepEqual(row, {
      id: 'rows/runs.jsonl#q-1',
      file: 'rows/runs.jsonl',
      record: 'q-1',
      format: 'searchauditbench',
      model: 'model-a',
      dataset: 'set-x',
      // Whitespace squeezed, as the table shows it on one line.
      query: 'Which river flows through the town of Ardmore?',
      outcome: { success: false, score: 0, source: 'reward' },
      messages: 9,
      decisionSteps: 3,
      tokens: countTokens(first.trajectory).total,
      toolCalls: 5,
      // The search's query is a list of two: two atomic operations; each other call one.
      atomicOps: 6,
      toolCallsByKind: { search: 1, visit: 1, code: 1, 'file-edit': 1, other: 1 },
      human: label(2, 'constraint_neglect', [1, 4]),
      humanSource: 'annotation',
      annotator: 'ann-2',
      // The newer audit by createdAt, although it is listed first.
      audit: label(4, 'search_coverage_gap'),
      auditMethod: 'heuristic',
      audits: 2,
      // Step 4 is inside the human's span [1, 4]; the root causes differ.
      agreement: 'step',
      annotated: true,
      audited: true,
      state: 'annotated+audited',
    });
  });

  it('a record without sidecar entry: the gold in the file is the human label, yet the row is not annotated; agent and benchmark name model and dataset', function () {
    const [, second] = collected();
    const row = rowOf(second);
    assert.equal(row.id, `${RUNS}#q-2`);
    assert.equal(row.file, RUNS);
    assert.equal(row.model, 'agent-b');
    assert.equal(row.dataset, 'set-y');
    assert.deepEqual(row.outcome, { success: null, score: null, source: null });
    assert.deepEqual([row.messages, row.decisionSteps, row.toolCalls, row.atomicOps], [2, 1, 0, 0]);
    assert.deepEqual(row.toolCallsByKind, { search: 0, visit: 0, code: 0, 'file-edit': 0, other: 0 });
    assert.deepEqual(row.human, label(1, 'unsupported_answer', [1, 2]));
    assert.equal(row.humanSource, 'gold');
    assert.deepEqual([row.audit, row.auditMethod, row.audits, row.agreement], [null, null, 0, null]);
    assert.deepEqual([row.annotated, row.audited, row.state], [false, false, 'open']);
  });

  it('agreement: the span decides the step when there is one, else the same step; null when nothing is comparable', function () {
    assert.equal(agreementOf(label(3, 'constraint_neglect'), label(3, 'constraint_neglect')), 'both');
    assert.equal(agreementOf(label(3, 'constraint_neglect'), label(4, 'constraint_neglect')), 'root-cause');
    assert.equal(agreementOf(label(3, 'constraint_neglect', [2, 5]), label(5, 'unsupported_answer')), 'step');
    assert.equal(agreementOf(label(3, 'constraint_neglect', [2, 5]), label(6, 'unsupported_answer')), 'neither');
    assert.equal(agreementOf(label(3, null), label(null, 'constraint_neglect')), null);
    assert.equal(agreementOf(label(3, null), label(3, 'constraint_neglect')), 'step');
    assert.equal(agreementOf(null, label(3, 'constraint_neglect')), null);
    assert.equal(agreementOf(label(3, 'constraint_neglect'), null), null);
  });

  it('state names annotated and audited together', function () {
    assert.deepEqual(
      [stateOf(true, true), stateOf(true, false), stateOf(false, true), stateOf(false, false)],
      ['annotated+audited', 'annotated', 'audited', 'open'],
    );
  });
});
