// `trajaudit harness <delegation|stage-c|clarify|run-agent> …` (docs/cli.md §5).
import { DOCUMENT_ORDERS, type DocIdPolicy, type DocumentOrder } from '../../core/harness/delegation/docs';
import { delegationUnits, dryRunEntry, itemsSha256, loadItemsList, prepareUnit, runDelegation } from '../../core/harness/delegation/run';
import type { DelegationOptions } from '../../core/harness/delegation/conversation';
import { delegationPrompts } from '../../core/harness/prompts';
import { CliUsageError, type CliIo } from '../io';
import { HARNESS_RUN_OPTIONS, PRICE_OPTION, PROVIDER_OPTIONS, concurrencyOption, type CliCommand } from '../options';
import { defaultOut, intFlag, modelClientFrom, pricingFlag, progressPrinter, reportSummary, seedFlag, withInterrupt } from './harnessCommon';
import { harnessRunAgentCommand } from './harnessAgent';
import { harnessClarifyCommand } from './harnessClarify';
import { harnessStageCCommand } from './harnessStageC';

function ordersFrom(values: Record<string, unknown>): DocumentOrder[] {
  if (values.order === undefined) return [...DOCUMENT_ORDERS];
  const list = String(values.order)
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => (o === 'golden_mid' ? 'golden_middle' : o));
  for (const o of list)
    if (!(DOCUMENT_ORDERS as readonly string[]).includes(o))
      throw new CliUsageError(`--order must be ${DOCUMENT_ORDERS.join(', ')} (comma-separated for several), got "${o}"`);
  return [...new Set(list)] as DocumentOrder[];
}

async function runHarnessDelegation(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length !== 1)
    throw new CliUsageError(positionals.length ? 'harness delegation expects exactly one items file or folder' : 'harness delegation: missing <items>');
  const setting = values.setting;
  if (setting !== 'full' && setting !== 'search') throw new CliUsageError('harness delegation: --setting must be full (setting I) or search (setting II)');
  if (setting === 'search' && values.order !== undefined)
    throw new CliUsageError('--order applies to --setting full; setting II shuffles its initial context reproducibly');
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
  const summary = await withInterrupt(io, (signal) =>
    runDelegation({
      ...options,
      setting,
      orders,
      itemsPath,
      items: chosen,
      itemsSha: itemsSha256(items),
      out,
      client,
      concurrency: intFlag(values, 'concurrency', 4, 1),
      signal,
      onProgress: progressPrinter(io, 'delegation'),
      pricing,
    }),
  );
  return reportSummary(io, 'delegation', summary, values, pricing, { score: `trajaudit score ${out}` });
}

const harnessDelegationCommand: CliCommand = {
  name: 'harness delegation',
  args: '<items>',
  summary: 'Delegation settings I (full: every document in the initial context) and II (search: documents through a search tool); resumable.',
  options: {
    setting: { type: 'string', value: 'full|search', help: 'setting I (full) or II (search)', required: true },
    order: {
      type: 'string',
      value: DOCUMENT_ORDERS.join('|'),
      help: 'setting I: where the golden block goes, comma-separated for several (default all three)',
    },
    k: { type: 'string', value: 'N', help: 'setting II: documents per search (default 3)' },
    budget: { type: 'string', value: 'N', help: 'setting II: search calls allowed (default 5)' },
    withhold: { type: 'string', value: 'N', help: 'setting II: golden documents withheld from the initial context (default 1)' },
    seed: { type: 'string', value: 'S', help: 'seed of the reproducible shuffles (default 0)' },
    'doc-ids': {
      type: 'string',
      value: 'auto|original|rename',
      help: 'setting I: keep or rename the document ids (default auto: rename when the ids reveal the golden group)',
    },
    'dry-run': { type: 'boolean', help: 'call no model; print the first request of each unit' },
    ...PROVIDER_OPTIONS,
    ...PRICE_OPTION,
    ...concurrencyOption('units', 4),
    ...HARNESS_RUN_OPTIONS,
  },
  run: runHarnessDelegation,
};

/** The `trajaudit harness …` subcommands, each with its own option table. */
export const HARNESS_COMMANDS: readonly CliCommand[] = [harnessDelegationCommand, harnessStageCCommand, harnessClarifyCommand, harnessRunAgentCommand];
