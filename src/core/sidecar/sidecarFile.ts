import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../input/inputError';
import { parseJson } from '../input/jsonText';
import { decodeText } from '../input/readText';
import { checkSchema } from '../input/schemaCheck';
import { SIDECAR_SCHEMA, sidecarSchema, type Sidecar } from './schema';

export function sidecarPathFor(trajectoryFile: string): string {
  return `${trajectoryFile}.audit.json`;
}

export function sha256Of(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function emptySidecar(trajectoryFile: string, sha256: string, format: string): Sidecar {
  return { schema: SIDECAR_SCHEMA, trajectory: { file: basename(trajectoryFile), sha256, format }, records: {} };
}

/** Parses sidecar text: schema version checked, unknown fields kept so a rewrite loses nothing. */
export function parseSidecar(text: string, displayName: string): Sidecar {
  const value = parseJson(text, displayName);
  const schema = (value as { schema?: unknown } | null)?.schema;
  if (typeof schema === 'string' && schema !== SIDECAR_SCHEMA && schema.startsWith('trajaudit.audit/')) {
    throw new InputError(displayName, `sidecar schema "${schema}" is not supported; this version reads "${SIDECAR_SCHEMA}" (upgrade Trajectory Auditor)`, { path: '$.schema' });
  }
  return checkSchema(sidecarSchema, value, { file: displayName, text }, 'an audit sidecar');
}

/** Reads `<file>.audit.json`; undefined when there is none. */
export function readSidecar(sidecarPath: string, displayName = sidecarPath): Sidecar | undefined {
  if (!existsSync(sidecarPath)) return undefined;
  return parseSidecar(decodeText(readFileSync(sidecarPath), displayName), displayName);
}

export function serializeSidecar(sidecar: Sidecar): string {
  return `${JSON.stringify(sidecar, null, 2)}\n`;
}

/**
 * Atomic replace: write a temp file in the same folder, fsync, rename over the target.
 * A crash at any point leaves the old sidecar or the new one, never a truncated file.
 */
export function writeFileAtomic(target: string, content: string): void {
  const temp = join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'w', 0o644);
    writeSync(fd, content);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, target);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  try {
    const dirFd = openSync(dirname(target), 'r');
    fsyncSync(dirFd);
    closeSync(dirFd);
  } catch {
    /* some file systems cannot fsync a folder; the rename is still atomic */
  }
}

export function writeSidecar(sidecarPath: string, sidecar: Sidecar): void {
  checkSchema(sidecarSchema, sidecar, { file: sidecarPath }, 'an audit sidecar');
  writeFileAtomic(sidecarPath, serializeSidecar(sidecar));
}
