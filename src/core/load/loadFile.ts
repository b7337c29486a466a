import { parse as parseCsv } from 'csv-parse/sync';
import { basename } from 'node:path';
import { InputError, problemFromError, type Problem } from '../input/inputError';
import { checkNesting, locateJsonPath, nonBlankLines, parseJson, parseJsonLine } from '../input/jsonText';
import { readTextFile } from '../input/readText';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import { deepSearchQaRowSchema } from '../items/schemas';
import { detectJsonValue, undetectedError, type Detection } from '../formats/detect';
import { isObject, recordIdOf } from '../formats/fields';
import { loadRecord, type LoadedRecord } from './loadRecord';

export type Container = 'json' | 'json-array' | 'jsonl' | 'csv';

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
}

/** Loads any supported file by content: JSON, JSON array of records, JSONL or CSV. */
export function loadFile(path: string, options: LoadOptions = {}): LoadedFile {
  const displayName = options.displayName ?? path;
  const text = readTextFile(path, displayName);
  return loadText(text, displayName);
}

export function loadText(text: string, displayName: string): LoadedFile {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[' && first !== '"' && !/^[-\d]/.test(first ?? '') && looksLikeCsv(text)) {
    return loadCsv(text, displayName);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (isJsonLines(text)) return loadJsonLines(text, displayName);
    parseJson(text, displayName); // throws with line:column
  }
  checkNesting(value, text, displayName);
  return loadJsonValue(value, text, displayName);
}

function looksLikeCsv(text: string): boolean {
  const header = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
  return header.includes(',') && /\bproblem\b/.test(header);
}

/** JSONL when the first non-empty line is a complete JSON value and at least one more line follows. */
function isJsonLines(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 2) return false;
  try {
    JSON.parse(lines[0]);
    return true;
  } catch {
    return false;
  }
}

function loadJsonValue(value: unknown, text: string, displayName: string): LoadedFile {
  const detection = detectJsonValue(value);
  if (detection) {
    const record = loadRecord(value, detection, { file: displayName, text }, defaultSingleId(value, detection));
    return { file: displayName, container: 'json', detection, records: [record], problems: [] };
  }
  // A JSON array of records (trajectories or items), each detected on its own.
  if (Array.isArray(value) && value.length > 0 && value.every(isObject)) {
    const firstDetection = detectJsonValue(value[0]);
    if (firstDetection) {
      const records: LoadedRecord[] = [];
      const problems: Problem[] = [];
      const indexes: number[] = [];
      value.forEach((element, index) => {
        try {
          const d = detectJsonValue(element);
          if (!d) throw undetectedError(element, { file: displayName, text, basePath: [index] }, { path: `$[${index}]` });
          const id =
            d.kind === 'deepsearchqa'
              ? (recordIdOf(element as Record<string, unknown>) ?? String(index))
              : (recordIdOf(element as Record<string, unknown>) ?? String(index + 1));
          records.push(loadRecord(element, d, { file: displayName, text, basePath: [index] }, id));
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
  }
  throw undetectedError(value, { file: displayName, text }, { path: '$', line: 1, column: 1 });
}

function defaultSingleId(value: unknown, detection: Detection): string {
  if (detection.kind === 'deepsearchqa' && isObject(value)) return recordIdOf(value) ?? '0';
  if (['delegation-item', 'clarify-instance'].includes(detection.kind) && isObject(value)) return recordIdOf(value) ?? '0';
  return '0';
}

function toError(problem: Problem): InputError {
  return new InputError(problem.file, problem.message, problem);
}

function loadJsonLines(text: string, displayName: string): LoadedFile {
  const records: LoadedRecord[] = [];
  const problems: Problem[] = [];
  let detection: Detection | undefined;
  let rowIndex = 0;
  for (const { line, lineNumber } of nonBlankLines(text)) {
    try {
      const value = parseJsonLine(line, lineNumber, displayName);
      const d = detectJsonValue(value);
      if (!d) throw undetectedError(value, { file: displayName, text: line, lineOffset: lineNumber - 1 }, { line: lineNumber, column: 1 });
      const obj = isObject(value) ? value : {};
      const id = recordIdOf(obj) ?? (d.kind === 'deepsearchqa' ? String(rowIndex) : String(lineNumber));
      const source: SourceText = { file: displayName, text: line, lineOffset: lineNumber - 1 };
      records.push({ ...loadRecord(value, d, source, id), line: lineNumber });
      detection ??= d;
      rowIndex++;
    } catch (error) {
      problems.push(problemFromError(displayName, error));
    }
  }
  if (!detection) throw toError(problems[0] ?? { file: displayName, message: 'no records', severity: 'error' });
  return {
    file: displayName,
    container: 'jsonl',
    detection,
    records: withoutDuplicateIds(records, displayName, problems, (i) => ({ line: records[i].line, column: 1 })),
    problems,
  };
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
