// `trajaudit resume <folder> --command "…" [--conditions repair,retry,hint] [--out DIR] [--judge exact|llm]
//                   [--method M] [--timeout S] [--concurrency N] [--provider … --model …] [--json]`
// Seed 002 §5.4: runs the agent from each audited trajectory's resume payload under each
// condition, judges the new answers against the gold answers and writes a `resume` run folder,
// then prints its score (the same as `trajaudit score DIR`).
import { RESUME_TEMPLATE_VARIABLES } from '../../core/harness/agent/command';
import { createModelClient } from '../../core/providers/factory';
import { RESUME_CONDITIONS, isResumeCondition, type ResumeCondition } from '../../core/resume/conditions';
import { runResume } from '../../core/resume/runResume';
import { structuredModelFromClient } from '../../core/scoring/judges/providerModel';
import { renderText, scoreJson } from '../../core/scoring/render';
import { scoreRunFolder } from '../../core/scoring/scoreRunFolder';
import { CliUsageError, trajectoryFormatFrom, type CliIo } from '../io';
import { JSON_OPTION, PROVIDER_OPTIONS, TRAJECTORY_FORMAT_OPTION, concurrencyOption, type CliCommand } from '../options';
import { modelSettingsFrom } from './auditWithModel';
import { AGENT_COMMAND_OPTIONS } from './harnessAgent';
import { defaultOut, intFlag, progressPrinter, withInterrupt } from './harnessCommon';

const VARIABLES = RESUME_TEMPLATE_VARIABLES.map((v) => `{${v}}`).join(' ');

function conditionsFlag(values: Record<string, unknown>): ResumeCondition[] {
  if (values.conditions === undefined) return [...RESUME_CONDITIONS];
  const list = String(values.conditions)
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const unknown = list.filter((c) => !isResumeCondition(c));
  if (list.length === 0 || unknown.length)
    throw new CliUsageError(`--conditions takes a comma-separated list of ${RESUME_CONDITIONS.join(', ')}${unknown.length ? `; got "${unknown[0]}"` : ''}`);
  return [...new Set(list as ResumeCondition[])];
}

export async function runResumeCommand(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length !== 1)
    throw new CliUsageError(positionals.length ? 'resume expects exactly one folder (or file) of audited trajectories' : 'resume: missing <folder>');
  if (typeof values.command !== 'string' || !values.command.trim())
    throw new CliUsageError(`resume needs --command "…": a shell command template with ${VARIABLES}`);
  const judge = values.judge ?? 'exact';
  if (judge !== 'exact' && judge !== 'llm') throw new CliUsageError('--judge must be exact or llm');
  if (judge === 'llm' && values.model === undefined) throw new CliUsageError('--judge llm needs --model (and --provider / --base-url as for audit)');
  const model =
    values.model === undefined && values.provider === undefined
      ? undefined
      : (() => {
          const settings = modelSettingsFrom(values);
          return structuredModelFromClient(createModelClient(settings), { maxOutputTokens: settings.maxOutputTokens });
        })();
  const source = positionals[0];
  const out = typeof values.out === 'string' ? values.out : defaultOut('resume', source);
  const trajectoryFormat = trajectoryFormatFrom(values);
  const summary = await withInterrupt(io, (signal) =>
    runResume({
      source,
      template: values.command as string,
      out,
      conditions: conditionsFlag(values),
      ...(typeof values.method === 'string' ? { method: values.method } : {}),
      judge,
      model,
      concurrency: intFlag(values, 'concurrency', 2, 1),
      timeoutMs: intFlag(values, 'timeout', 1800, 1) * 1000,
      passApiKeys: values['pass-api-keys'] === true,
      ...(trajectoryFormat ? { trajectoryFormat } : {}),
      signal,
      onProgress: progressPrinter(io, 'resume'),
    }),
  );
  for (const note of summary.notes) io.err(`trajaudit resume: note: ${note}`);
  const scored = summary.aborted ? undefined : await scoreRunFolder(out, { judge, model });
  if (scored) for (const note of scored.notes) io.err(`trajaudit resume: score note: ${note}`);
  const counts = `${summary.total} run(s); ${summary.skipped} done earlier, ${summary.completed} now, ${summary.failed.length} failed${summary.aborted ? ', interrupted' : ''}`;
  if (values.json) {
    const { folder, total, skipped, completed, failed, aborted } = summary;
    io.out(JSON.stringify({ folder, total, skipped, completed, failed, aborted, score: scored ? scoreJson(scored) : null }, null, 2));
  } else {
    io.out(`${out}: ${counts}`);
    for (const f of summary.failed) io.out(`  failed ${f.key.replace(/#([^#]*)$/, ' / $1')}: ${f.error}`);
    if (scored) io.out(`\n${renderText(scored)}`);
  }
  if (summary.failed.length || summary.aborted) {
    io.err(`trajaudit resume: ${summary.failed.length} agent run(s) failed${summary.aborted ? ', interrupted' : ''}; rerun the same command to retry them`);
    return 1;
  }
  return 0;
}

export const resumeCommand: CliCommand = {
  name: 'resume',
  args: '<folder>',
  summary:
    'Seed 002 §5.4: runs the agent from each audited trajectory’s resume payload under each condition (repair, unguided retry, generic hint), judges the answers against the gold answers, writes a resume run folder and prints its fix rates. Resumable.',
  options: {
    ...AGENT_COMMAND_OPTIONS,
    command: {
      ...AGENT_COMMAND_OPTIONS.command,
      help: `the agent: a shell command template with ${VARIABLES} ({resume_file}: the resume payload, JSON with its messages)`,
    },
    conditions: { type: 'string', value: RESUME_CONDITIONS.join(','), help: 'the conditions to run (default all three)' },
    method: { type: 'string', value: 'M', help: 'resume from the newest audit of method M (default: the newest audit with a repair)' },
    judge: { type: 'string', value: 'exact|llm', help: 'answer judge against the gold answer (default exact; llm needs --model, verdicts cached in the run)' },
    out: { type: 'string', value: 'DIR', help: 'the run folder (default trajaudit-runs/resume-<input name>); rerun to resume' },
    ...concurrencyOption('agent runs', 2),
    ...TRAJECTORY_FORMAT_OPTION,
    ...PROVIDER_OPTIONS,
    ...JSON_OPTION,
  },
  run: runResumeCommand,
};
