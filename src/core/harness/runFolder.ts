// Run-folder plumbing shared by the harnesses: resumable JSONL outputs, the manifest, progress.
//
// Resumability: every finished unit (an item × setting × order, an instance × condition, …) is
// appended to its JSONL file as ONE write of one complete line followed by fsync, after the files
// it points at (trajectories) were written atomically. A process killed mid-write can leave at
// most a partial last line; on restart it is cut off (and reported), the keys of the complete
// lines are read, and only the missing units run. So a run killed at any moment and restarted
// with the same command ends with exactly one line per unit.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, truncateSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { confinedWritePath } from '../files/confine';
import { InputError } from '../input/inputError';
import { MANIFEST_FILE } from '../runs/manifest';
import { writeFileAtomic } from '../files/atomicWrite';

export interface ResumeRead<T> {
  lines: T[];
  /** A partial last line (a killed write) that was cut off. */
  repaired: boolean;
}

/**
 * Reads a JSONL output file for resuming. A last line without its newline, or one that is not
 * JSON, is a torn write: the file is truncated to the last complete line. A bad line elsewhere is
 * an error (the file was edited by hand; nothing is overwritten).
 */
export function readForResume<T = Record<string, unknown>>(path: string): ResumeRead<T> {
  if (!existsSync(path)) return { lines: [], repaired: false };
  const bytes = readFileSync(path);
  let text = bytes.toString('utf8');
  let repaired = false;
  const lastNewline = text.lastIndexOf('\n');
  const tail = text.slice(lastNewline + 1);
  if (tail.trim() !== '') {
    let complete = false;
    try {
      JSON.parse(tail);
      complete = true;
    } catch {
      /* torn */
    }
    if (!complete) {
      truncateSync(path, Buffer.byteLength(text.slice(0, lastNewline + 1)));
      text = text.slice(0, lastNewline + 1);
      repaired = true;
    } else {
      // A complete JSON value lacking only its newline: keep it, add the newline.
      const fd = openSync(path, 'a');
      try {
        writeSync(fd, '\n');
      } finally {
        closeSync(fd);
      }
      text += '\n';
    }
  }
  const lines: T[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      lines.push(JSON.parse(line) as T);
    } catch {
      throw new InputError(path, 'is not JSONL (one JSON object per line); fix or remove the line before resuming', { line: i + 1, column: 1 });
    }
  });
  return { lines, repaired };
}

/** Appends one JSON line with a single write + fsync (see the header). */
export function appendJsonLine(path: string, value: unknown): void {
  const line = `${JSON.stringify(value)}\n`;
  const fd = openSync(path, 'a', 0o644);
  try {
    writeSync(fd, line);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes a JSONL file whole (atomic replace). */
export function writeJsonLines(path: string, values: readonly unknown[]): void {
  writeFileAtomic(path, values.map((v) => `${JSON.stringify(v)}\n`).join(''));
}

/** Every file and folder a harness writes in its run folder. */
export const HARNESS_OUTPUTS = [
  MANIFEST_FILE,
  'responses.jsonl',
  'outputs.jsonl',
  'answers.jsonl',
  'clarifications.jsonl',
  'gold_nuggets.jsonl',
  'stagec.jsonl',
  'stagec.run.json',
  'report.md',
  'trajectories',
  '.work',
];

/**
 * Creates the run folder, and refuses it when one of the paths a harness writes there is a link
 * leading outside it (appends and folders follow links; every write stays inside the run folder).
 */
export function ensureFolder(folder: string): void {
  mkdirSync(folder, { recursive: true });
  for (const name of HARNESS_OUTPUTS) confinedWritePath(join(folder, name), { folder, what: "the run's outputs" });
}

/** A path as the manifest stores it: relative to the run folder, with forward slashes. */
export function manifestPath(folder: string, target: string): string {
  const rel = relative(resolve(folder), resolve(target));
  if (isAbsolute(rel)) throw new InputError(target, `cannot be named relative to the run folder ${folder} (another drive?); copy it next to the run folder`);
  return rel.split(sep).join('/') || '.';
}

export function readManifest(folder: string): Record<string, unknown> | undefined {
  const path = join(folder, MANIFEST_FILE);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    throw new InputError(path, 'is not valid JSON; fix it or use another --out folder');
  }
}

export function writeManifest(folder: string, manifest: Record<string, unknown>): void {
  writeFileAtomic(join(folder, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Checks that a resumed run is the same run: the stored configuration must equal the new one. */
export function checkSameConfig(folder: string, what: string, stored: unknown, current: unknown): void {
  if (stored === undefined) return;
  const a = JSON.stringify(stored);
  const b = JSON.stringify(current);
  if (a !== b) {
    throw new InputError(
      join(folder, MANIFEST_FILE),
      `this run folder holds a ${what} run with other settings (${a}); now asked for ${b}. Resume with the same settings, or use another --out folder`,
    );
  }
}

export function writeFileAtomicMkdir(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, content);
}

/** Progress events of a harness run (CLI: stderr lines; extension: withProgress). */
export interface HarnessProgress {
  /** Units finished in this session (done + failed) and the units this session runs. */
  done: number;
  total: number;
  /** Units already present from an earlier session (skipped). */
  skipped?: number;
  message: string;
}

export type ProgressSink = (event: HarnessProgress) => void;
