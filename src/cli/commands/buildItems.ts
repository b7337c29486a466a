// `trajaudit build items --seeds FILE (--pool FILE | --retrieve "CMD") --out FILE …`: Stage A of
// seed 000 (docs/builder.md). Writes the items (JSONL, the Delegation item shape) and the trail of
// regenerated and dropped items (`<out>.trail.jsonl` unless --trail says otherwise).
import { delegationPrompts } from '../../core/harness/prompts';
import { loadDocumentPool, loadSeeds, retrieveTemplateProblems, retrieveWithCommand } from '../../core/builders/items/documents';
import { poolRetriever, synthesizeItems } from '../../core/builders/items/synthesize';
import { trailLines } from '../../core/builders/items/trail';
import { writeFileAtomicMkdir } from '../../core/harness/runFolder';
import { CliUsageError, type CliIo } from '../io';
import { JSON_OPTION, PROVIDER_OPTIONS, concurrencyOption, type CliCommand } from '../options';
import { intFlag, modelClientFrom, withInterrupt } from './harnessCommon';

export function requiredPath(values: Record<string, unknown>, name: string, command: string): string {
  const v = values[name];
  if (typeof v !== 'string' || !v.trim()) throw new CliUsageError(`${command}: --${name} FILE is required`);
  return v;
}

/** `items.jsonl` → `items.trail.jsonl`: where a builder writes its trail unless told. */
export function trailPathFor(out: string, values: Record<string, unknown>): string {
  return typeof values.trail === 'string' ? values.trail : `${out.replace(/\.jsonl?$/i, '')}.trail.jsonl`;
}

export function jsonLines(values: readonly unknown[]): string[] {
  return values.map((v) => `${JSON.stringify(v)}\n`);
}

export const TRAIL_OPTION = {
  trail: { type: 'string', value: 'FILE', help: 'the audit trail (JSONL) of what was dropped and why (default <out>.trail.jsonl)' },
} as const;

async function runBuildItems(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length) throw new CliUsageError(`build items takes no positional arguments, got "${positionals[0]}"`);
  const seedsPath = requiredPath(values, 'seeds', 'build items');
  const out = requiredPath(values, 'out', 'build items');
  const poolPath = typeof values.pool === 'string' ? values.pool : undefined;
  const template = typeof values.retrieve === 'string' ? values.retrieve : undefined;
  if (!poolPath === !template)
    throw new CliUsageError('build items needs exactly one document source: --pool FILE (JSONL documents) or --retrieve "CMD {query}"');
  const templateProblems = template ? retrieveTemplateProblems(template) : [];
  if (templateProblems.length) throw new CliUsageError(`--retrieve: ${templateProblems.join('; ')}`);
  const seeds = loadSeeds(seedsPath, { domain: typeof values.domain === 'string' ? values.domain : undefined });
  const topK = intFlag(values, 'top-k', 8, 1);
  const retrieve = poolPath ? poolRetriever(loadDocumentPool(poolPath), topK) : (query: string) => retrieveWithCommand(template as string, query);
  const { client, settings } = modelClientFrom(values);
  const goldenDocs = values['golden-docs'] === undefined ? undefined : intFlag(values, 'golden-docs', 2, 1);
  const result = await withInterrupt(io, (signal) =>
    synthesizeItems({
      client,
      seeds,
      retrieve,
      documentTemplate: delegationPrompts().document,
      expand: intFlag(values, 'expand', 0, 0),
      subqueriesPerDocument: intFlag(values, 'subqueries', 4, 1),
      ...(goldenDocs !== undefined || values.hops !== undefined || values['info-points'] !== undefined
        ? { targets: { goldenDocs: goldenDocs ?? 2, hops: intFlag(values, 'hops', 2, 1), infoPoints: intFlag(values, 'info-points', 2, 1) } }
        : {}),
      attempts: intFlag(values, 'attempts', 3, 1),
      idPrefix: typeof values['id-prefix'] === 'string' ? values['id-prefix'] : 'built',
      concurrency: intFlag(values, 'concurrency', 2, 1),
      ...(settings.maxOutputTokens ? { maxOutputTokens: settings.maxOutputTokens } : {}),
      signal,
      onProgress: (m) => io.err(`trajaudit build items: ${m}`),
    }),
  );
  const trailPath = trailPathFor(out, values);
  writeFileAtomicMkdir(out, jsonLines(result.items).join(''));
  writeFileAtomicMkdir(trailPath, trailLines(result.trail).join(''));
  const dropped = result.trail.filter((t) => t.action === 'drop_item').length;
  const regenerated = result.trail.filter((t) => t.action === 'regenerate_item').length;
  const expanded = result.seeds.filter((s) => s.source === 'expanded').length;
  if (values.json)
    io.out(
      JSON.stringify(
        {
          out,
          trail: trailPath,
          seeds: result.seeds.length,
          expanded_seeds: expanded,
          items: result.items.length,
          dropped,
          regenerated,
          failed: result.failed,
          aborted: result.aborted,
          usage: result.usage,
        },
        null,
        2,
      ),
    );
  else {
    io.out(`${out}: ${result.items.length} item(s) from ${result.seeds.length} seed quer(ies) (${expanded} from expansion)`);
    io.out(`${trailPath}: ${dropped} dropped, ${regenerated} regeneration(s)`);
    io.out(`model calls: ${result.usage.calls}, tokens in ${result.usage.inputTokens} / out ${result.usage.outputTokens}`);
  }
  if (result.failed.length || result.aborted) {
    io.err(
      `trajaudit build items: ${result.failed.length} seed quer(ies) failed${result.aborted ? ', interrupted' : ''}; their items are not in ${out} — rerun to build them`,
    );
    return 1;
  }
  if (result.items.length === 0) {
    io.err(`trajaudit build items: no item was built; the reasons are in ${trailPath}`);
    return 1;
  }
  return 0;
}

export const buildItemsCommand: CliCommand = {
  name: 'build items',
  args: '',
  summary:
    'Stage A (seed 000): seed-query expansion, document-to-subquery analysis, reverse-engineered items with golden/irrelevant docs, evidence spans and reasoning steps; the Stage-A constraints checked, breaking items regenerated or dropped.',
  options: {
    seeds: { type: 'string', value: 'FILE', help: 'seed queries: one a line (.txt) or JSONL {query, domain?, language?, mode?}', required: true },
    pool: { type: 'string', value: 'FILE', help: 'the retrieved documents, JSONL {doc_id, title, url, site_name?, publish_time?, content, authority}' },
    retrieve: { type: 'string', value: 'CMD', help: 'instead of --pool: a command that prints documents as JSONL; {query} is replaced by the quoted query' },
    out: { type: 'string', value: 'FILE', help: 'the items (JSONL)', required: true },
    domain: { type: 'string', value: 'D', help: 'the domain of seeds given as plain text (default none)' },
    'top-k': { type: 'string', value: 'N', help: 'documents retrieved per seed query from --pool (default 8)' },
    expand: { type: 'string', value: 'N', help: 'new seed queries per domain by seed-query expansion (default 0)' },
    subqueries: { type: 'string', value: 'N', help: 'subqueries per high-authority document (default 4)' },
    'golden-docs': { type: 'string', value: 'N', help: 'target number of golden documents (default 2, or fewer when fewer are retrieved)' },
    hops: { type: 'string', value: 'N', help: 'target reasoning hops (default 2)' },
    'info-points': { type: 'string', value: 'N', help: 'target independent information points (default 2)' },
    attempts: { type: 'string', value: 'N', help: 'synthesis attempts per seed before an item breaking a constraint is dropped (default 3)' },
    'id-prefix': { type: 'string', value: 'P', help: 'item id prefix (default built); ids are P-<hash of the seed query>' },
    ...TRAIL_OPTION,
    ...PROVIDER_OPTIONS,
    ...concurrencyOption('seed queries', 2),
    ...JSON_OPTION,
  },
  run: runBuildItems,
};
