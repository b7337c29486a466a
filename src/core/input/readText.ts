import { isUtf8 } from 'node:buffer';
import { readFileSync, statSync } from 'node:fs';
import { InputError } from './inputError';

/** V8 cannot hold a string much longer than ~512 MiB; refuse clearly before trying. */
export const MAX_TEXT_BYTES = 512 * 1024 * 1024 - 64;

/** Reads a UTF-8 text file, refusing empty, binary and over-long files with a clear message. */
export function readTextFile(file: string, displayName = file): string {
  let size: number;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) throw new InputError(displayName, 'is a folder; expected a file');
    size = stat.size;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(displayName, `cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (size > MAX_TEXT_BYTES) {
    throw new InputError(displayName, `file is ${(size / 2 ** 20).toFixed(0)} MiB; the largest readable file is 512 MiB (split a JSONL file into parts)`);
  }
  const bytes = readFileSync(file);
  return decodeText(bytes, displayName);
}

export function decodeText(bytes: Buffer | Uint8Array, displayName: string): string {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length === 0) throw new InputError(displayName, 'empty file; expected a JSON or JSONL trajectory, a benchmark item or a CSV dataset');
  const head = buffer.subarray(0, Math.min(buffer.length, 8192));
  if (head.includes(0) || !isUtf8(buffer)) {
    throw new InputError(displayName, 'binary or non-UTF-8 content; expected UTF-8 text (JSON, JSONL or CSV)', { line: 1, column: 1 });
  }
  let text = buffer.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') throw new InputError(displayName, 'file holds only whitespace; expected a JSON or JSONL trajectory, a benchmark item or a CSV dataset');
  return text;
}

/** 1-based line and column of a character offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
