import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../input/inputError';
import { parseJson } from '../input/jsonText';
import { readTextFile } from '../input/readText';
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
  return parseSidecar(readTextFile(sidecarPath, displayName), displayName);
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
  removeStaleTemps(target);
}

/** Temps older than this whose writer is gone are leftovers of a killed save. */
const STALE_TEMP_MS = 60_000;

/**
 * Removes `.<name>.tmp-<pid>-<hex>` files beside `target` left by a writer that was killed
 * mid-save: only when that process no longer runs here and the file is over a minute old
 * (a writer on another machine sharing the folder is not judged by its pid alone).
 */
function removeStaleTemps(target: string): void {
  const prefix = `.${basename(target)}.tmp-`;
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(/^(\d+)-[0-9a-f]+$/.exec(name.slice(prefix.length))?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || isRunning(pid)) continue;
    const path = join(dirname(target), name);
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_TEMP_MS) rmSync(path, { force: true });
    } catch {
      /* gone already, or not ours to remove */
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function writeSidecar(sidecarPath: string, sidecar: Sidecar): void {
  checkSchema(sidecarSchema, sidecar, { file: sidecarPath }, 'an audit sidecar');
  writeFileAtomic(sidecarPath, serializeSidecar(sidecar));
}
