// File names derived from data (record ids, item ids, conditions, file stems): ONE encoding,
// used everywhere such a name is built, so that no data can name a path outside its folder.
//
// safeNameComponent(id) is
// - confined: the result is one path component — never empty, never "." or "..", no "/" or "\",
//   no NUL or other control character, no leading dot (no hidden files), no trailing dot or space,
//   no Windows device name (CON, NUL, COM1, …);
// - readable: letters (any script), digits, "-" and "_" are kept; everything else is
//   percent-encoded as the UTF-8 bytes of the character (`a/b` → `a%2Fb`, `x.y` → `x%2Ey`),
//   so the id can be read back from the name (decodeNameComponent);
// - collision-free: the encoding is injective, and where a file system could still merge two
//   names (case-insensitive or Unicode-normalizing file systems, names cut to a length limit) a
//   hash of the exact id is appended after "~" (a character the encoding never leaves bare).
// Since "." is always encoded, components joined with "." (`<id>.<condition>.traj.json`) stay
// distinct too.
import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve } from 'node:path';

/** Longest encoded part before a hash is appended instead (bytes; names stay well under 255). */
const MAX_ENCODED = 96;
const HASH_HEX = 16;
const KEPT = /[\p{L}\p{N}\p{M}_-]/u;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

function percentEncode(char: string): string {
  return [...Buffer.from(char, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

function hashOf(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex').slice(0, HASH_HEX);
}

/** One safe, readable, collision-free file-name component for any string (see the header). */
export function safeNameComponent(id: string): string {
  if (id === '') return '~';
  const chars = Array.from(id);
  let encoded = chars.map((c) => (KEPT.test(c) ? c : percentEncode(c))).join('');
  // A Windows device name is reserved with any extension ("nul.traj.json"): encode its first letter.
  if (WINDOWS_DEVICE.test(id)) encoded = percentEncode(chars[0]) + encoded.slice(chars[0].length);
  // Names that a case-insensitive or normalizing file system could merge with another id's name.
  const mergeable = id !== id.toLowerCase() || id.toUpperCase().toLowerCase() !== id || id !== id.normalize('NFC') || id !== id.normalize('NFD');
  if (Buffer.byteLength(encoded, 'utf8') > MAX_ENCODED) return `${cutAtBytes(encoded, MAX_ENCODED - HASH_HEX - 1)}~${hashOf(id)}`;
  return mergeable ? `${encoded}~${hashOf(id)}` : encoded;
}

/** The id a name component was made from; undefined when the hash stands for a cut-off part. */
export function decodeNameComponent(name: string): string | undefined {
  if (name === '~') return '';
  const [body, hash] = name.split('~');
  let decoded: string;
  try {
    decoded = decodeURIComponent(body);
  } catch {
    return undefined;
  }
  if (hash !== undefined && hashOf(decoded) !== hash) return undefined;
  return decoded;
}

/** At most `max` UTF-8 bytes of an encoded name, never splitting a character or a %XX escape. */
function cutAtBytes(encoded: string, max: number): string {
  let out = '';
  let bytes = 0;
  for (const token of encoded.match(/%[0-9A-F]{2}|[\s\S]/gu) ?? []) {
    const size = Buffer.byteLength(token, 'utf8');
    if (bytes + size > max) break;
    out += token;
    bytes += size;
  }
  return out;
}

/**
 * `folder/name` after checking that it stays directly inside `folder` (a guard for names built
 * from safeNameComponent and fixed suffixes: a name that is not one plain component is a bug).
 */
export function childPath(folder: string, name: string): string {
  const target = resolve(folder, name);
  const rel = relative(resolve(folder), target);
  if (name.includes('\0') || rel === '' || rel.startsWith('..') || isAbsolute(rel) || /[\\/]/.test(rel)) {
    throw new Error(`refusing to write ${JSON.stringify(name)}: not a file name inside ${folder}`);
  }
  return target;
}
