import { newestAudit } from '../audit/newest';
import { causeVerdict, stepVerdict } from '../audit/verdicts';
import type { AnnotationData, AuditData, GoldData, RecordListEntry, RecordView } from '../../shared/protocol';
import type { LoadedFile } from '../load/loadFile';
import { isTrajectoryRecord, type TrajectoryRecord } from '../load/loadRecord';
import { outcomeOf, outcomeText } from '../model/outcome';
import type { Trajectory } from '../model/trajectory';
import type { SidecarRecord } from '../sidecar/schema';
import { countTrajectory, resolvedToolNames, type ToolNames } from '../stats/statistics';
import { truncate } from '../stats/outline';
import { buildRows } from './rows';

function goldOf(t: Trajectory): GoldData | undefined {
  if (!t.gold) return undefined;
  const { criticalStep, toleranceSpan, rootCause, rootCauseRaw, rationale, repairDirective, repairRubrics, mistakeAgent } = t.gold;
  const gold: GoldData = {};
  if (criticalStep !== undefined) gold.criticalStep = criticalStep;
  if (toleranceSpan) gold.toleranceSpan = toleranceSpan;
  if (rootCause ?? rootCauseRaw) gold.rootCause = rootCause ?? rootCauseRaw;
  if (rationale) gold.rationale = rationale;
  if (repairDirective) gold.repairDirective = repairDirective;
  if (repairRubrics) gold.repairRubrics = repairRubrics;
  if (mistakeAgent) gold.mistakeAgent = mistakeAgent;
  return gold;
}

export { newestAudit };

/** Human and newest audit disagree: step outside the span (or not equal without one), or another root cause. */
export function disagrees(annotation: AnnotationData | null | undefined, audits: readonly AuditData[] | null | undefined): boolean {
  const audit = newestAudit(audits)?.diagnosis;
  if (!annotation || !audit) return false;
  if (stepVerdict(audit.criticalStep, annotation.criticalStep, annotation.toleranceSpan) === 'outside span') return true;
  return causeVerdict(annotation.rootCause, audit.rootCause) === 'disagree';
}

export function recordLabel(record: TrajectoryRecord): string {
  // A lazily read record (Inspect .eval) is labelled without reading it.
  const query = record.listQuery ?? record.trajectory.query;
  return `${record.id} · ${truncate(query ?? '(no query)', 70)}`;
}

export function buildRecordList(loaded: LoadedFile, sidecarRecords: Record<string, SidecarRecord | undefined>): RecordListEntry[] {
  return loaded.records.filter(isTrajectoryRecord).map((r) => {
    const sc = sidecarRecords[r.id];
    const entry: RecordListEntry = {
      id: r.id,
      label: recordLabel(r),
      annotated: Boolean(sc?.annotation),
      audited: Boolean(sc?.audits?.length),
      disagreeing: disagrees(sc?.annotation, sc?.audits),
    };
    if (r.line !== undefined) entry.line = r.line;
    return entry;
  });
}

/**
 * Rows of the first window a page embeds when the whole view is too big to (see
 * src/extension/editor/panelSession.ts): more than the tallest screen shows at once.
 */
export const FIRST_WINDOW_ROWS = 150;

/**
 * The view of one record. `rowLimit`: only the first rows (a first window); the header, decision
 * steps, audits and annotation are the whole record's all the same.
 */
export function buildRecordView(
  file: string,
  loaded: LoadedFile,
  record: TrajectoryRecord,
  sidecarRecord: SidecarRecord | undefined,
  names: ToolNames = {},
  rowLimit?: number,
): RecordView {
  const t = record.trajectory;
  const counts = countTrajectory(t, names);
  const view: RecordView = {
    recordId: record.id,
    header: {
      file,
      format: t.format,
      detectionReason: loaded.detection.reason,
      recordId: record.id,
      messages: counts.messages,
      decisionSteps: counts.decisionSteps.length,
      toolCalls: counts.toolCalls,
      atomicOps: counts.atomicOps,
      searchCalls: counts.searchCalls,
      visitCalls: counts.visitCalls,
    },
    rows: buildRows(t, names, rowLimit),
    decisionSteps: t.decisionSteps,
    finalAnswerStep: t.finalAnswerStep ?? null,
    audits: sidecarRecord?.audits ?? [],
    toolKinds: resolvedToolNames(names),
  };
  if (t.query !== undefined) view.header.query = t.query;
  if (t.predictedAnswer !== undefined) view.header.predictedAnswer = t.predictedAnswer;
  if (t.goldAnswer !== undefined) view.header.goldAnswer = t.goldAnswer;
  const outcome = outcomeOf(t);
  const outcomeLabel = outcomeText(outcome);
  if (outcomeLabel) view.header.outcome = { text: outcomeLabel, source: outcome.source ?? 'metadata.outcome' };
  const gold = goldOf(t);
  if (gold) view.gold = gold;
  if (sidecarRecord?.annotation) view.annotation = sidecarRecord.annotation;
  return view;
}
