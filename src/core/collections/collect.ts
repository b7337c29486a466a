// The trajectories of a collection: every trajectory record under the given files and folders,
// each with its sidecar record (human annotation, audits). Files that cannot be read are listed,
// one line each, and the rest of the collection is still read.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { formatProblem, problemFromError, type Problem } from '../input/inputError';
import { loadBytes, loadFile } from '../load/loadFile';
import { isTrajectoryRecord } from '../load/loadRecord';
import type { GoldAnnotation, Trajectory, TrajectoryFormat } from '../model/trajectory';
import { MANIFEST_FILE } from '../runs/manifest';
import { KNOWN_RUN_FILES } from '../scoring/runs/detect';
import type { Annotation, SidecarRecord } from '../sidecar/schema';
import { readSidecar, sidecarPathFor } from '../sidecar/sidecarFile';

export interface CollectedTrajectory {
  file: string;
  record: string;
  trajectory: Trajectory;
  /** The record's entry in `<file>.audit.json`, when the sidecar has one. */
  sidecarRecord?: SidecarRecord;
}

/** One file or record that could not be read: `message` says where in the file and what was wrong. */
export interface Unreadable {
  file: string;
  message: string;
}

export interface Collection {
  trajectories: CollectedTrajectory[];
  unreadable: Unreadable[];
}

/** Files a folder walk reads as trajectories: JSON, JSONL and Inspect .eval logs. */
const TRAJECTORY_FILE = /\.(json|jsonl|eval)$/i;
const SKIP_DIRS = new Set(['node_modules']);

/** Sidecars, lock files, run manifests, a trajectory's `<stem>.gold_nuggets.jsonl` and the other run-folder files are beside trajectories but are not trajectories. */
function isCompanionFile(name: string): boolean {
  return name.endsWith('.audit.json') || name.endsWith('.gold_nuggets.jsonl') || name === MANIFEST_FILE || KNOWN_RUN_FILES.has(name) || name.endsWith('.lock');
}

function walk(folder: string, out: string[], listings?: Map<string, ReadonlySet<string>>): void {
  const entries = readdirSync(folder, { withFileTypes: true });
  listings?.set(folder, new Set(entries.map((entry) => entry.name)));
  // join(folder, name) for every name listed (one plain segment each): the folder is normalized once, not per file.
  const prefix = join(folder, 'x').slice(0, -1);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
    const path = prefix + entry.name;
    if (entry.isDirectory()) walk(path, out, listings);
    else if (entry.isFile() && TRAJECTORY_FILE.test(entry.name) && !isCompanionFile(entry.name)) out.push(path);
  }
}

function unreadableOf(problem: Problem): Unreadable {
  // The message without the file name, which is its own key.
  const where = formatProblem('', problem.message, problem);
  return { file: problem.file, message: where.replace(/^:/, '').trim() };
}

export interface CollectOptions {
  format?: TrajectoryFormat;
}

/**
 * The files a collection reads: folders walked recursively in name order, files as given; paths
 * that cannot be read are listed. `listings`, when given, receives every name in each walked
 * folder (the collection index tells from it which sidecars exist without a look-up per file).
 */
export function collectionFiles(paths: readonly string[], listings?: Map<string, ReadonlySet<string>>): { files: string[]; unreadable: Unreadable[] } {
  const files: string[] = [];
  const unreadable: Unreadable[] = [];
  for (const path of paths) {
    let isFolder = false;
    try {
      isFolder = statSync(path).isDirectory();
    } catch (error) {
      unreadable.push({ file: path, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})` });
      continue;
    }
    if (isFolder) walk(path, files, listings);
    else files.push(path);
  }
  return { files, unreadable };
}

export interface CollectFileOptions extends CollectOptions {
  /** The file was named on the command line (not found by a folder walk): then it must be a trajectory. */
  named?: boolean;
  /** The file's bytes, when the caller has read them already (the index hashes them). */
  bytes?: Uint8Array;
}

/** The trajectory records of one file with their sidecar records, and what could not be read. */
export function collectFile(file: string, options: CollectFileOptions = {}): Collection {
  const unreadable: Unreadable[] = [];
  let records;
  try {
    const loaded = options.bytes ? loadBytes(options.bytes, file, { format: options.format }) : loadFile(file, { format: options.format });
    unreadable.push(...loaded.problems.map(unreadableOf));
    records = loaded.records;
  } catch (error) {
    unreadable.push(unreadableOf(problemFromError(file, error)));
    return { trajectories: [], unreadable };
  }
  const found = records.filter(isTrajectoryRecord);
  if (found.length === 0) {
    // A folder may hold item files and the like; a file named on the command line must be a trajectory.
    if (options.named && records.length > 0) unreadable.push({ file, message: `is not a trajectory file (detected ${records[0].kind})` });
    return { trajectories: [], unreadable };
  }
  let sidecarRecords: Record<string, SidecarRecord> = {};
  const sidecarPath = sidecarPathFor(file);
  if (existsSync(sidecarPath)) {
    try {
      sidecarRecords = readSidecar(sidecarPath)?.records ?? {};
    } catch (error) {
      unreadable.push(unreadableOf(problemFromError(sidecarPath, error)));
    }
  }
  const trajectories: CollectedTrajectory[] = [];
  for (const record of found) {
    try {
      const trajectory = record.trajectory; // an Inspect sample is read here, and may fail alone
      const sidecarRecord = Object.hasOwn(sidecarRecords, record.id) ? sidecarRecords[record.id] : undefined;
      trajectories.push({ file, record: record.id, trajectory, ...(sidecarRecord ? { sidecarRecord } : {}) });
    } catch (error) {
      unreadable.push(unreadableOf(problemFromError(file, error)));
    }
  }
  return { trajectories, unreadable };
}

/** Every trajectory record under `paths` (folders recursively, in name order; files as given). */
export function collectTrajectories(paths: readonly string[], options: CollectOptions = {}): Collection {
  const { files, unreadable } = collectionFiles(paths);
  const trajectories: CollectedTrajectory[] = [];
  for (const file of files) {
    const collected = collectFile(file, { format: options.format, named: paths.includes(file) });
    trajectories.push(...collected.trajectories);
    unreadable.push(...collected.unreadable);
  }
  return { trajectories, unreadable };
}

/** The labels one rater gave a case. */
export interface CaseLabel {
  criticalStep?: number;
  toleranceSpan?: [number, number];
  rootCause?: string;
}

function hasLabel(label: CaseLabel): boolean {
  return label.criticalStep !== undefined || label.rootCause !== undefined;
}

export function labelOfAnnotation(annotation: Annotation | null | undefined): CaseLabel | undefined {
  if (!annotation) return undefined;
  const label: CaseLabel = {
    ...(typeof annotation.criticalStep === 'number' ? { criticalStep: annotation.criticalStep } : {}),
    ...(annotation.toleranceSpan ? { toleranceSpan: [annotation.toleranceSpan[0], annotation.toleranceSpan[1]] as [number, number] } : {}),
    ...(annotation.rootCause ? { rootCause: annotation.rootCause } : {}),
  };
  return hasLabel(label) ? label : undefined;
}

export function labelOfGold(gold: GoldAnnotation | undefined): CaseLabel | undefined {
  if (!gold) return undefined;
  const rootCause = gold.rootCause ?? gold.rootCauseRaw;
  const label: CaseLabel = {
    ...(gold.criticalStep !== undefined ? { criticalStep: gold.criticalStep } : {}),
    ...(gold.toleranceSpan ? { toleranceSpan: gold.toleranceSpan } : {}),
    ...(rootCause ? { rootCause } : {}),
  };
  return hasLabel(label) ? label : undefined;
}

/** The reference label of a trajectory: the human annotation in the sidecar, else the gold in the file. */
export function referenceLabel(t: CollectedTrajectory): CaseLabel | undefined {
  return labelOfAnnotation(t.sidecarRecord?.annotation) ?? labelOfGold(t.trajectory.gold);
}
