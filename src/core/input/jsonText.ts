import { InputError } from './inputError';
import { MAX_JSON_DEPTH, shortenedPath, tooDeepPath } from './jsonDepth';
import { firstSyntaxError, JsonLocator } from './jsonScan';
import { lineColumnAt } from './readText';

export type JsonPath = (string | number)[];

/** Finds the first syntax error of a JSON text, with its offset. Only called after JSON.parse failed. */
export function locateSyntaxError(text: string): { offset: number; message: string } {
  const error = firstSyntaxError(text);
  return error ? { offset: error.offset, message: `invalid JSON: ${error.message}` } : { offset: 0, message: 'invalid JSON' };
}

/**
 * Refuses a parsed value nested deeper than MAX_JSON_DEPTH with a one-line error naming where
 * (writing or hashing it later would overflow the stack). `text` is the JSON it was parsed from.
 */
export function checkNesting(value: unknown, text: string, file: string, lineOffset = 0): void {
  if (!nestsDeeperThan(value, MAX_JSON_DEPTH)) return;
  const path = tooDeepPath(value);
  if (!path) return;
  const { shown, omitted } = shortenedPath(path);
  const where = locateJsonPath(text, path);
  throw new InputError(
    file,
    `nested deeper than ${MAX_JSON_DEPTH} levels; expected at most ${MAX_JSON_DEPTH} (no trajectory, item or sidecar nests this deep)`,
    {
      path: `${formatJsonPath(shown)}${omitted ? `…(${omitted} more levels)` : ''}`,
      ...(where ? { line: where.line + lineOffset, column: where.column } : {}),
    },
  );
}

/**
 * Whether a value nests deeper than `limit` levels (the top value is level 1). The happy-path
 * check of every loaded file: a recursion no deeper than `limit` that allocates nothing, where
 * tooDeepPath keeps a parent chain per node to name the path once one is found.
 */
export function nestsDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  return value !== null && typeof value === 'object' && containerDeeperThan(value, limit);
}

// Leaves are tested in the loop, not by a call each: most nodes of a trajectory are strings and
// numbers, and the call per leaf was two thirds of the walk.
function containerDeeperThan(value: object, limit: number): boolean {
  if (limit <= 0) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const child: unknown = value[i];
      if (typeof child === 'object' && child !== null && containerDeeperThan(child, limit - 1)) return true;
    }
    return false;
  }
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null && containerDeeperThan(child, limit - 1)) return true;
  }
  return false;
}

/** JSON.parse with a one-line error naming file and line:column. `lineOffset` shifts lines for JSONL records. */
export function parseJson(text: string, file: string, lineOffset = 0): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const { offset, message } = locateSyntaxError(text);
    const { line, column } = lineColumnAt(text, offset);
    throw new InputError(file, message, { line: line + lineOffset, column });
  }
  checkNesting(value, text, file, lineOffset);
  return value;
}

export function formatJsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string' && /^[A-Za-z_$][\w$]*$/.test(part)) out += `.${part}`;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out;
}

// The locator of the text located last: a file's problems are located one after another, and
// rebuilding the index for each made validate quadratic. Dropped once the current task is done.
let lastLocator: { text: string; locator: JsonLocator } | undefined;

/** The (cached) locator of a JSON text. */
export function jsonLocator(text: string): JsonLocator {
  if (lastLocator?.text !== text) {
    if (!lastLocator) setImmediate(() => (lastLocator = undefined)).unref();
    lastLocator = { text, locator: new JsonLocator(text) };
  }
  return lastLocator.locator;
}

/** Line and column of the value at a JSON path (or its deepest existing ancestor); skipped for huge texts where an index would cost too much. */
export function locateJsonPath(text: string, path: JsonPath): { line: number; column: number } | undefined {
  if (text.length > 64 * 1024 * 1024) return undefined;
  return jsonLocator(text).locate(path);
}

/** The non-blank lines of a JSONL text with their 1-based numbers (CRLF tolerated). */
export function* nonBlankLines(text: string): Generator<{ line: string; lineNumber: number }> {
  let start = 0;
  for (let lineNumber = 1; start <= text.length; lineNumber++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, text.charCodeAt(end - 1) === 13 && end > start ? end - 1 : end);
    start = end + 1;
    if (!isBlank(line)) yield { line, lineNumber };
  }
}

/** Whether a line is only white space; a line starting with a printable ASCII character (nearly every JSONL line) is told by it. */
function isBlank(line: string): boolean {
  const first = line.charCodeAt(0);
  if (first > 32 && first < 127) return false;
  return line.trim() === '';
}

/** Where forEachNonBlankLine goes on: a line's start offset and 1-based number. */
export interface LinePlace {
  start: number;
  lineNumber: number;
}

/**
 * Calls `each` with every non-blank line of a JSONL text, its 1-based number and the offset it
 * starts at, as nonBlankLines yields them, without an object per line. When `each` returns false
 * it stops and returns where the next line is (undefined when the text ended), to go on from.
 */
export function forEachNonBlankLine(
  text: string,
  each: (line: string, lineNumber: number, start: number) => unknown,
  from: LinePlace = { start: 0, lineNumber: 1 },
): LinePlace | undefined {
  let start = from.start;
  for (let lineNumber = from.lineNumber; start <= text.length; lineNumber++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, text.charCodeAt(end - 1) === 13 && end > start ? end - 1 : end);
    const lineStart = start;
    start = end + 1;
    if (!isBlank(line) && each(line, lineNumber, lineStart) === false) return start <= text.length ? { start, lineNumber: lineNumber + 1 } : undefined;
  }
  return undefined;
}

/** The line of a text that starts at `start`, without its line break (CRLF tolerated), as forEachNonBlankLine gives it. */
export function lineStartingAt(text: string, start: number): string {
  let end = text.indexOf('\n', start);
  if (end === -1) end = text.length;
  return text.slice(start, text.charCodeAt(end - 1) === 13 && end > start ? end - 1 : end);
}

/** How many lines a text has at most (line feeds + 1): room for its parsed lines, reserved once. */
export function lineCountOf(text: string): number {
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** JSON.parse of one JSONL line; a syntax error names the file and line:column. */
export function parseJsonLine(line: string, lineNumber: number, file: string, hint = ''): unknown {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    const { offset, message } = locateSyntaxError(line);
    throw new InputError(file, `${message}${hint}`, { line: lineNumber, column: lineColumnAt(line, offset).column });
  }
  checkNesting(value, line, file, lineNumber - 1);
  return value;
}
