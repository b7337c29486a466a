import { findNodeAtLocation, parse as parseTolerant, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { InputError } from './inputError';
import { lineColumnAt } from './readText';

export type JsonPath = (string | number)[];

// Keyed by jsonc-parser's error names (its codes are a const enum, unusable with isolatedModules).
const ERROR_TEXT: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: "expected ':'",
  CommaExpected: "expected ',' or a closing bracket",
  CloseBraceExpected: "expected '}' (is the file truncated?)",
  CloseBracketExpected: "expected ']' (is the file truncated?)",
  EndOfFileExpected: 'expected the end of the JSON text (several JSON documents? use one per line, JSONL)',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string (is the file truncated?)',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in string (control characters must be escaped)',
};

/** Finds the first syntax error of a JSON text, with its offset. Only called after JSON.parse failed. */
export function locateSyntaxError(text: string): { offset: number; message: string } {
  const errors: ParseError[] = [];
  parseTolerant(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors.sort((a, b) => a.offset - b.offset)[0];
  if (first) return { offset: first.offset, message: `invalid JSON: ${ERROR_TEXT[printParseErrorCode(first.error)] ?? 'syntax error'}` };
  return { offset: 0, message: 'invalid JSON' };
}

/** JSON.parse with a one-line error naming file and line:column. `lineOffset` shifts lines for JSONL records. */
export function parseJson(text: string, file: string, lineOffset = 0): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const { offset, message } = locateSyntaxError(text);
    const { line, column } = lineColumnAt(text, offset);
    throw new InputError(file, message, { line: line + lineOffset, column });
  }
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

/** Line and column of the value at a JSON path; skipped for huge texts where a tree would cost too much. */
export function locateJsonPath(text: string, path: JsonPath): { line: number; column: number } | undefined {
  if (text.length > 64 * 1024 * 1024) return undefined;
  const root = parseTree(text);
  if (!root) return undefined;
  for (let depth = path.length; depth >= 0; depth--) {
    const node = findNodeAtLocation(root, path.slice(0, depth));
    if (node) return lineColumnAt(text, node.offset);
  }
  return undefined;
}

/** The non-blank lines of a JSONL text with their 1-based numbers (CRLF tolerated). */
export function* nonBlankLines(text: string): Generator<{ line: string; lineNumber: number }> {
  let start = 0;
  for (let lineNumber = 1; start <= text.length; lineNumber++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).replace(/\r$/, '');
    start = end + 1;
    if (line.trim() !== '') yield { line, lineNumber };
  }
}

/** JSON.parse of one JSONL line; a syntax error names the file and line:column. */
export function parseJsonLine(line: string, lineNumber: number, file: string, hint = ''): unknown {
  try {
    return JSON.parse(line);
  } catch {
    const { offset, message } = locateSyntaxError(line);
    throw new InputError(file, `${message}${hint}`, { line: lineNumber, column: lineColumnAt(line, offset).column });
  }
}
