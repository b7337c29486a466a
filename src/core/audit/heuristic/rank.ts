// Ranks the decision steps of a trajectory by a linear score over their signals (plus a small
// position prior) and fits that score's weights: a conditional logit, one softmax over the
// steps of each trace, maximizing the likelihood of the annotated step with an L2 penalty.
import { SIGNAL_IDS, type Evidence, type SignalId, type StepSignals } from '../signals/stepSignals';

/** The position prior's features: one signal among the others, never the whole method. */
export const PRIOR_FEATURES = ['prior_first_step', 'prior_second_step', 'prior_fraction', 'prior_last_step', 'prior_first_of_agent'] as const;
export type PriorFeature = (typeof PRIOR_FEATURES)[number];
export const FEATURES: readonly (SignalId | PriorFeature)[] = [...SIGNAL_IDS, ...PRIOR_FEATURES];
export type Feature = (typeof FEATURES)[number];
export type Weights = Record<Feature, number>;

export interface Suspect {
  step: number;
  /** The step's share of the softmax over all decision steps, in [0, 1]. */
  score: number;
  /** The signals (and prior features) that raised its score. */
  signals: Feature[];
  evidence: Evidence[];
}

/** Feature vectors of every step, in FEATURES order. */
export function featureMatrix(steps: StepSignals[]): number[][] {
  const seenAgents = new Set<string>();
  return steps.map((s) => {
    const row = new Array<number>(FEATURES.length).fill(0);
    for (const h of s.hits) row[FEATURES.indexOf(h.id)] = h.value;
    const executor = s.hits.some((h) => h.id === 'executor_output');
    const agent = (s.agent ?? '').toLowerCase();
    const firstOfAgent = !executor && !seenAgents.has(agent);
    if (!executor) seenAgents.add(agent);
    row[FEATURES.indexOf('prior_first_step')] = s.ordinal === 0 ? 1 : 0;
    row[FEATURES.indexOf('prior_second_step')] = s.ordinal === 1 ? 1 : 0;
    row[FEATURES.indexOf('prior_fraction')] = s.count > 1 ? s.ordinal / (s.count - 1) : 0;
    row[FEATURES.indexOf('prior_last_step')] = s.ordinal === s.count - 1 ? 1 : 0;
    row[FEATURES.indexOf('prior_first_of_agent')] = firstOfAgent ? 1 : 0;
    return row;
  });
}

function logits(matrix: number[][], w: number[]): number[] {
  return matrix.map((row) => row.reduce((sum, x, i) => sum + x * w[i], 0));
}

function softmax(z: number[]): number[] {
  const max = Math.max(...z);
  const e = z.map((v) => Math.exp(v - max));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / total);
}

function weightVector(weights: Weights): number[] {
  return FEATURES.map((f) => weights[f] ?? 0);
}

/** Every decision step with something to quote, ranked by score, best first (ties: the earlier step). */
export function rankSuspects(steps: StepSignals[], weights: Weights): Suspect[] {
  if (steps.length === 0) return [];
  const matrix = featureMatrix(steps);
  const p = softmax(logits(matrix, weightVector(weights)));
  return (
    steps
      .map((s, i) => {
        const raising = s.hits.filter((h) => (weights[h.id] ?? 0) > 0 && h.evidence.length > 0);
        const priors = PRIOR_FEATURES.filter((f) => matrix[i][FEATURES.indexOf(f)] * (weights[f] ?? 0) > 0);
        const evidence = raising.flatMap((h) => h.evidence);
        // The position prior's evidence is the step itself; a step with no signal is shown by its opening.
        if ((priors.length || evidence.length === 0) && s.opening) evidence.push({ step: s.step, quote: s.opening });
        return {
          step: s.step,
          score: Math.round(p[i] * 1e4) / 1e4,
          exact: p[i],
          signals: [...raising.map((h) => h.id), ...priors],
          evidence: dedupe(evidence),
        };
      })
      // A step with no text at all (an empty message) has nothing to quote: it is not offered as a suspect.
      .filter((s) => s.evidence.length > 0)
      .sort((a, b) => b.exact - a.exact || a.step - b.step)
      .map(({ exact: _exact, ...suspect }) => suspect)
  );
}

function dedupe(evidence: Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return evidence.filter((e) => {
    const key = `${e.step}\u0000${e.quote}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export interface FitCase {
  steps: StepSignals[];
  /** The annotated critical step (a message position). */
  gold: number;
  /** The case's weight in the likelihood (default 1); the script gives every subset the same total. */
  weight?: number;
}

/**
 * Fits the weights by gradient ascent on the conditional log-likelihood of the annotated steps
 * (cases whose annotated step is not a decision step are skipped), with an L2 penalty that keeps
 * weights small where the data say little. Deterministic: fixed start, fixed step count.
 */
export function fitWeights(cases: FitCase[], options: { l2?: number; iterations?: number; rate?: number } = {}): Weights {
  const l2 = options.l2 ?? 0.05;
  const iterations = options.iterations ?? 600;
  const rate = options.rate ?? 0.5;
  const data = cases
    .map((c) => ({ matrix: featureMatrix(c.steps), gold: c.steps.findIndex((s) => s.step === c.gold), weight: c.weight ?? 1 }))
    .filter((c) => c.gold >= 0 && c.matrix.length > 0);
  const w = new Array<number>(FEATURES.length).fill(0);
  if (data.length === 0) return toWeights(w);
  const total = data.reduce((sum, c) => sum + c.weight, 0);
  for (let it = 0; it < iterations; it++) {
    const grad = w.map((x) => -2 * l2 * x * total);
    for (const { matrix, gold, weight } of data) {
      const p = softmax(logits(matrix, w));
      for (let j = 0; j < FEATURES.length; j++) {
        let expected = 0;
        for (let i = 0; i < matrix.length; i++) expected += p[i] * matrix[i][j];
        grad[j] += weight * (matrix[gold][j] - expected);
      }
    }
    for (let j = 0; j < w.length; j++) w[j] += (rate * grad[j]) / total;
  }
  return toWeights(w);
}

function toWeights(w: number[]): Weights {
  return Object.fromEntries(FEATURES.map((f, i) => [f, Math.round(w[i] * 1000) / 1000])) as Weights;
}
