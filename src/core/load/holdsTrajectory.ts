import { loadFile } from './loadFile';
import { isTrajectoryRecord } from './loadRecord';

/** Whether a file holds at least one trajectory (content detection; bad files are skipped, not fatal). */
export function holdsTrajectory(path: string): boolean {
  try {
    return loadFile(path).records.some(isTrajectoryRecord);
  } catch {
    return false;
  }
}
