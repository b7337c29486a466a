// `trajaudit harness run-agent <dataset> --command "…" [--query-field fused_query|blurred_query]
//                                       [--condition C] [--timeout S] [--concurrency N] [--out DIR] [--json]`
import { loadDataset, runAgentOverDataset, type QueryField } from '../../core/harness/agent/runAgent';
import { TEMPLATE_VARIABLES } from '../../core/harness/agent/command';
import { CliUsageError, type CliIo } from '../io';
import { defaultOut, intFlag, progressPrinter, reportSummary, withInterrupt } from './harnessCommon';

export function commandFlag(values: Record<string, unknown>, sub: string): string {
  if (typeof values.command !== 'string' || !values.command.trim()) {
    throw new CliUsageError(`harness ${sub} needs --command "…": a shell command template with ${TEMPLATE_VARIABLES.map((v) => `{${v}}`).join(' ')}`);
  }
  return values.command;
}

export async function runHarnessAgent(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length !== 1) throw new CliUsageError(positionals.length ? 'harness run-agent expects exactly one dataset' : 'harness run-agent: missing <dataset>');
  const template = commandFlag(values, 'run-agent');
  const field = values['query-field'] as QueryField | undefined;
  if (field !== undefined && field !== 'fused_query' && field !== 'blurred_query') throw new CliUsageError('--query-field must be fused_query (the intent query) or blurred_query');
  const datasetPath = positionals[0];
  const dataset = loadDataset(datasetPath, { queryField: field, condition: typeof values.condition === 'string' ? values.condition : undefined });
  const limit = values.limit === undefined ? undefined : intFlag(values, 'limit', 0, 1);
  if (limit) dataset.tasks = dataset.tasks.slice(0, limit);
  const out = typeof values.out === 'string' ? values.out : defaultOut(`agent-${dataset.kind}`, datasetPath);
  const summary = await withInterrupt(io, (signal) => runAgentOverDataset({
    datasetPath, dataset, template, out,
    concurrency: intFlag(values, 'concurrency', 2, 1),
    timeoutMs: intFlag(values, 'timeout', 1800, 1) * 1000,
    signal,
    onProgress: progressPrinter(io, 'run-agent'),
  }));
  return reportSummary(io, 'run-agent', summary, values, undefined, { score: `trajaudit score ${out}${dataset.kind === 'clarify' ? ' --provider … --model … (the nugget coverage judge is an LLM)' : ''}` });
}
