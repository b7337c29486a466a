// The webview's in-memory model of the open record plus the UI state that survives a hidden or
// reloaded webview (vscode.setState). Trajectory content and annotations are never persisted
// here: they always come from the host.
import type {
  AnnotationData,
  AnswerTrace,
  AuditData,
  HeaderInfo,
  RecordListEntry,
  RecordView,
  RowSummary,
  SearchRequest,
  Role,
} from '../../../src/shared/protocol';
import { newestAudit, sortAuditsOldestFirst } from '../../../src/core/audit/newest';
import { Emitter } from './emitter';
import { callToolName } from './format';

export type RecordFilter = 'all' | 'annotated' | 'audited' | 'disagreeing';

/** Only UI state: where the user was, never what the trajectory says. */
export interface PersistedUi {
  v: 1;
  recordId?: string;
  selected?: number;
  scrollTop?: number;
  expanded?: number[];
  leftWidth?: number;
  rightWidth?: number;
  leftCollapsed?: boolean;
  rightCollapsed?: boolean;
  headerCollapsed?: boolean;
  search?: { text: string; caseSensitive: boolean; regex: boolean; roles: Role[]; tools: string[] };
  recordFilter?: RecordFilter;
}

export interface SearchState {
  request: SearchRequest | null;
  positions: number[];
  /** Index into positions of the current match, -1 when none. */
  current: number;
  busy: boolean;
  error?: string;
}

export interface StoreEvents extends Record<string, unknown> {
  /** A new record view (init or record switch). */
  view: RecordView;
  records: RecordListEntry[];
  tokens: void;
  selection: { previous: number | null; current: number | null };
  expanded: { position: number; expanded: boolean };
  annotation: AnnotationData;
  audits: AuditData[];
  search: SearchState;
  trace: AnswerTrace | null;
  /** Any change that affects timeline markers. */
  markers: void;
  readOnly: string | undefined;
}

export class Store extends Emitter<StoreEvents> {
  file = '';
  container = '';
  readOnlyReason: string | undefined;
  records: RecordListEntry[] = [];
  view: RecordView | null = null;
  rows: RowSummary[] = [];
  /** position → index into rows */
  private indexOfPosition = new Map<number, number>();
  /** row indices of decision steps, ascending */
  decisionIndices: number[] = [];
  decisionPositions = new Set<number>();
  toolNames: string[] = [];
  roles: Role[] = [];
  selected: number | null = null;
  expanded = new Set<number>();
  search: SearchState = { request: null, positions: [], current: -1, busy: false };
  matchSet = new Set<number>();
  trace: AnswerTrace | null = null;
  /** The annotation shown: the host's latest, or our optimistic edit while edits are in flight. */
  annotation: AnnotationData = {};
  private pendingEdits = 0;
  private lastHostAnnotation: AnnotationData = {};

  get recordId(): string {
    return this.view?.recordId ?? '';
  }

  setView(view: RecordView): void {
    this.view = view;
    this.rows = view.rows;
    this.indexOfPosition = new Map();
    this.decisionIndices = [];
    this.decisionPositions = new Set();
    const tools = new Set<string>();
    const roles = new Set<Role>();
    view.rows.forEach((row, i) => {
      this.indexOfPosition.set(row.position, i);
      roles.add(row.role);
      if (row.isDecision) {
        this.decisionIndices.push(i);
        this.decisionPositions.add(row.position);
      }
      if (row.toolName) tools.add(row.toolName);
      for (const call of row.calls) {
        const name = callToolName(call);
        if (name) tools.add(name);
      }
    });
    this.toolNames = [...tools].sort();
    const order: Role[] = ['system', 'user', 'assistant', 'tool'];
    this.roles = order.filter((r) => roles.has(r));
    this.selected = null;
    this.expanded = new Set();
    this.search = { request: this.search.request, positions: [], current: -1, busy: false };
    this.matchSet = new Set();
    this.trace = null;
    this.pendingEdits = 0;
    this.lastHostAnnotation = view.annotation ?? {};
    this.annotation = this.lastHostAnnotation;
    this.emit('view', view);
    this.emit('markers', undefined);
  }

  setRecords(records: RecordListEntry[]): void {
    this.records = records;
    this.emit('records', records);
  }

  indexOf(position: number): number {
    return this.indexOfPosition.get(position) ?? -1;
  }

  rowAt(position: number): RowSummary | undefined {
    const i = this.indexOf(position);
    return i < 0 ? undefined : this.rows[i];
  }

  isDecision(position: number | null | undefined): boolean {
    return position !== null && position !== undefined && this.decisionPositions.has(position);
  }

  select(position: number | null): void {
    if (position !== null && this.indexOf(position) < 0) return;
    if (position === this.selected) return;
    const previous = this.selected;
    this.selected = position;
    this.emit('selection', { previous, current: position });
  }

  setExpanded(position: number, expanded: boolean): void {
    if (this.expanded.has(position) === expanded) return;
    if (expanded) this.expanded.add(position);
    else this.expanded.delete(position);
    this.emit('expanded', { position, expanded });
  }

  applyTokens(tokens: number[], totals?: NonNullable<HeaderInfo['tokens']>): void {
    if (!this.view) return;
    // One count per message, in row order; a longer array is taken as indexed by position.
    const last = this.rows.length ? this.rows[this.rows.length - 1].position : -1;
    const byPosition = tokens.length !== this.rows.length && tokens.length > last;
    for (let i = 0; i < this.rows.length; i++) {
      const value = tokens[byPosition ? this.rows[i].position : i];
      if (typeof value === 'number') this.rows[i].tokens = value;
    }
    if (totals) this.view.header.tokens = totals;
    this.emit('tokens', undefined);
  }

  /** A host annotation (echo of our edit, or undo/redo/revert). */
  applyHostAnnotation(annotation: AnnotationData | undefined): void {
    this.lastHostAnnotation = annotation ?? {};
    if (this.pendingEdits > 0) this.pendingEdits--;
    if (this.pendingEdits === 0) this.annotation = this.lastHostAnnotation;
    if (this.view) this.view.annotation = this.annotation;
    this.emit('annotation', this.annotation);
    this.emit('markers', undefined);
  }

  /** Records an edit we are about to send; the UI shows it at once. */
  applyLocalEdit(annotation: AnnotationData): void {
    this.pendingEdits++;
    this.annotation = annotation;
    if (this.view) this.view.annotation = annotation;
    this.emit('annotation', annotation);
    this.emit('markers', undefined);
  }

  setAudits(audits: AuditData[]): void {
    if (!this.view) return;
    this.view.audits = audits;
    this.emit('audits', audits);
    this.emit('markers', undefined);
  }

  setSearch(search: SearchState): void {
    this.search = search;
    this.matchSet = new Set(search.positions);
    this.emit('search', search);
    this.emit('markers', undefined);
  }

  setTrace(trace: AnswerTrace | null): void {
    this.trace = trace;
    this.emit('trace', trace);
    this.emit('markers', undefined);
  }

  setReadOnly(reason: string | undefined): void {
    this.readOnlyReason = reason;
    this.emit('readOnly', reason);
  }

  /** Audits ordered oldest → newest, by the host's rule (src/core/audit/newest.ts). */
  sortedAudits(): AuditData[] {
    return sortAuditsOldestFirst(this.view?.audits);
  }

  newestAudit(): AuditData | undefined {
    return newestAudit(this.view?.audits);
  }

  /** The nearest decision step at or before `position` (tool returns map to their issuer). */
  decisionAtOrBefore(position: number): number | null {
    const row = this.rowAt(position);
    if (!row) return null;
    if (row.isDecision) return position;
    if (row.issuedBy !== undefined && this.isDecision(row.issuedBy)) return row.issuedBy;
    const idx = this.indexOf(position);
    for (let k = this.decisionIndices.length - 1; k >= 0; k--) if (this.decisionIndices[k] <= idx) return this.rows[this.decisionIndices[k]].position;
    return null;
  }
}
