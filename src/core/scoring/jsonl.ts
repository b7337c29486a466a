// Reading the line files of a run folder (docs/run-folders.md §3): one JSON object per line, each checked
// with zod; every problem becomes a one-line InputError naming file, line:column and JSON path.
import { existsSync } from 'node:fs';
import type { z } from 'zod';
import { InputError } from '../input/inputError';
import { nonBlankLines, parseJsonLine } from '../input/jsonText';
import { decodeText, readFileBytes, readTextFile } from '../input/readText';
import { checkSchema } from '../input/schemaCheck';

export interface Line<T> {
  value: T;
  /** 1-based line number in the file. */
  line: number;
}

/** Splits JSONL text into parsed values; blank lines are skipped. */
export function parseJsonLines(text: string, displayName: string): Line<unknown>[] {
  const out: Line<unknown>[] = [];
  for (const { line, lineNumber } of nonBlankLines(text)) {
    out.push({ value: parseJsonLine(line, lineNumber, displayName, ' (one JSON object per line expected)'), line: lineNumber });
  }
  return out;
}

/** Reads and validates a JSONL file. `what` names the expected line shape for messages. */
export function readJsonLines<S extends z.ZodType>(path: string, displayName: string, schema: S, what: string): Line<z.infer<S>>[] {
  const text = readTextFile(path, displayName);
  return validateLines(text, displayName, schema, what);
}

/** Like readJsonLines, but a missing or empty file is an empty list (caches, optional files). */
export function readJsonLinesIfAny<S extends z.ZodType>(path: string, displayName: string, schema: S, what: string): Line<z.infer<S>>[] {
  if (!existsSync(path)) return [];
  const bytes = readFileBytes(path, displayName);
  if (bytes.length === 0 || bytes.toString('utf8').trim() === '') return [];
  return validateLines(decodeText(bytes, displayName), displayName, schema, what);
}

function validateLines<S extends z.ZodType>(text: string, displayName: string, schema: S, what: string): Line<z.infer<S>>[] {
  const lines = text.split('\n');
  return parseJsonLines(text, displayName).map(({ value, line }) => ({
    value: checkSchema(schema, value, { file: displayName, text: lines[line - 1].replace(/\r$/, ''), lineOffset: line - 1 }, what),
    line,
  }));
}

/** Throws a one-line error for the first id seen twice. `keyOf` gives the identity of a line. */
export function rejectDuplicates<T>(lines: readonly Line<T>[], keyOf: (value: T) => string, displayName: string, describe: (key: string) => string): void {
  const seen = new Map<string, number>();
  for (const { value, line } of lines) {
    const key = keyOf(value);
    const first = seen.get(key);
    if (first !== undefined) throw new InputError(displayName, `${describe(key)} appears twice (first on line ${first})`, { line, column: 1 });
    seen.set(key, line);
  }
}
