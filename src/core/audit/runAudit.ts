import type { Trajectory } from '../model/trajectory';
import type { ToolNames } from '../stats/statistics';
import { BASELINES_PROMPT_VERSION, runAllAtOnce, runBinarySearch, runStepByStep } from './baselines';
import { HEURISTIC_VERSION, heuristicAudit } from './heuristic';
import { runSearchAuditor, SEARCHAUDITOR_PROMPT_VERSION, type SearchAuditorOptions } from './searchAuditor';
import { newAuditId } from './ids';
import { emptyUsage, type AuditMethod, type AuditResult } from './types';


/** The offline heuristic as a full audit result (clearly labelled: provider "offline"). */
export function runHeuristicAudit(t: Trajectory, names: ToolNames = {}, trajectorySha256?: string): AuditResult {
  const started = Date.now();
  const finding = heuristicAudit(t, names);
  const usage = emptyUsage();
  usage.latencyMs = Date.now() - started;
  return {
    id: newAuditId('heuristic'),
    method: 'heuristic',
    provider: 'offline',
    model: 'heuristic',
    createdAt: new Date().toISOString(),
    promptVersion: HEURISTIC_VERSION,
    diagnosis: { criticalStep: finding.criticalStep, rootCause: finding.rootCause, rationale: finding.rationale, citedSteps: finding.citedSteps },
    repair: { directives: finding.directives },
    usage,
    evidence: finding.evidence,
    ...(trajectorySha256 ? { trajectorySha256 } : {}),
  };
}

export function isModelMethod(method: AuditMethod): boolean {
  return method !== 'heuristic';
}

/** Runs a model-backed method (SearchAuditor with its ablation switches, or a baseline). */
export async function runModelAudit(t: Trajectory, method: AuditMethod, options: SearchAuditorOptions, trajectorySha256?: string): Promise<AuditResult> {
  switch (method) {
    case 'searchauditor': return runSearchAuditor(t, options, trajectorySha256);
    case 'all-at-once': return runAllAtOnce(t, options, trajectorySha256);
    case 'step-by-step': return runStepByStep(t, options, trajectorySha256);
    case 'binary-search': return runBinarySearch(t, options, trajectorySha256);
    default: throw new Error(`${method} is not a model method`);
  }
}

/** The prompt version a method uses (part of the result-cache key). */
export function promptVersionOf(method: AuditMethod): string {
  return method === 'heuristic' ? HEURISTIC_VERSION : method === 'searchauditor' ? SEARCHAUDITOR_PROMPT_VERSION : BASELINES_PROMPT_VERSION;
}

/** Runs tasks with at most `limit` in flight; results keep the input order. */
export async function mapWithConcurrency<T, R>(items: T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
