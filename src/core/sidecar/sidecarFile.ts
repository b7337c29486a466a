import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';
import { writeFileAtomic } from '../files/atomicWrite';
import { idKeyedObject } from '../input/idKeyed';
import { InputError } from '../input/inputError';
import { parseJson } from '../input/jsonText';
import { MAX_TEXT_BYTES, readTextFile } from '../input/readText';
import { checkSchema } from '../input/schemaCheck';
import { withFileLock, type LockOptions } from './fileLock';
import { READABLE_SIDECAR_SCHEMAS, SIDECAR_SCHEMA, sidecarSchema, type Sidecar } from './schema';
import { deflateTexts } from './sharedTexts';

export function sidecarPathFor(trajectoryFile: string): string {
  return `${trajectoryFile}.audit.json`;
}

export function sha256Of(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function emptySidecar(trajectoryFile: string, sha256: string, format: string): Sidecar {
  return { schema: SIDECAR_SCHEMA, trajectory: { file: basename(trajectoryFile), sha256, format }, records: idKeyedObject() };
}

/** Parses sidecar text: schema version checked, unknown fields kept so a rewrite loses nothing. */
export function parseSidecar(text: string, displayName: string): Sidecar {
  const value = parseJson(text, displayName);
  const schema = (value as { schema?: unknown } | null)?.schema;
  if (typeof schema === 'string' && !(READABLE_SIDECAR_SCHEMAS as readonly string[]).includes(schema) && schema.startsWith('trajaudit.audit/')) {
    throw new InputError(
      displayName,
      `sidecar schema "${schema}" is not supported; this version reads ${READABLE_SIDECAR_SCHEMAS.map((s) => `"${s}"`).join(' and ')} (upgrade Trajectory Auditor)`,
      { path: '$.schema' },
    );
  }
  return checkSchema(sidecarSchema, value, { file: displayName, text }, 'an audit sidecar');
}

/**
 * A sidecar belongs to one trajectory, so it must be a file of its own: a symbolic link to
 * another trajectory's sidecar would show that trajectory's annotations here, and a save would
 * copy them into this one and replace the link. Refused, for reading and writing alike.
 */
export function refuseLinkedSidecar(sidecarPath: string, displayName = sidecarPath): void {
  let isLink = false;
  try {
    isLink = lstatSync(sidecarPath).isSymbolicLink();
  } catch {
    return; // absent: nothing to refuse
  }
  if (!isLink) return;
  let target = '?';
  try {
    target = readlinkSync(sidecarPath);
  } catch {
    /* the message still says what it is */
  }
  throw new InputError(
    displayName,
    `is a symbolic link (to ${target}); a sidecar belongs to one trajectory and is not read or written through a link — replace the link with a copy of the file, or remove it`,
  );
}

/** Reads `<file>.audit.json`; undefined when there is none. */
export function readSidecar(sidecarPath: string, displayName = sidecarPath): Sidecar | undefined {
  refuseLinkedSidecar(sidecarPath, displayName);
  if (!existsSync(sidecarPath)) return undefined;
  return parseSidecar(readTextFile(sidecarPath, displayName), displayName);
}

function indentNested(json: string, indent: string): string {
  return json.replace(/\n/g, `\n${indent}`);
}

/**
 * The sidecar's text as pieces (one per record), byte for byte what `JSON.stringify(deflated,
 * null, 2)` gives, so a sidecar of many records never needs one string longer than V8 allows.
 */
export function serializeSidecarChunks(sidecar: Sidecar): string[] {
  const value = deflateTexts(sidecar as unknown as Record<string, unknown>);
  const keys = Object.keys(value);
  if (keys.length === 0) return ['{}\n'];
  const chunks: string[] = ['{'];
  keys.forEach((key, index) => {
    const entry = (value as Record<string, unknown>)[key];
    const comma = index < keys.length - 1 ? ',' : '';
    const inner = entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? Object.keys(entry) : undefined;
    if ((key === 'records' || key === 'texts') && inner && inner.length > 0) {
      chunks.push(`\n  ${JSON.stringify(key)}: {`);
      inner.forEach((id, i) =>
        chunks.push(
          `\n    ${JSON.stringify(id)}: ${indentNested(JSON.stringify((entry as Record<string, unknown>)[id], null, 2), '    ')}${i < inner.length - 1 ? ',' : ''}`,
        ),
      );
      chunks.push(`\n  }${comma}`);
    } else if (entry !== undefined) {
      chunks.push(`\n  ${JSON.stringify(key)}: ${indentNested(JSON.stringify(entry, null, 2), '  ')}${comma}`);
    }
  });
  chunks.push('\n}\n');
  return chunks;
}

export function serializeSidecar(sidecar: Sidecar): string {
  return serializeSidecarChunks(sidecar).join('');
}

export interface SidecarWriteOptions {
  /** Largest sidecar written (default: the largest file the readers accept, 512 MiB). */
  maxBytes?: number;
  displayName?: string;
}

/**
 * Writes a sidecar atomically; one too large to be read back is refused and nothing is written.
 * Returns the sidecar as written (checked and normalized: serializeSidecar of it is the file's text).
 */
export function writeSidecar(sidecarPath: string, sidecar: Sidecar, options: SidecarWriteOptions = {}): Sidecar {
  const displayName = options.displayName ?? sidecarPath;
  refuseLinkedSidecar(sidecarPath, displayName);
  const checked = checkSchema(sidecarSchema, sidecar, { file: displayName }, 'an audit sidecar');
  let chunks: string[];
  try {
    chunks = serializeSidecarChunks(checked);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new InputError(displayName, 'a record of this sidecar is too large to write (over what one JavaScript string holds); nothing was written');
  }
  const maxBytes = options.maxBytes ?? MAX_TEXT_BYTES;
  let bytes = 0;
  for (const chunk of chunks) bytes += Buffer.byteLength(chunk);
  if (bytes > maxBytes) {
    throw new InputError(
      displayName,
      `the sidecar would be ${(bytes / 2 ** 20).toFixed(1)} MiB, over the ${(maxBytes / 2 ** 20).toFixed(1)} MiB a sidecar may hold; nothing was written — audit the file in parts (split the JSONL, or use --record)`,
    );
  }
  writeFileAtomic(sidecarPath, chunks);
  return checked;
}

/**
 * Read-modify-write of a sidecar under its lock file (fileLock.ts), so the CLI, the extension's
 * audits and the editor's saves, in any number of processes, never lose each other's writes:
 * `change` gets the sidecar as it is on disk now and returns what to write (undefined: nothing).
 */
export async function updateSidecar(
  sidecarPath: string,
  change: (current: Sidecar | undefined) => Sidecar | undefined,
  options: SidecarWriteOptions & LockOptions = {},
): Promise<Sidecar | undefined> {
  const displayName = options.displayName ?? sidecarPath;
  refuseLinkedSidecar(sidecarPath, displayName);
  return withFileLock(
    sidecarPath,
    () => {
      const next = change(readSidecar(sidecarPath, displayName));
      return next ? writeSidecar(sidecarPath, next, options) : undefined;
    },
    options,
  );
}
