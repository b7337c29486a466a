// `trajaudit build distractors --items FILE --out FILE [--pool FILE] …`: Stage B of seed 000
// (docs/builder.md). Writes the items with their kept distractors (JSONL) and the trail of the
// distractors dropped, with the validity constraint each broke.
import { DISTRACTOR_TYPES, synthesizeDistractors } from '../../core/builders/items/distractors';
import { loadDocumentPool } from '../../core/builders/items/documents';
import { trailLines } from '../../core/builders/items/trail';
import { loadItemsList } from '../../core/harness/delegation/run';
import { delegationPrompts } from '../../core/harness/prompts';
import { writeFileAtomicMkdir } from '../../core/harness/runFolder';
import { CliUsageError, type CliIo } from '../io';
import { JSON_OPTION, PROVIDER_OPTIONS, concurrencyOption, type CliCommand } from '../options';
import { intFlag, modelClientFrom, withInterrupt } from './harnessCommon';
import { verifierPool } from './harnessStageC';
import { TRAIL_OPTION, jsonLines, requiredPath, trailPathFor } from './buildItems';

function typesFrom(values: Record<string, unknown>): string[] | undefined {
  if (values.types === undefined) return undefined;
  const list = String(values.types)
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  for (const t of list) if (!(t in DISTRACTOR_TYPES)) throw new CliUsageError(`--types takes ${Object.keys(DISTRACTOR_TYPES).join(',')}, got "${t}"`);
  return list;
}

async function runBuildDistractors(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length) throw new CliUsageError(`build distractors takes no positional arguments, got "${positionals[0]}"`);
  const itemsPath = requiredPath(values, 'items', 'build distractors');
  const out = requiredPath(values, 'out', 'build distractors');
  const types = typesFrom(values);
  const items = loadItemsList(itemsPath);
  const pool = typeof values.pool === 'string' ? loadDocumentPool(values.pool) : undefined;
  const { client, settings } = modelClientFrom(values);
  // The verifier: --verifier P:MODEL[@URL], else the generator's own model.
  const verifier = typeof values.verifier === 'string' ? verifierPool({ ...values, verifier: [values.verifier] }).verifiers[0].client : client;
  const result = await withInterrupt(io, (signal) =>
    synthesizeDistractors(items, {
      generator: client,
      verifier,
      documentTemplate: delegationPrompts().document,
      perItem: intFlag(values, 'per-item', 3, 1),
      ...(types ? { types } : {}),
      ...(pool ? { pool } : {}),
      concurrency: intFlag(values, 'concurrency', 2, 1),
      ...(settings.maxOutputTokens ? { maxOutputTokens: settings.maxOutputTokens } : {}),
      signal,
      onProgress: (m) => io.err(`trajaudit build distractors: ${m}`),
    }),
  );
  const trailPath = trailPathFor(out, values);
  writeFileAtomicMkdir(out, jsonLines(result.items).join(''));
  writeFileAtomicMkdir(trailPath, trailLines(result.trail).join(''));
  const kept = result.items.reduce((n, i) => n + ((i.provenance as { stage_b?: { kept?: number } })?.stage_b?.kept ?? 0), 0);
  const dropped = result.trail.length;
  if (values.json)
    io.out(
      JSON.stringify(
        { out, trail: trailPath, items: result.items.length, kept, dropped, failed: result.failed, aborted: result.aborted, usage: result.usage },
        null,
        2,
      ),
    );
  else {
    io.out(`${out}: ${result.items.length} item(s), ${kept} distractor(s) kept`);
    io.out(`${trailPath}: ${dropped} distractor(s) dropped`);
    io.out(`model calls: ${result.usage.calls}, tokens in ${result.usage.inputTokens} / out ${result.usage.outputTokens}`);
  }
  if (result.failed.length || result.aborted) {
    io.err(
      `trajaudit build distractors: ${result.failed.length} item(s) failed${result.aborted ? ', interrupted' : ''}; they are not in ${out} — rerun to build them`,
    );
    return 1;
  }
  return 0;
}

export const buildDistractorsCommand: CliCommand = {
  name: 'build distractors',
  args: '',
  summary:
    "Stage B (seed 000): distractor documents of the seed's types with their audit fields; the five validity constraints checked by rule where one decides, by a verifier model where none can; failures recorded per distractor.",
  options: {
    items: { type: 'string', value: 'FILE', help: 'the Stage-A items (JSONL, JSON or a folder)', required: true },
    out: { type: 'string', value: 'FILE', help: 'the items with their distractors (JSONL)', required: true },
    pool: { type: 'string', value: 'FILE', help: 'the document pool: distractor ids avoid its ids, and a copy of one of its documents is refused' },
    'per-item': { type: 'string', value: 'N', help: 'distractors generated per item (default 3)' },
    types: { type: 'string', value: 'A,B', help: `distractor types offered (default all: ${Object.keys(DISTRACTOR_TYPES).join(', ')})` },
    verifier: { type: 'string', value: 'P:MODEL[@URL]', help: 'the verifier model of the constraints no rule decides (default: --model)' },
    ...TRAIL_OPTION,
    ...PROVIDER_OPTIONS,
    ...concurrencyOption('items', 2),
    ...JSON_OPTION,
  },
  run: runBuildDistractors,
};
