// Blind-review judgments of Delegation items (seed 000, human validation), and how they live in
// the item file's sidecar. Pure (no VS Code). Storage shape, read as is by `trajaudit agreement`
// (src/core/scoring/agreementInputs.ts, "sidecar-like" input):
//   records["<item id>"].reviews = [{annotator, answerability?, shortcut_free?,
//     irrelevant_labels?: {doc_id: bool}, distractor_validity?: {doc_id: bool}, notes?, blind: true, updatedAt}]
// One review per annotator per item. A review always holds at least one judgment (the agreement
// reader rejects a review without one), so clearing the last judgment removes the review.
import type { Sidecar } from '../sidecar/schema';
import type { ReviewData, ReviewPatch, ReviewProgress } from '../../shared/itemProtocol';

export function hasJudgment(review: ReviewData | undefined): boolean {
  if (!review) return false;
  return (
    typeof review.answerability === 'boolean' ||
    typeof review.shortcut_free === 'boolean' ||
    Object.keys(review.irrelevant_labels ?? {}).length > 0 ||
    Object.keys(review.distractor_validity ?? {}).length > 0
  );
}

function setDoc(map: Record<string, boolean> | undefined, docId: string, value: boolean | null): Record<string, boolean> | undefined {
  const next = { ...(map ?? {}) };
  if (value === null) delete next[docId];
  else next[docId] = value;
  return Object.keys(next).length ? next : undefined;
}

/**
 * Applies one change to an annotator's review. Returns the new review, or undefined when no
 * judgment is left (the review, its note included, is then removed).
 */
export function applyReviewPatch(review: ReviewData | undefined, annotator: string, patch: ReviewPatch, now: string): ReviewData | undefined {
  const next: ReviewData = { ...(review ?? {}), annotator };
  if (patch.answerability !== undefined) {
    if (patch.answerability === null) delete next.answerability;
    else next.answerability = patch.answerability;
  }
  if (patch.shortcut_free !== undefined) {
    if (patch.shortcut_free === null) delete next.shortcut_free;
    else next.shortcut_free = patch.shortcut_free;
  }
  if (patch.irrelevant) {
    const map = setDoc(next.irrelevant_labels, patch.irrelevant.docId, patch.irrelevant.value);
    if (map) next.irrelevant_labels = map;
    else delete next.irrelevant_labels;
  }
  if (patch.distractor) {
    const map = setDoc(next.distractor_validity, patch.distractor.docId, patch.distractor.value);
    if (map) next.distractor_validity = map;
    else delete next.distractor_validity;
  }
  if (patch.notes !== undefined) {
    const text = patch.notes?.trim() ? patch.notes : '';
    if (text) next.notes = text;
    else delete next.notes;
  }
  if (!hasJudgment(next)) return undefined;
  next.blind = true;
  next.updatedAt = now;
  return canonicalReview(next);
}

/** Stable key order, so saved files and comparisons do not depend on the order of edits. */
export function canonicalReview(review: ReviewData): ReviewData {
  const order = ['annotator', 'answerability', 'shortcut_free', 'irrelevant_labels', 'distractor_validity', 'notes', 'blind', 'updatedAt'];
  const out: ReviewData = { annotator: review.annotator };
  for (const key of order) if (review[key] !== undefined) out[key] = review[key];
  for (const [key, value] of Object.entries(review)) if (!order.includes(key) && value !== undefined) out[key] = value;
  return out;
}

/** How far a review has got: every item-level and document-level question answered, some, or none. */
export function reviewProgress(review: ReviewData | undefined, irrelevantIds: readonly string[], distractorIds: readonly string[]): ReviewProgress {
  if (!hasJudgment(review)) return 'none';
  const r = review as ReviewData;
  const complete =
    typeof r.answerability === 'boolean' &&
    typeof r.shortcut_free === 'boolean' &&
    irrelevantIds.every((id) => typeof r.irrelevant_labels?.[id] === 'boolean') &&
    distractorIds.every((id) => typeof r.distractor_validity?.[id] === 'boolean');
  return complete ? 'complete' : 'partial';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** The reviews stored for one record of a sidecar (malformed entries skipped). */
export function reviewsInSidecar(sidecar: Sidecar | undefined, recordId: string): ReviewData[] {
  const reviews = (sidecar?.records[recordId] as Record<string, unknown> | undefined)?.reviews;
  if (!Array.isArray(reviews)) return [];
  return reviews
    .filter((r): r is ReviewData => isRecord(r) && (typeof r.annotator === 'string' || typeof r.reviewer === 'string'))
    .map((r) => (typeof r.annotator === 'string' ? r : { ...r, annotator: String(r.reviewer) }));
}

/** Every review in a sidecar, keyed by record id. */
export function allReviewsInSidecar(sidecar: Sidecar | undefined): Map<string, ReviewData[]> {
  const out = new Map<string, ReviewData[]>();
  for (const id of Object.keys(sidecar?.records ?? {})) {
    const list = reviewsInSidecar(sidecar, id);
    if (list.length) out.set(id, list);
  }
  return out;
}

export interface ReviewChange {
  itemId: string;
  annotator: string;
  review: ReviewData | undefined;
}

/**
 * Writes reviews into a sidecar (in place, and returned): each change replaces that annotator's
 * review of that item, or removes it. Everything else in the sidecar is kept as it is.
 */
export function applyReviewChanges(sidecar: Sidecar, changes: readonly ReviewChange[]): Sidecar {
  for (const { itemId, annotator, review } of changes) {
    const record: Record<string, unknown> = { ...(sidecar.records[itemId] ?? {}) };
    const existing = Array.isArray(record.reviews) ? (record.reviews as unknown[]) : [];
    const others = existing.filter((r) => !(isRecord(r) && (r.annotator ?? r.reviewer) === annotator));
    const index = existing.findIndex((r) => isRecord(r) && (r.annotator ?? r.reviewer) === annotator);
    const next = [...others];
    if (review) next.splice(index >= 0 ? index : next.length, 0, canonicalReview(review));
    if (next.length) record.reviews = next;
    else delete record.reviews;
    if (Object.keys(record).length) sidecar.records[itemId] = record as Sidecar['records'][string];
    else delete sidecar.records[itemId];
  }
  return sidecar;
}

/** The key of one review in the document's edit state. */
export function reviewKey(itemId: string, annotator: string): string {
  return `review\u0000${itemId}\u0000${annotator}`;
}

export function parseReviewKey(key: string): { itemId: string; annotator: string } | undefined {
  const parts = key.split('\u0000');
  return parts.length === 3 && parts[0] === 'review' ? { itemId: parts[1], annotator: parts[2] } : undefined;
}
