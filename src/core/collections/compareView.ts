// The compare view's model (issue 16 item 4): two trajectories of the same query side by side,
// one row per pair of the decision-step alignment (align.ts, the same one `trajaudit compare`
// prints), the first divergence marked, and each side's human label and newest audit for the
// column headers. Pure: the extension host builds it and posts it to the webview as data.
import { auditMethodId, newestAudit } from '../audit/newest';
import type { Message, Trajectory } from '../model/trajectory';
import type { SidecarRecord } from '../sidecar/schema';
import { alignDecisionSteps } from './align';
import { labelOfAnnotation, labelOfGold } from './collect';
import { datasetOf, modelOf } from './rows';

/** Characters of a step's text and of its tool returns kept in the model (the row shows a preview; the editor has the rest). */
export const STEP_TEXT_CHARS = 600;
export const RESULT_TEXT_CHARS = 300;

export interface CompareSideInput {
  /** The file as the user should read it (workspace-relative in the extension). */
  file: string;
  record: string;
  trajectory: Trajectory;
  /** The record's entry in `<file>.audit.json`, when there is one. */
  sidecarRecord?: SidecarRecord;
}

export interface CompareHumanLabel {
  /** `annotation`: saved in the sidecar; `gold`: the label the file itself carries. */
  source: 'annotation' | 'gold';
  criticalStep: number | null;
  rootCause: string | null;
  toleranceSpan: [number, number] | null;
  annotator: string | null;
}

export interface CompareAuditLabel {
  /** The method id as the sidecar writes it (`searchauditor:vote` for an ablation). */
  method: string;
  model: string | null;
  createdAt: string | null;
  criticalStep: number | null;
  rootCause: string | null;
}

export interface CompareSide {
  file: string;
  record: string;
  format: string;
  model: string | null;
  dataset: string | null;
  query: string | null;
  predictedAnswer: string | null;
  goldAnswer: string | null;
  messages: number;
  decisionSteps: number;
  human: CompareHumanLabel | null;
  audit: CompareAuditLabel | null;
  audits: number;
}

export interface CompareStep {
  /** Message position in its trajectory. */
  position: number;
  /** Tool names called, in order (empty for a reply). */
  tools: string[];
  /** `name(arguments)` per call, or the reply's text; whitespace runs collapsed, cut at STEP_TEXT_CHARS. */
  text: string;
  /** The start of the tool returns this step issued, joined, cut at RESULT_TEXT_CHARS (empty without any). */
  result: string;
  /** The text was cut. */
  truncated: boolean;
  /** The side's human critical step, its tolerance span, the newest audit's critical step. */
  humanCritical: boolean;
  inHumanSpan: boolean;
  auditCritical: boolean;
  finalAnswer: boolean;
}

export interface CompareRow {
  a: CompareStep | null;
  b: CompareStep | null;
  /** Both sides have a step here (they align), or only one does. */
  kind: 'aligned' | 'a-only' | 'b-only';
  /** The row belongs to the first run of unpaired steps, where the runs part. */
  firstDivergence: boolean;
}

export interface CompareViewModel {
  a: CompareSide;
  b: CompareSide;
  /** Both queries are given and equal after collapsing whitespace; false flags a likely wrong pair. */
  sameQuery: boolean;
  rows: CompareRow[];
  /** The index in `rows` of the first divergent row; null when every step is paired. */
  firstDivergenceRow: number | null;
  /** As `trajaudit compare --json` prints it: the first unpaired positions of each side. */
  firstDivergence: { a: number | null; b: number | null } | null;
  /** Rows where both sides have a step. */
  alignedRows: number;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string, chars: number): { text: string; truncated: boolean } {
  return text.length > chars ? { text: `${text.slice(0, chars - 1)}…`, truncated: true } : { text, truncated: false };
}

function stepText(message: Message): string {
  if (message.toolCalls.length === 0) return collapse(message.content);
  const calls = message.toolCalls.map((call) => `${call.name}(${collapse(call.rawArguments)})`).join(' ');
  const said = collapse(message.content);
  return said ? `${said} ${calls}` : calls;
}

function humanOf(side: CompareSideInput): CompareHumanLabel | null {
  const annotation = side.sidecarRecord?.annotation;
  const fromAnnotation = labelOfAnnotation(annotation);
  const label = fromAnnotation ?? labelOfGold(side.trajectory.gold);
  if (!label) return null;
  return {
    source: fromAnnotation ? 'annotation' : 'gold',
    criticalStep: label.criticalStep ?? null,
    rootCause: label.rootCause ?? null,
    toleranceSpan: label.toleranceSpan ? [label.toleranceSpan[0], label.toleranceSpan[1]] : null,
    annotator: fromAnnotation ? (annotation?.annotator ?? null) : null,
  };
}

function auditOf(side: CompareSideInput): CompareAuditLabel | null {
  const newest = newestAudit(side.sidecarRecord?.audits);
  if (!newest) return null;
  return {
    method: auditMethodId(newest),
    model: newest.model ?? null,
    createdAt: newest.createdAt ?? null,
    criticalStep: typeof newest.diagnosis?.criticalStep === 'number' ? newest.diagnosis.criticalStep : null,
    rootCause: newest.diagnosis?.rootCause ?? null,
  };
}

function sideOf(input: CompareSideInput, human: CompareHumanLabel | null, audit: CompareAuditLabel | null): CompareSide {
  const t = input.trajectory;
  return {
    file: input.file,
    record: input.record,
    format: t.format,
    model: modelOf(t) ?? null,
    dataset: datasetOf(t) ?? null,
    query: t.query ?? null,
    predictedAnswer: t.predictedAnswer ?? null,
    goldAnswer: t.goldAnswer ?? null,
    messages: t.messages.length,
    decisionSteps: t.decisionSteps.length,
    human,
    audit,
    audits: input.sidecarRecord?.audits?.length ?? 0,
  };
}

/** The steps of one side by position, each with its returns. */
function stepsOf(input: CompareSideInput, human: CompareHumanLabel | null, audit: CompareAuditLabel | null): Map<number, CompareStep> {
  const t = input.trajectory;
  const results = new Map<number, string[]>();
  for (const message of t.messages) {
    if (message.role === 'tool' && message.issuedBy !== undefined) {
      const list = results.get(message.issuedBy) ?? [];
      list.push(collapse(message.content));
      results.set(message.issuedBy, list);
    }
  }
  const span = human?.toleranceSpan;
  const steps = new Map<number, CompareStep>();
  for (const position of t.decisionSteps) {
    const message = t.messages[position];
    const text = cut(stepText(message), STEP_TEXT_CHARS);
    const result = cut((results.get(position) ?? []).join(' · '), RESULT_TEXT_CHARS);
    steps.set(position, {
      position,
      tools: message.toolCalls.map((c) => c.name),
      text: text.text,
      result: result.text,
      truncated: text.truncated || result.truncated,
      humanCritical: human?.criticalStep === position,
      inHumanSpan: span ? position >= span[0] && position <= span[1] : false,
      auditCritical: audit?.criticalStep === position,
      finalAnswer: t.finalAnswerStep === position,
    });
  }
  return steps;
}

/** The compare view of two trajectories: the alignment's rows with each side's step and labels. */
export function buildCompareView(a: CompareSideInput, b: CompareSideInput): CompareViewModel {
  const alignment = alignDecisionSteps(a.trajectory, b.trajectory);
  const humanA = humanOf(a);
  const humanB = humanOf(b);
  const auditA = auditOf(a);
  const auditB = auditOf(b);
  const stepsA = stepsOf(a, humanA, auditA);
  const stepsB = stepsOf(b, humanB, auditB);
  const start = alignment.pairs.findIndex(([x, y]) => x === null || y === null);
  const rows: CompareRow[] = alignment.pairs.map(([x, y]) => ({
    a: x === null ? null : (stepsA.get(x) ?? null),
    b: y === null ? null : (stepsB.get(y) ?? null),
    kind: x !== null && y !== null ? 'aligned' : x !== null ? 'a-only' : 'b-only',
    firstDivergence: false,
  }));
  // The first run of unpaired rows, as align.ts reads the first divergence.
  for (let k = start; k >= 0 && k < rows.length && rows[k].kind !== 'aligned'; k++) rows[k].firstDivergence = true;
  const queryA = a.trajectory.query ? collapse(a.trajectory.query) : '';
  const queryB = b.trajectory.query ? collapse(b.trajectory.query) : '';
  return {
    a: sideOf(a, humanA, auditA),
    b: sideOf(b, humanB, auditB),
    sameQuery: queryA !== '' && queryA === queryB,
    rows,
    firstDivergenceRow: start === -1 ? null : start,
    firstDivergence: alignment.firstDivergence,
    alignedRows: rows.filter((r) => r.kind === 'aligned').length,
  };
}
