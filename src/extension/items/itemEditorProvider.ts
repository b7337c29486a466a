import * as vscode from 'vscode';
import { InputError } from '../../core/input/inputError';
import { isTrajectoryFormat } from '../../core/formats/detect';
import type { ReviewData, ReviewPatch } from '../../shared/itemProtocol';
import { loadOrReport, targetUri } from '../activeFile';
import type { Log } from '../log';
import type { ItemBackup } from '../../core/editing/itemEdits';
import { ItemDocument } from './itemDocument';
import { webviewPage } from '../webviewPage';
import { ItemSession, type ItemHost } from './itemSession';
import { applyReviewPatch } from '../../core/items/blindReviews';
import { withCriterion, withSilentCitations, type ResultLine } from '../../core/items/scenarioResults';

/** "Open With…" option for benchmark-item files (Delegation, DeepSearchQA, Clarify-Then-Search, scenario sets). */
export const ITEMS_VIEW_TYPE = 'trajaudit.items';
export const OPEN_ITEM_VIEW_COMMAND = 'trajaudit.openItemView';

const REVIEWER_KEY = 'trajaudit.items.reviewer';
const BLIND_KEY = 'trajaudit.items.blind';
const RUN_FOLDER_KEY = 'trajaudit.items.runFolders';
const ITEM_KINDS = ['delegation-item', 'deepsearchqa', 'clarify-instance', 'scenario-set'];

export class ItemEditorProvider implements vscode.CustomEditorProvider<ItemDocument>, ItemHost {
  private readonly changeEmitter = new vscode.EventEmitter<vscode.CustomDocumentEditEvent<ItemDocument>>();
  readonly onDidChangeCustomDocument = this.changeEmitter.event;
  private readonly sessions = new Set<ItemSession>();
  private readonly promptEmitter = new vscode.EventEmitter<string>();
  /** Fires with the text of every overwrite prompt shown (observability for tests and logs). */
  readonly onDidPrompt = this.promptEmitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Log,
  ) {}

  static register(context: vscode.ExtensionContext, log: Log): ItemEditorProvider {
    const provider = new ItemEditorProvider(context, log);
    context.subscriptions.push(
      vscode.window.registerCustomEditorProvider(ITEMS_VIEW_TYPE, provider, {
        webviewOptions: { retainContextWhenHidden: false },
        supportsMultipleEditorsPerDocument: true,
      }),
      vscode.commands.registerCommand(OPEN_ITEM_VIEW_COMMAND, (uri?: vscode.Uri) => provider.openItemView(uri)),
      provider.changeEmitter,
      provider.promptEmitter,
    );
    return provider;
  }

  // ── reviewer and blind mode (workspace state) ───────────────────────────────────────────

  get blind(): boolean {
    return this.context.workspaceState.get<boolean>(BLIND_KEY, false);
  }

  get reviewer(): string | undefined {
    return this.context.workspaceState.get<string>(REVIEWER_KEY) || undefined;
  }

  /** Turns blind review on or off for every item view; asks for the reviewer's name the first time. */
  async setBlind(blind: boolean): Promise<void> {
    await this.context.workspaceState.update(BLIND_KEY, blind);
    this.refreshAll();
    if (blind && !this.reviewer) await this.askReviewer();
  }

  async setReviewer(name: string | undefined): Promise<void> {
    const clean = name?.trim().slice(0, 80) || undefined;
    await this.context.workspaceState.update(REVIEWER_KEY, clean);
    this.refreshAll();
  }

  async askReviewer(): Promise<string | undefined> {
    const name = await vscode.window.showInputBox({
      title: 'Blind review',
      prompt: 'Your reviewer name: your judgments are saved under it (asked once per workspace)',
      placeHolder: 'e.g. annotator-1',
      value: this.reviewer ?? '',
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : 'Enter a name'),
    });
    if (name === undefined) return this.reviewer;
    await this.setReviewer(name);
    return this.reviewer;
  }

  private refreshAll(): void {
    for (const session of this.sessions) session.refresh();
  }

  // ── the command ─────────────────────────────────────────────────────────────────────────

  async openItemView(uri?: vscode.Uri): Promise<void> {
    const target = targetUri(uri);
    if (!target) {
      void vscode.window.showWarningMessage(
        'Open or select a benchmark item file first (Delegation items, DeepSearchQA, Clarify-Then-Search or a scenario set).',
      );
      return;
    }
    const loaded = await loadOrReport(target);
    if (!loaded) return;
    if (!ITEM_KINDS.includes(loaded.detection.kind)) {
      const name = vscode.workspace.asRelativePath(target);
      if (isTrajectoryFormat(loaded.detection.kind)) {
        const open = 'Open in Trajectory Auditor';
        const choice = await vscode.window.showWarningMessage(`${name} is a ${loaded.detection.kind} trajectory, not a benchmark item.`, open);
        if (choice === open) await vscode.commands.executeCommand('trajaudit.openInEditor', target);
      } else {
        void vscode.window.showWarningMessage(`${name} is a ${loaded.detection.kind}, not a benchmark item (${loaded.detection.reason}).`);
      }
      return;
    }
    await vscode.commands.executeCommand('vscode.openWith', target, ITEMS_VIEW_TYPE);
  }

  // ── CustomEditorProvider ────────────────────────────────────────────────────────────────

  async openCustomDocument(uri: vscode.Uri, openContext: vscode.CustomDocumentOpenContext): Promise<ItemDocument> {
    let backup: ItemBackup | undefined;
    if (openContext.backupId) {
      try {
        const bytes = await vscode.workspace.fs.readFile(vscode.Uri.parse(openContext.backupId));
        backup = JSON.parse(Buffer.from(bytes).toString('utf8')) as ItemBackup;
        this.log.info(`restored unsaved judgments of ${uri.fsPath} from backup`);
      } catch (error) {
        this.log.error(`could not read the backup of ${uri.fsPath}: ${(error as Error).message}`);
      }
    }
    try {
      const folder = this.rememberedRunFolder(uri);
      const document = await ItemDocument.open(uri, { backup, runFolder: folder });
      if (document.sidecarProblem) void vscode.window.showWarningMessage(document.sidecarProblem);
      this.watchJudgments(document);
      return document;
    } catch (error) {
      const message = error instanceof InputError ? error.message : `Could not open ${uri.fsPath}: ${(error as Error).message}`;
      this.log.error(message);
      throw new Error(message);
    }
  }

  async resolveCustomEditor(document: ItemDocument, panel: vscode.WebviewPanel): Promise<void> {
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist');
    panel.webview.options = { enableScripts: true, localResourceRoots: [dist] };
    panel.webview.html = webviewPage(panel.webview, this.context.extensionUri, document.loaded.file, 'items');
    const session = new ItemSession(panel, document, this, (m) => this.log.info(m));
    this.sessions.add(session);
    panel.onDidDispose(() => {
      session.dispose();
      this.sessions.delete(session);
    });
  }

  /** One undoable edit of a document's entry (a review or a results line). */
  private applyEdit<T>(document: ItemDocument, label: string, set: (value: T | undefined) => T | undefined, value: T | undefined): void {
    const before = set(value);
    this.changeEmitter.fire({
      document,
      label,
      undo: () => void set(before),
      redo: () => void set(value),
    });
  }

  editReview(document: ItemDocument, itemId: string, patch: ReviewPatch, label: string): void {
    if (!this.blind) throw new Error('Judgments are recorded in blind review only: turn on "Blind review" first.');
    const me = this.reviewer;
    if (!me) throw new Error('Set your reviewer name first ("Set name" in the review panel).');
    const item = document.item(itemId);
    if (!item) throw new Error(`no item "${itemId}" in ${document.loaded.file}`);
    if (patch.irrelevant && !item.irrelevant_docs.some((d) => String(d.doc_id) === patch.irrelevant!.docId))
      throw new Error(`"${patch.irrelevant.docId}" is not an irrelevant document of ${itemId}`);
    if (patch.distractor && !item.distractor_docs.some((d) => String(d.doc_id) === patch.distractor!.docId))
      throw new Error(`"${patch.distractor.docId}" is not a distractor document of ${itemId}`);
    const next = applyReviewPatch(document.review(itemId, me), me, patch, new Date().toISOString());
    this.applyEdit<ReviewData>(document, label, (v) => document.setReview(itemId, me, v), next);
  }

  markCriterion(document: ItemDocument, scenarioId: string, criterionId: string, value: boolean | null): void {
    this.checkResultsWritable(document);
    const scenario = document.scenarioSet()?.scenarios.find((s) => s.id === scenarioId);
    if (!scenario) throw new Error(`no scenario "${scenarioId}"`);
    if (!scenario.criteria.some((c) => c.id === criterionId)) throw new Error(`"${criterionId}" is not a criterion of ${scenarioId}`);
    const label = value === null ? `Clear ${criterionId}` : `Mark ${criterionId} ${value ? 'hit' : 'missed'}`;
    this.applyEdit<ResultLine>(
      document,
      label,
      (v) => document.setResult(scenarioId, v),
      withCriterion(document.result(scenarioId), scenarioId, criterionId, value),
    );
  }

  setSilentCitations(document: ItemDocument, scenarioId: string, value: number | null): void {
    this.checkResultsWritable(document);
    if (value !== null && (!Number.isInteger(value) || value < 0)) throw new Error('Silent citations must be a whole number ≥ 0.');
    const label = value === null ? `Clear silent citations of ${scenarioId}` : `Set ${value} silent citation(s) in ${scenarioId}`;
    this.applyEdit<ResultLine>(document, label, (v) => document.setResult(scenarioId, v), withSilentCitations(document.result(scenarioId), scenarioId, value));
  }

  private checkResultsWritable(document: ItemDocument): void {
    if (document.run?.problem) throw new Error(`${document.run.problem} — choose another run folder to record results.`);
  }

  private rememberedRunFolder(uri: vscode.Uri): vscode.Uri | undefined {
    const map = this.context.workspaceState.get<Record<string, string>>(RUN_FOLDER_KEY, {});
    const folder = map[uri.toString()];
    return folder ? vscode.Uri.parse(folder) : undefined;
  }

  /** Uses another run folder for a scenario set (remembered per set in the workspace). */
  async setRunFolder(document: ItemDocument, folder: vscode.Uri): Promise<void> {
    document.setRunFolder(folder);
    const map = { ...this.context.workspaceState.get<Record<string, string>>(RUN_FOLDER_KEY, {}) };
    map[document.uri.toString()] = folder.toString();
    await this.context.workspaceState.update(RUN_FOLDER_KEY, map);
  }

  async chooseRunFolder(document: ItemDocument): Promise<void> {
    if (document.isDirty) throw new Error('Save or revert your marks before choosing another run folder.');
    const picked = await vscode.window.showOpenDialog({
      title: 'Run folder for the scenario results (results.jsonl and trajaudit.run.json)',
      canSelectFiles: false,
      canSelectFolders: true,
      canSelectMany: false,
      defaultUri: document.runFolderUri ? vscode.Uri.joinPath(document.runFolderUri, '..') : vscode.Uri.joinPath(document.uri, '..'),
      openLabel: 'Use This Run Folder',
    });
    if (!picked?.[0]) return;
    await this.setRunFolder(document, picked[0]);
  }

  private async confirmOverwrite(message: string): Promise<boolean> {
    this.promptEmitter.fire(message);
    const overwrite = 'Overwrite';
    const choice = await vscode.window.showWarningMessage(
      message,
      { modal: true, detail: 'Judgments of other reviewers, other items and other criteria on disk are kept either way.' },
      overwrite,
    );
    return choice === overwrite;
  }

  async saveCustomDocument(document: ItemDocument, cancellation: vscode.CancellationToken): Promise<void> {
    if (cancellation.isCancellationRequested) return;
    await document.save((m) => this.confirmOverwrite(m));
    this.log.info(`saved judgments of ${document.uri.fsPath}`);
  }

  async saveCustomDocumentAs(document: ItemDocument, destination: vscode.Uri): Promise<void> {
    // The item file is never modified: "Save As" copies it, then saves the judgments beside the copy.
    await vscode.workspace.fs.copy(document.uri, destination, { overwrite: true });
    const copy = await ItemDocument.open(destination, { backup: { schema: 'trajaudit.items-backup/v1', entries: document.state.currentEntries() } });
    try {
      await copy.save((m) => this.confirmOverwrite(m));
    } finally {
      copy.dispose();
    }
  }

  async revertCustomDocument(document: ItemDocument): Promise<void> {
    await document.revert();
  }

  async backupCustomDocument(document: ItemDocument, context: vscode.CustomDocumentBackupContext): Promise<vscode.CustomDocumentBackup> {
    await vscode.workspace.fs.writeFile(context.destination, Buffer.from(JSON.stringify(document.backup())));
    return {
      id: context.destination.toString(),
      delete: () => void vscode.workspace.fs.delete(context.destination).then(undefined, () => undefined),
    };
  }

  /**
   * Judgments written by someone else (another reviewer, a mechanical checker) reload the view
   * when there is nothing unsaved; with unsaved work the save merges and asks on conflicts.
   */
  private watchJudgments(document: ItemDocument): void {
    let watcher: vscode.FileSystemWatcher | undefined;
    let watched: string | undefined;
    const watch = () => {
      const file = document.judgmentFile;
      if (file?.toString() === watched) return;
      watcher?.dispose();
      watched = file?.toString();
      if (!file) return;
      watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.joinPath(file, '..'), file.path.split('/').pop() ?? ''));
      const onDisk = () => {
        if (!document.isDirty) void document.revert().catch((e: Error) => this.log.error(e.message));
      };
      watcher.onDidChange(onDisk);
      watcher.onDidCreate(onDisk);
      watcher.onDidDelete(onDisk);
    };
    watch();
    const sub = document.onDidChange((c) => {
      if (c.kind === 'reloaded') watch(); // the run folder may have changed
    });
    document.onDidDispose(() => {
      watcher?.dispose();
      sub.dispose();
    });
  }

  /** Sessions showing a file, for tests. */
  sessionsFor(uri: vscode.Uri): ItemSession[] {
    return [...this.sessions].filter((s) => s.document.uri.toString() === uri.toString());
  }
}
