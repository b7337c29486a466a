// One row of the collection view (issue 16 item 1) per trajectory record: what the table shows,
// sorts and filters by, computed once from the loaded trajectory and its sidecar record (the
// index stores rows, so a second open needs neither the parser nor the tokenizer). Counts come
// from stats/statistics.ts and tool kinds from stats/toolKinds.ts, as `inspect` and `stats` count.
import { newestAudit } from '../audit/newest';
import { outcomeOf, type Outcome } from '../model/outcome';
import type { Trajectory } from '../model/trajectory';
import { countTokens, countTrajectory, type ToolNames } from '../stats/statistics';
import { callKind, TOOL_KINDS, type ToolKind } from '../stats/toolKinds';
import { labelOfAnnotation, labelOfGold, type CaseLabel, type CollectedTrajectory } from './collect';

/** A critical step and root cause given by someone (a human, the gold, an audit method). */
export interface RowLabel {
  criticalStep: number | null;
  rootCause: string | null;
  toleranceSpan: [number, number] | null;
}

export type ToolCallsByKind = Record<ToolKind, number>;

/**
 * Whether the newest audit agrees with the human label: `both` (step and root cause), `step`,
 * `root-cause` or `neither`; null when there is no audit or no human label, or no field both gave.
 */
export type RowAgreement = 'both' | 'step' | 'root-cause' | 'neither';

/** Annotated (a human label in the sidecar), audited (at least one audit), both, or neither. */
export type RowState = 'annotated' | 'audited' | 'annotated+audited' | 'open';

export interface CollectionRow {
  /** `file#record`: unique in a collection, the same key as `trajaudit agreement`'s cases. */
  id: string;
  /** The file as the caller named it (workspace-relative in the editor, as given on the command line). */
  file: string;
  /** Record id inside the file ("0" for a single-trajectory file). */
  record: string;
  format: string;
  model: string | null;
  dataset: string | null;
  /** The first 300 characters of the query, for the text filter and the row's title. */
  query: string | null;
  outcome: Outcome;
  messages: number;
  decisionSteps: number;
  /** o200k_base tokens (content and reasoning of every message, Appendix C). */
  tokens: number;
  toolCalls: number;
  atomicOps: number;
  toolCallsByKind: ToolCallsByKind;
  /** The human label: the sidecar's annotation, else the gold in the file (`humanSource` says which). */
  human: RowLabel | null;
  humanSource: 'annotation' | 'gold' | null;
  annotator: string | null;
  /** The newest audit (any method, src/core/audit/newest.ts) and its method. */
  audit: RowLabel | null;
  auditMethod: string | null;
  audits: number;
  agreement: RowAgreement | null;
  /** A human annotation is saved in the sidecar (gold in the file does not count). */
  annotated: boolean;
  audited: boolean;
  state: RowState;
}

export interface RowOptions {
  names?: ToolNames;
  /** The file name to show and key rows by; default the collected file path. */
  displayFile?: string;
}

const QUERY_CHARS = 300;

function metadataText(metadata: Record<string, unknown>, key: string): string | undefined {
  const value = metadata[key];
  if (typeof value === 'string' && value.trim()) return value.trim();
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** The model a trajectory's source names (`metadata.model`, else `metadata.agent`). */
export function modelOf(trajectory: Trajectory): string | undefined {
  return metadataText(trajectory.metadata, 'model') ?? metadataText(trajectory.metadata, 'agent');
}

/** The dataset a trajectory's source names (`metadata.dataset`, else `metadata.benchmark`). */
export function datasetOf(trajectory: Trajectory): string | undefined {
  return metadataText(trajectory.metadata, 'dataset') ?? metadataText(trajectory.metadata, 'benchmark');
}

function rowLabel(label: CaseLabel): RowLabel {
  return {
    criticalStep: label.criticalStep ?? null,
    rootCause: label.rootCause ?? null,
    toleranceSpan: label.toleranceSpan ? [label.toleranceSpan[0], label.toleranceSpan[1]] : null,
  };
}

/** Tool calls of the decision steps per kind (every kind present, zero when unused). */
export function toolCallsByKind(trajectory: Trajectory, names: ToolNames = {}): ToolCallsByKind {
  const counts = Object.fromEntries(TOOL_KINDS.map((kind) => [kind, 0])) as ToolCallsByKind;
  for (const position of trajectory.decisionSteps) for (const call of trajectory.messages[position].toolCalls) counts[callKind(call, names)]++;
  return counts;
}

/**
 * The audit's step agrees with the human's when it lies in the human's tolerance span, or, without
 * a span, is the same step; root causes agree when equal.
 */
export function agreementOf(human: RowLabel | null, audit: RowLabel | null): RowAgreement | null {
  if (!human || !audit) return null;
  const stepComparable = human.criticalStep !== null && audit.criticalStep !== null;
  const causeComparable = human.rootCause !== null && audit.rootCause !== null;
  if (!stepComparable && !causeComparable) return null;
  const span = human.toleranceSpan;
  const step =
    stepComparable &&
    (span ? (audit.criticalStep as number) >= span[0] && (audit.criticalStep as number) <= span[1] : audit.criticalStep === human.criticalStep);
  const cause = causeComparable && audit.rootCause === human.rootCause;
  if (step && cause) return 'both';
  if (step) return 'step';
  if (cause) return 'root-cause';
  return 'neither';
}

export function stateOf(annotated: boolean, audited: boolean): RowState {
  if (annotated && audited) return 'annotated+audited';
  if (annotated) return 'annotated';
  if (audited) return 'audited';
  return 'open';
}

/** The collection-view row of one collected trajectory record. */
export function rowOf(collected: CollectedTrajectory, options: RowOptions = {}): CollectionRow {
  const { trajectory, sidecarRecord } = collected;
  const names = options.names ?? {};
  const file = options.displayFile ?? collected.file;
  const counts = countTrajectory(trajectory, names);
  const annotation = sidecarRecord?.annotation;
  const annotationLabel = labelOfAnnotation(annotation);
  const goldLabel = annotationLabel ? undefined : labelOfGold(trajectory.gold);
  const human = annotationLabel ?? goldLabel;
  const audits = sidecarRecord?.audits ?? [];
  const newest = newestAudit(audits);
  const diagnosis = newest?.diagnosis;
  const audit: RowLabel | null = newest
    ? {
        criticalStep: typeof diagnosis?.criticalStep === 'number' ? diagnosis.criticalStep : null,
        rootCause: diagnosis?.rootCause ?? null,
        toleranceSpan: null,
      }
    : null;
  const humanLabel = human ? rowLabel(human) : null;
  const annotated = annotationLabel !== undefined;
  const audited = audits.length > 0;
  const query = trajectory.query?.replace(/\s+/g, ' ').trim();
  return {
    id: `${file}#${collected.record}`,
    file,
    record: collected.record,
    format: trajectory.format,
    model: modelOf(trajectory) ?? null,
    dataset: datasetOf(trajectory) ?? null,
    query: query ? query.slice(0, QUERY_CHARS) : null,
    outcome: outcomeOf(trajectory),
    messages: counts.messages,
    decisionSteps: counts.decisionSteps.length,
    tokens: countTokens(trajectory).total,
    toolCalls: counts.toolCalls,
    atomicOps: counts.atomicOps,
    toolCallsByKind: toolCallsByKind(trajectory, names),
    human: humanLabel,
    humanSource: annotationLabel ? 'annotation' : goldLabel ? 'gold' : null,
    annotator: annotation?.annotator ?? null,
    audit,
    auditMethod: newest?.method ?? null,
    audits: audits.length,
    agreement: agreementOf(humanLabel, audit),
    annotated,
    audited,
    state: stateOf(annotated, audited),
  };
}
