// Scenario-set scoring (seed 003 `meta.scoring`; docs/metrics.md §4). Pure. Scores 0..100.
import type { ScenarioSet } from '../items/schemas';
import { meanOrNull } from './stats';

export const A_MEAN_GATE = 90;
export const B_GATE = 85;

export interface ScenarioResult {
  /** Criterion id → hit. A criterion without a result counts as not hit (listed in `missing`). */
  criteria: Record<string, boolean>;
  silent_citations?: number;
}

export interface ScenarioWeights {
  dimensions?: Record<string, number>;
  /** Track-B evidence weights (E1…E5): multiply the points of non-veto B criteria; an unlisted E keeps weight 1. */
  evidence?: Record<string, number>;
}

export interface ScenarioScore {
  kind: 'scenarios';
  /** a / b: null when the scenario has no criteria on that track or no results line. */
  scenarios: Record<string, { a: number | null; b: number | null; veto_failed: boolean }>;
  dimensions: Record<string, number>;
  a_total: number | null;
  a_mean: number | null;
  gate: { passed: boolean; reasons: string[] };
  weights: { source: 'file' | 'default-equal'; dimensions: Record<string, number>; note: string };
  /** Criteria with no result, per scenario (counted as not hit). */
  missing: Record<string, string[]>;
  /** Scenarios with no results line (not scored; they fail the gate). */
  unscored: string[];
  silent_citations: number;
}

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));

export function scoreScenarios(set: ScenarioSet, results: ReadonlyMap<string, ScenarioResult>, weights: ScenarioWeights = {}): ScenarioScore {
  const scenarios: ScenarioScore['scenarios'] = {};
  const missing: Record<string, string[]> = {};
  const unscored: string[] = [];
  const dimHit = new Map<string, number>();
  const dimAll = new Map<string, number>();
  const reasons: string[] = [];
  let silent = 0;
  for (const scenario of set.scenarios) {
    const result = results.get(scenario.id);
    if (!result) {
      unscored.push(scenario.id);
      scenarios[scenario.id] = { a: null, b: null, veto_failed: false };
      continue;
    }
    silent += result.silent_citations ?? 0;
    const hit = (id: string) => result.criteria[id] === true;
    const absent = scenario.criteria.filter((c) => typeof result.criteria[c.id] !== 'boolean').map((c) => c.id);
    if (absent.length) missing[scenario.id] = absent;

    const aCriteria = scenario.criteria.filter((c) => c.track === 'A' && typeof c.points === 'number');
    const aTotal = aCriteria.reduce((s, c) => s + (c.points as number), 0);
    const aHit = aCriteria.filter((c) => hit(c.id)).reduce((s, c) => s + (c.points as number), 0);
    for (const c of aCriteria) {
      dimAll.set(c.dim, (dimAll.get(c.dim) ?? 0) + (c.points as number));
      dimHit.set(c.dim, (dimHit.get(c.dim) ?? 0) + (hit(c.id) ? (c.points as number) : 0));
    }

    const vetoes = scenario.criteria.filter((c) => c.points === 'veto');
    const vetoFailed = vetoes.some((c) => !hit(c.id));
    const bCriteria = scenario.criteria.filter((c) => c.track === 'B' && typeof c.points === 'number');
    const w = (dim: string) => weights.evidence?.[dim] ?? 1;
    const bTotal = bCriteria.reduce((s, c) => s + (c.points as number) * w(c.dim), 0);
    const bHit = bCriteria.filter((c) => hit(c.id)).reduce((s, c) => s + (c.points as number) * w(c.dim), 0);
    let b: number | null;
    if (vetoFailed) b = 0;
    else if (bCriteria.length === 0) b = vetoes.length > 0 ? 100 : null;
    else b = bTotal === 0 ? 0 : (100 * bHit) / bTotal;

    scenarios[scenario.id] = { a: aTotal === 0 ? null : (100 * aHit) / aTotal, b, veto_failed: vetoFailed };
  }

  const dimensions: Record<string, number> = {};
  for (const dim of [...dimAll.keys()].sort()) {
    const all = dimAll.get(dim) as number;
    dimensions[dim] = all === 0 ? 0 : (100 * (dimHit.get(dim) as number)) / all;
  }
  const present = Object.keys(dimensions);
  let weightInfo: ScenarioScore['weights'];
  if (weights.dimensions && Object.keys(weights.dimensions).length > 0) {
    const used = Object.fromEntries(present.map((d) => [d, weights.dimensions?.[d] ?? 0]));
    const sum = Object.values(used).reduce((s, x) => s + x, 0);
    const unlisted = present.filter((d) => weights.dimensions?.[d] === undefined);
    weightInfo = {
      source: 'file',
      dimensions: used,
      note: `dimension weights from the weights file${unlisted.length ? `; ${unlisted.join(', ')} not listed (weight 0)` : ''}${Math.abs(sum - 1) > 1e-9 ? `; weights sum to ${fmt(sum)}, not 1` : ''}`,
    };
  } else {
    weightInfo = {
      source: 'default-equal',
      dimensions: Object.fromEntries(present.map((d) => [d, 1 / present.length])),
      note: `no weights file: equal weights (1/${present.length}) over the ${present.length} dimensions present (${present.join(', ')})`,
    };
  }
  const aTotal = present.length === 0 ? null : present.reduce((s, d) => s + dimensions[d] * weightInfo.dimensions[d], 0);
  const aScores = Object.values(scenarios)
    .map((s) => s.a)
    .filter((a): a is number => a !== null);
  const aMean = meanOrNull(aScores);

  if (aMean === null) reasons.push('a_mean unavailable: no scenario has track-A results');
  else if (aMean < A_MEAN_GATE) reasons.push(`a_mean ${fmt(aMean)} < ${A_MEAN_GATE}`);
  for (const id of unscored) reasons.push(`${id}: no results line`);
  for (const [id, s] of Object.entries(scenarios)) {
    if (s.b !== null && s.b < B_GATE) reasons.push(`${id}: B ${fmt(s.b)} < ${B_GATE}${s.veto_failed ? ' (E4 veto failed)' : ''}`);
  }
  if (silent !== 0) reasons.push(`silent_citations total ${silent} ≠ 0`);

  return {
    kind: 'scenarios',
    scenarios,
    dimensions,
    a_total: aTotal,
    a_mean: aMean,
    gate: { passed: reasons.length === 0, reasons },
    weights: weightInfo,
    missing,
    unscored,
    silent_citations: silent,
  };
}
