// `trajaudit build nuggets <trajectory files…> --out gold_nuggets.jsonl [--format ID] [--provider P --model X …]`:
// static golden nuggets (seed 004, Prompt D) from archived intent-query runs in any format we read,
// in the gold_nuggets.jsonl shape the nuggets scorer reads (docs/cli.md §6 `build nuggets`).
// A trajectory whose reply stays invalid is named on stderr and left out (exit 1); the others are written.
import { basename } from 'node:path';
import { mapWithConcurrency } from '../../core/audit/runAudit';
import { buildNuggetLine, NuggetBuildError, type GoldNuggetLine, type NuggetSource } from '../../core/builders/nuggets/extract';
import { emptyBuilderUsage } from '../../core/builders/items/prompts';
import { writeFileAtomicMkdir } from '../../core/harness/runFolder';
import { loadFile } from '../../core/load/loadFile';
import { StructuredOutputError } from '../../core/providers/errors';
import { isTrajectoryRecord } from '../../core/load/loadRecord';
import { CliUsageError, reportProblems, toolNamesFrom, trajectoryFormatFrom, type CliIo } from '../io';
import { JSON_OPTION, PROVIDER_OPTIONS, TOOL_NAME_OPTIONS, TRAJECTORY_FORMAT_OPTION, concurrencyOption, type CliCommand } from '../options';
import { jsonLines, requiredPath } from './buildItems';
import { intFlag, modelClientFrom, withInterrupt } from './harnessCommon';

/** The trajectories of the files; the instance id is the record id, or the file name for a file holding one trajectory. */
function sourcesOf(files: string[], values: Record<string, unknown>, io: CliIo): { sources: NuggetSource[]; problems: number } {
  const format = trajectoryFormatFrom(values);
  const sources: NuggetSource[] = [];
  let problems = 0;
  for (const file of files) {
    const loaded = loadFile(file, { format });
    reportProblems(loaded.problems, io);
    problems += loaded.problems.length;
    const trajectories = loaded.records.filter(isTrajectoryRecord);
    if (trajectories.length === 0) throw new CliUsageError(`${file} holds no trajectory (found ${loaded.detection.kind})`);
    const single = loaded.container === 'json' && trajectories.length === 1;
    for (const r of trajectories) sources.push({ id: single ? basename(file).replace(/\..*$/, '') : r.id, file, trajectory: r.trajectory });
  }
  const ids = new Map<string, string>();
  for (const s of sources) {
    const earlier = ids.get(s.id);
    if (earlier !== undefined) throw new CliUsageError(`two trajectories would get the instance id "${s.id}" (${earlier} and ${s.file}); rename one file`);
    ids.set(s.id, s.file);
  }
  return { sources, problems };
}

async function runBuildNuggets(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length === 0) throw new CliUsageError('build nuggets: missing <trajectory files…> (archived intent-query runs)');
  const out = requiredPath(values, 'out', 'build nuggets');
  const { sources, problems } = sourcesOf(positionals, values, io);
  const names = toolNamesFrom(values);
  const { client, settings } = modelClientFrom(values);
  const usage = emptyBuilderUsage();
  const attempts = intFlag(values, 'attempts', 2, 1);
  const lines = new Map<NuggetSource, GoldNuggetLine>();
  const failures: string[] = [];
  await withInterrupt(io, (signal) =>
    mapWithConcurrency(sources, intFlag(values, 'concurrency', 2, 1), async (source) => {
      try {
        const line = await buildNuggetLine(source, {
          client,
          usage,
          names,
          attempts,
          signal,
          ...(settings.maxOutputTokens ? { maxOutputTokens: settings.maxOutputTokens } : {}),
        });
        lines.set(source, line);
        const p = line.provenance;
        io.err(
          `trajaudit build nuggets: ${source.id}: ${line.nuggets.length} nugget(s)${p.repairs.length ? `; repaired: ${p.repairs.join('; ')}` : ''}${p.rejected.length ? `; rejected: ${p.rejected.map((r) => r.reason).join('; ')}` : ''}`,
        );
      } catch (error) {
        if (!(error instanceof NuggetBuildError) && !(error instanceof StructuredOutputError)) throw error;
        failures.push(`${source.file}#${source.trajectory.id}: ${error.message.split('\n')[0]}`);
      }
    }),
  );
  // In input order, whatever order the model calls finished in.
  const built = sources.flatMap((s) => (lines.has(s) ? [lines.get(s) as GoldNuggetLine] : []));
  writeFileAtomicMkdir(out, jsonLines(built).join(''));
  for (const f of failures) io.err(`trajaudit build nuggets: left out ${f}`);
  const nuggets = built.reduce((n, l) => n + l.nuggets.length, 0);
  if (values.json) io.out(JSON.stringify({ out, instances: built.length, nuggets, failed: failures, usage }, null, 2));
  else {
    io.out(`${out}: ${built.length} instance(s), ${nuggets} nugget(s)${failures.length ? `; ${failures.length} trajectory(ies) left out` : ''}`);
    io.out(`model calls: ${usage.calls}, tokens in ${usage.inputTokens} / out ${usage.outputTokens}`);
  }
  return failures.length || problems ? 1 : 0;
}

export const buildNuggetsCommand: CliCommand = {
  name: 'build nuggets',
  args: '<trajectory files…>',
  summary:
    'Static golden nuggets (seed 004, Prompt D) from archived intent-query runs in any trajectory format: atomic nuggets with weights 1-3 citing the evidence ids of the run’s search and visit results, checked against the trace; writes gold_nuggets.jsonl.',
  options: {
    out: { type: 'string', value: 'FILE', help: 'the gold_nuggets.jsonl to write', required: true },
    attempts: { type: 'string', value: 'N', help: 'model calls per trajectory when no nugget of a reply is valid (default 2)' },
    ...TRAJECTORY_FORMAT_OPTION,
    ...TOOL_NAME_OPTIONS,
    ...PROVIDER_OPTIONS,
    ...concurrencyOption('trajectories', 2),
    ...JSON_OPTION,
  },
  run: runBuildNuggets,
};
