// The typed message protocol between the benchmark-item view's host (src/extension/items) and its
// webview (webview/src/items). Types only, plus a few constants, so it bundles into both sides
// without pulling Node or VS Code in. Separate from protocol.ts (the trajectory editor's).

export type ItemViewKind = 'delegation' | 'deepsearchqa' | 'clarify' | 'scenarios';

/** A labelled piece of text (unknown or secondary fields, shown as they are). */
export interface Field {
  key: string;
  value: string;
}

export interface ItemFileInfo {
  /** Workspace-relative file name. */
  file: string;
  kind: ItemViewKind;
  /** "Delegation items", "DeepSearchQA", … */
  kindLabel: string;
  container: string;
  detectionReason: string;
  records: number;
  /** Records that could not be loaded (one line each, file:line:col: message). */
  problems: string[];
  /** Set when judgments cannot be saved (e.g. a broken sidecar); the view is read-only. */
  readOnlyReason?: string;
}

// ── Delegation items (seed 000) ─────────────────────────────────────────────────────────────

/** The document fields an evaluated model sees (seed 000): nothing else is ever blind-visible. */
export interface VisibleDoc {
  doc_id: string;
  title?: string;
  url?: string;
  site_name?: string;
  publish_time?: string;
  content: string;
}

/** A located evidence span inside a document's content, in UTF-16 offsets. */
export interface HighlightRange {
  start: number;
  end: number;
  /** Index into DelegationFullView.evidence. */
  span: number;
}

export interface FullDoc extends VisibleDoc {
  highlights: HighlightRange[];
  /** Fields beyond the model-visible ones (pipeline or unknown). */
  extra: Field[];
}

/** Stage-B audit trail of a distractor (seed 000). */
export interface DistractorAudit {
  distractor_type?: string;
  source_doc_key?: string;
  target_info_point?: string;
  target_evidence_text?: string;
  synthetic_url?: string;
  pseudo_publish_time?: string;
  discriminating_constraint?: string;
  conflict_hint?: string;
}

export interface FullDistractorDoc extends FullDoc {
  audit: DistractorAudit;
}

export type SpanStatus = 'exact' | 'normalized' | 'offsets' | 'missing';

export interface EvidenceSpanView {
  index: number;
  docId?: string;
  text: string;
  status: SpanStatus;
  /** Documents in which the span was highlighted. */
  foundIn: string[];
  /** The span cites a document that is not a golden document. */
  outsideGolden: boolean;
  note?: string;
}

export interface DelegationFullView {
  mode: 'full';
  id: string;
  query: string;
  goldenAnswer: string[];
  /** mode, language, domain. */
  meta: Field[];
  golden: FullDoc[];
  irrelevant: FullDoc[];
  distractors: FullDistractorDoc[];
  evidence: EvidenceSpanView[];
  reasoning: string[];
  /** Unknown top-level fields. */
  extra: Field[];
}

/**
 * What a blind reviewer sees (seed 000, human validation): the query, the golden answer, the
 * model-visible document fields and the pipeline-assigned groups. Built from an allowlist.
 */
export interface DelegationBlindView {
  mode: 'blind';
  id: string;
  query: string;
  goldenAnswer: string[];
  golden: VisibleDoc[];
  irrelevant: VisibleDoc[];
  distractors: VisibleDoc[];
}

/**
 * One reviewer's judgments of one item, as stored in the sidecar (`records[<item id>].reviews[]`)
 * and read by `trajaudit agreement` (src/core/scoring/agreementInputs.ts).
 */
export interface ReviewData {
  annotator: string;
  answerability?: boolean;
  shortcut_free?: boolean;
  /** Per irrelevant document: the "irrelevant" label is correct. */
  irrelevant_labels?: Record<string, boolean>;
  /** Per distractor document: it is a valid distractor. */
  distractor_validity?: Record<string, boolean>;
  notes?: string;
  blind?: boolean;
  updatedAt?: string;
  [unknownField: string]: unknown;
}

/** One change to the reviewer's own review; `null` clears a judgment. */
export interface ReviewPatch {
  answerability?: boolean | null;
  shortcut_free?: boolean | null;
  irrelevant?: { docId: string; value: boolean | null };
  distractor?: { docId: string; value: boolean | null };
  notes?: string | null;
}

export type ReviewProgress = 'none' | 'partial' | 'complete';

export interface ItemListEntry {
  id: string;
  /** Query preview. */
  label: string;
  /** The current reviewer's progress on this item. */
  review: ReviewProgress;
  /** Reviews on file (full view only: hidden in blind mode to keep reviewers independent). */
  reviews?: number;
}

export interface DelegationState {
  items: ItemListEntry[];
  itemId: string;
  blind: boolean;
  reviewer?: string;
  view: DelegationFullView | DelegationBlindView;
  /** The current reviewer's judgments of this item. */
  myReview?: ReviewData;
  /** Every review of this item (full view only). */
  reviews?: ReviewData[];
  /** Where judgments are saved (workspace-relative). */
  sidecar: string;
}

// ── DeepSearchQA (seed 001) ─────────────────────────────────────────────────────────────────

export interface DsqaRow {
  id: string;
  problem: string;
  category: string;
  answerType: 'Single Answer' | 'Set Answer';
  answer: string;
}

// ── Clarify-Then-Search (seed 004) ──────────────────────────────────────────────────────────

export interface ClarifyView {
  id: string;
  blurred: string;
  fused: string;
  nuggets: { text: string; weight: number; evidenceIds: string[] }[];
  extra: Field[];
}

// ── Scenario sets (seed 003) ────────────────────────────────────────────────────────────────

export interface CriterionView {
  id: string;
  track: 'A' | 'B';
  dim: string;
  text: string;
  check: 'human' | 'mechanical';
  points: number | 'veto';
  evidence?: string;
  source?: string;
  rationale?: string;
}

export interface ScenarioView {
  id: string;
  type?: string;
  difficulty?: string;
  input?: string;
  trap?: string;
  expected: Field[];
  criteria: CriterionView[];
  extra: Field[];
}

export interface ScenarioSetView {
  name?: string;
  meta: Field[];
  scoring: Field[];
  sources: { id: string; url?: string; tier?: string; grade?: string }[];
  scenarios: ScenarioView[];
}

export interface ScenarioResultView {
  criteria: Record<string, boolean>;
  silent_citations?: number;
}

export interface ScenarioState {
  /** Workspace-relative run folder. */
  runFolder: string;
  /** Workspace-relative results file. */
  resultsFile: string;
  resultsExists: boolean;
  manifest: 'present' | 'created-on-save';
  /** Set when results cannot be saved into this folder. */
  problem?: string;
  notices: string[];
  results: Record<string, ScenarioResultView>;
  scores: Record<string, { a: number | null; b: number | null; veto_failed: boolean }>;
  aMean: number | null;
  gate: { passed: boolean; reasons: string[] };
  /** Scenarios with unsaved marks. */
  changed: string[];
}

// ── messages ────────────────────────────────────────────────────────────────────────────────

export type InitPayload =
  | { kind: 'delegation'; state: DelegationState }
  | { kind: 'deepsearchqa'; rows: DsqaRow[] }
  | { kind: 'clarify'; instances: ClarifyView[] }
  | { kind: 'scenarios'; set: ScenarioSetView; state: ScenarioState };

/** Host → webview. */
export type ItemToWebview =
  | { type: 'init'; info: ItemFileInfo; payload: InitPayload }
  | { type: 'delegation'; state: DelegationState }
  | { type: 'review'; itemId: string; myReview?: ReviewData; reviews?: ReviewData[]; items: ItemListEntry[] }
  | { type: 'scenarioState'; state: ScenarioState }
  | { type: 'error'; message: string };

/** Webview → host. */
export type ItemFromWebview =
  | { type: 'ready' }
  | { type: 'selectItem'; itemId: string }
  | { type: 'setBlind'; blind: boolean }
  | { type: 'askReviewer' }
  /** One undoable change to the current reviewer's review (the host supplies the annotator). */
  | { type: 'editReview'; itemId: string; patch: ReviewPatch; label: string }
  | { type: 'markCriterion'; scenarioId: string; criterionId: string; value: boolean | null }
  | { type: 'setSilentCitations'; scenarioId: string; value: number | null }
  | { type: 'chooseRunFolder' }
  | { type: 'openAsText' }
  | { type: 'log'; level: 'info' | 'error'; message: string };
