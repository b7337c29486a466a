// The index of a collection (issue 16 item 2): per file, its fingerprint (size, mtime, sha256 of
// the trajectory file and of its sidecar) and the values computed from its records, so a second
// open reads one JSON file instead of parsing and tokenizing every trajectory. The storage folder
// is injected: the extension passes VS Code's storage, the CLI a cache folder, never the data's.
//
// A file is hashed only when its size or mtime changed (or its mtime is too close to when it was
// last checked to trust: a write within the same clock tick keeps both), and parsed again only
// when a hash changed. A file no longer in the collection is dropped. The index is replaced
// atomically; a corrupt or foreign one is ignored with a note and rebuilt.
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../files/atomicWrite';
import { MAX_TEXT_BYTES } from '../input/readText';
import type { TrajectoryFormat } from '../model/trajectory';
import { sidecarPathFor } from '../sidecar/sidecarFile';
import type { ToolNames } from '../stats/statistics';
import { collectFile, collectionFiles, type CollectedTrajectory, type CollectFileOptions, type Collection, type Unreadable } from './collect';
import { rowOf, type CollectionRow } from './rows';

export const COLLECTION_INDEX_SCHEMA = 'trajaudit.collection-index/v1';

/**
 * mtimes this close to the moment a file was checked are not trusted: a later write within the
 * file system's clock tick (2 s on FAT) would leave size and mtime unchanged.
 */
const RACY_MS = 2000;

/** What a trajectory file's name gains to name its sidecar. */
const SIDECAR_SUFFIX = sidecarPathFor('');

/** Cached files checked between two yields to the event loop (so a cancel or a UI message gets through). */
const CACHED_PER_TURN = 200;

export interface Fingerprint {
  size: number;
  mtimeMs: number;
  sha256: string;
}

interface Entry {
  trajectory: Fingerprint;
  /** null: the file had no sidecar. */
  sidecar: Fingerprint | null;
  /** When the fingerprints were taken (ms since the epoch). */
  checkedAt: number;
  values: unknown[];
  unreadable: Unreadable[];
}

interface IndexFile {
  schema: typeof COLLECTION_INDEX_SCHEMA;
  key: string;
  paths: string[];
  files: Record<string, Entry>;
}

export interface CollectionIndexOptions<V> {
  /** The folder the index lives in (created when missing). */
  storageDir: string;
  /** Files and folders of the collection, as `collectTrajectories` takes them. */
  paths: readonly string[];
  format?: TrajectoryFormat;
  /**
   * Everything the values depend on besides the files (tool names, the value's version): another
   * value makes another index, so a changed setting never reads values computed under the old one.
   */
  settings: Record<string, unknown>;
  /** The value stored per trajectory record (e.g. the collection row). */
  summarize(collected: CollectedTrajectory): V;
  /**
   * A cheap check that a value read back from the index has the shape `summarize` makes (the index
   * is our own cache, so the fields its readers rely on, not a full schema): an index with a value
   * that fails it is rebuilt, never read.
   */
  isValue?(value: unknown): boolean;
  signal?: AbortSignal;
  /** Reads one file (injectable so tests can count parses). */
  collect?: (file: string, options: CollectFileOptions) => Collection;
  now?: () => number;
}

export interface IndexCounts {
  files: number;
  /** Read from the index without opening the file. */
  fromIndex: number;
  /** Size or mtime changed (or too recent to trust), the content did not: hashed, not parsed. */
  rehashed: number;
  /** Parsed and summarized again (new or changed). */
  reindexed: number;
  /** In the old index, no longer in the collection. */
  dropped: number;
}

export type IndexEvent<V> =
  | { kind: 'start'; total: number; indexFile: string; unreadable: Unreadable[] }
  | { kind: 'note'; message: string }
  | { kind: 'file'; file: string; values: V[]; unreadable: Unreadable[]; fromIndex: boolean; done: number; total: number }
  | { kind: 'end'; cancelled: boolean; counts: IndexCounts };

/** The index file of a collection: one per paths (as given and as resolved), format and settings. */
export function collectionIndexFile(
  storageDir: string,
  paths: readonly string[],
  format: TrajectoryFormat | undefined,
  settings: Record<string, unknown>,
): {
  file: string;
  key: string;
} {
  const key = createHash('sha256')
    .update(JSON.stringify({ paths, resolved: paths.map((p) => resolve(p)), format: format ?? null, settings }))
    .digest('hex');
  return { file: join(storageDir, 'collections', `${key.slice(0, 32)}.json`), key };
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function sameStat(fingerprint: Fingerprint | null, stat: Stats | undefined, checkedAt: number): boolean {
  if (!fingerprint || !stat) return fingerprint === null && stat === undefined;
  return fingerprint.size === stat.size && fingerprint.mtimeMs === stat.mtimeMs && stat.mtimeMs < checkedAt - RACY_MS;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function isFingerprint(value: unknown): value is Fingerprint {
  return isObject(value) && typeof value.size === 'number' && typeof value.mtimeMs === 'number' && typeof value.sha256 === 'string';
}

/** Where an entry departs from its shape (the JSON path inside it, '' for the whole), or undefined. */
function entryShapeProblem(entry: unknown, isValue: ((value: unknown) => boolean) | undefined): string | undefined {
  if (!isObject(entry)) return '';
  if (!isFingerprint(entry.trajectory)) return '.trajectory';
  if (entry.sidecar !== null && !isFingerprint(entry.sidecar)) return '.sidecar';
  if (typeof entry.checkedAt !== 'number') return '.checkedAt';
  const { values, unreadable } = entry;
  if (!Array.isArray(values)) return '.values';
  if (isValue) for (let i = 0; i < values.length; i++) if (!isValue(values[i])) return `.values.${i}`;
  if (!Array.isArray(unreadable)) return '.unreadable';
  for (let i = 0; i < unreadable.length; i++) {
    const line: unknown = unreadable[i];
    if (!isObject(line) || typeof line.file !== 'string' || typeof line.message !== 'string') return `.unreadable.${i}`;
  }
  return undefined;
}

/**
 * Where a parsed index file departs from the shape this version writes (its JSON path, `$` for the
 * whole), or undefined when it has that shape. A structural check of each entry instead of a schema
 * parse of the whole (which cost about a third of reading the index): the file is our own cache,
 * and anything unexpected in it only means building it again.
 */
function indexShapeProblem(value: Record<string, unknown>, isValue: ((value: unknown) => boolean) | undefined): string | undefined {
  if (typeof value.key !== 'string') return '$.key';
  if (!Array.isArray(value.paths) || !value.paths.every((path) => typeof path === 'string')) return '$.paths';
  const files = value.files;
  if (!isObject(files)) return '$.files';
  for (const file in files) {
    const problem = entryShapeProblem(files[file], isValue);
    if (problem !== undefined) return `$.files.${file}${problem}`;
  }
  return undefined;
}

function readOldIndex(indexFile: string, key: string, isValue: ((value: unknown) => boolean) | undefined): { index?: IndexFile; note?: string } {
  let text: string;
  try {
    text = readFileSync(indexFile, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Absent (or its folder is not one): nothing to read; writing it says what is wrong.
    return code === 'ENOENT' || code === 'ENOTDIR' ? {} : { note: `${indexFile}: the collection index cannot be read (${code ?? 'error'}); building it again` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { note: `${indexFile}: the collection index is not valid JSON (a crash or another program wrote it); building it again` };
  }
  const schema = isObject(value) ? value.schema : undefined;
  const problem = !isObject(value) ? '$' : schema !== COLLECTION_INDEX_SCHEMA ? '$.schema' : indexShapeProblem(value, isValue);
  if (problem !== undefined) {
    const seen = typeof schema === 'string' ? `schema ${JSON.stringify(schema)}` : 'no index schema';
    const where = problem === '$' || problem === '$.schema' ? '' : ` at ${problem}`;
    return { note: `${indexFile}: not a collection index of this version (${seen}${where}; expected "${COLLECTION_INDEX_SCHEMA}"); building it again` };
  }
  const index = value as unknown as IndexFile;
  if (index.key !== key) return { note: `${indexFile}: the collection index belongs to another collection; building it again` };
  return { index };
}

function statOrUndefined(path: string): Stats | undefined {
  return statSync(path, { throwIfNoEntry: false });
}

const yieldToEventLoop = () => new Promise<void>((resolveTurn) => setImmediate(resolveTurn));

/**
 * One indexing of a collection, a file at a time, shared by the event stream (the collection view)
 * and the plain read (the CLI), which needs no event object and no generator step per file.
 */
class IndexPass<V> {
  readonly indexFile: string;
  readonly files: string[];
  /** Paths that cannot be read. */
  readonly missing: Unreadable[];
  readonly counts: IndexCounts;
  processed = 0;
  persisted = false;
  private readonly key: string;
  private readonly collect: (file: string, options: CollectFileOptions) => Collection;
  private readonly now: () => number;
  // The walk's folder listings say which sidecars exist, instead of a look-up per file (half the checks of a warm open).
  private readonly listings = new Map<string, ReadonlySet<string> | undefined>();
  /** Walked files whose sidecar the walk listed. */
  private readonly sidecarListed = new Set<string>();
  private oldFiles: Record<string, Entry> = {};
  /** The new entries of files changed since the old index (an unchanged file keeps its old one). */
  private readonly entries: Record<string, Entry> = {};
  /** Files read without an entry (unreadable before they could be fingerprinted): their old entries go. */
  private readonly uncachedFiles = new Set<string>();
  private changed = true;
  private cachedInTurn = 0;

  constructor(private readonly options: CollectionIndexOptions<V>) {
    this.collect = options.collect ?? collectFile;
    this.now = options.now ?? Date.now;
    ({ file: this.indexFile, key: this.key } = collectionIndexFile(options.storageDir, options.paths, options.format, options.settings));
    const { files, unreadable } = collectionFiles(options.paths, this.listings as Map<string, ReadonlySet<string>>);
    this.files = files;
    this.missing = unreadable;
    // Which walked files have a sidecar beside them, keyed by the file's own path (a look-up the
    // old index's look-up has already hashed), instead of splitting each path into folder and name.
    for (const [folder, names] of this.listings) {
      if (!names) continue;
      const prefix = join(folder, 'x').slice(0, -1); // as the walk joins
      for (const name of names) if (name.endsWith(SIDECAR_SUFFIX)) this.sidecarListed.add(prefix + name.slice(0, -SIDECAR_SUFFIX.length));
    }
    this.counts = { files: files.length, fromIndex: 0, rehashed: 0, reindexed: 0, dropped: 0 };
  }

  /** Reads the old index; a note when it is there but cannot be used. */
  readOld(): string | undefined {
    const old = readOldIndex(this.indexFile, this.key, this.options.isValue);
    this.oldFiles = old.index?.files ?? {};
    this.changed = old.index === undefined;
    return old.note;
  }

  /** Whether to index another file (none left, or cancelled: no). */
  more(): boolean {
    return this.processed < this.files.length && !this.options.signal?.aborted;
  }

  /** Indexes the next file (`files[processed]`). */
  next(): OneFile<V> {
    const file = this.files[this.processed];
    const named = this.options.paths.includes(file);
    const old = Object.hasOwn(this.oldFiles, file) ? this.oldFiles[file] : undefined;
    // A walked file's folder was listed by the walk; a file named on its own is looked up in its folder's listing.
    const hasSidecar = named ? this.namedFileHasSidecar(file) : this.sidecarListed.has(file);
    const one = indexOneFile(file, named, old, hasSidecar, this.options, this.collect, this.now);
    if (one.outcome === 'fromIndex') this.counts.fromIndex++;
    else if (one.outcome === 'rehashed') this.counts.rehashed++;
    else this.counts.reindexed++;
    if (one.outcome !== 'fromIndex') {
      this.changed = true;
      if (one.entry) this.entries[file] = one.entry;
      else this.uncachedFiles.add(file);
    }
    this.processed++;
    return one;
  }

  /** Whether to yield to the event loop after this file (so a cancel or a UI message gets through). */
  turnEnds(one: OneFile<V>): boolean {
    if (one.outcome === 'fromIndex' && ++this.cachedInTurn < CACHED_PER_TURN) return false;
    this.cachedInTurn = 0;
    return true;
  }

  /** Writes the index when anything changed; a note when it cannot be written. */
  persist(): string | undefined {
    this.persisted = true;
    const { files, oldFiles, options } = this;
    const cancelledEarly = this.processed < files.length;
    // Only several paths can name a file twice; one walk lists each file once, so no set is needed to count the distinct ones.
    const distinct = options.paths.length > 1 ? [...new Set(files)] : files;
    let kept = 0;
    for (const file of distinct) if (Object.hasOwn(oldFiles, file)) kept++;
    this.counts.dropped = Object.keys(oldFiles).length - kept;
    if (!this.changed && this.counts.dropped === 0) return undefined;
    // Unchanged files and, after a cancel, files not reached keep their old entries (those are checked next time).
    const entries: Record<string, Entry> = {};
    for (const file of files) {
      const entry =
        this.entries[file] ?? (this.uncachedFiles.has(file) && !cancelledEarly ? undefined : Object.hasOwn(oldFiles, file) ? oldFiles[file] : undefined);
      if (entry) entries[file] = entry;
    }
    const index: IndexFile = { schema: COLLECTION_INDEX_SCHEMA, key: this.key, paths: [...options.paths], files: entries };
    try {
      mkdirSync(join(options.storageDir, 'collections'), { recursive: true });
      writeFileAtomic(this.indexFile, JSON.stringify(index));
      return undefined;
    } catch (error) {
      return `${this.indexFile}: the collection index could not be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the next open reads every file again`;
    }
  }

  /** A file named on its own (not walked): its folder is listed once here; undefined when it cannot be listed. */
  private namedFileHasSidecar(file: string): boolean | undefined {
    const sidecarPath = sidecarPathFor(file);
    const folder = dirname(sidecarPath);
    if (!this.listings.has(folder)) {
      let names: Set<string> | undefined;
      try {
        names = new Set(readdirSync(folder));
      } catch {
        names = undefined; // unknown: each sidecar is looked up
      }
      this.listings.set(folder, names);
    }
    return this.listings.get(folder)?.has(basename(sidecarPath));
  }
}

/**
 * Indexes a collection, yielding each file's values as soon as they are known (from the index or
 * freshly read), in collection order: `start`, then one `file` per file, `note`s, then `end`.
 * When `signal` aborts, indexing stops after the current file; what was indexed is kept.
 */
export async function* indexCollection<V>(options: CollectionIndexOptions<V>): AsyncGenerator<IndexEvent<V>, void, undefined> {
  const pass = new IndexPass(options);
  const total = pass.files.length;
  yield { kind: 'start', total, indexFile: pass.indexFile, unreadable: pass.missing };
  const note = pass.readOld();
  if (note) yield { kind: 'note', message: note };
  try {
    while (pass.more()) {
      const file = pass.files[pass.processed];
      const one = pass.next();
      yield { kind: 'file', file, values: one.values, unreadable: one.unreadable, fromIndex: one.outcome !== 'reindexed', done: pass.processed, total };
      if (pass.turnEnds(one)) await yieldToEventLoop();
    }
    const cancelled = pass.processed < total;
    const problem = pass.persist();
    if (problem) yield { kind: 'note', message: problem };
    yield { kind: 'end', cancelled, counts: pass.counts };
  } finally {
    // The consumer stopped early (break out of for-await): keep what was indexed.
    if (!pass.persisted) pass.persist();
  }
}

interface OneFile<V> {
  outcome: 'fromIndex' | 'rehashed' | 'reindexed';
  values: V[];
  unreadable: Unreadable[];
  /** undefined: not cacheable (unreadable before its bytes could be fingerprinted). */
  entry?: Entry;
}

/** A file read without caching its values (the reader reports what is wrong with it). */
function uncached<V>(
  file: string,
  named: boolean,
  options: CollectionIndexOptions<V>,
  collect: (file: string, options: CollectFileOptions) => Collection,
): OneFile<V> {
  const collected = collect(file, { format: options.format, named });
  return { outcome: 'reindexed', values: collected.trajectories.map(options.summarize), unreadable: collected.unreadable };
}

function indexOneFile<V>(
  file: string,
  named: boolean,
  old: Entry | undefined,
  /** Whether the file's folder listing has its sidecar; undefined: not known, looked up. */
  hasSidecar: boolean | undefined,
  options: CollectionIndexOptions<V>,
  collect: (file: string, options: CollectFileOptions) => Collection,
  now: () => number,
): OneFile<V> {
  const checkedAt = now();
  const sidecarPath = sidecarPathFor(file);
  let stat: Stats | undefined;
  let sidecarStat: Stats | undefined;
  try {
    stat = statOrUndefined(file);
    sidecarStat = hasSidecar === false ? undefined : lstatSync(sidecarPath, { throwIfNoEntry: false });
  } catch {
    stat = undefined;
  }
  // Missing, too large, not a regular file, a linked sidecar: the reader says what is wrong, every time.
  if (!stat || !stat.isFile() || stat.size > MAX_TEXT_BYTES || (sidecarStat && !sidecarStat.isFile())) return uncached(file, named, options, collect);
  if (old && sameStat(old.trajectory, stat, old.checkedAt) && sameStat(old.sidecar, sidecarStat, old.checkedAt)) {
    return { outcome: 'fromIndex', values: old.values as V[], unreadable: old.unreadable, entry: old };
  }
  let bytes: Buffer;
  let sidecarBytes: Buffer | undefined;
  try {
    bytes = readFileSync(file);
    sidecarBytes = sidecarStat ? readFileSync(sidecarPath) : undefined;
  } catch {
    return uncached(file, named, options, collect);
  }
  const trajectory: Fingerprint = { size: stat.size, mtimeMs: stat.mtimeMs, sha256: sha256(bytes) };
  const sidecar: Fingerprint | null =
    sidecarStat && sidecarBytes ? { size: sidecarStat.size, mtimeMs: sidecarStat.mtimeMs, sha256: sha256(sidecarBytes) } : null;
  if (old && old.trajectory.sha256 === trajectory.sha256 && (old.sidecar?.sha256 ?? null) === (sidecar?.sha256 ?? null)) {
    return { outcome: 'rehashed', values: old.values as V[], unreadable: old.unreadable, entry: { ...old, trajectory, sidecar, checkedAt } };
  }
  const collected = collect(file, { format: options.format, named, bytes });
  const values = collected.trajectories.map(options.summarize);
  return {
    outcome: 'reindexed',
    values,
    unreadable: collected.unreadable,
    entry: { trajectory, sidecar, checkedAt, values, unreadable: collected.unreadable },
  };
}

export interface IndexedCollection<V> {
  values: V[];
  unreadable: Unreadable[];
  notes: string[];
  cancelled: boolean;
  counts: IndexCounts;
  indexFile: string;
}

/**
 * The whole collection through its index (what `trajaudit stats` and the exports read): the same
 * pass as `indexCollection`, without an event per file.
 */
export async function readIndexedCollection<V>(options: CollectionIndexOptions<V>): Promise<IndexedCollection<V>> {
  const pass = new IndexPass(options);
  const values: V[] = [];
  const unreadable = [...pass.missing];
  const notes: string[] = [];
  const note = pass.readOld();
  if (note) notes.push(note);
  try {
    while (pass.more()) {
      const one = pass.next();
      for (const value of one.values) values.push(value);
      for (const line of one.unreadable) unreadable.push(line);
      // Only a read that can be cancelled yields to the event loop: a yield is also when V8 runs its
      // pending GC tasks, which cost a warm `stats` milliseconds for nothing it waits on.
      if (options.signal && pass.turnEnds(one)) await yieldToEventLoop();
    }
  } finally {
    // A file that threw stops the read; what was indexed before it is kept.
    const problem = pass.persist();
    if (problem) notes.push(problem);
  }
  return { values, unreadable, notes, cancelled: pass.processed < pass.files.length, counts: pass.counts, indexFile: pass.indexFile };
}

// ---- The index of collection rows (what the collection view, `trajaudit stats` and `collection` read) ----

/** Bump when CollectionRow or how rowOf computes it changes: indexes of rows of another version are rebuilt. */
export const ROW_INDEX_VERSION = 1;

export interface RowIndexOptions {
  storageDir: string;
  paths: readonly string[];
  format?: TrajectoryFormat;
  names?: ToolNames;
  signal?: AbortSignal;
}

/**
 * A row read back from the index has the fields the table, the filters and `stats` compute with
 * (their kinds, not every value: the row index is our own file, versioned by ROW_INDEX_VERSION).
 */
export function isIndexedRow(value: unknown): boolean {
  if (!isObject(value)) return false;
  const row = value as Partial<Record<keyof CollectionRow, unknown>>;
  return (
    typeof row.id === 'string' &&
    typeof row.file === 'string' &&
    typeof row.record === 'string' &&
    typeof row.format === 'string' &&
    typeof row.messages === 'number' &&
    typeof row.decisionSteps === 'number' &&
    typeof row.tokens === 'number' &&
    typeof row.toolCalls === 'number' &&
    typeof row.atomicOps === 'number' &&
    isObject(row.toolCallsByKind) &&
    isObject(row.outcome) &&
    (row.human === null || isObject(row.human)) &&
    (row.audit === null || isObject(row.audit))
  );
}

/** The index options of a collection's rows: one index per paths, format and tool names. */
export function rowIndexOptions(options: RowIndexOptions): CollectionIndexOptions<CollectionRow> {
  const names = options.names ?? {};
  return {
    storageDir: options.storageDir,
    paths: options.paths,
    format: options.format,
    signal: options.signal,
    settings: { rows: ROW_INDEX_VERSION, searchNames: names.searchNames ?? null, visitNames: names.visitNames ?? null },
    summarize: (collected) => rowOf(collected, { names }),
    isValue: isIndexedRow,
  };
}
