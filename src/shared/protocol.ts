// The one typed message protocol between the trajectory editor's host (src/extension) and its
// webview (webview/src). Both sides import this file; it holds types only (no runtime code
// other than the constants below), so it bundles into both without pulling Node or VS Code in.
// Annotations and audits travel as the sidecar schema reads them (src/core/sidecar/schema.ts).
import type { Annotation, AuditEntry } from '../core/sidecar/schema';
import type { ToolKind, ToolNames } from '../core/stats/toolKinds';

/** Id of the `<script type="application/json">` holding the first `init` in the editor's page. */
export const EMBEDDED_INIT_ID = 'trajaudit-init';

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** One timeline row: everything needed to draw it without the message body. */
export interface RowSummary {
  position: number;
  role: Role;
  agent?: string;
  /** Tool calls of a decision step, summarized: `search(query=["a","b"])`. */
  calls: string[];
  /** Each call's kind (src/core/stats/toolKinds.ts, from its name and arguments); absent without calls. */
  callKinds?: ToolKind[];
  /** Tool name answered by a tool return (from the issuing call). */
  toolName?: string;
  /** For tool returns: the decision step that issued the call. */
  issuedBy?: number;
  /** First ~200 characters, whitespace squeezed. */
  preview: string;
  chars: number;
  hasReasoning: boolean;
  isDecision: boolean;
  isFinalAnswer: boolean;
  isError?: boolean;
  /** o200k tokens (content + reasoning); absent until counted (streamed after open). */
  tokens?: number;
}

export interface HeaderInfo {
  file: string;
  format: string;
  detectionReason: string;
  recordId: string;
  query?: string;
  predictedAnswer?: string;
  goldAnswer?: string;
  messages: number;
  decisionSteps: number;
  toolCalls: number;
  atomicOps: number;
  searchCalls: number;
  visitCalls: number;
  /** Present once counted. */
  tokens?: { total: number; toolReturns: number; reasoning: number; predictedAnswer: number };
  /** The outcome the source records ("success (score 1)") and the field it came from; absent when none. */
  outcome?: { text: string; source: string };
}

/** Human annotation of one record (docs/sidecar.md §1, `annotation`), as the sidecar schema reads it. */
export type AnnotationData = Annotation;

/** A machine audit of one record (docs/sidecar.md §1, `audits[]`), as the sidecar schema reads it. */
export type AuditData = AuditEntry;

export interface GoldData {
  criticalStep?: number;
  toleranceSpan?: [number, number];
  rootCause?: string;
  rationale?: string;
  repairDirective?: string;
  repairRubrics?: string[];
  mistakeAgent?: string;
}

export interface RecordListEntry {
  id: string;
  line?: number;
  label: string;
  annotated: boolean;
  audited: boolean;
  /** Human annotation and newest audit disagree on step (outside the span) or root cause. */
  disagreeing: boolean;
  /** The annotation was made on other content of the trajectory file (sha256 differs); shown until saved again or confirmed. */
  annotationOutdated?: boolean;
}

export interface RecordView {
  recordId: string;
  header: HeaderInfo;
  rows: RowSummary[];
  decisionSteps: number[];
  finalAnswerStep: number | null;
  gold?: GoldData;
  annotation?: AnnotationData;
  audits: AuditData[];
  /** The names the host counts as search and visit calls (settings, else the core's defaults); the webview's markers classify by them. */
  toolKinds: Required<ToolNames>;
}

export interface MessageBody {
  position: number;
  content: string;
  reasoning?: string;
  toolCalls: { id?: string; name: string; rawArguments: string; argumentsValid: boolean }[];
  toolCallId?: string;
}

export interface SearchRequest {
  text: string;
  caseSensitive?: boolean;
  regex?: boolean;
  roles?: Role[];
  tools?: string[];
}

export type AnswerSource = 'search snippet' | 'visited page' | 'reasoning' | 'tool return' | 'user' | 'answer';
export interface AnswerOccurrence {
  position: number;
  source: AnswerSource;
}
export interface AnswerTrace {
  predicted?: { text: string; occurrences: AnswerOccurrence[]; first?: AnswerOccurrence };
  gold?: { text: string; occurrences: AnswerOccurrence[]; first?: AnswerOccurrence };
}

/** One evidence id of a gold nugget, resolved against the record's search and visit results. */
export interface NuggetEvidence {
  /** `m<p>` (a whole return) or `m<p>.r<k>` (result k of a search return), normalized. */
  id: string;
  /** False when the trajectory has no such result (the gold file is older than the trace, or mistyped). */
  resolved: boolean;
  /** The message position of the tool return. */
  position?: number;
  kind?: 'search' | 'visit';
  /** k of `m<p>.r<k>` (1-based). */
  result?: number;
  /** The start of the result's text, whitespace squeezed. */
  quote?: string;
}

/** The gold nuggets (gold_nuggets.jsonl, `trajaudit build nuggets`) of one record. */
export interface NuggetsView {
  /** The gold file read; absent when none was found. */
  goldFile?: string;
  /** The instance id whose line was used, and its line; absent when the file has no line for the record. */
  instanceId?: string;
  line?: number;
  /** The instance ids looked for (the record id, then the file stem). */
  candidates: string[];
  nuggets: { text: string; weight: number; evidence: NuggetEvidence[] }[];
}

/** What each webview request is answered with: the body of its `reply` (webview/src/common/hostLink.ts). */
export interface EditorReplies {
  getMessage: MessageBody;
  search: { positions: number[] };
  answerTrace: AnswerTrace;
  nuggets: NuggetsView;
}

/** Host → webview. */
export type ToWebview =
  /**
   * The record to show first. `firstWindow`: only in a page, for a view too big to embed whole:
   * `view.rows` holds the first rows only, drawn at once; the whole `init` follows by message.
   */
  | { type: 'init'; file: string; container: string; records: RecordListEntry[]; readOnlyReason?: string; view: RecordView; firstWindow?: true }
  | { type: 'record'; view: RecordView; records: RecordListEntry[] }
  /** Per-message counts so far; `totals` only with the final (complete) counts. */
  | { type: 'tokens'; recordId: string; tokens: number[]; totals?: NonNullable<HeaderInfo['tokens']> }
  | { type: 'annotation'; recordId: string; annotation?: AnnotationData; records: RecordListEntry[] }
  | { type: 'audits'; recordId: string; audits: AuditData[]; records: RecordListEntry[] }
  | { type: 'reveal'; recordId: string; position: number }
  | { type: 'error'; message: string }
  | { type: 'reply'; requestId: number; body: EditorReplies[keyof EditorReplies] | { error: string } };

/** Webview → host. */
export type FromWebview =
  /**
   * The app started. `embeddedInit`: it drew the `init` embedded in its page (see
   * src/extension/webviewPage.ts); the host sends `init` again only if that one is stale.
   */
  | { type: 'ready'; embeddedInit?: boolean }
  /** The webview drew the record sent by `init` / `record` (the host starts counting tokens then). */
  | { type: 'rendered'; recordId: string }
  | { type: 'selectRecord'; recordId: string }
  | { type: 'getMessage'; requestId: number; recordId: string; position: number }
  | { type: 'search'; requestId: number; recordId: string; query: SearchRequest }
  | { type: 'answerTrace'; requestId: number; recordId: string }
  /** The record's gold nuggets and their evidence; asked after the first paint, so opening does not wait on the gold file. */
  | { type: 'nuggets'; requestId: number; recordId: string }
  /** Replaces the record's annotation; the host turns it into one undoable edit. `label` names it in the undo stack. */
  | { type: 'editAnnotation'; recordId: string; annotation: AnnotationData; label: string }
  | { type: 'log'; level: 'info' | 'error'; message: string };

export const SHORTCUTS: { keys: string; does: string }[] = [
  { keys: 'j / k', does: 'next / previous message' },
  { keys: 'J / K', does: 'next / previous decision step' },
  { keys: 'g', does: 'go to a message position' },
  { keys: '/', does: 'search every message' },
  { keys: 'n / N', does: 'next / previous search match' },
  { keys: 'Enter / o', does: 'expand or collapse the selected message' },
  { keys: 'c', does: 'mark the selected decision step as the critical step' },
  { keys: '[ / ]', does: 'set the tolerance span start / end at the selected decision step' },
  { keys: '1–6', does: 'pick the root cause' },
  { keys: 'H / L', does: 'previous / next record (JSONL files)' },
  { keys: '?', does: 'list the shortcuts' },
];
