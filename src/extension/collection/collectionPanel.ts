// The collection view's host (issue 16 item 1): one webview panel per collection (a folder, a
// JSONL, an Inspect log, a run folder). It reads the files into rows with a RowReader, sends them
// as they come with the progress, keeps them for the webview's next `ready` (VS Code tears a
// hidden webview down), and opens a row's trajectory in the trajectory editor at its critical
// step with trajaudit.revealStep. The webview's messages are parsed with the protocol's schema.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { blindExport, companionFiles, rowsWithSidecars, writeExportFiles, type ExportKind } from '../../core/collections/exportFiles';
import { annotatorProgress, blindRow, nextUnannotated, type Assignments } from '../../core/collections/queue';
import type { CollectionRow } from '../../core/collections/rows';
import { queryRows, type FacetId, type TableQuery } from '../../core/collections/table';
import { MANIFEST_FILE } from '../../core/runs/manifest';
import {
  collectionFromWebviewSchema,
  type CollectionFromWebview,
  type CollectionInfo,
  type CollectionProgress,
  type CollectionQueue,
  type CollectionToWebview,
  type Unreadable,
} from '../../shared/collectionProtocol';
import { toolNames } from '../activeFile';
import { COMPARE_TRAJECTORIES_COMMAND } from '../commands/compareTrajectories';
import { REVEAL_STEP_COMMAND } from '../commands/revealStep';
import type { Log } from '../log';
import { webviewPage } from '../webviewPage';
import { QUEUE_SECTION, loadAssignments, readQueueSettings, writeBlindSetting, type QueueSettings } from './queueSettings';
import { RowReader, readFileRows, type FileRows } from './rowReader';

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
  /** The queue settings (trajaudit.collection.*) and the assignment file they name. */
  private queueSettings: QueueSettings = { annotator: null, blind: false };
  private assignments: { assignments: Assignments } | { problem: string } | undefined;
  private assignmentsWatcher: vscode.Disposable | undefined;

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
    this.loadQueue();
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(QUEUE_SECTION)) this.reloadQueue();
      }),
      this.watchSidecars(),
    );
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

  /** The rows as the webview gets them (blind mode applied). */
  get rowsAsSent(): CollectionRow[] {
    return this.visible(this.rows);
  }

  /** New rows appended, re-read ones replaced in place (a row's id is its file and record). */
  private upsert(rows: readonly CollectionRow[]): void {
    for (const row of rows) {
      const at = this.rowIndex.get(row.id);
      if (at === undefined) {
        this.rowIndex.set(row.id, this.rows.length);
        this.rows.push(row);
      } else this.rows[at] = row;
    }
  }

  private add(rows: CollectionRow[], unreadable: Unreadable[], progress: CollectionProgress): void {
    this.upsert(rows);
    this.unreadable.push(...unreadable);
    this.progress = progress;
    if (progress.finished) this.log.info(`collection ${this.info.title}: ${this.rows.length} trajectories, ${this.unreadable.length} unreadable`);
    this.post({ type: 'rows', rows: this.visible(rows), unreadable, progress });
    this.postQueue();
  }

  // ---- the annotation queue: settings, blind mode, progress ----

  /** Rows as the view may show them: in blind mode without the audits of rows the annotator has not saved (queue.ts, blindRow). */
  private visible(rows: readonly CollectionRow[]): CollectionRow[] {
    const { blind, annotator } = this.queueSettings;
    return blind ? rows.map((row) => blindRow(row, blind, annotator)) : rows.slice();
  }

  private loadQueue(): void {
    this.queueSettings = readQueueSettings(this.path);
    this.assignmentsWatcher?.dispose();
    this.assignmentsWatcher = undefined;
    const file = this.queueSettings.assignmentsFile;
    this.assignments = file ? loadAssignments(file) : undefined;
    if (this.assignments && 'problem' in this.assignments) this.log.error(`collection ${this.info.title}: ${this.assignments.problem}`);
    if (file) {
      // The file edited (or created) while the view is open: progress over the new lists.
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dirname(file.path), basename(file.path)));
      const reload = () => {
        this.assignments = loadAssignments(file);
        this.postQueue();
      };
      watcher.onDidChange(reload);
      watcher.onDidCreate(reload);
      watcher.onDidDelete(reload);
      this.assignmentsWatcher = watcher;
    }
  }

  /** The settings read again: the whole table when blind mode or the annotator changed which rows show their audits, else the header's queue. */
  private reloadQueue(): void {
    const before = this.queueSettings;
    this.loadQueue();
    const after = this.queueSettings;
    if (before.blind !== after.blind || before.annotator !== after.annotator) this.sendInit();
    else this.postQueue();
  }

  /**
   * The header's Blind toggle: writes trajaudit.collection.blind (queueSettings.ts says where) and
   * applies it. The configuration change event may come before or after the write resolves, so
   * both read the settings again and only the first to see the change sends the rows. A refused
   * write is one line in the view, and the toggle is told the state that holds.
   */
  async setBlind(blind: boolean): Promise<boolean> {
    const wanted = blind ? 'on' : 'off';
    try {
      await writeBlindSetting(this.path, blind);
    } catch (error) {
      const text = `Blind mode not turned ${wanted}: trajaudit.collection.blind could not be written: ${error instanceof Error ? error.message : String(error)}`;
      this.log.error(`collection ${this.info.title}: ${text}`);
      this.post({ type: 'status', text, kind: 'error' });
      this.postQueue();
      return false;
    }
    this.reloadQueue();
    if (this.queueSettings.blind === blind) return true;
    const text = `Blind mode is still ${blind ? 'off' : 'on'}: a trajaudit.collection.blind value in another settings layer decides it.`;
    this.log.error(`collection ${this.info.title}: ${text}`);
    this.post({ type: 'status', text, kind: 'error' });
    return false;
  }

  /** The header's queue state: the settings and each annotator's progress over the rows read so far. */
  get queue(): CollectionQueue {
    const { annotator, blind, assignmentsFile } = this.queueSettings;
    const loaded = this.assignments;
    return {
      annotator,
      blind,
      ...(assignmentsFile ? { assignmentsFile: assignmentsFile.shown } : {}),
      ...(loaded && 'assignments' in loaded ? { progress: annotatorProgress(this.rows, loaded.assignments) } : {}),
      ...(loaded && 'problem' in loaded ? { problem: loaded.problem } : {}),
    };
  }

  private postQueue(): void {
    this.post({ type: 'queue', queue: this.queue });
  }

  private sendInit(): void {
    this.post({ type: 'init', info: this.info, rows: this.visible(this.rows), unreadable: this.unreadable, progress: this.progress });
    this.postQueue();
  }

  /** Sidecars saved (an annotation, an audit) while the view is open: their trajectory's rows are read again. */
  private watchSidecars(): vscode.Disposable {
    const isFolder = existsSync(this.path) && statSync(this.path).isDirectory();
    const pattern = isFolder
      ? new vscode.RelativePattern(this.path, '**/*.audit.json')
      : new vscode.RelativePattern(dirname(this.path), `${basename(this.path)}.audit.json`);
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    const changed = (uri: vscode.Uri) => this.rereadFile(uri.fsPath.slice(0, -'.audit.json'.length));
    watcher.onDidChange(changed);
    watcher.onDidCreate(changed);
    watcher.onDidDelete(changed);
    return watcher;
  }

  /** Reads one trajectory file's rows again (its sidecar changed) and sends them, replacing the old ones by id. */
  rereadFile(file: string): CollectionRow[] {
    if (this.disposed || ![...this.reader.targets.values()].some((t) => t.file === file)) return [];
    let read: FileRows;
    try {
      read = readFileRows(file, file === this.path, { names: toolNames(), display: (p) => vscode.workspace.asRelativePath(p) });
    } catch (error) {
      this.log.error(`collection ${this.info.title}: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
    for (const u of read.unreadable) this.log.error(`collection ${this.info.title}: ${u.file}: ${u.message}`);
    const rows = read.rows.map(({ row, target }) => {
      this.reader.targets.set(row.id, target);
      return row;
    });
    this.upsert(rows);
    this.post({ type: 'rows', rows: this.visible(rows), unreadable: [], progress: this.progress });
    this.postQueue();
    return rows;
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
        this.sendInit();
        return true;
      case 'open':
        return this.open(message.id);
      case 'compare':
        return this.compare(message.marked, message.other);
      case 'cancel':
        this.reader.cancel();
        return true;
      case 'setBlind':
        return this.setBlind(message.blind);
      case 'export': {
        const { type: _type, format, scope, ...view } = message;
        this.view = view;
        return this.exportRows(format, scope);
      }
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
    const shown = this.shownRows();
    const { annotator } = this.queueSettings;
    const loaded = this.assignments;
    // With an annotator and an assignment file, their queue is the rows assigned to them.
    const next = nextUnannotated(shown, this.view.selectedId ?? null, {
      annotator,
      ...(loaded && 'assignments' in loaded ? { assignments: loaded.assignments } : {}),
    });
    if (!next) {
      this.post({ type: 'status', text: 'Every trajectory shown is annotated.', kind: 'info' });
      return undefined;
    }
    this.view = { ...this.view, selectedId: next.id };
    this.post({ type: 'select', id: next.id });
    return next.id;
  }

  /** The rows in the table's order and filters, as the view shows them (blind mode sorts on what it shows). */
  private shownRows(): CollectionRow[] {
    try {
      return queryRows(this.visible(this.rows), tableQuery(this.view));
    } catch (error) {
      // A saved view state from another version can name a column or facet that no longer exists.
      this.log.error(`collection: ${error instanceof Error ? error.message : String(error)}`);
      return this.visible(this.rows);
    }
  }

  /**
   * Export… : the rows the table shows (`shown`, in its order) or every row read, as CSV or
   * Parquet through core's exportFiles (the CLI's writer): the rows file where the user says (a
   * save dialog unless `target` is given), the annotations and audits beside it. In blind mode
   * what the view hides stays out. Failures are one line in the view and a notification.
   */
  async exportRows(format: ExportKind, scope: 'shown' | 'all', target?: vscode.Uri): Promise<string[] | undefined> {
    try {
      // The shown rows are the blind ones (their order is what the table shows); the export starts from the rows read.
      const rows = scope === 'all' ? this.rows.slice() : this.shownRows().map((r) => this.rows[this.rowIndex.get(r.id)!]);
      const uri = target ?? (await this.askExportTarget(format, rows.length, scope));
      if (!uri) return undefined;
      if (uri.scheme !== 'file') throw new Error(`Exports are written to local files; ${uri.toString()} is not one.`);
      const { annotations, audits } = companionFiles(uri.fsPath, format);
      if (!target) {
        const replaced = [annotations, audits].filter((f) => existsSync(f));
        if (replaced.length) {
          const replace = 'Replace';
          const choice = await vscode.window.showWarningMessage(
            `The export writes its annotations and audits beside the rows: replace ${replaced.map((f) => basename(f)).join(' and ')}?`,
            { modal: true },
            replace,
          );
          if (choice !== replace) return undefined;
        }
      }
      const { blind, annotator } = this.queueSettings;
      const withSidecars = rowsWithSidecars(rows, (row) => this.reader.targets.get(row.id)?.file ?? row.file);
      const shown = blindExport(withSidecars, blind, annotator);
      const written = writeExportFiles(shown.rows, shown.withSidecars, format, uri.fsPath);
      const files = [written.rows, written.annotations, written.audits];
      const name = (f: string) => vscode.workspace.asRelativePath(f);
      const which = scope === 'all' ? 'every row' : 'the rows shown';
      const partial = this.progress.finished ? '' : ` (read so far: ${this.progress.done} of ${this.progress.total} files)`;
      const hidden = blind ? ' Blind mode: audits of rows not yet annotated are left out.' : '';
      const n = (k: number, noun: string) => `${k} ${noun}${k === 1 ? '' : 's'}`;
      const text = `Exported ${which}: ${n(written.counts.rows, 'row')} to ${name(written.rows)}${partial}, ${n(written.counts.annotations, 'annotation')} to ${name(written.annotations)}, ${n(written.counts.audits, 'audit')} to ${name(written.audits)}.${hidden}`;
      this.post({ type: 'status', text, kind: 'info' });
      this.log.info(`collection ${this.info.title}: ${text}`);
      return files;
    } catch (error) {
      const text = `Export failed: ${error instanceof Error ? error.message : String(error)}`;
      this.log.error(`collection ${this.info.title}: ${text}`);
      this.post({ type: 'status', text, kind: 'error' });
      void vscode.window.showErrorMessage(text);
      return undefined;
    }
  }

  private askExportTarget(format: ExportKind, rows: number, scope: 'shown' | 'all'): Thenable<vscode.Uri | undefined> {
    const folder = existsSync(this.path) && statSync(this.path).isDirectory() ? this.path : dirname(this.path);
    const stem = this.info.title.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'collection';
    return vscode.window.showSaveDialog({
      title: `Export ${rows} ${scope === 'all' ? 'rows (all)' : 'rows (as shown)'} as ${format === 'csv' ? 'CSV' : 'Parquet'}; annotations and audits are written beside`,
      defaultUri: vscode.Uri.file(join(folder, `${stem}.rows.${format}`)),
      filters: format === 'csv' ? { CSV: ['csv'] } : { Parquet: ['parquet'] },
      saveLabel: 'Export',
    });
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
    this.assignmentsWatcher?.dispose();
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
