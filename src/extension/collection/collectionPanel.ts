// The collection view's host (issue 16 item 1): one webview panel per collection (a folder, a
// JSONL, an Inspect log, a run folder). It reads the files into rows with a RowReader, sends them
// as they come with the progress, keeps them for the webview's next `ready` (VS Code tears a
// hidden webview down), and opens a row's trajectory in the trajectory editor at its critical
// step with trajaudit.revealStep. The webview's messages are parsed with the protocol's schema.
import { existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { nextUnannotated } from '../../core/collections/queue';
import type { CollectionRow } from '../../core/collections/rows';
import { queryRows, type FacetId, type TableQuery } from '../../core/collections/table';
import { MANIFEST_FILE } from '../../core/runs/manifest';
import {
  collectionFromWebviewSchema,
  type CollectionFromWebview,
  type CollectionInfo,
  type CollectionProgress,
  type CollectionToWebview,
  type Unreadable,
} from '../../shared/collectionProtocol';
import { toolNames } from '../activeFile';
import { COMPARE_TRAJECTORIES_COMMAND } from '../commands/compareTrajectories';
import { REVEAL_STEP_COMMAND } from '../commands/revealStep';
import type { Log } from '../log';
import { webviewPage } from '../webviewPage';
import { RowReader } from './rowReader';

export const COLLECTION_VIEW_TYPE = 'trajaudit.collection';

export type RenderedInfo = Omit<Extract<CollectionFromWebview, { type: 'rendered' }>, 'type'>;

/** What a collection path is, for the header. */
function kindOf(path: string): CollectionInfo['kind'] {
  try {
    if (statSync(path).isDirectory()) return existsSync(join(path, MANIFEST_FILE)) ? 'run folder' : 'folder';
  } catch {
    return 'file';
  }
  if (/\.eval$/i.test(path)) return 'Inspect log';
  if (/\.jsonl$/i.test(path)) return 'JSONL';
  return 'file';
}

/** A collection's title: a workspace folder by its name, anything else by its workspace-relative path. */
export function collectionTitle(path: string): string {
  const root = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file' && f.uri.fsPath === path);
  return root ? root.name : vscode.workspace.asRelativePath(path) || basename(path);
}

/** The step a row opens at: the human critical step, else the newest audit's, else the start. */
export function openPosition(row: CollectionRow): number {
  return row.human?.criticalStep ?? row.audit?.criticalStep ?? 0;
}

type ViewQuery = Omit<Extract<CollectionFromWebview, { type: 'viewState' }>, 'type'>;

function tableQuery(view: ViewQuery): TableQuery {
  return {
    ...(view.sort ? { sort: view.sort as TableQuery['sort'] } : {}),
    ...(view.facets ? { facets: view.facets as Partial<Record<FacetId, string[]>> } : {}),
    ...(view.text ? { text: view.text } : {}),
  };
}

export class CollectionPanel implements vscode.Disposable {
  private ready = false;
  private disposed = false;
  private readonly rows: CollectionRow[] = [];
  private readonly rowIndex = new Map<string, number>();
  private readonly unreadable: Unreadable[] = [];
  private progress: CollectionProgress = { done: 0, total: 0, finished: false };
  private readonly reader: RowReader;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  private renderedWaiters: ((info: RenderedInfo) => void)[] = [];
  readonly onDidDispose = this.disposeEmitter.event;
  readonly info: CollectionInfo;
  /** The webview's latest 'rendered' report (tests). */
  rendered: RenderedInfo | undefined;
  /** Rows the user opened, by id (tests). */
  readonly opened: string[] = [];
  /** Pairs of rows compared ("Compare with marked"), by id (tests). */
  readonly compared: [string, string][] = [];
  readonly cspViolations: Omit<Extract<CollectionFromWebview, { type: 'cspViolation' }>, 'type'>[] = [];
  /** The webview's latest order and selection (its 'viewState'), for "Next unannotated". */
  private view: ViewQuery = {};
  /** Resolves when every file has been read (or reading was cancelled). */
  readonly finished: Promise<CollectionProgress>;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly path: string,
    private readonly log: Log,
    extensionUri: vscode.Uri,
    /** The folder of collection indexes (the extension's storage); none: every file is parsed. */
    storageDir?: string,
  ) {
    const title = collectionTitle(path);
    this.info = { title, kind: kindOf(path) };
    panel.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')] };
    panel.webview.html = webviewPage(panel.webview, extensionUri, `Collection: ${title}`, 'collection');
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => void this.handleMessage(m)),
      panel.onDidDispose(() => this.dispose()),
      panel.onDidChangeViewState(() => {
        // A hidden webview is torn down (no retainContextWhenHidden) and says 'ready' again when shown.
        if (!panel.visible) this.ready = false;
      }),
    );
    this.reader = new RowReader([path], {
      names: toolNames(),
      ...(storageDir ? { storageDir } : {}),
      onNote: (note) => this.log.info(`collection ${title}: ${note}`),
      display: (p) => vscode.workspace.asRelativePath(p),
      onRows: (rows, unreadable, progress) => this.add(rows, unreadable, progress),
    });
    this.finished = this.reader.read().catch((error: unknown) => {
      const message = `Could not read the collection ${title}: ${error instanceof Error ? error.message : String(error)}`;
      this.log.error(message);
      this.post({ type: 'status', text: message, kind: 'error' });
      this.progress = { ...this.progress, finished: true };
      return this.progress;
    });
  }

  /** Every row read so far, in reading order. */
  get allRows(): readonly CollectionRow[] {
    return this.rows;
  }

  private add(rows: CollectionRow[], unreadable: Unreadable[], progress: CollectionProgress): void {
    for (const row of rows) {
      const at = this.rowIndex.get(row.id);
      if (at === undefined) {
        this.rowIndex.set(row.id, this.rows.length);
        this.rows.push(row);
      } else this.rows[at] = row;
    }
    this.unreadable.push(...unreadable);
    this.progress = progress;
    if (progress.finished) this.log.info(`collection ${this.info.title}: ${this.rows.length} trajectories, ${this.unreadable.length} unreadable`);
    this.post({ type: 'rows', rows, unreadable, progress });
  }

  private post(message: CollectionToWebview): void {
    if (this.ready && !this.disposed) void this.panel.webview.postMessage(message);
  }

  /** Resolves once the webview has drawn every row read so far. */
  whenRendered(rows = this.rows.length): Promise<RenderedInfo> {
    if (this.rendered && this.rendered.total >= rows) return Promise.resolve(this.rendered);
    return new Promise((resolve) => this.renderedWaiters.push(resolve));
  }

  /** Handles one webview message; public so tests can act as the webview. */
  async handleMessage(raw: unknown): Promise<unknown> {
    const parsed = collectionFromWebviewSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.error(`collection: ignored a webview message that is not in the protocol: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return undefined;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.post({ type: 'init', info: this.info, rows: this.rows, unreadable: this.unreadable, progress: this.progress });
        return true;
      case 'open':
        return this.open(message.id);
      case 'compare':
        return this.compare(message.marked, message.other);
      case 'cancel':
        this.reader.cancel();
        return true;
      case 'viewState': {
        const { type: _type, ...view } = message;
        this.view = view;
        return true;
      }
      case 'nextUnannotated': {
        const { type: _type, ...view } = message;
        this.view = view;
        return this.selectNextUnannotated();
      }
      case 'rendered': {
        const { type: _type, ...info } = message;
        this.rendered = info;
        this.renderedWaiters = this.renderedWaiters.filter((resolve) => {
          if (info.total < this.rows.length) return true;
          resolve(info);
          return false;
        });
        return true;
      }
      case 'cspViolation': {
        const { type: _type, ...v } = message;
        this.cspViolations.push(v);
        this.log.error(`collection: Content-Security-Policy violation: ${v.directive} blocked ${v.blocked || 'inline'} ${v.sample ? `(${v.sample})` : ''}`);
        return true;
      }
      case 'log':
        (message.level === 'error' ? this.log.error : this.log.info)(`collection webview: ${message.message}`);
        return true;
    }
  }

  /**
   * Selects the next row without a saved annotation after the selected one, in the table's order
   * (its sort and filters, wrapping around); says so when every shown row is annotated.
   */
  selectNextUnannotated(): string | undefined {
    let shown: CollectionRow[];
    try {
      shown = queryRows(this.rows, tableQuery(this.view));
    } catch (error) {
      // A saved view state from another version can name a column or facet that no longer exists.
      this.log.error(`collection: ${error instanceof Error ? error.message : String(error)}`);
      shown = this.rows.slice();
    }
    const next = nextUnannotated(shown, this.view.selectedId ?? null);
    if (!next) {
      this.post({ type: 'status', text: 'Every trajectory shown is annotated.', kind: 'info' });
      return undefined;
    }
    this.view = { ...this.view, selectedId: next.id };
    this.post({ type: 'select', id: next.id });
    return next.id;
  }

  /** "Compare with marked": the two rows' records side by side in the compare view (trajaudit.compareTrajectories). */
  async compare(markedId: string, otherId: string): Promise<boolean> {
    const marked = this.reader.targets.get(markedId);
    const other = this.reader.targets.get(otherId);
    if (!marked || !other) {
      this.post({ type: 'status', text: `No trajectory ${marked ? otherId : markedId} in this collection.`, kind: 'error' });
      return false;
    }
    const shown = await vscode.commands.executeCommand<unknown>(COMPARE_TRAJECTORIES_COMMAND, { ...marked }, { ...other });
    if (shown) this.compared.push([markedId, otherId]);
    return Boolean(shown);
  }

  /** Opens a row's trajectory (its record) in the trajectory editor, at its critical step. */
  async open(id: string): Promise<boolean> {
    const target = this.reader.targets.get(id);
    const index = this.rowIndex.get(id);
    if (!target || index === undefined) {
      this.post({ type: 'status', text: `No trajectory ${id} in this collection.`, kind: 'error' });
      return false;
    }
    const ok = await vscode.commands.executeCommand<boolean>(REVEAL_STEP_COMMAND, target.file, target.record, openPosition(this.rows[index]));
    if (ok) this.opened.push(id);
    else this.post({ type: 'status', text: `Could not open ${id}.`, kind: 'error' });
    return Boolean(ok);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.reader.cancel();
    for (const d of this.disposables) d.dispose();
    this.panel.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }
}

/** The open collection panels, one per path. */
export class CollectionPanels implements vscode.Disposable {
  private readonly panels = new Map<string, CollectionPanel>();
  private last: CollectionPanel | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: Log,
    /** Where collection indexes are kept (VS Code's storage for the extension). */
    private readonly storageDir?: string,
  ) {}

  get all(): CollectionPanel[] {
    return [...this.panels.values()];
  }

  /** The panel shown last (tests). */
  get latest(): CollectionPanel | undefined {
    return this.last;
  }

  /** Shows the collection of `path` (a folder or a file), reusing its panel when it is open. */
  show(path: string): CollectionPanel {
    const existing = this.panels.get(path);
    if (existing) {
      existing.panel.reveal(undefined, false);
      this.last = existing;
      return existing;
    }
    const title = collectionTitle(path);
    const panel = vscode.window.createWebviewPanel(
      COLLECTION_VIEW_TYPE,
      `Collection: ${title}`,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist')] },
    );
    const collection = new CollectionPanel(panel, path, this.log, this.extensionUri, this.storageDir);
    this.panels.set(path, collection);
    collection.onDidDispose(() => {
      if (this.panels.get(path) === collection) this.panels.delete(path);
      if (this.last === collection) this.last = undefined;
    });
    this.last = collection;
    return collection;
  }

  dispose(): void {
    for (const p of this.panels.values()) p.dispose();
    this.panels.clear();
  }
}
