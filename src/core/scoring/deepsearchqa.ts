// DeepSearchQA scoring (seed 001 §3; docs/metrics.md §2). Pure.
import type { AnswerCorrectness, AnswerType } from './judges/answerCorrectness';
import { mean, normalInterval, wilson, type Interval } from './stats';

export const CATEGORIES = ['fully_correct', 'fully_incorrect', 'partially_correct', 'correct_with_extraneous'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface ItemScore {
  /** |S∩G|, |G|, |S| */
  found: number;
  expected: number;
  submitted: number;
  precision: number;
  recall: number;
  f1: number;
  category: Category;
}

/**
 * Scores one judgment. |S∩G| = true details, |G| = details, |S| = |S∩G| + excessive answers.
 * P = |S∩G|/|S| (0 when |S| = 0), R = |S∩G|/|G| (0 when |G| = 0), F1 = 2PR/(P+R) (0 when P+R = 0).
 * Categories: none found → fully incorrect (also when |G| = 0); all found and no excessive → fully
 * correct; all found with excessive → correct with extraneous; otherwise partially correct.
 * Single Answer: F1 is 1 only when fully correct, else 0 (several candidates are a failure).
 */
export function scoreJudgment(judgment: AnswerCorrectness, answerType: AnswerType): ItemScore {
  const details = Object.values(judgment.CorrectnessDetails);
  const found = details.filter((v) => v === true).length;
  const expected = details.length;
  const submitted = found + judgment.ExcessiveAnswers.length;
  const precision = submitted === 0 ? 0 : found / submitted;
  const recall = expected === 0 ? 0 : found / expected;
  let category: Category;
  if (found === 0) category = 'fully_incorrect';
  else if (found === expected) category = judgment.ExcessiveAnswers.length === 0 ? 'fully_correct' : 'correct_with_extraneous';
  else category = 'partially_correct';
  let f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  if (answerType === 'Single Answer') f1 = category === 'fully_correct' ? 1 : 0;
  return { found, expected, submitted, precision, recall, f1, category };
}

export interface DsqaItem {
  id: string;
  answerType: AnswerType;
  category: string;
  /** Judgments per sample index; the lowest index is the item's primary sample. */
  samples: { sample: number; judgment: AnswerCorrectness }[];
}

export interface DsqaAggregate {
  n: number;
  f1: number;
  precision: number;
  recall: number;
  fully_correct: number;
  fully_incorrect: number;
  partially_correct: number;
  correct_with_extraneous: number;
}

export interface DsqaScore {
  kind: 'deepsearchqa';
  n: number;
  metrics: Omit<DsqaAggregate, 'n'>;
  /** Wilson intervals for the category shares; normal intervals (mean ± 1.96·s/√n) for f1/precision/recall. Null when undefined (n = 0, or n < 2 for the normal interval). */
  ci95: Record<keyof Omit<DsqaAggregate, 'n'>, Interval | null>;
  by_answer_type: Record<string, DsqaAggregate>;
  by_category: Record<string, DsqaAggregate>;
  /** Share of items with ≥ 1 fully correct sample among their first n samples (n = 1, 2, 4, 8), over the items with ≥ n samples (rate null when there are none); present when some item has several samples. */
  fully_correct_at_n: Record<string, { items: number; rate: number | null }> | null;
  /**
   * pass@k for k = 1, 2, 4, 8 (seed 001's fully-correct rate at n samples), by the unbiased
   * estimator over all of an item's samples: 1 − C(n−c, k) / C(n, k) with n samples of which c are
   * fully correct, averaged over the items with n ≥ k; a k no item has enough samples for is left out.
   */
  pass_at: Record<string, number>;
  per_item: { id: string; sample: number; score: ItemScore }[];
}

function aggregate(scores: readonly ItemScore[]): DsqaAggregate {
  const share = (c: Category) => (scores.length === 0 ? 0 : scores.filter((s) => s.category === c).length / scores.length);
  return {
    n: scores.length,
    f1: mean(scores.map((s) => s.f1)),
    precision: mean(scores.map((s) => s.precision)),
    recall: mean(scores.map((s) => s.recall)),
    fully_correct: share('fully_correct'),
    fully_incorrect: share('fully_incorrect'),
    partially_correct: share('partially_correct'),
    correct_with_extraneous: share('correct_with_extraneous'),
  };
}

function groupBy<T>(values: readonly T[], key: (v: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const v of values) {
    const k = key(v);
    const list = out.get(k);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return out;
}

export const PASS_AT = [1, 2, 4, 8] as const;

/**
 * The unbiased pass@k estimate of one item, 1 − C(n−c, k) / C(n, k), computed as a running product
 * (Π_{i=n−c+1..n} (1 − k/i)) so that large n never overflows. Needs 1 ≤ k ≤ n and 0 ≤ c ≤ n.
 */
export function passAtK(n: number, c: number, k: number): number {
  if (!Number.isInteger(n) || !Number.isInteger(c) || !Number.isInteger(k) || k < 1 || k > n || c < 0 || c > n)
    throw new RangeError(`pass@k needs whole numbers 1 ≤ k ≤ n and 0 ≤ c ≤ n, got n=${n} c=${c} k=${k}`);
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

export function scoreDeepSearchQa(items: readonly DsqaItem[]): DsqaScore {
  const primary = items
    .filter((it) => it.samples.length > 0)
    .map((it) => {
      const first = [...it.samples].sort((a, b) => a.sample - b.sample)[0];
      return { item: it, sample: first.sample, score: scoreJudgment(first.judgment, it.answerType) };
    });
  const scores = primary.map((p) => p.score);
  const all = aggregate(scores);
  const { n, ...metrics } = all;
  const count = (c: Category) => scores.filter((s) => s.category === c).length;
  const ci95: DsqaScore['ci95'] = {
    f1: normalInterval(scores.map((s) => s.f1)),
    precision: normalInterval(scores.map((s) => s.precision)),
    recall: normalInterval(scores.map((s) => s.recall)),
    fully_correct: wilson(count('fully_correct'), n),
    fully_incorrect: wilson(count('fully_incorrect'), n),
    partially_correct: wilson(count('partially_correct'), n),
    correct_with_extraneous: wilson(count('correct_with_extraneous'), n),
  };
  const byType = groupBy(primary, (p) => p.item.answerType);
  const byCategory = groupBy(primary, (p) => p.item.category || '(none)');
  let atN: DsqaScore['fully_correct_at_n'] = null;
  if (items.some((it) => it.samples.length > 1)) {
    atN = {};
    for (const k of PASS_AT) {
      const eligible = items.filter((it) => it.samples.length >= k);
      const hits = eligible.filter((it) =>
        [...it.samples]
          .sort((a, b) => a.sample - b.sample)
          .slice(0, k)
          .some((s) => scoreJudgment(s.judgment, it.answerType).category === 'fully_correct'),
      ).length;
      atN[String(k)] = { items: eligible.length, rate: eligible.length === 0 ? null : hits / eligible.length };
    }
  }
  const passAt: Record<string, number> = {};
  const sampled = items.filter((it) => it.samples.length > 0);
  for (const k of PASS_AT) {
    const eligible = sampled.filter((it) => it.samples.length >= k);
    if (eligible.length === 0) continue;
    const estimates = eligible.map((it) =>
      passAtK(it.samples.length, it.samples.filter((s) => scoreJudgment(s.judgment, it.answerType).category === 'fully_correct').length, k),
    );
    passAt[String(k)] = mean(estimates);
  }
  return {
    kind: 'deepsearchqa',
    n,
    metrics,
    pass_at: passAt,
    ci95,
    by_answer_type: Object.fromEntries([...byType].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, aggregate(v.map((p) => p.score))])),
    by_category: Object.fromEntries([...byCategory].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, aggregate(v.map((p) => p.score))])),
    fully_correct_at_n: atN,
    per_item: primary.map((p) => ({ id: p.item.id, sample: p.sample, score: p.score })),
  };
}
