// The annotation queue: next unannotated in the table's order, assignment files and per-annotator
// progress, blind mode.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { collectTrajectories } from '../../../src/core/collections/collect';
import {
  annotatorProgress,
  auditsVisible,
  blindRow,
  nextUnannotated,
  parseAssignments,
  rowsOfAssignment,
  type Assignments,
} from '../../../src/core/collections/queue';
import { rowOf, type CollectionRow } from '../../../src/core/collections/rows';
import { InputError } from '../../../src/core/input/inputError';
import { runCli, tempDir, writeTemp } from '../helpers';

const FOLDER = join(__dirname, '../../fixtures/collections/export');

/** A real row of the fixture, re-keyed and with the annotation state given. */
function row(file: string, record: string, annotator: string | null | undefined): CollectionRow {
  const base = rowOf(collectTrajectories([FOLDER]).trajectories[1]);
  const annotated = annotator !== undefined;
  return { ...base, id: `${file}#${record}`, file, record, annotated, annotator: annotator ?? null, state: annotated ? 'annotated+audited' : 'audited' };
}

const ROWS = [
  row('/data/a.jsonl', 'q1', 'alice'),
  row('/data/a.jsonl', 'q2', undefined),
  row('/data/nested/b.json', '0', 'bob'),
  row('/data/a.jsonl', 'q3', undefined),
  row('/data/c.json', '0', null),
];
const ids = (rows: (CollectionRow | null)[]) => rows.map((r) => r?.id ?? null);

describe('collections: the annotation queue', function () {
  it('next unannotated follows the given order from the current row, wraps around, and is null when all are done', function () {
    assert.equal(nextUnannotated(ROWS, null)?.id, '/data/a.jsonl#q2');
    assert.equal(nextUnannotated(ROWS, '/data/a.jsonl#q2')?.id, '/data/a.jsonl#q3');
    assert.equal(nextUnannotated(ROWS, '/data/a.jsonl#q3')?.id, '/data/a.jsonl#q2', 'wraps to the top');
    // In another order (a sort), "next" is the next in that order.
    const reversed = [...ROWS].reverse();
    assert.equal(nextUnannotated(reversed, '/data/a.jsonl#q3')?.id, '/data/a.jsonl#q2');
    assert.equal(nextUnannotated(ROWS, 'gone#0')?.id, '/data/a.jsonl#q2', 'a row no longer shown starts at the top');
    assert.equal(nextUnannotated([ROWS[0], ROWS[2]], null), null);
    assert.equal(nextUnannotated([ROWS[1]], '/data/a.jsonl#q2'), null, 'the current row is not its own next');
    assert.equal(nextUnannotated([], null), null);
  });

  it("an annotator's queue: rows they have not saved, only those assigned to them when there is an assignment", function () {
    // Bob's annotation does not make the row done for alice.
    assert.deepEqual(ids([nextUnannotated(ROWS, '/data/a.jsonl#q1', { annotator: 'alice' })]), ['/data/a.jsonl#q2']);
    // An unnamed annotation is no one's: still in alice's queue.
    assert.deepEqual(ids([nextUnannotated(ROWS, '/data/a.jsonl#q3', { annotator: 'alice' })]), ['/data/c.json#0']);
    const assignments: Assignments = { annotators: { alice: ['/data/a.jsonl#q1', 'nested/b.json#0', '/data/a.jsonl#q3'] } };
    assert.deepEqual(ids([nextUnannotated(ROWS, null, { annotator: 'alice', assignments })]), ['/data/nested/b.json#0']);
    assert.deepEqual(ids([nextUnannotated(ROWS, '/data/nested/b.json#0', { annotator: 'alice', assignments })]), ['/data/a.jsonl#q3']);
    assert.equal(nextUnannotated(ROWS, null, { annotator: 'carol', assignments }), null, 'nothing assigned to carol');
  });

  it('assignment ids: the exact row id, a trailing path with its record, or a file for all its records', function () {
    assert.deepEqual(ids(rowsOfAssignment(ROWS, '/data/a.jsonl#q2')), ['/data/a.jsonl#q2']);
    assert.deepEqual(ids(rowsOfAssignment(ROWS, 'nested/b.json#0')), ['/data/nested/b.json#0']);
    assert.deepEqual(ids(rowsOfAssignment(ROWS, 'a.jsonl')), ['/data/a.jsonl#q1', '/data/a.jsonl#q2', '/data/a.jsonl#q3']);
    assert.deepEqual(ids(rowsOfAssignment(ROWS, 'ested/b.json#0')), [], 'a trailing path ends at a folder boundary');
    assert.deepEqual(ids(rowsOfAssignment(ROWS, 'a.jsonl#q9')), []);
  });

  it('per-annotator progress: assigned, saved by them, saved by others, ids not in the collection', function () {
    const progress = annotatorProgress(ROWS, {
      annotators: { alice: ['a.jsonl', 'nested/b.json#0', 'a.jsonl#q1', 'z.json#0'], bob: ['nested/b.json'], carol: [] },
    });
    assert.deepEqual(progress, [
      { annotator: 'alice', assigned: 4, annotated: 1, annotatedByOthers: 1, missing: ['z.json#0'] },
      { annotator: 'bob', assigned: 1, annotated: 1, annotatedByOthers: 0, missing: [] },
      { annotator: 'carol', assigned: 0, annotated: 0, annotatedByOthers: 0, missing: [] },
    ]);
  });

  it('an assignment file of the wrong shape is one line naming the JSON path', function () {
    assert.deepEqual(parseAssignments({ annotators: { alice: ['x#0'] } }, 'a.json'), { annotators: { alice: ['x#0'] } });
    for (const [value, where] of [
      [{ annotators: { alice: 'x#0' } }, '$.annotators.alice'],
      [{ annotators: { alice: ['x#0', 7] } }, '$.annotators.alice[1]'],
      [{ alice: ['x#0'] }, '$'],
    ] as const) {
      assert.throws(
        () => parseAssignments(value, 'assign.json'),
        (error: unknown) =>
          error instanceof InputError && error.message.startsWith('assign.json') && error.message.includes(where) && !error.message.includes('\n'),
      );
    }
  });

  it("blind mode hides a row's audit until that annotator has saved an annotation of it", function () {
    const [aliceDone, open] = ROWS;
    assert.equal(auditsVisible(open, false, 'alice'), true);
    assert.equal(auditsVisible(open, true, 'alice'), false);
    assert.equal(auditsVisible(aliceDone, true, 'alice'), true);
    assert.equal(auditsVisible(aliceDone, true, 'bob'), false, "alice's annotation does not unblind bob");
    assert.equal(auditsVisible(aliceDone, true, null), true, 'an unnamed user: any saved annotation');
    const hidden = blindRow(open, true, 'alice');
    assert.deepEqual([hidden.audit, hidden.auditMethod, hidden.agreement], [null, null, null]);
    assert.notEqual(open.audit, null, 'the row itself is not changed');
    assert.equal(blindRow(aliceDone, true, 'alice'), aliceDone);
  });

  it("trajaudit collection --assignments prints each annotator's progress; a bad file is one line", async function () {
    const dir = tempDir();
    const file = writeTemp(
      dir,
      'assign.json',
      JSON.stringify({ annotators: { alice: ['runs.jsonl#r1', 'runs.jsonl#r2'], bob: ['runs.jsonl#r3', 'gone.json#0'] } }),
    );
    const result = await runCli(['collection', FOLDER, '--assignments', file, '--cache', tempDir(), '--json']);
    assert.equal(result.code, 0);
    assert.deepEqual(JSON.parse(result.out).progress, [
      { annotator: 'alice', assigned: 2, annotated: 1, annotatedByOthers: 0, missing: [] },
      { annotator: 'bob', assigned: 1, annotated: 0, annotatedByOthers: 0, missing: ['gone.json#0'] },
    ]);
    const text = await runCli(['collection', FOLDER, '--assignments', file, '--cache', tempDir()]);
    assert.match(text.out, /\n {2}alice: 1\/2 annotated\n {2}bob: 0\/1 annotated; not in the collection: gone\.json#0$/);
    const bad = writeTemp(dir, 'bad.json', JSON.stringify({ annotators: { alice: 'runs.jsonl#r1' } }));
    const refused = await runCli(['collection', FOLDER, '--assignments', bad, '--cache', tempDir()]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /^.*bad\.json.*\$\.annotators\.alice.*expected \{"annotators"/);
    assert.ok(!refused.err.includes('\n'));
  });
});
