// Inspect AI `.eval` logs are zip archives: `header.json` (the log without samples; while a run is
// going, `_journal/start.json`), one `samples/<id>_epoch_<n>.json` per sample and epoch, and
// `summaries.json`. Listing the records reads only the entries' headers and the small summary
// entries; a sample's entry is inflated the first time its trajectory is read, so opening a
// 100 MB log's first sample does not inflate the rest.
import { Unzip, UnzipInflate, type UnzipDecoder, type UnzipFile } from 'fflate';
import { Decompress as ZstdDecompress } from 'fzstd';
import { InputError } from '../input/inputError';
import { parseJson } from '../input/jsonText';
import { inspectReader, inspectRecordId, withLogContext, type InspectLogContext } from '../formats/inspect';
import { isObject } from '../formats/fields';
import type { Trajectory } from '../model/trajectory';
import type { Problem } from '../input/inputError';
import type { LoadedFile } from './loadFile';
import type { TrajectoryRecord } from './loadRecord';

/** A zip archive's first bytes: a local file header (`PK\x03\x04`). */
export function isZipArchive(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

export interface ZipLoadOptions {
  /** Called with each entry's name as it is inflated (tests count them). */
  onInflate?: (entry: string) => void;
}

/** Zip compression method 93 (Zstandard): Inspect writes `.eval` entries with it since 2026. */
class UnzipZstd implements UnzipDecoder {
  static compression = 93;
  ondata: UnzipDecoder['ondata'] = () => undefined;
  private readonly stream = new ZstdDecompress((data, final) => this.ondata(null, data as Uint8Array<ArrayBuffer>, final ?? false));
  push(chunk: Uint8Array, final: boolean): void {
    try {
      this.stream.push(chunk, final);
    } catch (error) {
      this.ondata(Object.assign(new Error(error instanceof Error ? error.message : String(error)), { code: 0 }), new Uint8Array(), true);
    }
  }
}

/** Walks the archive's entries in order; `pick` chooses the ones to inflate, whose bytes `onEntry` gets. */
function walkZip(bytes: Uint8Array, pick: (name: string) => boolean, onEntry: (name: string, data: Uint8Array) => void, onName?: (name: string) => void): void {
  const failures: string[] = [];
  const unzip = new Unzip((file: UnzipFile) => {
    onName?.(file.name);
    if (!pick(file.name)) return;
    const chunks: Uint8Array[] = [];
    file.ondata = (error, data, final) => {
      if (error) {
        failures.push(`${file.name}: ${error.message}`);
        return;
      }
      chunks.push(data);
      if (final) onEntry(file.name, concat(chunks));
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipZstd);
  unzip.push(bytes, true);
  if (failures.length) throw new Error(failures[0]);
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

const SAMPLE_ENTRY = /^samples\/(.+)_epoch_(\d+)\.json$/;
const SUMMARY_JOURNAL = /^_journal\/summaries\/\d+\.json$/;

/** The records of an Inspect `.eval` zip, each inflating its sample on first read. */
export function loadZipBytes(bytes: Uint8Array, displayName: string, options: ZipLoadOptions = {}): LoadedFile {
  const names: string[] = [];
  const small = new Map<string, string>();
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const isSmallEntry = (name: string) => name === 'header.json' || name === '_journal/start.json' || name === 'summaries.json' || SUMMARY_JOURNAL.test(name);
  try {
    walkZip(
      bytes,
      isSmallEntry,
      (name, data) => {
        options.onInflate?.(name);
        small.set(name, decoder.decode(data));
      },
      (name) => names.push(name),
    );
  } catch (error) {
    throw new InputError(displayName, `unreadable zip archive (${(error as Error).message}); expected an Inspect AI .eval log`, { line: 1, column: 1 });
  }
  const headerName = small.has('header.json') ? 'header.json' : small.has('_journal/start.json') ? '_journal/start.json' : undefined;
  if (!headerName) {
    const seen = names.slice(0, 6).join(', ') || 'no entries';
    throw new InputError(displayName, `a zip archive without header.json or _journal/start.json (entries: ${seen}); expected an Inspect AI .eval log`);
  }
  const header = parseEntry(small.get(headerName)!, displayName, headerName);
  if (!isObject(header) || !isObject(header.eval) || typeof header.eval.task !== 'string')
    throw new InputError(`${displayName} (${headerName})`, 'expected an Inspect AI log header: an object with `eval` {task, model, …}', { path: '$.eval' });
  const context: InspectLogContext = { eval: header.eval, status: header.status };
  const samples = names.flatMap((name) => {
    const match = SAMPLE_ENTRY.exec(name);
    return match ? [{ name, sampleId: match[1], epoch: Number(match[2]) }] : [];
  });
  const configured = isObject(header.eval.config) && typeof header.eval.config.epochs === 'number' ? header.eval.config.epochs : 1;
  const manyEpochs = configured > 1 || samples.some((s) => s.epoch !== 1);
  const queries = summaryQueries(small, displayName);
  const spans = entrySpans(bytes, names);
  const inflateFrom = (archive: Uint8Array, entry: string): string | undefined => {
    let text: string | undefined;
    try {
      walkZip(
        archive,
        (name) => name === entry,
        (name, data) => {
          options.onInflate?.(name);
          text = decoder.decode(data);
        },
      );
    } catch (error) {
      throw new InputError(displayName, `cannot inflate ${entry} (${(error as Error).message})`);
    }
    return text;
  };
  const readEntry = (entry: string): string => {
    // The entry's own bytes when its span is known (reading one sample is then independent of the log's size), else the whole archive.
    const span = spans?.get(entry);
    const text = (span ? inflateFrom(bytes.subarray(span[0], span[1]), entry) : undefined) ?? inflateFrom(bytes, entry);
    if (text === undefined) throw new InputError(displayName, `the zip entry ${entry} is gone`);
    return text;
  };
  const records: TrajectoryRecord[] = samples.map(({ name, sampleId, epoch }) => {
    const id = inspectRecordId(sampleId, epoch, manyEpochs);
    return lazyRecord(id, queries.get(`${sampleId}\u0000${epoch}`), () => {
      const file = `${displayName} (${name})`;
      const text = readEntry(name);
      const value = parseEntry(text, displayName, name);
      return inspectReader.load(isObject(value) ? withLogContext(value, context) : value, { file, text }, id);
    });
  });
  const problems: Problem[] = [];
  if (records.length === 0)
    throw new InputError(
      displayName,
      `an Inspect AI .eval log with no samples/<id>_epoch_<n>.json entries (status ${String(header.status ?? 'unknown')}); expected at least one sample`,
    );
  return {
    file: displayName,
    container: 'eval-zip',
    detection: { kind: 'inspect', reason: `a zip archive with ${headerName} and ${samples.length} sample entries (Inspect AI .eval log)` },
    records,
    problems,
  };
}

const LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const CENTRAL_HEADER = Buffer.from([0x50, 0x4b, 0x01, 0x02]);

/**
 * Where each entry's local header and data lie ([start, end) byte offsets), found by looking for
 * each local header signature followed by the entry's name, in archive order; undefined when an
 * entry cannot be found so (readers then walk the whole archive, which is always right).
 */
export function entrySpans(bytes: Uint8Array, names: string[]): Map<string, [number, number]> | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const starts: number[] = [];
  let from = 0;
  for (const name of names) {
    const nameBytes = Buffer.from(name, 'utf8');
    let at = buffer.indexOf(LOCAL_HEADER, from);
    while (
      at !== -1 &&
      !(
        at + 30 + nameBytes.length <= buffer.length &&
        buffer.readUInt16LE(at + 26) === nameBytes.length &&
        buffer.subarray(at + 30, at + 30 + nameBytes.length).equals(nameBytes)
      )
    )
      at = buffer.indexOf(LOCAL_HEADER, at + 1);
    if (at === -1) return undefined;
    starts.push(at);
    from = at + 30 + nameBytes.length;
  }
  const central = buffer.indexOf(CENTRAL_HEADER, from);
  const spans = new Map<string, [number, number]>();
  names.forEach((name, i) => spans.set(name, [starts[i], starts[i + 1] ?? (central === -1 ? buffer.length : central)]));
  return spans;
}

function parseEntry(text: string, displayName: string, entry: string): unknown {
  return parseJson(text, `${displayName} (${entry})`);
}

/** Each sample's query from the summaries (`summaries.json`, or the journal's while a run goes on), keyed by id and epoch. */
function summaryQueries(small: Map<string, string>, displayName: string): Map<string, string> {
  const queries = new Map<string, string>();
  const lists = small.has('summaries.json') ? ['summaries.json'] : [...small.keys()].filter((n) => SUMMARY_JOURNAL.test(n));
  for (const name of lists) {
    const value = parseEntry(small.get(name)!, displayName, name);
    if (!Array.isArray(value)) continue;
    for (const summary of value) {
      if (!isObject(summary) || (typeof summary.id !== 'string' && typeof summary.id !== 'number')) continue;
      const query = queryOf(summary.input);
      if (query !== undefined) queries.set(`${summary.id}\u0000${String(summary.epoch ?? 1)}`, query);
    }
  }
  return queries;
}

function queryOf(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return undefined;
  const user = input.find((m) => isObject(m) && m.role === 'user') as Record<string, unknown> | undefined;
  if (!user) return undefined;
  if (typeof user.content === 'string') return user.content;
  if (Array.isArray(user.content))
    return user.content
      .filter((p): p is Record<string, unknown> => isObject(p) && p.type === 'text' && typeof p.text === 'string')
      .map((p) => p.text as string)
      .join('\n');
  return undefined;
}

/** A record whose trajectory is read on first access (and kept); `query` labels it in record lists meanwhile. */
function lazyRecord(id: string, query: string | undefined, load: () => Trajectory): TrajectoryRecord {
  let trajectory: Trajectory | undefined;
  const record = { kind: 'inspect', id } as TrajectoryRecord;
  // Without a summary the label must still not read the sample.
  record.listQuery = query ?? '(sample not read yet)';
  Object.defineProperty(record, 'trajectory', {
    enumerable: true,
    get: () => (trajectory ??= load()),
  });
  return record;
}
