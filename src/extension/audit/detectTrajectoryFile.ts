import { loadFile } from '../../core/load/loadFile';
import { isTrajectoryRecord } from '../../core/load/loadRecord';

/** Whether a file holds at least one trajectory (content detection; bad files are skipped, not fatal). */
export function detectFile(path: string): boolean {
  try {
    return loadFile(path).records.some(isTrajectoryRecord);
  } catch {
    return false;
  }
}
