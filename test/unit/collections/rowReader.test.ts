// The collection view's row reader (src/extension/collection/rowReader.ts): every record of a
// folder as rows with display names, in batches ending with a finished progress; through the
// collection index the same rows, and a second read takes them from the index; a cancel before
// reading keeps what was read and says so.
import assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import type { CollectionRow } from '../../../src/core/collections/rows';
import { RowReader } from '../../../src/extension/collection/rowReader';
import type { CollectionProgress } from '../../../src/shared/collectionProtocol';
import { tempDir } from '../helpers';

const FIXTURES = join(__dirname, '../../fixtures/collections');
const FOLDER = join(FIXTURES, 'rows');

function reader(storageDir?: string) {
  const batches: { rows: CollectionRow[]; progress: CollectionProgress }[] = [];
  const notes: string[] = [];
  const read = new RowReader([FOLDER], {
    display: (path) => relative(FIXTURES, path),
    onRows: (rows, _unreadable, progress) => batches.push({ rows, progress }),
    onNote: (note) => notes.push(note),
    batchMs: 0,
    ...(storageDir ? { storageDir } : {}),
  });
  return { read, batches, notes, rows: () => batches.flatMap((b) => b.rows) };
}

describe('collections: the collection view’s row reader', function () {
  it('reads every record as a row named by its display path, the last batch finished', async function () {
    const r = reader();
    const progress = await r.read.read();
    assert.deepEqual(progress, { done: 1, total: 1, finished: true });
    assert.deepEqual(
      r.rows().map((row) => row.id),
      ['rows/runs.jsonl#q-1', 'rows/runs.jsonl#q-2'],
    );
    assert.deepEqual(r.batches.at(-1)?.progress, progress);
    // Opening a row finds its absolute file and record.
    assert.deepEqual(r.read.targets.get('rows/runs.jsonl#q-2'), { file: join(FOLDER, 'runs.jsonl'), record: 'q-2' });
  });

  it('through the index: the same rows with display names; the second read comes from the index', async function () {
    const storage = tempDir();
    const plain = reader();
    await plain.read.read();
    const first = reader(storage);
    assert.deepEqual(await first.read.read(), { done: 1, total: 1, finished: true });
    assert.deepEqual(first.rows(), plain.rows());
    assert.equal(first.read.indexCounts?.reindexed, 1);
    const second = reader(storage);
    await second.read.read();
    assert.deepEqual(second.rows(), plain.rows());
    assert.deepEqual([second.read.indexCounts?.fromIndex, second.read.indexCounts?.reindexed], [1, 0]);
    assert.deepEqual(second.read.targets.get('rows/runs.jsonl#q-1'), { file: join(FOLDER, 'runs.jsonl'), record: 'q-1' });
    assert.deepEqual(second.notes, []);
  });

  it('cancelled before the first file: no rows, and the progress says it stopped', async function () {
    for (const storage of [undefined, tempDir()]) {
      const r = reader(storage);
      r.read.cancel();
      const progress = await r.read.read();
      assert.deepEqual(progress, { done: 0, total: 1, finished: true, cancelled: true }, storage ? 'indexed' : 'plain');
      assert.deepEqual(r.rows(), []);
    }
  });
});
