// Nugget restoration (Clarify-Then-Search, seed 004; docs/metrics.md §3). Pure.
import { dimensionOf, isUnknownAnswer } from './cqRegion';
import type { CoverageLabel } from './judges/nuggetCoverage';
import { bootstrapMeanInterval, meanOrNull, quantileLinear, type Interval } from './stats';

export const DEFAULT_PARTIAL_CREDIT = 0.5;
export const BASELINE_CONDITION = 'orig';

/** restore_score_100 = 100 · Σ w_j·v_j / Σ w_j with v = 1 full, `partial` for partial, 0 none. */
export function restoreScore100(coverage: readonly CoverageLabel[], weights: readonly number[], partial = DEFAULT_PARTIAL_CREDIT): number {
  if (coverage.length !== weights.length) throw new Error(`coverage has ${coverage.length} labels for ${weights.length} nuggets`);
  const total = weights.reduce((s, w) => s + w, 0);
  if (total === 0) return 0;
  const got = coverage.reduce((s, label, j) => s + weights[j] * (label === 'full' ? 1 : label === 'partial' ? partial : 0), 0);
  return (100 * got) / total;
}

export interface NuggetResult {
  id: string;
  condition: string;
  score: number;
}
export interface ClarificationTurn {
  question: string;
  answer: string | null;
  dimension?: string | null;
}
export interface Clarification {
  id: string;
  condition: string;
  turns: ClarificationTurn[];
}

export interface ConditionStats {
  n: number;
  mean: number | null;
  p50: number | null;
  p90: number | null;
  min: number | null;
  max: number | null;
  ua_unknown_rate?: number | null;
  all_unknown_rate?: number | null;
  cq_region_rate?: number | null;
  /** Share of the region-only questions answered unknown (seed 004 Table 10); null without one. */
  region_unknown_rate?: number | null;
}

export interface NuggetScore {
  kind: 'nuggets';
  conditions: Record<string, ConditionStats>;
  /** Against `orig`, over the instances present in both; null values when there are no pairs. */
  improvement: Record<string, { mean: number | null; ci95: Interval | null }>;
  /** Number of paired instances behind each improvement. */
  improvement_pairs: Record<string, number>;
  partial_credit: number;
  per_instance: NuggetResult[];
}

export interface NuggetScoreOptions {
  partialCredit?: number;
  baseline?: string;
  resamples?: number;
  seed?: number;
}

function clarificationRates(
  list: readonly Clarification[],
): Pick<ConditionStats, 'ua_unknown_rate' | 'all_unknown_rate' | 'cq_region_rate' | 'region_unknown_rate'> {
  const turns = list.flatMap((c) => c.turns);
  const region = turns.filter((t) => dimensionOf(t) === 'region');
  const withTurns = list.filter((c) => c.turns.length > 0);
  const unknown = turns.filter((t) => isUnknownAnswer(t.answer)).length;
  return {
    // Share of turns answered "unknown".
    ua_unknown_rate: turns.length === 0 ? null : unknown / turns.length,
    // Share of instances (with at least one turn) whose every turn is "unknown".
    all_unknown_rate: withTurns.length === 0 ? null : withTurns.filter((c) => c.turns.every((t) => isUnknownAnswer(t.answer))).length / withTurns.length,
    // Share of questions whose dimension is region (given, or classified region-only).
    cq_region_rate: turns.length === 0 ? null : region.length / turns.length,
    region_unknown_rate: region.length === 0 ? null : region.filter((t) => isUnknownAnswer(t.answer)).length / region.length,
  };
}

export function scoreNuggets(results: readonly NuggetResult[], clarifications: readonly Clarification[] = [], options: NuggetScoreOptions = {}): NuggetScore {
  const baseline = options.baseline ?? BASELINE_CONDITION;
  const byCondition = new Map<string, NuggetResult[]>();
  for (const r of results) {
    const list = byCondition.get(r.condition) ?? [];
    list.push(r);
    byCondition.set(r.condition, list);
  }
  const clarByCondition = new Map<string, Clarification[]>();
  for (const c of clarifications) {
    const list = clarByCondition.get(c.condition) ?? [];
    list.push(c);
    clarByCondition.set(c.condition, list);
  }
  const names = [...new Set([...byCondition.keys(), ...clarByCondition.keys()])].sort((a, b) =>
    a === baseline ? -1 : b === baseline ? 1 : a.localeCompare(b),
  );
  const conditions: Record<string, ConditionStats> = {};
  for (const name of names) {
    const scores = (byCondition.get(name) ?? []).map((r) => r.score);
    const stats: ConditionStats = {
      n: scores.length,
      mean: meanOrNull(scores),
      p50: quantileLinear(scores, 0.5),
      p90: quantileLinear(scores, 0.9),
      min: scores.length ? scores.reduce((a, b) => Math.min(a, b)) : null,
      max: scores.length ? scores.reduce((a, b) => Math.max(a, b)) : null,
    };
    const clar = clarByCondition.get(name);
    if (clar) Object.assign(stats, clarificationRates(clar));
    conditions[name] = stats;
  }
  const improvement: NuggetScore['improvement'] = {};
  const pairs: Record<string, number> = {};
  const base = new Map((byCondition.get(baseline) ?? []).map((r) => [r.id, r.score]));
  if (base.size > 0) {
    for (const name of names) {
      if (name === baseline || !byCondition.has(name)) continue;
      const diffs = (byCondition.get(name) ?? []).filter((r) => base.has(r.id)).map((r) => r.score - (base.get(r.id) as number));
      pairs[name] = diffs.length;
      improvement[name] = { mean: meanOrNull(diffs), ci95: bootstrapMeanInterval(diffs, { resamples: options.resamples, seed: options.seed }) };
    }
  }
  return {
    kind: 'nuggets',
    conditions,
    improvement,
    improvement_pairs: pairs,
    partial_credit: options.partialCredit ?? DEFAULT_PARTIAL_CREDIT,
    per_instance: [...results],
  };
}
