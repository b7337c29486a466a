// Atomic replace of a product file (sidecars, run-folder manifests and results, exports,
// reports): a crash or a full disk at any point leaves the old file or the new one, never a
// truncated one (docs/sidecar.md, atomic write).
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isProcessRunning } from './processAlive';

/**
 * Writes a temp file in the same folder, fsyncs it, renames it over the target, then fsyncs the
 * folder. `content` may come in pieces, so text longer than one JavaScript string is written too,
 * or as bytes (a Parquet export).
 */
export function writeFileAtomic(target: string, content: string | Uint8Array | readonly string[]): void {
  const temp = join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o644);
    if (content instanceof Uint8Array) writeSync(fd, content);
    else for (const piece of typeof content === 'string' ? [content] : content) writeSync(fd, piece);
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
    if (!Number.isInteger(pid) || pid === process.pid || isProcessRunning(pid)) continue;
    const path = join(dirname(target), name);
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_TEMP_MS) rmSync(path, { force: true });
    } catch {
      /* gone already, or not ours to remove */
    }
  }
}
