import { parse as parseCsv } from 'csv-parse/sync';
import { basename } from 'node:path';
import { InputError, problemFromError, type Problem } from '../input/inputError';
import { SHORTEST_TOO_DEEP_TEXT } from '../input/jsonDepth';
import {
  checkNesting,
  forEachNonBlankLine,
  formatJsonPath,
  lineCountOf,
  lineStartingAt,
  locateJsonPath,
  nonBlankLines,
  parseJson,
  parseJsonLine,
  type JsonPath,
} from '../input/jsonText';
import { decodeText, readFileBytes } from '../input/readText';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import { deepSearchQaRowSchema } from '../items/schemas';
import { detectJsonValue, explainLinesUndetected, undetectedError, type Detection } from '../formats/detect';
import { isObject, recordIdOf } from '../formats/fields';
import { feedLines } from '../formats/sessionLines';
import {
  decide,
  DETECTION_LINES,
  FULL_MATCH,
  rankLineFormats,
  readerFor,
  TRAJECTORY_READERS,
  type FormatMatch,
  type LinesRecord,
  type SplitRecord,
  type TrajectoryReader,
} from '../formats/registry';
import type { TrajectoryFormat } from '../model/trajectory';
import { isZipArchive, loadZipBytes } from './loadZip';
import { loadRecord, type LoadedRecord, type TrajectoryRecord } from './loadRecord';

/**
 * How the file holds its records: one JSON value (`json`), a JSON array of records, one JSON value
 * its reader splits into many trajectories (`json-split`: Inspect samples, OTLP traces), one record
 * per JSONL line, a JSONL file whose lines together make trajectories (`jsonl-session`: a Claude
 * Code or Codex session), or DeepSearchQA CSV.
 */
export type Container = 'json' | 'json-array' | 'json-split' | 'jsonl' | 'jsonl-session' | 'csv' | 'eval-zip';

export interface LoadedFile {
  file: string;
  container: Container;
  /** Detection of the first good record: the file's kind. */
  detection: Detection;
  records: LoadedRecord[];
  /** Records that could not be loaded; the rest of the file still is. */
  problems: Problem[];
}

export interface LoadOptions {
  /** Name used in messages; defaults to the path. */
  displayName?: string;
  /**
   * Read every trajectory with this format's reader (`--format`, "Reopen as format…"): detection
   * is skipped, and a value the reader cannot load gets the reader's own error.
   */
  format?: TrajectoryFormat;
}

/** Loads any supported file by content: JSON, JSON array of records, JSONL or CSV. */
export function loadFile(path: string, options: LoadOptions = {}): LoadedFile {
  const displayName = options.displayName ?? path;
  const bytes = readFileBytes(path, displayName);
  // An Inspect AI .eval log is a zip (known by its first bytes, never by its name).
  if (isZipArchive(bytes)) return loadZipBytes(bytes, displayName);
  const text = decodeText(bytes, displayName);
  return loadText(text, displayName, options);
}

/** The ids `LoadOptions.format` takes: the formats that have a reader, in registry order. */
export function readableFormats(): TrajectoryFormat[] {
  return TRAJECTORY_READERS.map((reader) => reader.id);
}

function forcedReader(format: TrajectoryFormat | undefined, displayName: string): TrajectoryReader | undefined {
  if (format === undefined) return undefined;
  const reader = readerFor(format);
  if (!reader) throw new InputError(displayName, `unknown format ${JSON.stringify(format)}; expected one of ${readableFormats().join(', ')}`);
  return reader;
}

/** Loads a file's bytes (the editor reads them through VS Code): an Inspect .eval zip, else text as `loadText`. */
export function loadBytes(bytes: Uint8Array, displayName: string, options: Pick<LoadOptions, 'format'> = {}): LoadedFile {
  if (isZipArchive(bytes)) return loadZipBytes(bytes, displayName);
  return loadText(decodeText(bytes, displayName), displayName, options);
}

export function loadText(text: string, displayName: string, options: Pick<LoadOptions, 'format'> = {}): LoadedFile {
  const forced = forcedReader(options.format, displayName);
  const first = firstNonSpace(text);
  if (!forced && first !== '{' && first !== '[' && first !== '"' && !/^[-\d]/.test(first) && looksLikeCsv(text)) {
    return loadCsv(text, displayName);
  }
  // JSONL is told by its first two lines before the whole text is tried as one JSON value: that
  // failing parse cost about a quarter of a JSONL session's load.
  if (isJsonLines(text)) return loadJsonLines(text, displayName, forced);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    parseJson(text, displayName); // throws with line:column
  }
  checkNesting(value, text, displayName);
  return forced ? loadForcedValue(forced, value, text, displayName) : loadJsonValue(value, text, displayName);
}

// The white space String#trimStart removes (\s is the same set).
const WHITE_SPACE = /\s/;

/** The first character that is not white space ('' for none), without a trimmed copy of a large text. */
function firstNonSpace(text: string): string {
  let i = 0;
  while (i < text.length && WHITE_SPACE.test(text[i])) i++;
  return i < text.length ? text[i] : '';
}

function looksLikeCsv(text: string): boolean {
  const header = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
  return header.includes(',') && /\bproblem\b/.test(header);
}

/**
 * JSONL when the first non-empty line is a complete JSON value and at least one more line follows
 * (a JSON text whose first line is a whole value cannot have another non-blank line).
 */
function isJsonLines(text: string): boolean {
  // Only the first two non-blank lines are looked at: splitting a 50 MB text cost more than parsing a line.
  const lines = nonBlankLines(text);
  const first = lines.next();
  if (first.done || lines.next().done) return false;
  try {
    JSON.parse(first.value.line);
    return true;
  } catch {
    return false;
  }
}

function isFullMatch(match: FormatMatch | undefined): boolean {
  return match !== undefined && match.score >= FULL_MATCH;
}

function forcedDetection(reader: TrajectoryReader): Detection {
  return { kind: reader.id, reason: `read as ${reader.label} as asked (--format ${reader.id})` };
}

/**
 * A reader's load, with any failure as a one-line InputError: readers throw InputErrors for the
 * shapes they expect, but a forced reader meets shapes it never expected.
 */
function loadWith(reader: TrajectoryReader, value: unknown, source: SourceText, id: string): TrajectoryRecord {
  try {
    return { kind: reader.id, id, trajectory: reader.load(value, source, id) };
  } catch (error) {
    throw asInputError(error, reader, source.file, source.basePath);
  }
}

function asInputError(error: unknown, reader: TrajectoryReader, file: string, basePath?: (string | number)[]): InputError {
  if (error instanceof InputError) return error;
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new InputError(file, `cannot be read as ${reader.label} (\`${reader.id}\`): ${message}`, { path: formatJsonPath(basePath ?? []) });
}

/** The records of one JSON value its reader splits (ids from `split`; each record loaded on its own). */
function loadSplit(
  reader: TrajectoryReader,
  split: NonNullable<TrajectoryReader['split']>,
  value: unknown,
  text: string,
  displayName: string,
  detection: Detection,
): LoadedFile {
  const records: LoadedRecord[] = [];
  const paths: JsonPath[] = [];
  const problems: Problem[] = [];
  let parts: SplitRecord[];
  try {
    parts = split.call(reader, value);
  } catch (error) {
    throw asInputError(error, reader, displayName);
  }
  for (const part of parts) {
    try {
      records.push(loadWith(reader, part.value, { file: displayName, text, basePath: part.path }, part.id));
      paths.push(part.path);
    } catch (error) {
      problems.push(problemFromError(displayName, error));
    }
  }
  if (records.length === 0)
    throw toError(
      problems[0] ?? { file: displayName, message: `no trajectories in this ${reader.label} file; expected at least one`, path: '$', severity: 'error' },
    );
  const unique = withoutDuplicateIds(records, displayName, problems, (i) => {
    const where = locateJsonPath(text, paths[i]);
    return { path: formatJsonPath(paths[i]), ...(where ? { line: where.line, column: where.column } : {}) };
  });
  return { file: displayName, container: 'json-split', detection, records: unique, problems };
}

/** A JSON value read with the reader the user chose. */
function loadForcedValue(reader: TrajectoryReader, value: unknown, text: string, displayName: string): LoadedFile {
  const detection = forcedDetection(reader);
  if (reader.split) return loadSplit(reader, reader.split, value, text, displayName, detection);
  // A JSON array of this format's records: the array is not one trajectory of it, its first element is.
  if (Array.isArray(value) && value.length > 0 && value.every(isObject) && !isFullMatch(reader.detect(value)) && isFullMatch(reader.detect(value[0]))) {
    return loadArrayOfRecords(value, text, displayName, detection, () => detection);
  }
  const record = loadWith(reader, value, { file: displayName, text }, '0');
  return { file: displayName, container: 'json', detection, records: [record], problems: [] };
}

function loadJsonValue(value: unknown, text: string, displayName: string): LoadedFile {
  const detection = detectJsonValue(value);
  if (detection) {
    const reader = readerFor(detection.kind as TrajectoryFormat);
    if (reader?.split) return loadSplit(reader, reader.split, value, text, displayName, detection);
    const record = loadRecordWith(value, detection, { file: displayName, text }, defaultSingleId(value, detection));
    return { file: displayName, container: 'json', detection, records: [record], problems: [] };
  }
  // A JSON array of records (trajectories or items), each detected on its own.
  if (Array.isArray(value) && value.length > 0 && value.every(isObject)) {
    const firstDetection = detectJsonValue(value[0]);
    if (firstDetection) return loadArrayOfRecords(value, text, displayName, firstDetection, detectJsonValue);
  }
  throw undetectedError(value, { file: displayName, text }, { path: '$', line: 1, column: 1 });
}

function loadArrayOfRecords(
  value: Record<string, unknown>[],
  text: string,
  displayName: string,
  firstDetection: Detection,
  detectOne: (element: unknown) => Detection | undefined,
): LoadedFile {
  const records: LoadedRecord[] = [];
  const problems: Problem[] = [];
  const indexes: number[] = [];
  value.forEach((element, index) => {
    try {
      const d = detectOne(element);
      if (!d) throw undetectedError(element, { file: displayName, text, basePath: [index] }, { path: `$[${index}]` });
      const id = d.kind === 'deepsearchqa' ? (recordIdOf(element) ?? String(index)) : (recordIdOf(element) ?? String(index + 1));
      records.push(loadRecordWith(element, d, { file: displayName, text, basePath: [index] }, id));
      indexes.push(index);
    } catch (error) {
      problems.push(problemFromError(displayName, error));
    }
  });
  if (records.length === 0) throw toError(problems[0]);
  const unique = withoutDuplicateIds(records, displayName, problems, (i) => {
    const where = locateJsonPath(text, [indexes[i]]);
    return { path: `$[${indexes[i]}]`, ...(where ? { line: where.line, column: where.column } : {}) };
  });
  return { file: displayName, container: 'json-array', detection: firstDetection, records: unique, problems };
}

/** loadRecord, with a trajectory reader's unexpected failure as a one-line InputError. */
function loadRecordWith(value: unknown, detection: Detection, source: SourceText, id: string): LoadedRecord {
  const reader = readerFor(detection.kind as TrajectoryFormat);
  return reader ? loadWith(reader, value, source, id) : loadRecord(value, detection, source, id);
}

function defaultSingleId(value: unknown, detection: Detection): string {
  if (detection.kind === 'deepsearchqa' && isObject(value)) return recordIdOf(value) ?? '0';
  if (['delegation-item', 'clarify-instance'].includes(detection.kind) && isObject(value)) return recordIdOf(value) ?? '0';
  return '0';
}

function toError(problem: Problem): InputError {
  return new InputError(problem.file, problem.message, problem);
}

// Beyond this many lines the lists grow as needed (a text of blank lines reserves no more).
const MAX_RESERVED_LINES = 1 << 22;

/**
 * parseJsonLine, without the nesting walk for a line too short to nest too deep (the walk of every
 * line cost about a third of its parse on a Codex rollout, whose lines are nearly all shorter).
 */
function parseLine(line: string, lineNumber: number, displayName: string): unknown {
  if (line.length >= SHORTEST_TOO_DEEP_TEXT) return parseJsonLine(line, lineNumber, displayName);
  try {
    return JSON.parse(line);
  } catch {
    return parseJsonLine(line, lineNumber, displayName); // throws the error naming line:column
  }
}

function loadJsonLines(text: string, displayName: string, forced?: TrajectoryReader): LoadedFile {
  const problems: Problem[] = [];
  // Sized once for every line and cut to the parsed ones after: grown by push, the lists
  // allocated about three times their final size on top of the parsed lines. A line's text is
  // cut out again from its start only for a record read on its own (session readers never need
  // it), so the lines' slices die at once instead of being kept for the whole load.
  // The first lines choose the reader; the lists for every line are made only when it needs them.
  let values: unknown[] = new Array(DETECTION_LINES);
  let lineNumbers: number[] = new Array(DETECTION_LINES);
  let lineStarts: number[] = new Array(DETECTION_LINES);
  let parsed = 0;
  const parseInto = (line: string, lineNumber: number, start: number): boolean => {
    try {
      values[parsed] = parseLine(line, lineNumber, displayName);
      lineNumbers[parsed] = lineNumber;
      lineStarts[parsed] = start;
      parsed++;
    } catch (error) {
      problems.push(problemFromError(displayName, error));
    }
    return parsed < DETECTION_LINES;
  };
  const rest = forEachNonBlankLine(text, parseInto);
  if (rest) {
    // A reader that reads line by line, chosen by the first lines, gets the rest one at a time.
    const first = values.slice(0, parsed);
    const verdict = forced ? undefined : decide(rankLineFormats(first));
    const lineReading = forced
      ? forced.lineReader && forcedReadsLines(forced, first)
        ? forced
        : undefined
      : verdict?.kind === 'reader'
        ? verdict.match.reader
        : undefined;
    if (lineReading?.lineReader) {
      const detection = forced ? forcedDetection(forced) : { kind: lineReading.id, reason: verdict?.kind === 'reader' ? verdict.match.reason : '' };
      let loaded: LinesRecord[];
      try {
        const reader = lineReading.lineReader({ file: displayName, text });
        feedLines(reader, values, lineNumbers, parsed);
        forEachNonBlankLine(
          text,
          (line, lineNumber) => {
            let value: unknown;
            try {
              value = parseLine(line, lineNumber, displayName);
            } catch (error) {
              problems.push(problemFromError(displayName, error));
              return;
            }
            reader.read(value, lineNumber);
          },
          rest,
        );
        loaded = reader.finish();
      } catch (error) {
        throw asInputError(error, lineReading, displayName);
      }
      return sessionFile(loaded, lineReading, detection, displayName, problems);
    }
    const room = Math.min(lineCountOf(text), MAX_RESERVED_LINES);
    values = withRoom(values, parsed, room);
    lineNumbers = withRoom(lineNumbers, parsed, room);
    lineStarts = withRoom(lineStarts, parsed, room);
    forEachNonBlankLine(text, (line, lineNumber, start) => void parseInto(line, lineNumber, start), rest);
  }
  values.length = lineNumbers.length = lineStarts.length = parsed;
  if (values.length === 0) throw toError(problems[0] ?? { file: displayName, message: 'no records', severity: 'error' });
  // First the session formats: the lines together make the trajectories.
  const verdict = forced ? undefined : decide(rankLineFormats(values));
  const sessionReader = forced ? (forcedReadsLines(forced, values) ? forced : undefined) : verdict?.kind === 'reader' ? verdict.match.reader : undefined;
  if (sessionReader?.loadLines) {
    const detection = forced ? forcedDetection(forced) : { kind: sessionReader.id, reason: verdict?.kind === 'reader' ? verdict.match.reason : '' };
    let loaded: LinesRecord[];
    try {
      loaded = sessionReader.loadLines(values, lineNumbers, { file: displayName, text });
    } catch (error) {
      throw asInputError(error, sessionReader, displayName);
    }
    return sessionFile(loaded, sessionReader, detection, displayName, problems);
  }
  if (verdict?.kind === 'ambiguous') throw new InputError(displayName, explainLinesUndetected(values), { line: lineNumbers[0], column: 1 });
  // Then one record per line (or, for a reader with `split`, the records of each line).
  const records: LoadedRecord[] = [];
  let detection: Detection | undefined;
  let rowIndex = 0;
  values.forEach((value, index) => {
    const lineNumber = lineNumbers[index];
    const source: SourceText = { file: displayName, text: lineStartingAt(text, lineStarts[index]), lineOffset: lineNumber - 1 };
    try {
      const d = forced ? forcedDetection(forced) : detectJsonValue(value);
      if (!d) throw undetectedError(value, source, { line: lineNumber, column: 1 });
      const reader = readerFor(d.kind as TrajectoryFormat);
      if (reader?.split) {
        for (const part of reader.split(value))
          records.push({ ...loadWith(reader, part.value, { ...source, basePath: part.path }, part.id), line: lineNumber });
      } else {
        const obj = isObject(value) ? value : {};
        const id = recordIdOf(obj) ?? (d.kind === 'deepsearchqa' ? String(rowIndex) : String(lineNumber));
        records.push({ ...loadRecordWith(value, d, source, id), line: lineNumber });
      }
      detection ??= d;
      rowIndex++;
    } catch (error) {
      problems.push(problemFromError(displayName, error));
    }
  });
  if (!detection) {
    // A near session format says more than the first line's error.
    if (verdict?.kind === 'incomplete') throw new InputError(displayName, explainLinesUndetected(values), { line: lineNumbers[0], column: 1 });
    throw toError(problems[0] ?? { file: displayName, message: 'no records', severity: 'error' });
  }
  return {
    file: displayName,
    container: 'jsonl',
    detection,
    records: withoutDuplicateIds(records, displayName, problems, (i) => ({ line: records[i].line, column: 1 })),
    problems,
  };
}

/** A list of `room` entries starting with the first `count` of `list`. */
function withRoom<T>(list: T[], count: number, room: number): T[] {
  const all = new Array<T>(room);
  for (let i = 0; i < count; i++) all[i] = list[i];
  return all;
}

/** The file of a session reader's trajectories (the lines together make them). */
function sessionFile(loaded: LinesRecord[], reader: TrajectoryReader, detection: Detection, displayName: string, problems: Problem[]): LoadedFile {
  const records: LoadedRecord[] = loaded.map(({ id, trajectory, line }) => ({ kind: reader.id, id, trajectory, line }));
  if (records.length === 0)
    throw toError(problems[0] ?? { file: displayName, message: `no trajectories in this ${reader.label} file`, line: 1, severity: 'error' });
  return {
    file: displayName,
    container: 'jsonl-session',
    detection,
    records: withoutDuplicateIds(records, displayName, problems, (i) => ({ line: records[i].line, column: 1 })),
    problems,
  };
}

/** Whether a forced reader reads a JSONL file as a session: its lines fit, or its lines reader is all it has for them. */
function forcedReadsLines(reader: TrajectoryReader, values: unknown[]): boolean {
  if (!reader.loadLines) return false;
  if (isFullMatch(reader.detectLines?.(values))) return true;
  return !isFullMatch(reader.detect(values[0]));
}

function loadCsv(text: string, displayName: string): LoadedFile {
  let rows: { record: Record<string, string>; info: { lines: number } }[];
  try {
    rows = parseCsv(text, { columns: true, bom: true, skip_empty_lines: true, info: true, relax_quotes: false, trim: false });
  } catch (error) {
    const e = error as { message?: string; lines?: number; code?: string };
    throw new InputError(displayName, `invalid CSV: ${(e.message ?? 'parse error').replace(/^Invalid .*?: /, '')}`, { line: e.lines ?? 1, column: 1 });
  }
  const header = Object.keys(rows[0]?.record ?? {});
  for (const column of ['problem', 'answer', 'answer_type']) {
    if (!header.includes(column))
      throw new InputError(displayName, `CSV header lacks the column "${column}"; expected problem, problem_category, answer, answer_type (DeepSearchQA)`, {
        line: 1,
        column: 1,
      });
  }
  let records: LoadedRecord[] = [];
  const problems: Problem[] = [];
  rows.forEach(({ record, info }, index) => {
    try {
      const row = checkSchema(deepSearchQaRowSchema, record, { file: displayName }, 'a DeepSearchQA row');
      const id = record.id?.trim() ? record.id.trim() : String(index);
      records.push({ kind: 'deepsearchqa', id, line: info.lines, row: { ...row, id } });
    } catch (error) {
      const problem = problemFromError(displayName, error);
      problems.push({ ...problem, line: info.lines, column: 1, path: `row ${index} ${problem.path ?? ''}`.trim() });
    }
  });
  if (records.length === 0) throw toError(problems[0] ?? { file: displayName, message: 'CSV has a header but no rows', line: 1, severity: 'error' });
  records = withoutDuplicateIds(records, displayName, problems, (i) => ({ line: records[i].line, column: 1 }));
  return { file: displayName, container: 'csv', detection: { kind: 'deepsearchqa', reason: 'a CSV with DeepSearchQA columns' }, records, problems };
}

/**
 * Record ids key the sidecar, audits, exports and scores, so two records of one file with the
 * same id would share (and mix) them. Every record after the first with an id is an error that
 * names both places, and is left out; the first keeps the id.
 */
function withoutDuplicateIds(
  records: LoadedRecord[],
  displayName: string,
  problems: Problem[],
  whereOf: (index: number) => { line?: number; column?: number; path?: string },
): LoadedRecord[] {
  const first = new Map<string, number>();
  const kept: LoadedRecord[] = [];
  records.forEach((record, index) => {
    const earlier = first.get(record.id);
    if (earlier === undefined) {
      first.set(record.id, index);
      kept.push(record);
      return;
    }
    const here = whereOf(index);
    const there = whereOf(earlier);
    const place = (w: typeof there) => (w.line !== undefined ? `${displayName}:${w.line}` : `${displayName} ${w.path ?? ''}`.trim());
    problems.push({
      file: displayName,
      severity: 'error',
      ...here,
      message: `duplicate record id ${JSON.stringify(record.id)}: ${place(here)} has the id of ${place(there)}; ids must be unique in a file (they key annotations and audits) — this record is not loaded`,
    });
  });
  return kept.length === records.length ? records : kept;
}

export function shortName(path: string): string {
  return basename(path);
}
