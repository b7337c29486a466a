import { problemLine, type Problem } from '../core/input/inputError';
import { readableFormats } from '../core/load/loadFile';
import type { TrajectoryFormat } from '../core/model/trajectory';
import type { ToolNames } from '../core/stats/statistics';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export class CliUsageError extends Error {}

export function toolNamesFrom(values: Record<string, unknown>): ToolNames {
  const list = (v: unknown) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined;
  return { searchNames: list(values['search-names']), visitNames: list(values['visit-names']) };
}

/** `--format ID` (options.ts TRAJECTORY_FORMAT_OPTION): a reader's id, else a usage error listing the ids. */
export function trajectoryFormatFrom(values: Record<string, unknown>): TrajectoryFormat | undefined {
  const format = values.format;
  if (format === undefined) return undefined;
  const ids = readableFormats();
  if (typeof format !== 'string' || !(ids as string[]).includes(format)) {
    throw new CliUsageError(`--format ${JSON.stringify(format)} is not a trajectory format; the formats are ${ids.join(', ')}`);
  }
  return format as TrajectoryFormat;
}

export function oneFile(positionals: string[]): string {
  if (positionals.length !== 1) throw new CliUsageError(positionals.length ? 'expects exactly one file' : 'missing <file>');
  return positionals[0];
}

export function reportProblems(problems: Problem[], io: CliIo): void {
  for (const p of problems) io.err(problemLine(p));
}
