import type { LoadedRecord } from '../load/loadRecord';
import { outcomeOf, type Outcome } from '../model/outcome';
import type { Trajectory } from '../model/trajectory';
import { countTokens, countTrajectory, criticalPosition, type TokenCounts, type ToolNames, type TrajectoryCounts } from '../stats/statistics';

/** `trajaudit inspect --json` for a trajectory: exactly the keys of docs/cli.md §2. */
export interface TrajectoryInspection extends TrajectoryCounts {
  format: string;
  id: string;
  query: string | null;
  predictedAnswer: string | null;
  tokens: TokenCounts;
  /** What the source records of the run's outcome (metadata.outcome); every field null when nothing. */
  outcome: Outcome;
  gold?: { criticalStep: number | null; toleranceSpan: [number, number] | null; rootCause: string | null; criticalPosition: number | null };
}

export function inspectTrajectory(trajectory: Trajectory, names: ToolNames = {}): TrajectoryInspection {
  const counts = countTrajectory(trajectory, names);
  const report: TrajectoryInspection = {
    format: trajectory.format,
    id: trajectory.id,
    query: trajectory.query ?? null,
    predictedAnswer: trajectory.predictedAnswer ?? null,
    messages: counts.messages,
    decisionSteps: counts.decisionSteps,
    finalAnswerStep: counts.finalAnswerStep,
    toolCalls: counts.toolCalls,
    atomicOps: counts.atomicOps,
    searchCalls: counts.searchCalls,
    visitCalls: counts.visitCalls,
    tokens: countTokens(trajectory),
    outcome: outcomeOf(trajectory),
  };
  const gold = trajectory.gold;
  if (gold && (gold.criticalStep !== undefined || gold.rootCause || gold.toleranceSpan)) {
    report.gold = {
      criticalStep: gold.criticalStep ?? null,
      toleranceSpan: gold.toleranceSpan ?? null,
      rootCause: gold.rootCause ?? gold.rootCauseRaw ?? null,
      criticalPosition: criticalPosition(gold.criticalStep, trajectory.messages.length),
    };
  }
  return report;
}

/** `inspect` for benchmark items, sidecars and manifests: kind, id and the counts that matter. */
export function inspectOther(record: Exclude<LoadedRecord, { trajectory: Trajectory }>): Record<string, unknown> {
  switch (record.kind) {
    case 'delegation-item': {
      const item = record.item;
      const types: Record<string, number> = {};
      for (const d of item.distractor_docs) types[d.distractor_type ?? 'unknown'] = (types[d.distractor_type ?? 'unknown'] ?? 0) + 1;
      return {
        format: record.kind,
        id: record.id,
        query: item.query,
        goldenAnswer: item.golden_answer,
        goldenDocs: item.golden_docs.length,
        irrelevantDocs: item.irrelevant_docs.length,
        distractorDocs: item.distractor_docs.length,
        distractorTypes: types,
        evidenceSpans: item.evidence_spans.length,
        reasoningSteps: item.reasoning_steps.length,
      };
    }
    case 'deepsearchqa':
      return {
        format: record.kind,
        id: record.id,
        problem: record.row.problem,
        category: record.row.problem_category,
        answerType: record.row.answer_type,
        answer: record.row.answer,
      };
    case 'clarify-instance': {
      const weights = record.instance.nuggets.reduce((s, n) => s + n.weight, 0);
      return {
        format: record.kind,
        id: record.id,
        blurredQuery: record.instance.blurred_query,
        fusedQuery: record.instance.fused_query,
        nuggets: record.instance.nuggets.length,
        totalWeight: weights,
      };
    }
    case 'scenario-set': {
      const criteria = record.scenarioSet.scenarios.flatMap((s) => s.criteria);
      return {
        format: record.kind,
        id: record.id,
        scenarios: record.scenarioSet.scenarios.length,
        criteria: criteria.length,
        trackA: criteria.filter((c) => c.track === 'A').length,
        trackB: criteria.filter((c) => c.track === 'B').length,
        human: criteria.filter((c) => c.check === 'human').length,
        vetoes: criteria.filter((c) => c.points === 'veto').length,
      };
    }
    case 'audit-sidecar': {
      const records = Object.values(record.sidecar.records);
      return {
        format: record.kind,
        id: record.id,
        trajectory: record.sidecar.trajectory,
        records: records.length,
        annotated: records.filter((r) => r.annotation).length,
        audits: records.reduce((s, r) => s + (r.audits?.length ?? 0), 0),
      };
    }
    case 'run-manifest':
      return { format: record.kind, id: record.id, ...record.manifest };
  }
}
