import { randomBytes } from 'node:crypto';
import type { Trajectory } from '../model/trajectory';
import type { ToolNames } from '../stats/statistics';
import { HEURISTIC_VERSION, heuristicAudit } from './heuristic';
import { emptyUsage, type AuditMethod, type AuditResult } from './types';

export function newAuditId(method: string): string {
  return `${method}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
}

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
