// Stage C to a released pool (seed 000): apply the Stage-C decisions to the items, draw human
// validation's stratified sample from the accepted pool, keep majority-negative items out, and
// say in the audit trail why each item (or document) left and at which stage.
//
// Stage-C decisions, per item (from `harness stage-c`'s stagec.jsonl):
// - a pre-check error, or a failed C1, C2 or C4 view: the item is dropped;
// - a failed C3 view: the irrelevant documents its failing verdicts flag are removed (the C3
//   verifier's `remove_document`), unless one of them says `discard_item`, which drops the item;
// - an item without a Stage-C line is dropped (it was never checked).
// Human validation (seed 000): an item is excluded when a majority of its reviewers judge it
// negative on at least one dimension: answerability, shortcut_free, irrelevant labels and
// distractor validity (a reviewer's item-level label for a document group is positive only when
// every document of the group they judged is positive).
import type { DelegationItem } from '../../items/schemas';
import { seededRandom, shuffled } from '../../random';
import type { ReviewData } from '../../../shared/itemProtocol';
import type { TrailEntry } from './trail';

export interface StageCVerdictLike {
  verifier: string;
  passed: boolean;
  reasons: string[];
  detail?: unknown;
  error?: string;
}

export interface StageCLineLike {
  id: string;
  passed: boolean;
  prechecks: { check: string; severity: 'error' | 'warning'; message: string }[];
  views: Partial<Record<string, { passed: boolean; verdicts: StageCVerdictLike[]; note?: string }>>;
}

export interface StageCDecision {
  accepted: DelegationItem[];
  trail: TrailEntry[];
}

interface C3Document {
  doc_id: string;
  severity: 'none' | 'remove_document' | 'discard_item';
  answer_bearing?: boolean;
  intermediate_fact?: boolean;
  duplicates_evidence?: boolean;
  metadata_cue?: boolean;
  reason?: string;
}

function c3Documents(verdict: StageCVerdictLike): C3Document[] {
  const docs = (verdict.detail as { documents?: unknown } | undefined)?.documents;
  return Array.isArray(docs) ? (docs as C3Document[]) : [];
}

const flagged = (d: C3Document) => d.severity !== 'none' || d.answer_bearing || d.intermediate_fact || d.duplicates_evidence || d.metadata_cue;

/** Applies the Stage-C decisions: the accepted items (C3-flagged documents removed) and the trail of what left. */
export function applyStageC(items: readonly DelegationItem[], lines: readonly StageCLineLike[]): StageCDecision {
  const byId = new Map(lines.map((l) => [String(l.id), l]));
  const accepted: DelegationItem[] = [];
  const trail: TrailEntry[] = [];
  for (const item of items) {
    const id = String(item.id);
    const drop = (reasons: string[]) => trail.push({ stage: 'stage-c', action: 'drop_item', item_id: id, reasons });
    const line = byId.get(id);
    if (!line) {
      drop(['no Stage-C result for this item (run `trajaudit harness stage-c` on this items file with the same --out folder)']);
      continue;
    }
    const precheckErrors = line.prechecks.filter((f) => f.severity === 'error');
    const failedViews = Object.entries(line.views).filter(([, v]) => v && !v.passed);
    const hard = failedViews.filter(([name]) => name !== 'C3');
    if (precheckErrors.length || hard.length) {
      drop([
        ...precheckErrors.map((f) => `pre-check ${f.check}: ${f.message}`),
        ...hard.flatMap(([name, v]) =>
          (v?.verdicts ?? [])
            .filter((x) => !x.passed)
            .flatMap((x) => (x.error ? [`${name} (${x.verifier}): ${x.error}`] : x.reasons.map((r) => `${name} (${x.verifier}): ${r}`))),
        ),
      ]);
      continue;
    }
    const c3 = line.views.C3;
    if (c3 && !c3.passed) {
      const failing = c3.verdicts.filter((v) => !v.passed);
      const errored = failing.filter((v) => v.error);
      const docs = failing.flatMap(c3Documents).filter(flagged);
      const discard = docs.filter((d) => d.severity === 'discard_item');
      if (errored.length || discard.length || docs.length === 0) {
        drop([
          ...errored.map((v) => `C3 (${v.verifier}): ${v.error}`),
          ...(discard.length
            ? discard.map((d) => `C3: irrelevant document ${d.doc_id} makes the item unusable (discard_item) — ${d.reason ?? ''}`.trim())
            : docs.length === 0 && !errored.length
              ? ['C3 failed without naming a document to remove']
              : []),
        ]);
        continue;
      }
      const remove = new Map<string, string[]>();
      for (const d of docs) remove.set(String(d.doc_id), [...(remove.get(String(d.doc_id)) ?? []), d.reason ?? '']);
      const known = new Set(item.irrelevant_docs.map((d) => String(d.doc_id)));
      const stale = [...remove.keys()].filter((d) => !known.has(d));
      if (stale.length) {
        drop([`the Stage-C result names irrelevant document(s) ${stale.join(', ')} that this item does not have; rerun harness stage-c on the current file`]);
        continue;
      }
      for (const [docId, reasons] of remove)
        trail.push({
          stage: 'stage-c',
          action: 'remove_document',
          item_id: id,
          doc_id: docId,
          reasons: [`C3: the "irrelevant" label is wrong (remove_document)`, ...reasons.filter(Boolean)],
        });
      accepted.push({ ...item, irrelevant_docs: item.irrelevant_docs.filter((d) => !remove.has(String(d.doc_id))) });
      continue;
    }
    accepted.push(item);
  }
  return { accepted, trail };
}

// ---- Human validation: the stratified sample ---------------------------------------------

export interface SampleOptions {
  size: number;
  seed: string | number;
  /** Each mode keeps at least this many items (or all it has). */
  minPerMode?: number;
}

export interface StratifiedSample {
  ids: string[];
  /** Items drawn per mode. */
  quotas: Record<string, number>;
}

const modeOf = (item: DelegationItem): string => (item.mode ?? '').trim() || '(no mode)';
const infoPoints = (item: DelegationItem): number => item.evidence_spans.length;

/**
 * Quotas by mode: proportional to the pool, at least `min` per mode (or all a mode has), never more
 * than a mode has. A mode whose proportional share falls below its minimum (or above its size) is
 * fixed there and the rest is shared again among the others; what is left after the whole parts
 * goes by the largest remainder (ties: mode name).
 */
function modeQuotas(sizes: ReadonlyMap<string, number>, total: number, min: number): Map<string, number> {
  const floorOf = (m: string) => Math.min(min, sizes.get(m) ?? 0);
  const floorSum = [...sizes.keys()].reduce((a, m) => a + floorOf(m), 0);
  // When the minimums alone exceed the sample, the sample is shared in proportion to the minimums.
  const weights = floorSum > total ? new Map([...sizes.keys()].map((m) => [m, floorOf(m)])) : sizes;
  const lower = (m: string) => (floorSum > total ? 0 : floorOf(m));
  const fixed = new Map<string, number>();
  let open = [...weights.keys()].filter((m) => (weights.get(m) ?? 0) > 0);
  for (;;) {
    const left = total - [...fixed.values()].reduce((a, b) => a + b, 0);
    const weight = open.reduce((a, m) => a + (weights.get(m) ?? 0), 0);
    const share = (m: string) => (weight ? (left * (weights.get(m) ?? 0)) / weight : 0);
    const outside = open.filter((m) => share(m) < lower(m) || share(m) > (sizes.get(m) ?? 0));
    if (outside.length === 0) {
      const out = new Map(fixed);
      for (const m of open) out.set(m, Math.floor(share(m)));
      let rest = total - [...out.values()].reduce((a, b) => a + b, 0);
      const byRemainder = [...open].sort((a, b) => share(b) - Math.floor(share(b)) - (share(a) - Math.floor(share(a))) || a.localeCompare(b));
      for (const m of byRemainder) {
        if (rest <= 0) break;
        if ((out.get(m) ?? 0) < (sizes.get(m) ?? 0)) {
          out.set(m, (out.get(m) ?? 0) + 1);
          rest--;
        }
      }
      return out;
    }
    for (const m of outside) fixed.set(m, share(m) < lower(m) ? lower(m) : (sizes.get(m) ?? 0));
    open = open.filter((m) => !outside.includes(m));
  }
}

/**
 * Seed 000's audit sample from the Stage-C-accepted pool: quotas by capability mode, proportional
 * to the pool with at least `minPerMode` per mode; within a mode, systematic sampling over the
 * items ordered by language, domain, number of information points and number of distractors (a
 * seeded shuffle breaks ties and picks the start), so each of those is represented in proportion.
 */
export function stratifiedSample(items: readonly DelegationItem[], options: SampleOptions): StratifiedSample {
  const size = Math.min(options.size, items.length);
  const byMode = new Map<string, DelegationItem[]>();
  for (const item of items) byMode.set(modeOf(item), [...(byMode.get(modeOf(item)) ?? []), item]);
  const modes = [...byMode.keys()].sort();
  const sizes = new Map(modes.map((m) => [m, (byMode.get(m) ?? []).length]));
  const quotas = modeQuotas(sizes, size, options.minPerMode ?? 5);
  const ids: string[] = [];
  for (const mode of modes) {
    const quota = quotas.get(mode) ?? 0;
    if (quota === 0) continue;
    const random = seededRandom(options.seed, 'human-validation-sample', mode);
    const pool = shuffled(byMode.get(mode) ?? [], random).sort(
      (a, b) =>
        String(a.language ?? '').localeCompare(String(b.language ?? '')) ||
        String(a.domain ?? '').localeCompare(String(b.domain ?? '')) ||
        infoPoints(a) - infoPoints(b) ||
        a.distractor_docs.length - b.distractor_docs.length,
    );
    const step = pool.length / quota;
    const start = random() * step;
    for (let i = 0; i < quota; i++) ids.push(String(pool[Math.min(pool.length - 1, Math.floor(start + i * step))].id));
  }
  return { ids, quotas: Object.fromEntries(modes.map((m) => [m, quotas.get(m) ?? 0])) };
}

// ---- Human validation: majority-negative items ---------------------------------------------

export const REVIEW_DIMENSIONS = ['answerability', 'shortcut_free', 'irrelevant_labels', 'distractor_validity'] as const;
export type ReviewDimension = (typeof REVIEW_DIMENSIONS)[number];

/** One reviewer's item-level judgment on a dimension (undefined: not judged). */
function judgment(review: ReviewData, dimension: ReviewDimension, item: DelegationItem): boolean | undefined {
  if (dimension === 'answerability' || dimension === 'shortcut_free') return typeof review[dimension] === 'boolean' ? review[dimension] : undefined;
  const docs = dimension === 'irrelevant_labels' ? item.irrelevant_docs : item.distractor_docs;
  const ids = new Set(docs.map((d) => String(d.doc_id)));
  const judged = Object.entries(review[dimension] ?? {}).filter(([docId, v]) => ids.has(docId) && typeof v === 'boolean');
  return judged.length ? judged.every(([, v]) => v) : undefined;
}

/** The dimensions on which a majority of the item's reviewers judge it negative. */
export function majorityNegative(item: DelegationItem, reviews: readonly ReviewData[]): { dimension: ReviewDimension; negative: number; judged: number }[] {
  const out: { dimension: ReviewDimension; negative: number; judged: number }[] = [];
  for (const dimension of REVIEW_DIMENSIONS) {
    const votes = reviews.map((r) => judgment(r, dimension, item)).filter((v): v is boolean => v !== undefined);
    const negative = votes.filter((v) => !v).length;
    if (votes.length && negative * 2 > votes.length) out.push({ dimension, negative, judged: votes.length });
  }
  return out;
}

export interface ReleaseResult {
  released: DelegationItem[];
  trail: TrailEntry[];
  sample?: StratifiedSample;
  accepted: number;
}

/** Stage-C decisions, the review sample (from the accepted pool, before any human exclusion), then human exclusions. */
export function releasePool(
  items: readonly DelegationItem[],
  lines: readonly StageCLineLike[],
  options: { reviews?: ReadonlyMap<string, readonly ReviewData[]>; sample?: SampleOptions } = {},
): ReleaseResult {
  const decision = applyStageC(items, lines);
  const sample = options.sample ? stratifiedSample(decision.accepted, options.sample) : undefined;
  const trail = [...decision.trail];
  const released: DelegationItem[] = [];
  for (const item of decision.accepted) {
    const negative = majorityNegative(item, options.reviews?.get(String(item.id)) ?? []);
    if (negative.length) {
      trail.push({
        stage: 'human-validation',
        action: 'drop_item',
        item_id: String(item.id),
        reasons: negative.map((n) => `majority-negative on ${n.dimension} (${n.negative} of ${n.judged} reviewers)`),
      });
    } else released.push(item);
  }
  return { released, trail, accepted: decision.accepted.length, ...(sample ? { sample } : {}) };
}
