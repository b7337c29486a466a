// Multi-annotator human validation (Delegation, seed 000; docs/metrics.md §6). Pure.
import { clopperPearson, type Interval } from './stats';

/** The four validation dimensions of seed 000; the last two are document-level. */
export const AGREEMENT_DIMENSIONS = ['answerability', 'shortcut_free', 'irrelevant_labels', 'distractor_validity'] as const;
export type AgreementDimension = (typeof AGREEMENT_DIMENSIONS)[number];
export const DOCUMENT_DIMENSIONS: readonly AgreementDimension[] = ['irrelevant_labels', 'distractor_validity'];

export interface Review {
  item: string;
  annotator: string;
  /** Item-level dimensions: a boolean; document-level ones: doc_id → boolean. Absent: not judged. */
  labels: Partial<Record<AgreementDimension, boolean | Record<string, boolean>>>;
  /** Where the review came from, for messages. */
  source?: string;
}

export interface DimensionAgreement {
  /** Items with at least one judgment on this dimension. */
  n: number;
  /** Items whose majority label is positive. */
  confirmed: number;
  confirmation_rate: number | null;
  /** Exact (Clopper–Pearson) 95% interval. */
  confirmation_ci95: Interval | null;
  residual_defect_rate: number | null;
  residual_defect_ci95: Interval | null;
  /** Mean over items with ≥ 2 annotators of Σ_j n_ij(n_ij − 1) / (n(n − 1)); not chance-corrected. */
  raw_agreement: number | null;
  raw_agreement_items: number;
  /** Items with as many positive as negative labels (majority not reached: counted as not confirmed). */
  ties: string[];
  /** Items with a majority-negative (or tied) label: the potential residual defects. */
  defect_items: string[];
}

export interface AgreementScore {
  kind: 'agreement';
  items: number;
  annotators: string[];
  chance_corrected: false;
  note: string;
  dimensions: Partial<Record<AgreementDimension, DimensionAgreement>>;
}

/** An annotator's item-level label: a document-level dimension is positive only if every audited document is. Undefined: not judged (or no documents). */
export function itemLabel(value: boolean | Record<string, boolean> | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value;
  const docs = Object.values(value);
  return docs.length === 0 ? undefined : docs.every(Boolean);
}

/** Raw agreement of one item: Σ_j n_j(n_j − 1) / (n(n − 1)) over the categories j; null for n < 2. */
export function rawAgreement(labels: readonly boolean[]): number | null {
  const n = labels.length;
  if (n < 2) return null;
  const pos = labels.filter(Boolean).length;
  const neg = n - pos;
  return (pos * (pos - 1) + neg * (neg - 1)) / (n * (n - 1));
}

/**
 * Cohen's κ of two raters over the same units, any categories: (p_o − p_e) / (1 − p_e), with p_o
 * the share of units they label alike and p_e Σ_k p_a(k)·p_b(k) from each rater's own label
 * shares. Null for no units, or when both use one and the same label throughout (p_e = 1: κ is undefined).
 */
export function cohenKappa(pairs: readonly (readonly [string, string])[]): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  const a = new Map<string, number>();
  const b = new Map<string, number>();
  let agree = 0;
  for (const [x, y] of pairs) {
    if (x === y) agree++;
    a.set(x, (a.get(x) ?? 0) + 1);
    b.set(y, (b.get(y) ?? 0) + 1);
  }
  let expected = 0;
  for (const [label, count] of a) expected += (count / n) * ((b.get(label) ?? 0) / n);
  if (expected === 1) return null;
  return (agree / n - expected) / (1 - expected);
}

export const AGREEMENT_NOTE =
  "raw agreement is the share of agreeing annotator pairs; it is not chance-corrected (unlike Cohen's or Fleiss' kappa) and is sensitive to the prevalence of positive labels";

export function scoreAgreement(reviews: readonly Review[]): AgreementScore {
  const items = [...new Set(reviews.map((r) => r.item))].sort();
  const annotators = [...new Set(reviews.map((r) => r.annotator))].sort();
  const dimensions: AgreementScore['dimensions'] = {};
  for (const dim of AGREEMENT_DIMENSIONS) {
    const byItem = new Map<string, boolean[]>();
    for (const r of reviews) {
      const label = itemLabel(r.labels[dim]);
      if (label === undefined) continue;
      byItem.set(r.item, [...(byItem.get(r.item) ?? []), label]);
    }
    if (byItem.size === 0) continue;
    let confirmed = 0;
    const ties: string[] = [];
    const defects: string[] = [];
    const agreements: number[] = [];
    for (const [item, labels] of [...byItem].sort(([a], [b]) => a.localeCompare(b))) {
      const pos = labels.filter(Boolean).length;
      const neg = labels.length - pos;
      if (pos > neg) confirmed++;
      else {
        defects.push(item);
        if (pos === neg) ties.push(item);
      }
      const a = rawAgreement(labels);
      if (a !== null) agreements.push(a);
    }
    const n = byItem.size;
    const ci = clopperPearson(confirmed, n);
    dimensions[dim] = {
      n,
      confirmed,
      confirmation_rate: confirmed / n,
      confirmation_ci95: ci,
      residual_defect_rate: 1 - confirmed / n,
      residual_defect_ci95: ci ? [1 - ci[1], 1 - ci[0]] : null,
      raw_agreement: agreements.length ? agreements.reduce((s, x) => s + x, 0) / agreements.length : null,
      raw_agreement_items: agreements.length,
      ties,
      defect_items: defects,
    };
  }
  return { kind: 'agreement', items: items.length, annotators, chance_corrected: false, note: AGREEMENT_NOTE, dimensions };
}
