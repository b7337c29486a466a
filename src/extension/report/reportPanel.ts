// The score report panel: one webview panel per run folder. It sends the view model, follows
// step links with trajaudit.revealStep, and writes exports through save dialogs (atomically).
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { writeFileAtomic } from '../../core/files/atomicWrite';
import { defaultExportName, exportText } from '../../core/scoring/report/reportExports';
import type { BuiltReport, LinkTarget } from '../../core/scoring/report/reportModel';
import type { RunScoreResult } from '../../core/scoring/scoreRunFolder';
import type { ExportFormat, ReportFromWebview, ReportModel, ReportToWebview } from '../../shared/reportProtocol';
import { REVEAL_STEP_COMMAND } from '../commands/revealStep';
import { TRAJECTORY_OPTION_VIEW_TYPE, type TrajectoryEditorProvider } from '../editor/trajectoryEditorProvider';
import type { Log } from '../log';
import { webviewPage } from '../webviewPage';

export const REPORT_VIEW_TYPE = 'trajaudit.scoreReport';

/** What the webview said it drew (its 'rendered' message). */
export type RenderedInfo = Omit<Extract<ReportFromWebview, { type: 'rendered' }>, 'type'>;
export type CspViolation = Omit<Extract<ReportFromWebview, { type: 'cspViolation' }>, 'type'>;

/** How a panel's report is exported: a score's exports, or another report's (corpus statistics). */
export interface ReportExporter<S> {
  /** What the save dialog and messages call it ("score report"). */
  noun: string;
  text(format: ExportFormat, source: S): string;
  fileName(format: ExportFormat, source: S): string;
}

export const SCORE_EXPORTER: ReportExporter<RunScoreResult> = {
  noun: 'score report',
  text: (format, scored) => exportText(format, scored),
  fileName: (format, scored) => defaultExportName(format, scored.score.kind),
};

export class ReportPanel<S = RunScoreResult> implements vscode.Disposable {
  private ready = false;
  private disposed = false;
  private renderedWaiters: ((info: RenderedInfo) => void)[] = [];
  private readonly disposables: vscode.Disposable[] = [];
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  /** The latest 'rendered' report of the webview (undefined until it has drawn the current model). */
  rendered: RenderedInfo | undefined;
  readonly cspViolations: CspViolation[] = [];
  /** Links the host followed (tests). */
  readonly followed: LinkTarget[] = [];
  /** Files written by exports (tests). */
  readonly exported: { format: ExportFormat; uri: vscode.Uri }[] = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly folder: string,
    private scoredRun: S,
    private built: BuiltReport,
    private readonly log: Log,
    private readonly rescore: (folder: string) => Thenable<unknown>,
    extensionUri: vscode.Uri,
    private readonly exporter: ReportExporter<S>,
    private readonly editors?: TrajectoryEditorProvider,
  ) {
    panel.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')] };
    panel.webview.html = webviewPage(panel.webview, extensionUri, built.model.title, 'report');
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: ReportFromWebview) => void this.handleMessage(m)),
      panel.onDidDispose(() => this.dispose()),
      panel.onDidChangeViewState(() => {
        // A hidden webview is torn down (no retainContextWhenHidden) and says 'ready' again when shown.
        if (!panel.visible) this.ready = false;
      }),
    );
  }

  get model(): ReportModel {
    return this.built.model;
  }

  get scored(): S {
    return this.scoredRun;
  }

  get links(): ReadonlyMap<string, LinkTarget> {
    return this.built.links;
  }

  /** Shows a new score in this panel. */
  update(scored: S, built: BuiltReport): void {
    this.scoredRun = scored;
    this.built = built;
    this.rendered = undefined;
    this.panel.title = built.model.title;
    this.post({ type: 'init', model: built.model });
  }

  /** Resolves once the webview has drawn the current model. */
  whenRendered(): Promise<RenderedInfo> {
    if (this.rendered) return Promise.resolve(this.rendered);
    return new Promise((resolve) => this.renderedWaiters.push(resolve));
  }

  private post(message: ReportToWebview): void {
    if (this.ready && !this.disposed) void this.panel.webview.postMessage(message);
  }

  /** Handles one webview message; public so tests can act as the webview. */
  async handleMessage(message: ReportFromWebview): Promise<unknown> {
    try {
      switch (message.type) {
        case 'ready':
          this.ready = true;
          this.post({ type: 'init', model: this.built.model });
          return true;
        case 'rendered': {
          const { type: _type, ...info } = message;
          this.rendered = info;
          for (const resolve of this.renderedWaiters.splice(0)) resolve(info);
          if (info.chartErrors.length) this.log.error(`${this.exporter.noun}: chart errors: ${info.chartErrors.join('; ')}`);
          return true;
        }
        case 'openLink':
          return await this.openLink(message.link);
        case 'export':
          return await this.exportTo(message.format);
        case 'rescore':
          return await this.rescore(this.folder);
        case 'cspViolation': {
          const { type: _type, ...v } = message;
          this.cspViolations.push(v);
          this.log.error(
            `${this.exporter.noun}: Content-Security-Policy violation: ${v.directive} blocked ${v.blocked || 'inline'} ${v.sample ? `(${v.sample})` : ''}`,
          );
          return true;
        }
        case 'log':
          (message.level === 'error' ? this.log.error : this.log.info)(`score report webview: ${message.message}`);
          return true;
      }
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.log.error(`${this.exporter.noun}: ${text}`);
      this.post({ type: 'status', text, kind: 'error' });
      void vscode.window.showErrorMessage(text);
      return undefined;
    }
    return undefined;
  }

  /** Opens the trajectory of a link beside the report and reveals the step (trajaudit.revealStep). */
  async openLink(id: string): Promise<boolean> {
    const target = this.built.links.get(id);
    if (!target) return false;
    const uri = vscode.Uri.file(target.file);
    const alreadyOpen = vscode.window.tabGroups.all.some((g) =>
      g.tabs.some((t) => (t.input as { uri?: vscode.Uri } | undefined)?.uri?.toString() === uri.toString()),
    );
    if (!alreadyOpen)
      await vscode.commands.executeCommand('vscode.openWith', uri, TRAJECTORY_OPTION_VIEW_TYPE, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false });
    const ok = await vscode.commands.executeCommand<boolean>(REVEAL_STEP_COMMAND, target.file, target.record, target.position);
    if (ok) this.followed.push(target);
    else this.post({ type: 'status', text: `Could not open ${target.label}.`, kind: 'error' });
    return Boolean(ok);
  }

  /** Writes an export; asks where with a save dialog unless `target` is given. */
  async exportTo(format: ExportFormat, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const noun = this.exporter.noun;
    const filters: Record<ExportFormat, Record<string, string[]>> = { md: { Markdown: ['md'] }, json: { JSON: ['json'] }, csv: { CSV: ['csv'] } };
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        title: `Export the ${noun} as ${format === 'md' ? 'Markdown' : format.toUpperCase()}`,
        defaultUri: vscode.Uri.file(join(this.folder, this.exporter.fileName(format, this.scoredRun))),
        filters: filters[format],
        saveLabel: 'Export',
      }));
    if (!uri) return undefined;
    if (uri.scheme !== 'file') throw new Error(`Exports are written to local files; ${uri.toString()} is not one.`);
    try {
      writeFileAtomic(uri.fsPath, this.exporter.text(format, this.scoredRun));
    } catch (error) {
      throw new Error(`Could not write ${uri.fsPath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    this.exported.push({ format, uri });
    const where = vscode.workspace.asRelativePath(uri);
    this.post({ type: 'status', text: `Saved ${where}`, kind: 'info' });
    this.log.info(`${noun}: exported ${format} to ${uri.fsPath}`);
    if (!target) {
      void vscode.window.showInformationMessage(`${noun[0].toUpperCase()}${noun.slice(1)} saved to ${where}.`, 'Open').then((choice) => {
        if (choice === 'Open') void vscode.commands.executeCommand('vscode.open', uri);
      });
    }
    return uri;
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

/** The open report panels, one per run folder. */
export class ReportPanels<S = RunScoreResult> implements vscode.Disposable {
  private readonly panels = new Map<string, ReportPanel<S>>();
  private last: ReportPanel<S> | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: Log,
    private readonly rescore: (folder: string) => Thenable<unknown>,
    private readonly exporter: ReportExporter<S>,
    /** The trajectory editors, to check that a step link showed its record. */
    private readonly editors?: TrajectoryEditorProvider,
  ) {}

  get all(): ReportPanel<S>[] {
    return [...this.panels.values()];
  }

  /** The panel shown last (tests). */
  get latest(): ReportPanel<S> | undefined {
    return this.last;
  }

  forFolder(folder: string): ReportPanel<S> | undefined {
    return this.panels.get(folder);
  }

  show(folder: string, scored: S, built: BuiltReport): ReportPanel<S> {
    const existing = this.panels.get(folder);
    if (existing) {
      existing.update(scored, built);
      existing.panel.reveal(undefined, false);
      this.last = existing;
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      REPORT_VIEW_TYPE,
      built.model.title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist')] },
    );
    const report = new ReportPanel(panel, folder, scored, built, this.log, this.rescore, this.extensionUri, this.exporter, this.editors);
    this.panels.set(folder, report);
    report.onDidDispose(() => {
      if (this.panels.get(folder) === report) this.panels.delete(folder);
      if (this.last === report) this.last = undefined;
    });
    this.last = report;
    return report;
  }

  dispose(): void {
    for (const p of this.panels.values()) p.dispose();
    this.panels.clear();
  }
}

export const folderName = (folder: string): string => basename(folder) || dirname(folder);
