import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadText } from '../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../src/core/load/loadRecord';
import type { Trajectory } from '../../src/core/model/trajectory';
import { main } from '../../src/cli/main';

export function tempDir(prefix = 'trajaudit-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function writeTemp(dir: string, name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** Loads a JSON value as a single trajectory. */
export function trajectoryOf(value: unknown): Trajectory {
  const loaded = loadText(JSON.stringify(value), 'inline.json');
  const record = loaded.records[0];
  if (!isTrajectoryRecord(record)) throw new Error(`not a trajectory: ${loaded.detection.kind}`);
  return record.trajectory;
}

/** Reads `text` as a file called `name` that must hold exactly one trajectory and no problems. */
export function onlyTrajectory(text: string, name = 'lean.json'): Trajectory {
  const loaded = loadText(text, name);
  assert.deepEqual(loaded.problems, []);
  const [record] = loaded.records;
  assert.ok(record && isTrajectoryRecord(record));
  return record.trajectory;
}

export async function runCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A list whose entries at `from` or later count every read of them (by index, as a loop, a detect or a list method reads it). */
export function countingLateReads<T>(entries: T[], from: number): { list: T[]; lateReads: () => number } {
  let reads = 0;
  const list = new Proxy(entries, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key) && Number(key) >= from) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { list, lateReads: () => reads };
}
