// The compare view's host (issue 16 item 4): one webview panel per pair of trajectory records.
// It reads both files with their sidecars (collectFile, as the collection view does), builds the
// view model with core buildCompareView (the alignment of `trajaudit compare`), sends it on every
// `ready` (VS Code tears a hidden webview down), and opens a side's step in the trajectory editor
// with trajaudit.revealStep. The webview's messages are parsed with the protocol's schema.
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { CollectedTrajectory } from '../../core/collections/collect';
import { compareRecordOf, readCompareFile } from '../../core/collections/compareSides';
import { buildCompareView, type CompareViewModel } from '../../core/collections/compareView';
import { compareFromWebviewSchema, type CompareFromWebview, type CompareToWebview } from '../../shared/compareProtocol';
import { REVEAL_STEP_COMMAND } from '../commands/revealStep';
import type { Log } from '../log';
import { webviewPage } from '../webviewPage';

export const COMPARE_VIEW_TYPE = 'trajaudit.compare';

/** One side to compare: a trajectory file (absolute path) and, for a file of several, its record. */
export interface CompareTarget {
  file: string;
  record?: string;
}

/** A side read from disk: the record and its sidecar entry, and problems that did not stop it (a bad sidecar). */
export interface CompareSideRead {
  collected: CollectedTrajectory;
  warnings: string[];
}

const display = (file: string) => vscode.workspace.asRelativePath(file);

/**
 * Reads one side: its file (core readCompareFile) and the record to compare; `pickRecord` chooses
 * one when the target names none and the file holds several (undefined: the user cancelled).
 * Throws CompareInputError, one line naming the file, when the side cannot be compared.
 */
export async function readCompareSide(
  target: CompareTarget,
  pickRecord: (file: string, records: CollectedTrajectory[]) => Promise<string | undefined>,
): Promise<CompareSideRead | undefined> {
  const read = readCompareFile(target.file, display);
  const record = target.record ?? (read.trajectories.length === 1 ? read.trajectories[0].record : await pickRecord(target.file, read.trajectories));
  if (record === undefined) return undefined;
  return { collected: compareRecordOf(read, record, display), warnings: read.warnings };
}

export class ComparePanel implements vscode.Disposable {
  private ready = false;
  private disposed = false;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  private renderedWaiters: ((rows: number) => void)[] = [];
  readonly onDidDispose = this.disposeEmitter.event;
  readonly view: CompareViewModel;
  /** The webview's latest 'rendered' report: alignment rows shown (tests). */
  renderedRows: number | undefined;
  /** Steps the user opened (tests). */
  readonly opened: { side: 'a' | 'b'; position: number }[] = [];
  readonly cspViolations: Omit<Extract<CompareFromWebview, { type: 'cspViolation' }>, 'type'>[] = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly a: CollectedTrajectory,
    private readonly b: CollectedTrajectory,
    private readonly log: Log,
    extensionUri: vscode.Uri,
    private readonly warnings: string[] = [],
  ) {
    this.view = buildCompareView({ ...a, file: display(a.file) }, { ...b, file: display(b.file) });
    panel.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')] };
    panel.webview.html = webviewPage(panel.webview, extensionUri, panel.title, 'compare');
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => void this.handleMessage(m)),
      panel.onDidDispose(() => this.dispose()),
      panel.onDidChangeViewState(() => {
        // A hidden webview is torn down (no retainContextWhenHidden) and says 'ready' again when shown.
        if (!panel.visible) this.ready = false;
      }),
    );
    for (const warning of warnings) this.log.error(`compare: ${warning}`);
  }

  private post(message: CompareToWebview): void {
    if (this.ready && !this.disposed) void this.panel.webview.postMessage(message);
  }

  /** Resolves once the webview has drawn the rows. */
  whenRendered(): Promise<number> {
    if (this.renderedRows !== undefined) return Promise.resolve(this.renderedRows);
    return new Promise((resolve) => this.renderedWaiters.push(resolve));
  }

  /** Handles one webview message; public so tests can act as the webview. */
  async handleMessage(raw: unknown): Promise<unknown> {
    const parsed = compareFromWebviewSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.error(`compare: ignored a webview message that is not in the protocol: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return undefined;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.post({ type: 'init', view: this.view });
        if (this.warnings.length) this.post({ type: 'status', text: this.warnings.join(' · '), kind: 'error' });
        return true;
      case 'open':
        return this.open(message.side, message.position);
      case 'rendered':
        this.renderedRows = message.rows;
        for (const resolve of this.renderedWaiters.splice(0)) resolve(message.rows);
        return true;
      case 'cspViolation': {
        const { type: _type, ...v } = message;
        this.cspViolations.push(v);
        this.log.error(`compare: Content-Security-Policy violation: ${v.directive} blocked ${v.blocked || 'inline'} ${v.sample ? `(${v.sample})` : ''}`);
        return true;
      }
      case 'log':
        (message.level === 'error' ? this.log.error : this.log.info)(`compare webview: ${message.message}`);
        return true;
    }
  }

  /** Opens one side's step in the trajectory editor; a position that is not one of its decision steps is refused. */
  async open(side: 'a' | 'b', position: number): Promise<boolean> {
    const target = side === 'a' ? this.a : this.b;
    if (!target.trajectory.decisionSteps.includes(position)) {
      this.post({ type: 'status', text: `${display(target.file)}#${target.record} has no decision step ${position}.`, kind: 'error' });
      return false;
    }
    const ok = await vscode.commands.executeCommand<boolean>(REVEAL_STEP_COMMAND, target.file, target.record, position);
    if (ok) this.opened.push({ side, position });
    else this.post({ type: 'status', text: `Could not open ${display(target.file)}#${target.record}.`, kind: 'error' });
    return Boolean(ok);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }
}

const sideName = (t: CollectedTrajectory) => `${basename(t.file)}${t.record === '0' ? '' : `#${t.record}`}`;

/** The open compare panels, one per pair of records. */
export class ComparePanels implements vscode.Disposable {
  private readonly panels = new Map<string, ComparePanel>();
  private last: ComparePanel | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: Log,
  ) {}

  /** The panel shown last (tests). */
  get latest(): ComparePanel | undefined {
    return this.last;
  }

  /** Shows the comparison of two read sides, reusing its panel when it is open. */
  show(a: CompareSideRead, b: CompareSideRead): ComparePanel {
    const key = JSON.stringify([a.collected.file, a.collected.record, b.collected.file, b.collected.record]);
    const existing = this.panels.get(key);
    if (existing) {
      existing.panel.reveal(undefined, false);
      this.last = existing;
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      COMPARE_VIEW_TYPE,
      `Compare: ${sideName(a.collected)} ↔ ${sideName(b.collected)}`,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist')] },
    );
    const compare = new ComparePanel(panel, a.collected, b.collected, this.log, this.extensionUri, [...a.warnings, ...b.warnings]);
    this.panels.set(key, compare);
    compare.onDidDispose(() => {
      if (this.panels.get(key) === compare) this.panels.delete(key);
      if (this.last === compare) this.last = undefined;
    });
    this.last = compare;
    return compare;
  }

  dispose(): void {
    for (const p of this.panels.values()) p.dispose();
    this.panels.clear();
  }
}
