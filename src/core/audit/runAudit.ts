import type { Trajectory } from '../model/trajectory';
import type { ToolNames } from '../stats/statistics';
import { BASELINES_PROMPT_VERSION, runAllAtOnce, runBinarySearch, runStepByStep } from './baselines';
import { HEURISTIC_VERSION, heuristicAudit } from './heuristic';
import { runSearchAuditor, SEARCHAUDITOR_PROMPT_VERSION, type SearchAuditorOptions } from './searchAuditor';
import { newAuditId } from './ids';
import { recordContentSha256 } from './sidecarAudits';
import { emptyUsage, type AuditMethod, type AuditResult } from './types';

/** The heuristic's configuration (part of its cache key): the tool names, when not the defaults. */
export function heuristicOptions(names: ToolNames = {}): Record<string, unknown> | undefined {
  const options: Record<string, unknown> = {};
  if (names.searchNames) options.searchNames = names.searchNames;
  if (names.visitNames) options.visitNames = names.visitNames;
  return Object.keys(options).length ? options : undefined;
}

/** Suspects kept in an audit: the top ones matter (the editor marks three); every step of a 5,000-message run would bloat the sidecar. */
export const MAX_SUSPECTS = 10;

/** The offline heuristic as a full audit result (clearly labelled: provider "offline"). */
export function runHeuristicAudit(t: Trajectory, names: ToolNames = {}, trajectorySha256?: string): AuditResult {
  const options = heuristicOptions(names);
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
    suspects: finding.suspects.slice(0, MAX_SUSPECTS),
    ...(options ? { options } : {}),
    ...(trajectorySha256 ? { trajectorySha256 } : {}),
    contentSha256: recordContentSha256(t),
  };
}

export function isModelMethod(method: AuditMethod): boolean {
  return method !== 'heuristic';
}

/** Runs a model-backed method (SearchAuditor with its ablation switches, or a baseline). */
export async function runModelAudit(t: Trajectory, method: AuditMethod, options: SearchAuditorOptions, trajectorySha256?: string): Promise<AuditResult> {
  let result: AuditResult;
  switch (method) {
    case 'searchauditor':
      result = await runSearchAuditor(t, options, trajectorySha256);
      break;
    case 'all-at-once':
      result = await runAllAtOnce(t, options, trajectorySha256);
      break;
    case 'step-by-step':
      result = await runStepByStep(t, options, trajectorySha256);
      break;
    case 'binary-search':
      result = await runBinarySearch(t, options, trajectorySha256);
      break;
    default:
      throw new Error(`${method} is not a model method`);
  }
  return { ...result, contentSha256: recordContentSha256(t) };
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
