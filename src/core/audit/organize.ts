import { ROOT_CAUSE_LABELS } from '../model/rootCauses';
import type { Trajectory } from '../model/trajectory';
import type { BranchReport } from './types';

export interface AdjudicationContext {
  /** Disagreements between reports, tabulated as text for the adjudicator. */
  summary: string;
  /** Nearby proposals grouped together (message positions). */
  clusters: number[][];
  /** Anchors of the evidence windows: every distinct proposal and the final-answer step. */
  anchors: number[];
}

/**
 * Clusters step proposals whose decision-step ranks are within `gap` of each other, so that
 * near-identical localizations are compared together (seed 002 §4, stage 2).
 */
export function clusterSteps(t: Trajectory, steps: number[], gap = 2): number[][] {
  const rank = (p: number) => {
    const i = t.decisionSteps.indexOf(p);
    return i === -1 ? t.decisionSteps.filter((d) => d < p).length : i;
  };
  const distinct = [...new Set(steps)].sort((a, b) => a - b);
  const clusters: number[][] = [];
  for (const step of distinct) {
    const current = clusters[clusters.length - 1];
    if (current && rank(step) - rank(current[current.length - 1]) <= gap) current.push(step);
    else clusters.push([step]);
  }
  return clusters;
}

/** Deterministic organization of the branch reports: summary table, clusters, window anchors. */
export function organizeReports(t: Trajectory, reports: BranchReport[], gap = 2): AdjudicationContext {
  const steps = reports.map((r) => r.criticalStep);
  const causes = reports.map((r) => r.rootCause);
  const clusters = clusterSteps(t, steps, gap);
  const stepAgreement =
    new Set(steps).size === 1 ? `all reports agree on step ${steps[0]}` : `steps differ: ${reports.map((r) => `${r.name} → ${r.criticalStep}`).join(', ')}`;
  const causeAgreement =
    new Set(causes).size === 1
      ? `all reports agree on ${ROOT_CAUSE_LABELS[causes[0]]}`
      : `root causes differ: ${reports.map((r) => `${r.name} → ${ROOT_CAUSE_LABELS[r.rootCause]}`).join(', ')}`;
  const lines = [
    '| report | critical step | root cause |',
    '| --- | --- | --- |',
    ...reports.map((r) => `| ${r.name} | ${r.criticalStep} | ${ROOT_CAUSE_LABELS[r.rootCause]} |`),
    '',
    `Step: ${stepAgreement}.`,
    `Root cause: ${causeAgreement}.`,
    `Clusters of nearby proposals: ${clusters.map((c) => `[${c.join(', ')}]`).join(' ')}.`,
  ];
  const anchors = [...new Set([...steps, ...(t.finalAnswerStep !== undefined ? [t.finalAnswerStep] : [])])].sort((a, b) => a - b);
  return { summary: lines.join('\n'), clusters, anchors };
}

/**
 * The `w/ Vote` ablation: majority root cause (ties broken by the fixed taxonomy order), and the
 * earliest step of the largest cluster (ties: the earliest cluster).
 */
export function voteAdjudication(t: Trajectory, reports: BranchReport[]): { criticalStep: number; rootCause: BranchReport['rootCause']; clusters: number[][] } {
  const counts = new Map<BranchReport['rootCause'], number>();
  for (const r of reports) counts.set(r.rootCause, (counts.get(r.rootCause) ?? 0) + 1);
  const order = Object.keys(ROOT_CAUSE_LABELS) as BranchReport['rootCause'][];
  const rootCause = [...counts.entries()].sort((a, b) => b[1] - a[1] || order.indexOf(a[0]) - order.indexOf(b[0]))[0][0];
  const clusters = clusterSteps(
    t,
    reports.map((r) => r.criticalStep),
  );
  const support = (c: number[]) => reports.filter((r) => c.includes(r.criticalStep)).length;
  const best = [...clusters].sort((a, b) => support(b) - support(a) || a[0] - b[0])[0];
  return { criticalStep: best[0], rootCause, clusters };
}
