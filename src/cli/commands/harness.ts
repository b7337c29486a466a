// `trajaudit harness <delegation|stage-c|clarify|run-agent> …` (docs/cli.md §5).
import { DOCUMENT_ORDERS, type DocIdPolicy, type DocumentOrder } from '../../core/harness/delegation/docs';
import { delegationUnits, dryRunEntry, itemsSha256, loadItemsList, prepareUnit, runDelegation } from '../../core/harness/delegation/run';
import type { DelegationOptions } from '../../core/harness/delegation/conversation';
import { delegationPrompts } from '../../core/harness/prompts';
import { CliUsageError, type CliIo } from '../io';
import { defaultOut, intFlag, modelClientFrom, pricingFlag, progressPrinter, reportSummary, seedFlag, withInterrupt } from './harnessCommon';
import { runHarnessAgent } from './harnessAgent';
import { runHarnessClarify } from './harnessClarify';
import { runHarnessStageC } from './harnessStageC';

export const HARNESS_USAGE = `  trajaudit harness delegation <items> --setting full|search [--order golden_first|golden_middle|golden_last]
                  [--k N --budget N --withhold N --seed S] [--doc-ids auto|original|rename]
                  [--provider P --model X --base-url U] [--out DIR] [--concurrency N] [--dry-run --json]
                                                      Delegation settings I (full) and II (search); resumable
  trajaudit harness stage-c <items> [--precheck-only] [--verifier P:MODEL … | --verifiers FILE]
                  [--views C1,C2,C3,C4] [--out DIR] [--report FILE] [--json]
                                                      Stage-C filters: deterministic pre-checks + verifier views
  trajaudit harness clarify <instances> --command "…" [--k 1,2,3] [--model X] [--answerer P:MODEL]
                  [--rewriter P:MODEL] [--out DIR]    clarify → rewrite → deep search; a nuggets run folder
  trajaudit harness run-agent <dataset> --command "…" [--query-field F] [--condition C] [--timeout S] [--out DIR]
                                                      an agent command over DeepSearchQA / Delegation / intent queries`;

function ordersFrom(values: Record<string, unknown>): DocumentOrder[] {
  if (values.order === undefined) return [...DOCUMENT_ORDERS];
  const list = String(values.order).split(',').map((o) => o.trim()).filter(Boolean).map((o) => (o === 'golden_mid' ? 'golden_middle' : o));
  for (const o of list) if (!(DOCUMENT_ORDERS as readonly string[]).includes(o)) throw new CliUsageError(`--order must be ${DOCUMENT_ORDERS.join(', ')} (comma-separated for several), got "${o}"`);
  return [...new Set(list)] as DocumentOrder[];
}

async function runHarnessDelegation(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length !== 1) throw new CliUsageError(positionals.length ? 'harness delegation expects exactly one items file or folder' : 'harness delegation: missing <items>');
  const setting = values.setting;
  if (setting !== 'full' && setting !== 'search') throw new CliUsageError('harness delegation: --setting must be full (setting I) or search (setting II)');
  if (setting === 'search' && values.order !== undefined) throw new CliUsageError('--order applies to --setting full; setting II shuffles its initial context reproducibly');
  const docIds = (values['doc-ids'] ?? 'auto') as DocIdPolicy;
  if (!['auto', 'original', 'rename'].includes(docIds)) throw new CliUsageError('--doc-ids must be auto, original or rename');
  const itemsPath = positionals[0];
  const items = loadItemsList(itemsPath);
  const limit = values.limit === undefined ? undefined : intFlag(values, 'limit', 0, 1);
  const chosen = limit ? items.slice(0, limit) : items;
  const options: DelegationOptions = {
    prompts: delegationPrompts(),
    seed: seedFlag(values),
    k: intFlag(values, 'k', 3, 1),
    budget: intFlag(values, 'budget', 5, 0),
    withhold: intFlag(values, 'withhold', 1, 0),
    docIds,
  };
  const orders = ordersFrom(values);
  if (values['dry-run']) {
    const entries = delegationUnits(chosen, setting, orders).map((u) => dryRunEntry(prepareUnit(u, options)));
    io.out(JSON.stringify(entries, null, 2));
    return 0;
  }
  const { client, settings } = modelClientFrom(values);
  if (settings.maxOutputTokens) options.maxOutputTokens = settings.maxOutputTokens;
  if (settings.temperature !== undefined) options.temperature = settings.temperature;
  if (settings.reasoningEffort) options.reasoningEffort = settings.reasoningEffort;
  const pricing = pricingFlag(values);
  const out = typeof values.out === 'string' ? values.out : defaultOut('delegation', itemsPath);
  const summary = await withInterrupt(io, (signal) => runDelegation({
    ...options, setting, orders, itemsPath, items: chosen, itemsSha: itemsSha256(items), out, client,
    concurrency: intFlag(values, 'concurrency', 4, 1), signal, onProgress: progressPrinter(io, 'delegation'), pricing,
  }));
  return reportSummary(io, 'delegation', summary, values, pricing, { score: `trajaudit score ${out}` });
}

const SUBCOMMANDS: Record<string, (p: string[], v: Record<string, unknown>, io: CliIo) => Promise<number>> = {
  delegation: runHarnessDelegation,
  'stage-c': runHarnessStageC,
  clarify: runHarnessClarify,
  'run-agent': runHarnessAgent,
};

export async function runHarness(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  const [sub, ...rest] = positionals;
  const run = sub ? SUBCOMMANDS[sub] : undefined;
  if (!run) throw new CliUsageError(sub ? `unknown harness "${sub}"; expected ${Object.keys(SUBCOMMANDS).join(', ')}` : `harness needs one of ${Object.keys(SUBCOMMANDS).join(', ')}`);
  return run(rest, values, io);
}
