// `trajaudit harness clarify <instances> --command "…" [--k 1,2,3] [--provider P --model X --base-url U]
//                 [--answerer P:MODEL[@URL]] [--rewriter P:MODEL[@URL]] [--concurrency N] [--timeout S] [--out DIR] [--json]`
// --model is the Clarifier under evaluation; the User Answerer and the Rewriter are fixed models
// (default: the same model as the Clarifier).
import { loadFile } from '../../core/load/loadFile';
import { InputError } from '../../core/input/inputError';
import type { ClarifyInstance } from '../../core/items/schemas';
import { runClarify } from '../../core/harness/clarify/run';
import type { ModelClient } from '../../core/providers/types';
import { CliUsageError, trajectoryFormatFrom, type CliIo } from '../io';
import { HARNESS_RUN_OPTIONS, PRICE_OPTION, PROVIDER_OPTIONS, concurrencyOption, type CliCommand } from '../options';
import { AGENT_COMMAND_OPTIONS, commandFlag } from './harnessAgent';
import { defaultOut, intFlag, modelClientFrom, pricingFlag, progressPrinter, reportSummary, withInterrupt } from './harnessCommon';
import { verifierPool } from './harnessStageC';

function roleClient(values: Record<string, unknown>, flag: 'answerer' | 'rewriter', fallback: ModelClient): ModelClient {
  const spec = values[flag];
  if (spec === undefined) return fallback;
  return verifierPool({ ...values, verifiers: undefined, verifier: [String(spec)] }).verifiers[0].client;
}

export async function runHarnessClarify(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length !== 1)
    throw new CliUsageError(positionals.length ? 'harness clarify expects exactly one instances file' : 'harness clarify: missing <instances>');
  const template = commandFlag(values, 'clarify');
  const trajectoryFormat = trajectoryFormatFrom(values);
  const budgets =
    values.k === undefined
      ? [1, 2, 3]
      : String(values.k)
          .split(',')
          .map((s) => Number(s.trim()));
  if (budgets.some((k) => !Number.isInteger(k) || k < 1 || k > 10))
    throw new CliUsageError('--k for clarify is a comma-separated list of question budgets, e.g. 1,2,3');
  const path = positionals[0];
  const loaded = loadFile(path);
  if (loaded.detection.kind !== 'clarify-instance')
    throw new InputError(path, `expected Clarify-Then-Search instances (id, blurred_query, fused_query, nuggets), found ${loaded.detection.kind}`);
  if (loaded.problems.length) throw new InputError(loaded.problems[0].file, loaded.problems[0].message, loaded.problems[0]);
  let instances: ClarifyInstance[] = loaded.records.flatMap((r) => (r.kind === 'clarify-instance' ? [r.instance] : []));
  const limit = values.limit === undefined ? undefined : intFlag(values, 'limit', 0, 1);
  if (limit) instances = instances.slice(0, limit);
  const { client, settings } = modelClientFrom(values);
  const pricing = pricingFlag(values);
  const out = typeof values.out === 'string' ? values.out : defaultOut('clarify', path);
  const summary = await withInterrupt(io, (signal) =>
    runClarify({
      instances,
      out,
      budgets: [...new Set(budgets)].sort((a, b) => a - b),
      template,
      roles: { clarifier: client, answerer: roleClient(values, 'answerer', client), rewriter: roleClient(values, 'rewriter', client) },
      concurrency: intFlag(values, 'concurrency', 2, 1),
      timeoutMs: intFlag(values, 'timeout', 1800, 1) * 1000,
      passApiKeys: values['pass-api-keys'] === true,
      trajectoryFormat,
      ...(settings.maxOutputTokens ? { maxOutputTokens: settings.maxOutputTokens } : {}),
      signal,
      onProgress: progressPrinter(io, 'clarify'),
      pricing,
    }),
  );
  return reportSummary(io, 'clarify', summary, values, pricing, {
    rewrites_with_unelicited_constraints: summary.leaks,
    score: `trajaudit score ${out} --provider … --model … (nugget coverage is judged by an LLM)`,
  });
}

export const harnessClarifyCommand: CliCommand = {
  name: 'harness clarify',
  args: '<instances>',
  summary:
    'Clarify → rewrite → deep search over Clarify-Then-Search instances; --model is the Clarifier under evaluation. Writes a nuggets run folder; resumable.',
  options: {
    ...AGENT_COMMAND_OPTIONS,
    k: { type: 'string', value: '1,2,3', help: 'question budgets, comma-separated (default 1,2,3)' },
    ...PROVIDER_OPTIONS,
    answerer: { type: 'string', value: 'P:MODEL[@URL]', help: "the User Answerer (default: the Clarifier's model)" },
    rewriter: { type: 'string', value: 'P:MODEL[@URL]', help: "the Rewriter (default: the Clarifier's model)" },
    ...PRICE_OPTION,
    ...concurrencyOption('instances', 2),
    ...HARNESS_RUN_OPTIONS,
  },
  run: runHarnessClarify,
};
