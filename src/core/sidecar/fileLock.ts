import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { InputError } from '../input/inputError';
import { isProcessRunning } from '../files/processAlive';

/**
 * A lock file beside a file that several processes read, change and write back (a sidecar: the
 * CLI's audits, the extension's audits and saves). `<file>.lock` is created exclusively (O_EXCL)
 * and holds the owner's pid, host, a nonce and the time. A lock whose owner is gone (same host,
 * pid not running) or that is older than STALE_LOCK_MS is stale and is removed; removing it is
 * itself serialized by `<file>.lock.break`, so two waiters never both break one lock and then
 * delete the lock the other just took. Holders keep the lock for one read-modify-write only.
 */
export const STALE_LOCK_MS = 10 * 60_000;
/** A breaker lives for one unlink; older than this, it was left by a killed process. */
const STALE_BREAKER_MS = 10_000;
const DEFAULT_WAIT_MS = 60_000;

interface LockOwner {
  pid: number;
  host: string;
  nonce: string;
  at: number;
}

export function lockPathFor(file: string): string {
  return `${file}.lock`;
}

function readOwner(path: string): { owner?: LockOwner; text?: string; mtimeMs?: number } {
  try {
    const text = readFileSync(path, 'utf8');
    const mtimeMs = statSync(path).mtimeMs;
    try {
      const value = JSON.parse(text) as Partial<LockOwner>;
      if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.at === 'number') return { owner: value as LockOwner, text, mtimeMs };
    } catch {
      /* an unreadable lock: judged by its age alone */
    }
    return { text, mtimeMs };
  } catch {
    return {};
  }
}

function isStale(found: { owner?: LockOwner; mtimeMs?: number }, now: number): boolean {
  const age = now - (found.owner?.at ?? found.mtimeMs ?? now);
  if (age > STALE_LOCK_MS) return true;
  if (!found.owner) return now - (found.mtimeMs ?? now) > STALE_BREAKER_MS; // half-written or foreign: give a writer time
  return found.owner.host === hostname() && !isProcessRunning(found.owner.pid);
}

function tryCreate(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Removes a stale lock if it is still the one judged stale (text unchanged), under the breaker. */
function breakStaleLock(path: string, staleText: string | undefined): void {
  const breaker = `${path}.break`;
  if (!tryCreate(breaker, JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() }))) {
    try {
      if (Date.now() - statSync(breaker).mtimeMs > STALE_BREAKER_MS) unlinkSync(breaker);
    } catch {
      /* gone meanwhile */
    }
    return;
  }
  try {
    if (readOwner(path).text === staleText) unlinkSync(path);
  } catch {
    /* gone meanwhile */
  } finally {
    try {
      unlinkSync(breaker);
    } catch {
      /* removed as stale by another process: harmless, we are done */
    }
  }
}

export interface LockOptions {
  /** How long to wait for another holder before giving up with a message (default 60 s). */
  waitMs?: number;
  /** Name for messages. */
  displayName?: string;
}

/** Runs `task` holding `<file>.lock`; waits (polling) while another process holds it. */
export async function withFileLock<T>(file: string, task: () => T | Promise<T>, options: LockOptions = {}): Promise<T> {
  const path = lockPathFor(file);
  const me: LockOwner = { pid: process.pid, host: hostname(), nonce: randomBytes(8).toString('hex'), at: Date.now() };
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
  let pause = 2;
  for (;;) {
    me.at = Date.now();
    const mine = JSON.stringify(me);
    let created: boolean;
    try {
      created = tryCreate(path, mine);
    } catch (error) {
      throw new InputError(
        options.displayName ?? file,
        `cannot create the lock file ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}); nothing was written`,
      );
    }
    if (created) {
      try {
        return await task();
      } finally {
        // Only our own lock is removed (a lock broken as stale and re-taken belongs to someone else).
        if (readOwner(path).text === mine) unlinkSync(path);
      }
    }
    const found = readOwner(path);
    if (found.text !== undefined && isStale(found, Date.now())) {
      breakStaleLock(path, found.text);
      continue;
    }
    if (Date.now() > deadline) {
      const who = found.owner ? `process ${found.owner.pid} on ${found.owner.host} since ${new Date(found.owner.at).toISOString()}` : 'another process';
      throw new InputError(
        options.displayName ?? file,
        `is locked by ${who} (lock file ${path}); nothing was written. Try again, or delete the lock file if no Trajectory Auditor is running`,
      );
    }
    await delay(pause + Math.random() * pause);
    pause = Math.min(pause * 2, 50);
  }
}
