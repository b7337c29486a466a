// `trajaudit build release --items FILE --stage-c DIR --out FILE …`: Stage C to a released pool
// (seed 000, docs/builder.md): the Stage-C decisions of `harness stage-c` applied, the human
// validation sample drawn, majority-negative reviewed items kept out, and the trail of every item
// or document that left (earlier stages' trails joined with --with-trail).
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { releasePool, type StageCLineLike } from '../../core/builders/items/release';
import { trailLines, type TrailEntry } from '../../core/builders/items/trail';
import { loadItemsList } from '../../core/harness/delegation/run';
import { readForResume, writeFileAtomicMkdir } from '../../core/harness/runFolder';
import { STAGE_C_FILE } from '../../core/harness/stageC/run';
import { InputError } from '../../core/input/inputError';
import { nonBlankLines, parseJsonLine } from '../../core/input/jsonText';
import { readTextFile } from '../../core/input/readText';
import { allReviewsInSidecar } from '../../core/items/blindReviews';
import { sidecarPathFor, readSidecar } from '../../core/sidecar/sidecarFile';
import type { ReviewData } from '../../shared/itemProtocol';
import { CliUsageError, type CliIo } from '../io';
import { JSON_OPTION, type CliCommand } from '../options';
import { intFlag, seedFlag } from './harnessCommon';
import { TRAIL_OPTION, jsonLines, requiredPath, trailPathFor } from './buildItems';

function readTrail(path: string): TrailEntry[] {
  const out: TrailEntry[] = [];
  // An empty trail is a stage that dropped nothing (readTextFile refuses empty files as inputs).
  if (!existsSync(path)) throw new InputError(path, 'cannot read the trail: the file does not exist');
  const text = statSync(path).size === 0 ? '' : readTextFile(path);
  for (const { line, lineNumber } of nonBlankLines(text)) {
    const value = parseJsonLine(line, lineNumber, path, ' (expected a builder trail: one JSON entry a line)');
    if (!value || typeof value !== 'object' || typeof (value as TrailEntry).stage !== 'string' || !Array.isArray((value as TrailEntry).reasons))
      throw new InputError(path, 'expected a trail entry {stage, action, reasons, item_id?, doc_id?}', { line: lineNumber, column: 1 });
    out.push(value as TrailEntry);
  }
  return out;
}

function reviewsFrom(paths: readonly string[]): Map<string, ReviewData[]> {
  const out = new Map<string, ReviewData[]>();
  for (const path of paths) {
    const sidecar = readSidecar(path);
    if (!sidecar) throw new InputError(path, "cannot read the reviews: the file does not exist (expected the items file's sidecar <items>.audit.json)");
    for (const [id, list] of allReviewsInSidecar(sidecar)) out.set(id, [...(out.get(id) ?? []), ...list]);
  }
  return out;
}

async function runBuildRelease(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length) throw new CliUsageError(`build release takes no positional arguments, got "${positionals[0]}"`);
  const itemsPath = requiredPath(values, 'items', 'build release');
  const folder = requiredPath(values, 'stage-c', 'build release');
  const out = requiredPath(values, 'out', 'build release');
  const stageCPath = join(folder, STAGE_C_FILE);
  if (!existsSync(stageCPath)) throw new InputError(folder, `no ${STAGE_C_FILE} here; run \`trajaudit harness stage-c ${itemsPath} --out ${folder}\` first`);
  const items = loadItemsList(itemsPath);
  const lines = readForResume<StageCLineLike>(stageCPath).lines;
  // Reviews: --reviews FILE …, else the items file's own sidecar when there is one (where blind reviews are saved).
  const given = (values.reviews as string[] | undefined) ?? [];
  const ownSidecar = sidecarPathFor(itemsPath);
  const reviewPaths = given.length ? given : existsSync(ownSidecar) ? [ownSidecar] : [];
  const reviews = reviewsFrom(reviewPaths);
  const sampleSize = values.sample === undefined ? undefined : intFlag(values, 'sample', 100, 1);
  const result = releasePool(items, lines, {
    reviews,
    ...(sampleSize ? { sample: { size: sampleSize, seed: seedFlag(values), minPerMode: intFlag(values, 'min-per-mode', 5, 0) } } : {}),
  });
  const earlier = ((values['with-trail'] as string[] | undefined) ?? []).flatMap(readTrail);
  const trailPath = trailPathFor(out, values);
  writeFileAtomicMkdir(out, jsonLines(result.released).join(''));
  writeFileAtomicMkdir(trailPath, trailLines([...earlier, ...result.trail]).join(''));
  const samplePath = result.sample
    ? typeof values['sample-out'] === 'string'
      ? values['sample-out']
      : `${out.replace(/\.jsonl?$/i, '')}.review-sample.txt`
    : undefined;
  if (samplePath && result.sample) writeFileAtomicMkdir(samplePath, result.sample.ids.map((id) => `${id}\n`).join(''));
  const count = (stage: string, action: string) => result.trail.filter((t) => t.stage === stage && t.action === action).length;
  const summary = {
    out,
    trail: trailPath,
    items: items.length,
    stage_c_accepted: result.accepted,
    stage_c_dropped: count('stage-c', 'drop_item'),
    documents_removed: count('stage-c', 'remove_document'),
    human_dropped: count('human-validation', 'drop_item'),
    released: result.released.length,
    reviews: reviewPaths,
    ...(result.sample && samplePath ? { sample: samplePath, sample_size: result.sample.ids.length, sample_quotas: result.sample.quotas } : {}),
  };
  if (values.json) io.out(JSON.stringify(summary, null, 2));
  else {
    io.out(`${out}: ${result.released.length} of ${items.length} item(s) released`);
    io.out(
      `Stage C: ${result.accepted} accepted, ${summary.stage_c_dropped} dropped, ${summary.documents_removed} irrelevant document(s) removed; human validation: ${summary.human_dropped} dropped (reviews: ${reviewPaths.join(', ') || 'none'})`,
    );
    if (samplePath && result.sample)
      io.out(
        `${samplePath}: ${result.sample.ids.length} item(s) to review (${Object.entries(result.sample.quotas)
          .map(([m, n]) => `${m} ${n}`)
          .join(', ')})`,
      );
    io.out(`${trailPath}: why each item or document left`);
  }
  return 0;
}

export const buildReleaseCommand: CliCommand = {
  name: 'build release',
  args: '',
  summary:
    "Stage C to a released pool (seed 000): applies harness stage-c's decisions (a C3 remove_document removes the document), draws the stratified human-validation sample, keeps majority-negative reviewed items out, writes the audit trail.",
  options: {
    items: { type: 'string', value: 'FILE', help: 'the items Stage C checked (JSONL, JSON or a folder)', required: true },
    'stage-c': { type: 'string', value: 'DIR', help: 'the run folder of `harness stage-c` over those items', required: true },
    out: { type: 'string', value: 'FILE', help: 'the released pool (JSONL)', required: true },
    reviews: { type: 'string', multiple: true, value: 'FILE', help: 'blind-review sidecars (default: <items>.audit.json when it exists)' },
    sample: { type: 'string', value: 'N', help: 'draw the human-validation sample of N accepted items' },
    'sample-out': { type: 'string', value: 'FILE', help: 'the sample ids, one a line (default <out>.review-sample.txt)' },
    seed: { type: 'string', value: 'S', help: 'seed of the sample (default 0)' },
    'min-per-mode': { type: 'string', value: 'N', help: 'sampled items per mode at least (default 5)' },
    'with-trail': { type: 'string', multiple: true, value: 'FILE', help: "earlier stages' trails to join into the released pool's trail" },
    ...TRAIL_OPTION,
    ...JSON_OPTION,
  },
  run: runBuildRelease,
};
