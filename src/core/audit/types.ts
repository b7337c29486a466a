import type { RootCause } from '../model/rootCauses';

export const AUDIT_METHODS = ['searchauditor', 'all-at-once', 'step-by-step', 'binary-search', 'heuristic'] as const;
export type AuditMethod = (typeof AUDIT_METHODS)[number];

/** One report of a stage-1 branch (or a baseline's single judgment). */
export interface BranchReport {
  name: string;
  criticalStep: number;
  rootCause: RootCause;
  rationale: string;
  /** The specialized audits' intermediate analysis, passed to the adjudicator. */
  notes?: string;
}

export interface Diagnosis {
  criticalStep: number;
  rootCause: RootCause;
  rationale: string;
  citedSteps: number[];
}

/** A step that was not a decision step and was mapped to one (seed 002 §4, rule iii). */
export interface StepCorrection {
  source: string;
  proposed: number;
  mappedTo: number;
  reason: string;
}

export interface AuditUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  latencyMs: number;
}

/** What the engine writes into `audits[]` of the sidecar (docs/sidecar.md §1). */
export interface AuditResult {
  id: string;
  method: AuditMethod;
  provider: string;
  model: string;
  createdAt: string;
  promptVersion: string;
  diagnosis: Diagnosis;
  repair: { directives: string[] };
  branches?: BranchReport[];
  adjudication?: { disagreements: string; clusters: number[][]; windows?: number[] };
  usage: AuditUsage;
  /** Steps remapped to decision steps, tool returns cut to fit the context, evidence the heuristic used. */
  corrections?: StepCorrection[];
  contextCuts?: { position: number; cutTokens: number }[];
  evidence?: string[];
  /** The offline auditor's ranked suspect steps, best first (the first is the diagnosis). */
  suspects?: AuditSuspect[];
  options?: Record<string, unknown>;
  /** The trajectory file the audit was computed on. */
  trajectorySha256?: string;
  /** The record it was computed on (recordContentSha256): with the configuration, the result-cache key. */
  contentSha256?: string;
}

/** A suspect step: its score, the signals that raised it and their evidence (message positions with exact quotes). */
export interface AuditSuspect {
  step: number;
  score: number;
  signals: string[];
  evidence: { step: number; quote: string }[];
}

export function emptyUsage(): AuditUsage {
  return { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, latencyMs: 0 };
}
