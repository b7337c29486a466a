// The collection index: a warm open reads no trajectory, a changed file alone is read again, a
// cancel stops early and keeps what was indexed, a corrupt or foreign index is rebuilt.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { collectFile, collectionFiles, type CollectFileOptions } from '../../../src/core/collections/collect';
import {
  collectionIndexFile,
  indexCollection,
  readIndexedCollection,
  rowIndexOptions,
  type CollectionIndexOptions,
  type IndexEvent,
} from '../../../src/core/collections/collectionIndex';
import { tempDir } from '../helpers';

const CORPUS = join(__dirname, '../../fixtures/collections/corpus');

interface Summary {
  file: string;
  record: string;
  messages: number;
  rootCause: string | null;
}

/** A copy of the fixture corpus with every mtime an hour old (so none is too recent to trust). */
function corpusCopy(): { data: string; storage: string } {
  const data = tempDir('trajaudit-index-data-');
  cpSync(CORPUS, data, { recursive: true });
  ageAll(data);
  return { data, storage: tempDir('trajaudit-index-storage-') };
}

function ageAll(folder: string): void {
  const hourAgo = new Date(Date.now() - 3600_000);
  for (const name of readdirSync(folder, { recursive: true, encoding: 'utf8' })) utimesSync(join(folder, name), hourAgo, hourAgo);
}

function counting(): { parsed: string[]; collect: (file: string, options: CollectFileOptions) => ReturnType<typeof collectFile> } {
  const parsed: string[] = [];
  return {
    parsed,
    collect: (file, options) => {
      parsed.push(file);
      return collectFile(file, options);
    },
  };
}

function options(
  data: string,
  storage: string,
  collect: CollectIndexCollect,
  extra: Partial<CollectionIndexOptions<Summary>> = {},
): CollectionIndexOptions<Summary> {
  return {
    storageDir: storage,
    paths: [data],
    settings: { summary: 1 },
    summarize: (t) => ({ file: t.file, record: t.record, messages: t.trajectory.messages.length, rootCause: t.sidecarRecord?.annotation?.rootCause ?? null }),
    collect,
    ...extra,
  };
}
type CollectIndexCollect = CollectionIndexOptions<Summary>['collect'];

describe('collections: the collection index', function () {
  it('a second open reads the index only: no file parsed, the same values and unreadable lines', async function () {
    const { data, storage } = corpusCopy();
    const cold = counting();
    const first = await readIndexedCollection(options(data, storage, cold.collect));
    assert.deepEqual(cold.parsed.map((f) => f.slice(data.length + 1)).sort(), [
      'alpha.traj.json',
      'broken.traj.json',
      'gamma.traj.json',
      'nested/beta.traj.json',
    ]);
    assert.equal(first.values.length, 3);
    assert.deepEqual(first.counts, { files: 4, fromIndex: 0, rehashed: 0, reindexed: 4, dropped: 0 });
    assert.ok(statSync(first.indexFile).isFile());
    assert.ok(first.indexFile.startsWith(storage), 'the index lives in the storage folder, not beside the data');

    const warm = counting();
    const second = await readIndexedCollection(options(data, storage, warm.collect));
    assert.deepEqual(warm.parsed, []);
    assert.deepEqual(second.counts, { files: 4, fromIndex: 4, rehashed: 0, reindexed: 0, dropped: 0 });
    assert.deepEqual(second.values, first.values);
    assert.deepEqual(second.unreadable, first.unreadable);
    assert.match(second.unreadable[0].message, /^2:1: invalid JSON/);
    assert.deepEqual(second.notes, []);
  });

  it('a changed file alone is parsed again; a touched one is hashed, not parsed; a sidecar edit re-reads its file; a removed one is dropped', async function () {
    const { data, storage } = corpusCopy();
    await readIndexedCollection(options(data, storage, counting().collect));
    const alpha = join(data, 'alpha.traj.json');
    const gamma = join(data, 'gamma.traj.json');
    // Same size, new content and mtime: only the hash can tell.
    writeFileSync(alpha, readFileSync(alpha, 'utf8').replace('Dubrovnik', 'Dubrovnix'));
    const touched = new Date(Date.now() - 1800_000);
    utimesSync(alpha, touched, touched);
    utimesSync(gamma, touched, touched);
    const run = counting();
    const result = await readIndexedCollection(options(data, storage, run.collect));
    assert.deepEqual(run.parsed, [alpha]);
    assert.deepEqual(result.counts, { files: 4, fromIndex: 2, rehashed: 1, reindexed: 1, dropped: 0 });

    const sidecar = join(data, 'nested/beta.traj.json.audit.json');
    writeFileSync(sidecar, readFileSync(sidecar, 'utf8').replace(/"rootCause": "[a-z_]+"/, '"rootCause": "constraint_neglect"'));
    utimesSync(sidecar, touched, touched);
    const afterSidecar = counting();
    const edited = await readIndexedCollection(options(data, storage, afterSidecar.collect));
    assert.deepEqual(afterSidecar.parsed, [join(data, 'nested/beta.traj.json')]);
    assert.equal(edited.values.find((v) => v.file.endsWith('beta.traj.json'))?.rootCause, 'constraint_neglect');

    // A sidecar where there was none: its trajectory is read again, the others are not.
    cpSync(sidecar, `${gamma}.audit.json`);
    utimesSync(`${gamma}.audit.json`, touched, touched);
    const afterNewSidecar = counting();
    await readIndexedCollection(options(data, storage, afterNewSidecar.collect));
    assert.deepEqual(afterNewSidecar.parsed, [gamma]);
    rmSync(`${gamma}.audit.json`);

    rmSync(gamma);
    const afterRemove = counting();
    const removed = await readIndexedCollection(options(data, storage, afterRemove.collect));
    assert.deepEqual(afterRemove.parsed, []);
    assert.equal(removed.counts.dropped, 1);
    assert.ok(!removed.values.some((v) => v.file === gamma));
    const stored = JSON.parse(readFileSync(removed.indexFile, 'utf8')) as { files: Record<string, unknown> };
    assert.ok(!Object.hasOwn(stored.files, gamma), 'the removed file is gone from the index file too');
  });

  it('the walk hands over every name of each folder it lists, sidecars and dot files included, so no folder is listed twice', function () {
    const { data } = corpusCopy();
    writeFileSync(join(data, '.hidden.json'), '{}');
    const listings = new Map<string, ReadonlySet<string>>();
    const { files } = collectionFiles([data], listings);
    assert.deepEqual([...listings.keys()], [data, join(data, 'nested')]);
    assert.deepEqual([...(listings.get(join(data, 'nested')) ?? [])].sort(), ['beta.traj.json', 'beta.traj.json.audit.json']);
    assert.ok(listings.get(data)?.has('.hidden.json'));
    assert.deepEqual(files, collectionFiles([data]).files, 'the files walked are the same with or without listings');
  });

  it('a walked file is join(folder as given, its path in the folder), however the folder is written', function () {
    const { data } = corpusCopy();
    const inside = ['alpha.traj.json', 'broken.traj.json', 'gamma.traj.json', 'nested/beta.traj.json'];
    const fromHere = relative(process.cwd(), data);
    for (const folder of [data, `${data}/`, `${data}/./`, `${data}/nested/..`, `${data}//`, fromHere, `./${fromHere}/`]) {
      assert.deepEqual(
        collectionFiles([folder]).files,
        inside.map((path) => join(folder, path)),
        folder,
      );
    }
  });

  it('a file whose sidecar became a link after it was indexed is read again, and its old entry leaves the index', async function () {
    const { data, storage } = corpusCopy();
    const first = await readIndexedCollection(options(data, storage, counting().collect));
    const beta = join(data, 'nested/beta.traj.json');
    const stored = () => Object.keys((JSON.parse(readFileSync(first.indexFile, 'utf8')) as { files: Record<string, unknown> }).files);
    assert.ok(stored().includes(beta));
    const sidecar = `${beta}.audit.json`;
    cpSync(sidecar, join(data, 'elsewhere.audit.json'));
    rmSync(sidecar);
    symlinkSync(join(data, 'elsewhere.audit.json'), sidecar);
    for (const run of [1, 2]) {
      const reads = counting();
      const result = await readIndexedCollection(options(data, storage, reads.collect));
      assert.deepEqual(reads.parsed, [beta], `run ${run}`);
      assert.ok(result.unreadable.some((u) => u.file === sidecar && /symbolic link/.test(u.message)));
      assert.deepEqual(stored().sort(), [join(data, 'alpha.traj.json'), join(data, 'broken.traj.json'), join(data, 'gamma.traj.json')]);
    }
  });

  it('a named file (not walked) and a folder given with a trailing slash: sidecars still seen, the warm open reads nothing', async function () {
    const { data, storage } = corpusCopy();
    const beta = join(data, 'nested/beta.traj.json');
    const paths = { paths: [`${data}/`, beta] };
    const first = await readIndexedCollection(options(data, storage, counting().collect, paths));
    const warm = counting();
    const second = await readIndexedCollection(options(data, storage, warm.collect, paths));
    assert.deepEqual(warm.parsed, []);
    assert.deepEqual(second.values, first.values);
    assert.equal(second.values.filter((v) => v.file === beta && v.rootCause !== null).length, 2, 'beta walked and named, its sidecar read both times');
  });

  it('a file changed within the clock tick after it was checked keeps size and mtime, and is still read again', async function () {
    const { data, storage } = corpusCopy();
    const alpha = join(data, 'alpha.traj.json');
    const mtime = statSync(alpha).mtime;
    // Checked half a second after its last write: too close to trust size and mtime next time.
    const checked = mtime.getTime() + 500;
    await readIndexedCollection(options(data, storage, counting().collect, { now: () => checked }));
    writeFileSync(alpha, readFileSync(alpha, 'utf8').replace('Dubrovnik', 'Dubrovnix'));
    utimesSync(alpha, mtime, mtime);
    const run = counting();
    await readIndexedCollection(options(data, storage, run.collect));
    assert.deepEqual(run.parsed, [alpha]);
  });

  it('rows come as files are indexed, with progress; an abort stops early and keeps what was indexed', async function () {
    const { data, storage } = corpusCopy();
    const controller = new AbortController();
    const events: IndexEvent<Summary>[] = [];
    for await (const event of indexCollection(options(data, storage, counting().collect, { signal: controller.signal }))) {
      events.push(event);
      if (event.kind === 'file' && event.done === 2) controller.abort();
    }
    const files = events.filter((e) => e.kind === 'file');
    assert.deepEqual(
      files.map((e) => [e.done, e.total]),
      [
        [1, 4],
        [2, 4],
      ],
    );
    assert.deepEqual(events.at(-1), { kind: 'end', cancelled: true, counts: { files: 4, fromIndex: 0, rehashed: 0, reindexed: 2, dropped: 0 } });
    const rest = counting();
    const resumed = await readIndexedCollection(options(data, storage, rest.collect));
    assert.equal(rest.parsed.length, 2, 'the two files indexed before the abort are read from the index');
    assert.equal(resumed.counts.fromIndex, 2);
    assert.equal(resumed.values.length, 3);
  });

  it('a file read on every open (its sidecar is a link) is listed each time; an abort after the last file is no cancel', async function () {
    const { data, storage } = corpusCopy();
    symlinkSync(join(data, 'nested/beta.traj.json.audit.json'), join(data, 'alpha.traj.json.audit.json'));
    const controller = new AbortController();
    const events: IndexEvent<Summary>[] = [];
    for await (const event of indexCollection(options(data, storage, counting().collect, { signal: controller.signal }))) {
      events.push(event);
      if (event.kind === 'file' && event.done === event.total) controller.abort();
    }
    assert.deepEqual(events.at(-1), { kind: 'end', cancelled: false, counts: { files: 4, fromIndex: 0, rehashed: 0, reindexed: 4, dropped: 0 } });
    const again = counting();
    const second = await readIndexedCollection(options(data, storage, again.collect));
    assert.deepEqual(again.parsed, [join(data, 'alpha.traj.json')]);
    assert.ok(second.unreadable.some((u) => u.file.endsWith('alpha.traj.json.audit.json') && /symbolic link/.test(u.message)));
  });

  it('a read without a signal never yields to the event loop (a yield lets pending GC work in); with one it does, so an abort gets through', async function () {
    const { data, storage } = corpusCopy();
    let immediateRan = false;
    setImmediate(() => (immediateRan = true));
    const cold = await readIndexedCollection(options(data, storage, counting().collect));
    assert.equal(cold.counts.reindexed, 4);
    assert.equal(immediateRan, false, 'every file read and the index written within one turn');
    const controller = new AbortController();
    immediateRan = false;
    setImmediate(() => {
      immediateRan = true;
      controller.abort();
    });
    writeFileSync(join(data, 'gamma.traj.json'), readFileSync(join(data, 'gamma.traj.json'), 'utf8').replace('"', ' "'));
    const cancellable = await readIndexedCollection(options(data, storage, counting().collect, { signal: controller.signal }));
    assert.equal(immediateRan, true);
    assert.equal(cancellable.cancelled, true, 'the abort came in the yield after the changed file');
  });

  it('a consumer that stops reading (break) keeps what was indexed', async function () {
    const { data, storage } = corpusCopy();
    for await (const event of indexCollection(options(data, storage, counting().collect))) if (event.kind === 'file') break;
    const rest = counting();
    await readIndexedCollection(options(data, storage, rest.collect));
    assert.equal(rest.parsed.length, 3);
  });

  for (const [what, content, note] of [
    ['truncated', '{"schema": "trajaudit.collection-index/v1", "files": {', /is not valid JSON/],
    ['foreign', JSON.stringify({ schema: 'someone.else/v3', rows: [] }), /not a collection index of this version \(schema "someone\.else\/v3"/],
    ['wrongly shaped', JSON.stringify({ schema: 'trajaudit.collection-index/v1', key: 'x', paths: [], files: { a: { values: 3 } } }), /at \$\.files\.a\./],
  ] as const) {
    it(`a ${what} index file is ignored with a one-line note and rebuilt`, async function () {
      const { data, storage } = corpusCopy();
      const reference = await readIndexedCollection(options(data, tempDir(), counting().collect));
      const { file } = collectionIndexFile(storage, [data], undefined, { summary: 1 });
      await readIndexedCollection(options(data, storage, counting().collect));
      writeFileSync(file, content);
      const run = counting();
      const rebuilt = await readIndexedCollection(options(data, storage, run.collect));
      assert.equal(rebuilt.notes.length, 1);
      assert.match(rebuilt.notes[0], note);
      assert.ok(rebuilt.notes[0].startsWith(`${file}: `) && !rebuilt.notes[0].includes('\n'));
      assert.equal(run.parsed.length, 4);
      assert.deepEqual(rebuilt.values, reference.values);
      const again = counting();
      await readIndexedCollection(options(data, storage, again.collect));
      assert.deepEqual(again.parsed, [], 'the rebuilt index is used next time');
    });
  }

  // The index is checked by shape, not parsed by a schema: what `stats` and the table compute with must still be there.
  for (const [what, corrupt, where] of [
    ['a count that is not a number', (row: Record<string, unknown>) => (row.tokens = '1200'), '.values.0'],
    ['a row without its format', (row: Record<string, unknown>) => delete row.format, '.values.0'],
    ['a row that is not an object', (_row: Record<string, unknown>, entry: { values: unknown[] }) => (entry.values[0] = 7), '.values.0'],
  ] as const) {
    it(`a row index with ${what} is not trusted: a note naming the row, every file read again, the same rows`, async function () {
      const { data, storage } = corpusCopy();
      const rows = (collect: CollectIndexCollect) => ({ ...rowIndexOptions({ storageDir: storage, paths: [data] }), collect });
      const reference = await readIndexedCollection(rows(counting().collect));
      const index = JSON.parse(readFileSync(reference.indexFile, 'utf8')) as { files: Record<string, { values: unknown[] }> };
      const alpha = join(data, 'alpha.traj.json');
      corrupt(index.files[alpha].values[0] as Record<string, unknown>, index.files[alpha]);
      writeFileSync(reference.indexFile, JSON.stringify(index));
      const run = counting();
      const rebuilt = await readIndexedCollection(rows(run.collect));
      assert.equal(rebuilt.notes.length, 1);
      assert.ok(rebuilt.notes[0].startsWith(`${reference.indexFile}: not a collection index of this version`), rebuilt.notes[0]);
      assert.ok(rebuilt.notes[0].includes(` at $.files.${alpha}${where};`), rebuilt.notes[0]);
      assert.equal(run.parsed.length, 4);
      assert.deepEqual(rebuilt.values, reference.values);
    });
  }

  it('an index of another collection at the same place is refused; other settings use another index file', async function () {
    const { data, storage } = corpusCopy();
    const first = await readIndexedCollection(options(data, storage, counting().collect));
    const other = collectionIndexFile(storage, [data], undefined, { summary: 2 });
    assert.notEqual(other.file, first.indexFile);
    cpSync(first.indexFile, other.file);
    const run = counting();
    const result = await readIndexedCollection(options(data, storage, run.collect, { settings: { summary: 2 } }));
    assert.match(result.notes[0], /belongs to another collection/);
    assert.equal(run.parsed.length, 4);
  });

  it('an index that cannot be written is a note; the values are still read', async function () {
    const { data } = corpusCopy();
    const storage = join(tempDir(), 'a-file');
    writeFileSync(storage, 'not a folder');
    const result = await readIndexedCollection(options(data, storage, counting().collect));
    assert.equal(result.values.length, 3);
    assert.equal(result.notes.length, 1);
    assert.match(result.notes[0], /could not be written \(ENOTDIR\); the next open reads every file again$/);
  });
});
