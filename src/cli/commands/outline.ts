import { InputError } from '../../core/input/inputError';
import { loadFile } from '../../core/load/loadFile';
import { isTrajectoryRecord } from '../../core/load/loadRecord';
import { buildOutline, formatOutline } from '../../core/stats/outline';
import { oneFile, reportProblems, trajectoryFormatFrom, type CliIo } from '../io';
import { JSON_OPTION, RECORD_OPTION, TRAJECTORY_FORMAT_OPTION, type CliCommand } from '../options';
import { selectRecords } from './selectRecords';

export function runOutline(positionals: string[], values: Record<string, unknown>, io: CliIo): number {
  const file = oneFile(positionals);
  const loaded = loadFile(file, { format: trajectoryFormatFrom(values) });
  const records = selectRecords(loaded, values.record).filter(isTrajectoryRecord);
  if (records.length === 0) throw new InputError(file, `is a ${loaded.detection.kind}, not a trajectory; an outline needs a trajectory`);
  const outlines = records.map((r) => ({ format: r.trajectory.format, id: r.id, entries: buildOutline(r.trajectory) }));
  if (values.json) {
    const single = loaded.container === 'json' || typeof values.record === 'string';
    io.out(JSON.stringify(single ? outlines[0] : outlines, null, 2));
  } else {
    io.out(outlines.map((o) => (outlines.length > 1 ? `# record ${o.id}\n` : '') + formatOutline(o.entries)).join('\n\n'));
  }
  reportProblems(loaded.problems, io);
  return loaded.problems.length > 0 ? 1 : 0;
}

export const outlineCommand: CliCommand = {
  name: 'outline',
  args: '<file>',
  summary: "The decision-step outline O(τ): every decision step's position with a truncated preview.",
  options: { ...JSON_OPTION, ...RECORD_OPTION, ...TRAJECTORY_FORMAT_OPTION },
  run: runOutline,
};
