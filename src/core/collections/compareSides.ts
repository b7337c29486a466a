// Reading the two sides of a comparison (the compare view, issue 16 item 4): a file's trajectory
// records with their sidecar entries, as the collection view reads them (collectFile), and the
// record to compare. What stops a side is one line naming the file, the place in it and what was
// wrong; a sidecar that cannot be read does not stop it (the side shows no labels) and is a warning.
import { collectFile, type CollectedTrajectory } from './collect';

export class CompareInputError extends Error {}

export interface CompareFile {
  file: string;
  trajectories: CollectedTrajectory[];
  /** Problems that did not stop the side, one line each (a sidecar that cannot be read). */
  warnings: string[];
}

/** The trajectory records of `file` for comparing; `display` names files as the user reads them. */
export function readCompareFile(file: string, display: (path: string) => string = (p) => p): CompareFile {
  const collected = collectFile(file, { named: true });
  const problems = collected.unreadable.map((u) => `${display(u.file)}: ${u.message}`);
  if (collected.trajectories.length === 0) throw new CompareInputError(problems[0] ?? `${display(file)}: holds no trajectory`);
  return { file, trajectories: collected.trajectories, warnings: problems };
}

/** The record `record` of a read file; a record the file lacks is a one-line error listing the ones it has. */
export function compareRecordOf(read: CompareFile, record: string, display: (path: string) => string = (p) => p): CollectedTrajectory {
  const found = read.trajectories.find((t) => t.record === record);
  if (found) return found;
  const ids = read.trajectories.slice(0, 8).map((t) => t.record);
  throw new CompareInputError(`${display(read.file)}: no record "${record}"; records are ${ids.join(', ')}${read.trajectories.length > 8 ? ', …' : ''}`);
}
