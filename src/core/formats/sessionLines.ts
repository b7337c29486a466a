// Helpers shared by the session-log readers (Claude Code, Codex CLI, Gemini CLI): JSONL files
// whose lines together are one trajectory, message i = line i.
import type { z } from 'zod';
import { InputError } from '../input/inputError';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import { isObject } from './fields';
import type { LineReader, LinesRecord } from './registry';

/**
 * The source of one line, so a schema error names that line and the column inside it. The line
 * text is cut out of the file text only when an error is being reported (never on the fast path).
 */
export function lineSource(source: SourceText, lineNumber: number | undefined, basePath?: (string | number)[]): SourceText {
  if (lineNumber === undefined) return source;
  const firstLine = (source.lineOffset ?? 0) + 1;
  let text: string | undefined;
  if (source.text !== undefined) {
    const lines = source.text.split('\n');
    text = lines[lineNumber - firstLine]?.replace(/\r$/, '');
  }
  return { file: source.file, ...(text !== undefined ? { text } : {}), lineOffset: lineNumber - 1, ...(basePath ? { basePath } : {}) };
}

/** Throws the schema error of a line the fast checks refused (checkSchema names the path and line:column). */
export function refuseLine(
  schema: z.ZodType,
  value: unknown,
  source: SourceText,
  lineNumber: number | undefined,
  what: string,
  basePath?: (string | number)[],
): never {
  checkSchema(schema, value, lineSource(source, lineNumber, basePath), what);
  // The fast check is stricter than the schema here: still a one-line message naming the line.
  throw new InputError(source.file, `unexpected shape (${what})`, lineNumber !== undefined ? { line: lineNumber, column: 1 } : {});
}

/** Up to `max` characters of a text for the one-line view of a non-chat entry. */
export function shortText(text: string, max = 300): string {
  const flat = text.trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}

/** The first entry whose index fails `ok`, for a near-miss `missing` list. */
export function firstFailing(values: unknown[], ok: (value: unknown) => boolean): number {
  for (let i = 0; i < values.length; i++) if (!ok(values[i])) return i;
  return -1;
}

/** `type` of an object line, if it is a string. */
export function typeOf(value: unknown): string | undefined {
  return isObject(value) && typeof value.type === 'string' ? value.type : undefined;
}

/** Adds `n` to a numeric total kept in a record (token sums). */
export function addTo(totals: Record<string, number>, key: string, n: unknown): void {
  if (typeof n === 'number' && Number.isFinite(n)) totals[key] = (totals[key] ?? 0) + n;
}

/** The first `count` parsed lines through a LineReader, each dropped from the list once read. */
export function feedLines(reader: LineReader, values: unknown[], lineNumbers: number[], count = values.length): void {
  for (let i = 0; i < count; i++) {
    const value = values[i];
    values[i] = undefined;
    reader.read(value, lineNumbers[i]);
  }
}

/** `loadLines` of a reader that reads line by line: every line through its LineReader. */
export function linesThrough(reader: LineReader, values: unknown[], lineNumbers: number[]): LinesRecord[] {
  feedLines(reader, values, lineNumbers);
  return reader.finish();
}
