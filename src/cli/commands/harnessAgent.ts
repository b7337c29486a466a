// `trajaudit harness run-agent <dataset> --command "…" [--query-field fused_query|blurred_query]
//                                       [--condition C] [--samples N] [--format ID] [--timeout S] [--concurrency N] [--out DIR] [--json]`
import { loadDataset, runAgentOverDataset, SAMPLED_KINDS, type QueryField } from '../../core/harness/agent/runAgent';
import { TEMPLATE_VARIABLES } from '../../core/harness/agent/command';
import { CliUsageError, trajectoryFormatFrom, type CliIo } from '../io';
import { HARNESS_RUN_OPTIONS, TRAJECTORY_FORMAT_OPTION, concurrencyOption, type CliCommand, type OptionTable } from '../options';
import { defaultOut, intFlag, progressPrinter, reportSummary, withInterrupt } from './harnessCommon';

/** The agent under test, shared by run-agent and clarify (read by `commandFlag` and as `--timeout`). */
export const AGENT_COMMAND_OPTIONS: OptionTable = {
  command: {
    type: 'string',
    value: '"…"',
    help: `the agent: a shell command template with ${TEMPLATE_VARIABLES.map((v) => `{${v}}`).join(' ')}`,
    required: true,
  },
  timeout: { type: 'string', value: 'S', help: 'seconds one agent run may take (default 1800)' },
  'pass-api-keys': {
    type: 'boolean',
    help: "give the agent trajaudit's API keys (OPENAI_API_KEY, ANTHROPIC_API_KEY, …); by default they are removed from its environment",
  },
  // The trajectories the agent writes to {out_trajectory} are read with this reader.
  ...TRAJECTORY_FORMAT_OPTION,
};

export function commandFlag(values: Record<string, unknown>, sub: string): string {
  if (typeof values.command !== 'string' || !values.command.trim()) {
    throw new CliUsageError(`harness ${sub} needs --command "…": a shell command template with ${TEMPLATE_VARIABLES.map((v) => `{${v}}`).join(' ')}`);
  }
  return values.command;
}

export async function runHarnessAgent(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length !== 1)
    throw new CliUsageError(positionals.length ? 'harness run-agent expects exactly one dataset' : 'harness run-agent: missing <dataset>');
  const template = commandFlag(values, 'run-agent');
  const trajectoryFormat = trajectoryFormatFrom(values);
  const field = values['query-field'] as QueryField | undefined;
  if (field !== undefined && field !== 'fused_query' && field !== 'blurred_query')
    throw new CliUsageError('--query-field must be fused_query (the intent query) or blurred_query');
  const datasetPath = positionals[0];
  const dataset = loadDataset(datasetPath, { queryField: field, condition: typeof values.condition === 'string' ? values.condition : undefined });
  const samples = values.samples === undefined ? undefined : intFlag(values, 'samples', 1, 1);
  if (samples !== undefined && samples > 1 && !SAMPLED_KINDS.includes(dataset.kind))
    throw new CliUsageError(`--samples N applies to ${SAMPLED_KINDS.join(' and ')} datasets (pass@n), not to a ${dataset.kind} dataset`);
  const limit = values.limit === undefined ? undefined : intFlag(values, 'limit', 0, 1);
  if (limit) dataset.tasks = dataset.tasks.slice(0, limit);
  const out = typeof values.out === 'string' ? values.out : defaultOut(`agent-${dataset.kind}`, datasetPath);
  const summary = await withInterrupt(io, (signal) =>
    runAgentOverDataset({
      datasetPath,
      dataset,
      template,
      out,
      concurrency: intFlag(values, 'concurrency', 2, 1),
      timeoutMs: intFlag(values, 'timeout', 1800, 1) * 1000,
      passApiKeys: values['pass-api-keys'] === true,
      trajectoryFormat,
      ...(samples !== undefined ? { samples } : {}),
      signal,
      onProgress: progressPrinter(io, 'run-agent'),
    }),
  );
  return reportSummary(io, 'run-agent', summary, values, undefined, {
    score: `trajaudit score ${out}${dataset.kind === 'clarify' ? ' --provider … --model … (the nugget coverage judge is an LLM)' : ''}`,
  });
}

export const harnessRunAgentCommand: CliCommand = {
  name: 'harness run-agent',
  args: '<dataset>',
  summary:
    'Runs an agent command over DeepSearchQA, Delegation or Clarify-Then-Search queries or a scenario set (one deliverable per scenario); writes a run folder for trajaudit score. Resumable.',
  options: {
    ...AGENT_COMMAND_OPTIONS,
    'query-field': {
      type: 'string',
      value: 'fused_query|blurred_query',
      help: 'Clarify instances: the query the agent gets (default fused_query, the intent query)',
    },
    condition: { type: 'string', value: 'C', help: 'the condition label of the answers (default agent; clarify: intent or orig)' },
    samples: {
      type: 'string',
      value: 'N',
      help: 'DeepSearchQA and Delegation: run each item N times, lines recording sample 0..N-1 (score gives pass@n)',
    },
    ...concurrencyOption('agent runs', 2),
    ...HARNESS_RUN_OPTIONS,
  },
  run: runHarnessAgent,
};
