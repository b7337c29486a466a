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
import { z } from 'zod';
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

/** Cached files checked between two yields to the event loop (so a cancel or a UI message gets through). */
const CACHED_PER_TURN = 200;

const fingerprintSchema = z.object({ size: z.number(), mtimeMs: z.number(), sha256: z.string() });
export type Fingerprint = z.infer<typeof fingerprintSchema>;

const entrySchema = z.object({
  trajectory: fingerprintSchema,
  /** null: the file had no sidecar. */
  sidecar: fingerprintSchema.nullable(),
  /** When the fingerprints were taken (ms since the epoch). */
  checkedAt: z.number(),
  values: z.array(z.unknown()),
  unreadable: z.array(z.object({ file: z.string(), message: z.string() })),
});
type Entry = z.infer<typeof entrySchema>;

const indexFileSchema = z.object({
  schema: z.literal(COLLECTION_INDEX_SCHEMA),
  key: z.string(),
  paths: z.array(z.string()),
  files: z.record(z.string(), entrySchema),
});
type IndexFile = z.infer<typeof indexFileSchema>;

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

function readOldIndex(indexFile: string, key: string): { index?: IndexFile; note?: string } {
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
  const parsed = indexFileSchema.safeParse(value);
  if (!parsed.success) {
    const schema = (value as { schema?: unknown } | null)?.schema;
    const seen = typeof schema === 'string' ? `schema ${JSON.stringify(schema)}` : 'no index schema';
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length ? ` at $.${issue.path.join('.')}` : '';
    return { note: `${indexFile}: not a collection index of this version (${seen}${where}; expected "${COLLECTION_INDEX_SCHEMA}"); building it again` };
  }
  if (parsed.data.key !== key) return { note: `${indexFile}: the collection index belongs to another collection; building it again` };
  return { index: parsed.data };
}

function statOrUndefined(path: string): Stats | undefined {
  return statSync(path, { throwIfNoEntry: false });
}

const yieldToEventLoop = () => new Promise<void>((resolveTurn) => setImmediate(resolveTurn));

/**
 * Indexes a collection, yielding each file's values as soon as they are known (from the index or
 * freshly read), in collection order: `start`, then one `file` per file, `note`s, then `end`.
 * When `signal` aborts, indexing stops after the current file; what was indexed is kept.
 */
export async function* indexCollection<V>(options: CollectionIndexOptions<V>): AsyncGenerator<IndexEvent<V>, void, undefined> {
  const collect = options.collect ?? collectFile;
  const now = options.now ?? Date.now;
  const { file: indexFile, key } = collectionIndexFile(options.storageDir, options.paths, options.format, options.settings);
  // The walk's folder listings say which sidecars exist, instead of a look-up per file (half the checks of a warm open).
  const listings = new Map<string, ReadonlySet<string> | undefined>();
  const { files, unreadable: missing } = collectionFiles(options.paths, listings as Map<string, ReadonlySet<string>>);
  yield { kind: 'start', total: files.length, indexFile, unreadable: missing };

  const old = readOldIndex(indexFile, key);
  if (old.note) yield { kind: 'note', message: old.note };
  const oldFiles = old.index?.files ?? {};
  /** The new entries of files changed since the old index (an unchanged file keeps its old one). */
  const entries: Record<string, Entry> = {};
  /** Files read without an entry (unreadable before they could be fingerprinted): their old entries go. */
  const uncachedFiles = new Set<string>();
  const counts: IndexCounts = { files: files.length, fromIndex: 0, rehashed: 0, reindexed: 0, dropped: 0 };
  let changed = old.index === undefined;
  let persisted = false;
  let processed = 0;

  const persist = (): string | undefined => {
    persisted = true;
    const cancelledEarly = processed < files.length;
    // Only several paths can name a file twice; one walk lists each file once, so no set is needed to count the distinct ones.
    const distinct = options.paths.length > 1 ? [...new Set(files)] : files;
    counts.dropped = Object.keys(oldFiles).length - distinct.filter((file) => Object.hasOwn(oldFiles, file)).length;
    if (!changed && counts.dropped === 0) return undefined;
    // Unchanged files and, after a cancel, files not reached keep their old entries (those are checked next time).
    const kept: Record<string, Entry> = {};
    for (const file of files) {
      const entry = entries[file] ?? (uncachedFiles.has(file) && !cancelledEarly ? undefined : Object.hasOwn(oldFiles, file) ? oldFiles[file] : undefined);
      if (entry) kept[file] = entry;
    }
    const index: IndexFile = { schema: COLLECTION_INDEX_SCHEMA, key, paths: [...options.paths], files: kept };
    try {
      mkdirSync(join(options.storageDir, 'collections'), { recursive: true });
      writeFileAtomic(indexFile, JSON.stringify(index));
      return undefined;
    } catch (error) {
      return `${indexFile}: the collection index could not be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the next open reads every file again`;
    }
  };

  // A file named on its own (not walked): its folder is listed once here.
  const folderNames = (folder: string): ReadonlySet<string> | undefined => {
    if (!listings.has(folder)) {
      let names: Set<string> | undefined;
      try {
        names = new Set(readdirSync(folder));
      } catch {
        names = undefined; // unknown: each sidecar is looked up
      }
      listings.set(folder, names);
    }
    return listings.get(folder);
  };
  try {
    let cachedInTurn = 0;
    for (let done = 0; done < files.length; done++) {
      if (options.signal?.aborted) break;
      const file = files[done];
      const named = options.paths.includes(file);
      const entry = indexOneFile(file, named, oldFiles[file], options, collect, now, folderNames);
      if (entry.outcome === 'fromIndex') counts.fromIndex++;
      else if (entry.outcome === 'rehashed') counts.rehashed++;
      else counts.reindexed++;
      if (entry.outcome !== 'fromIndex') {
        changed = true;
        if (entry.entry) entries[file] = entry.entry;
        else uncachedFiles.add(file);
      }
      processed++;
      yield {
        kind: 'file',
        file,
        values: entry.values,
        unreadable: entry.unreadable,
        fromIndex: entry.outcome !== 'reindexed',
        done: done + 1,
        total: files.length,
      };
      if (entry.outcome === 'fromIndex' && ++cachedInTurn < CACHED_PER_TURN) continue;
      cachedInTurn = 0;
      await yieldToEventLoop();
    }
    const cancelled = processed < files.length;
    const problem = persist();
    if (problem) yield { kind: 'note', message: problem };
    yield { kind: 'end', cancelled, counts };
  } finally {
    // The consumer stopped early (break out of for-await): keep what was indexed.
    if (!persisted) persist();
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
  options: CollectionIndexOptions<V>,
  collect: (file: string, options: CollectFileOptions) => Collection,
  now: () => number,
  folderNames: (folder: string) => ReadonlySet<string> | undefined,
): OneFile<V> {
  const checkedAt = now();
  const sidecarPath = sidecarPathFor(file);
  let stat: Stats | undefined;
  let sidecarStat: Stats | undefined;
  try {
    stat = statOrUndefined(file);
    const listed = folderNames(dirname(sidecarPath));
    sidecarStat = listed && !listed.has(basename(sidecarPath)) ? undefined : lstatSync(sidecarPath, { throwIfNoEntry: false });
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

/** The whole collection through its index (what `trajaudit stats` and the exports read). */
export async function readIndexedCollection<V>(options: CollectionIndexOptions<V>): Promise<IndexedCollection<V>> {
  const result: IndexedCollection<V> = {
    values: [],
    unreadable: [],
    notes: [],
    cancelled: false,
    counts: { files: 0, fromIndex: 0, rehashed: 0, reindexed: 0, dropped: 0 },
    indexFile: '',
  };
  for await (const event of indexCollection(options)) {
    if (event.kind === 'start') {
      result.indexFile = event.indexFile;
      result.unreadable.push(...event.unreadable);
    } else if (event.kind === 'note') result.notes.push(event.message);
    else if (event.kind === 'file') {
      for (const value of event.values) result.values.push(value);
      result.unreadable.push(...event.unreadable);
    } else {
      result.cancelled = event.cancelled;
      result.counts = event.counts;
    }
  }
  return result;
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
  };
}
