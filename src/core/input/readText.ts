import { isUtf8 } from 'node:buffer';
import { readFileSync, statSync, type Stats } from 'node:fs';
import { InputError } from './inputError';

/** V8 cannot hold a string much longer than ~512 MiB; refuse clearly before trying. */
export const MAX_TEXT_BYTES = 512 * 1024 * 1024 - 64;

/** What a path is when it is not a regular file, in words for a message. */
function nonRegularKind(stat: Stats): string | undefined {
  if (stat.isFile()) return undefined;
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}

/**
 * The bytes of a regular file, for every reader of user files (inputs, sidecars, manifests, run
 * files, caches). Pipes and devices are refused before they are opened: opening a FIFO blocks
 * until a writer comes, and /dev/zero never ends.
 */
export function readFileBytes(file: string, displayName = file): Buffer {
  let stat: Stats;
  try {
    stat = statSync(file);
  } catch (error) {
    throw new InputError(displayName, `cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const kind = nonRegularKind(stat);
  if (kind === 'a folder') throw new InputError(displayName, 'is a folder; expected a file');
  if (kind) throw new InputError(displayName, `not a regular file (${kind}); expected a file`);
  if (stat.size > MAX_TEXT_BYTES) {
    throw new InputError(displayName, `file is ${(stat.size / 2 ** 20).toFixed(0)} MiB; the largest readable file is 512 MiB (split a JSONL file into parts)`);
  }
  try {
    return readFileSync(file);
  } catch (error) {
    throw new InputError(displayName, `cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Reads a UTF-8 text file, refusing empty, binary, over-long and non-regular files with a clear message. */
export function readTextFile(file: string, displayName = file): string {
  return decodeText(readFileBytes(file, displayName), displayName);
}

/**
 * The text of a file: UTF-8 (a byte-order mark dropped), or UTF-16 with a byte-order mark, which
 * Windows tools write (PowerShell 5's `>` and `Out-File`, Excel's "Unicode text"). Empty, binary
 * and other encodings are refused with a clear message.
 */
export function decodeText(bytes: Buffer | Uint8Array, displayName: string): string {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length === 0) throw new InputError(displayName, 'empty file; expected a JSON or JSONL trajectory, a benchmark item or a CSV dataset');
  let text = utf16WithBom(buffer, displayName);
  if (text === undefined) {
    const head = buffer.subarray(0, Math.min(buffer.length, 8192));
    if (head.includes(0) || !isUtf8(buffer)) {
      const what = looksLikeUtf16(head) ? 'UTF-16 text without a byte-order mark' : 'binary or non-UTF-8 content';
      throw new InputError(displayName, `${what}; expected UTF-8 text (JSON, JSONL or CSV)`, { line: 1, column: 1 });
    }
    text = buffer.toString('utf8');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '')
    throw new InputError(displayName, 'file holds only whitespace; expected a JSON or JSONL trajectory, a benchmark item or a CSV dataset');
  return text;
}

/** The text of a UTF-16 file with a byte-order mark (FF FE little-endian, FE FF big-endian); undefined for any other file. */
function utf16WithBom(buffer: Buffer, displayName: string): string | undefined {
  const littleEndian = buffer[0] === 0xff && buffer[1] === 0xfe;
  if (!littleEndian && !(buffer[0] === 0xfe && buffer[1] === 0xff)) return undefined;
  const body = buffer.subarray(2);
  let text: string | undefined;
  if (body.length % 2 === 0) {
    // Big-endian is swapped to little-endian: Node builds without full ICU decode only the latter.
    const units = littleEndian ? body : Buffer.from(body).swap16();
    try {
      text = new TextDecoder('utf-16le', { fatal: true }).decode(units);
    } catch {
      text = undefined;
    }
  }
  // A NUL in the text: not UTF-16 text (UTF-32 starts with FF FE 00 00, binary files anything).
  if (text === undefined || text.includes('\0')) {
    throw new InputError(
      displayName,
      `invalid UTF-16 after a ${littleEndian ? 'little' : 'big'}-endian byte-order mark; expected UTF-8 or UTF-16 text (JSON, JSONL or CSV)`,
      { line: 1, column: 1 },
    );
  }
  return text;
}

/** Most characters of ASCII text in UTF-16 have one zero byte, at even (big-endian) or odd (little-endian) offsets. */
function looksLikeUtf16(head: Buffer): boolean {
  const pairs = Math.floor(head.length / 2);
  if (pairs < 2) return false;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i] === 0 && head[i + 1] !== 0) evenZeros++;
    if (head[i + 1] === 0 && head[i] !== 0) oddZeros++;
  }
  return Math.max(evenZeros, oddZeros) >= pairs * 0.6;
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
