import * as vscode from 'vscode';
import { InputError } from '../../core/input/inputError';
import type { AnnotationData } from '../../shared/protocol';
import type { Log } from '../log';
import type { AnnotationBackup } from '../../core/editing/annotationEdits';
import { PanelSession, type AnnotationEditor } from './panelSession';
import { TrajectoryDocument } from './trajectoryDocument';
import { chosenFormat } from '../commands/reopenAsFormat';
import { webviewPage } from '../webviewPage';

/**
 * Views up to this size travel inside the page (no ready → init round trip); bigger ones by
 * postMessage once the app has started. The page shows its static first screen either way, and a
 * big view in the page would delay it: VS Code parses and re-serializes every page once
 * (pre/index.html), and the page's parser scans it again (1.9 MB for 5,000 messages: ~50 ms).
 */
const EMBEDDED_INIT_MAX_CHARS = 256_000;

/** Default editor for *.traj.json / *.trajectory.json / *.traj.jsonl. */
export const TRAJECTORY_VIEW_TYPE = 'trajaudit.trajectory';
/** The same editor as an "Open With…" option for any .json / .jsonl file. */
export const TRAJECTORY_OPTION_VIEW_TYPE = 'trajaudit.trajectoryAny';

export class TrajectoryEditorProvider implements AnnotationEditor {
  /** The edit-event emitter of the view type each document was opened with (see forViewType). */
  private readonly editEmitters = new Map<TrajectoryDocument, vscode.EventEmitter<vscode.CustomDocumentEditEvent<TrajectoryDocument>>>();
  private readonly sessions = new Set<PanelSession>();
  private readonly promptEmitter = new vscode.EventEmitter<string>();
  /** Fires with the text of every conflict prompt shown (observability for tests and logs). */
  readonly onDidPrompt = this.promptEmitter.event;
  private readonly watchers = new Map<TrajectoryDocument, vscode.Disposable>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Log,
  ) {}

  static register(context: vscode.ExtensionContext, log: Log): TrajectoryEditorProvider {
    const provider = new TrajectoryEditorProvider(context, log);
    const options = { webviewOptions: { retainContextWhenHidden: false }, supportsMultipleEditorsPerDocument: true };
    context.subscriptions.push(
      vscode.window.registerCustomEditorProvider(TRAJECTORY_VIEW_TYPE, provider.forViewType(), options),
      vscode.window.registerCustomEditorProvider(TRAJECTORY_OPTION_VIEW_TYPE, provider.forViewType(), options),
    );
    return provider;
  }

  /**
   * One provider object per view type, each with its own onDidChangeCustomDocument. VS Code
   * subscribes to the event of every registration and looks the edited document up under that
   * registration's view type, so one event shared by both view types makes the other one throw
   * "No custom document found" on every edit (and would mark the wrong document dirty if the
   * same file were open with both).
   */
  private forViewType(): vscode.CustomEditorProvider<TrajectoryDocument> {
    const emitter = new vscode.EventEmitter<vscode.CustomDocumentEditEvent<TrajectoryDocument>>();
    this.context.subscriptions.push(emitter);
    return {
      onDidChangeCustomDocument: emitter.event,
      openCustomDocument: async (uri, openContext) => {
        const document = await this.openCustomDocument(uri, openContext);
        this.editEmitters.set(document, emitter);
        document.onDidDispose(() => this.editEmitters.delete(document));
        return document;
      },
      resolveCustomEditor: (document, panel) => this.resolveCustomEditor(document, panel),
      saveCustomDocument: (document, cancellation) => this.saveCustomDocument(document, cancellation),
      saveCustomDocumentAs: (document, destination) => this.saveCustomDocumentAs(document, destination),
      revertCustomDocument: (document) => this.revertCustomDocument(document),
      backupCustomDocument: (document, backupContext) => this.backupCustomDocument(document, backupContext),
    };
  }

  async openCustomDocument(uri: vscode.Uri, openContext: vscode.CustomDocumentOpenContext): Promise<TrajectoryDocument> {
    let backup: AnnotationBackup | undefined;
    if (openContext.backupId) {
      try {
        const bytes = await vscode.workspace.fs.readFile(vscode.Uri.parse(openContext.backupId));
        backup = JSON.parse(Buffer.from(bytes).toString('utf8')) as AnnotationBackup;
        this.log.info(`restored unsaved annotations of ${uri.fsPath} from backup`);
      } catch (error) {
        this.log.error(`could not read the backup of ${uri.fsPath}: ${(error as Error).message}`);
      }
    }
    try {
      const started = Date.now();
      const document = await TrajectoryDocument.open(uri, backup, chosenFormat(this.context, uri));
      this.log.info(`opened ${document.loaded.file} in ${Date.now() - started} ms`);
      this.watchSidecar(document);
      if (document.sidecarProblem) void vscode.window.showWarningMessage(document.sidecarProblem);
      return document;
    } catch (error) {
      const message = error instanceof InputError ? error.message : `Could not open ${uri.fsPath}: ${(error as Error).message}`;
      this.log.error(message);
      throw new Error(message);
    }
  }

  async resolveCustomEditor(document: TrajectoryDocument, panel: vscode.WebviewPanel): Promise<void> {
    const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist');
    panel.webview.options = { enableScripts: true, localResourceRoots: [dist, vscode.Uri.joinPath(this.context.extensionUri, 'media')] };
    const started = Date.now();
    const session = new PanelSession(panel, document, this, (m) => this.log.info(m));
    const { json: initJson, firstWindow } = session.embeddedInit(EMBEDDED_INIT_MAX_CHARS);
    panel.webview.html = webviewPage(panel.webview, this.context.extensionUri, document.loaded.file, 'trajectory', initJson);
    // Nothing embedded: the view goes after the page has gone out (VS Code's IPC writer sends it
    // on a 0 ms timer, and building a huge view before that timer would hold the page back).
    if (initJson === undefined) setTimeout(() => session.postPreparedInit(), 0);
    this.log.info(
      `editor page of ${document.loaded.file} built in ${Date.now() - started} ms (${initJson === undefined ? 'view posted after the page' : `${firstWindow ? 'first window' : 'view'} embedded, ${Math.round(initJson.length / 1024)} KiB`})`,
    );
    this.sessions.add(session);
    panel.onDidDispose(() => {
      session.dispose();
      this.sessions.delete(session);
    });
  }

  /** One undoable edit: the record's annotation before and after. */
  applyAnnotation(document: TrajectoryDocument, recordId: string, annotation: AnnotationData | undefined, label: string): void {
    const before = document.setAnnotation(recordId, annotation);
    this.editEmitters.get(document)?.fire({
      document,
      label,
      undo: () => void document.setAnnotation(recordId, before),
      redo: () => void document.setAnnotation(recordId, annotation),
    });
  }

  async saveCustomDocument(document: TrajectoryDocument, cancellation: vscode.CancellationToken): Promise<void> {
    const conflicts = await document.conflictingRecords();
    if (cancellation.isCancellationRequested) return;
    if (conflicts.length > 0) {
      const overwrite = 'Overwrite';
      const prompt = `${vscode.workspace.asRelativePath(document.sidecarUri)} changed on disk since you opened it, and the annotation of record ${conflicts.join(', ')} differs there. Overwrite it with yours?`;
      this.promptEmitter.fire(prompt);
      const choice = await vscode.window.showWarningMessage(
        prompt,
        { modal: true, detail: 'Other records and audits on disk are kept either way.' },
        overwrite,
      );
      if (choice !== overwrite) throw new Error('Save cancelled: the annotation file changed on disk. Revert to load it, or save again to overwrite.');
    }
    await document.save();
    this.log.info(`saved annotations to ${document.sidecarUri.fsPath}`);
  }

  async saveCustomDocumentAs(document: TrajectoryDocument, destination: vscode.Uri): Promise<void> {
    // "Save As" copies the trajectory (never modified) and writes its annotations beside the copy.
    await vscode.workspace.fs.copy(document.uri, destination, { overwrite: true });
    await document.save(destination.with({ path: `${destination.path}.audit.json` }));
  }

  async revertCustomDocument(document: TrajectoryDocument): Promise<void> {
    await document.revert();
  }

  async backupCustomDocument(document: TrajectoryDocument, context: vscode.CustomDocumentBackupContext): Promise<vscode.CustomDocumentBackup> {
    const backup = document.backup();
    await vscode.workspace.fs.writeFile(context.destination, Buffer.from(JSON.stringify(backup)));
    this.log.info(`backed up unsaved annotations of ${document.loaded.file} (${Object.keys(backup.annotations).length} record(s))`);
    return {
      id: context.destination.toString(),
      delete: () => void vscode.workspace.fs.delete(context.destination).then(undefined, () => undefined),
    };
  }

  /** Sessions showing a file, for revealStep and tests. */
  sessionsFor(uri: vscode.Uri): PanelSession[] {
    return [...this.sessions].filter((s) => s.document.uri.toString() === uri.toString());
  }

  private watchSidecar(document: TrajectoryDocument): void {
    const folder = vscode.Uri.joinPath(document.sidecarUri, '..');
    const name = document.sidecarUri.path.split('/').pop() ?? '';
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, name));
    const onDiskChange = () => void this.sidecarChangedOnDisk(document);
    watcher.onDidChange(onDiskChange);
    watcher.onDidCreate(onDiskChange);
    watcher.onDidDelete(onDiskChange);
    this.watchers.set(document, watcher);
    document.onDidDispose(() => {
      watcher.dispose();
      this.watchers.delete(document);
    });
  }

  /** Clean: reload silently. Dirty: keep the user's work and ask — never overwrite silently. */
  async sidecarChangedOnDisk(document: TrajectoryDocument): Promise<'ignored' | 'reloaded' | 'asked'> {
    if (!(await document.diskChangedSinceRead())) return 'ignored';
    if (!document.isDirty) {
      await document.revert();
      return 'reloaded';
    }
    await document.refreshAuditsFromDisk();
    const load = 'Load from Disk';
    const keep = 'Keep My Changes';
    const file = vscode.workspace.asRelativePath(document.sidecarUri);
    const prompt = `${file} changed on disk while you have unsaved annotations.`;
    this.log.info(prompt);
    this.promptEmitter.fire(prompt);
    void vscode.window.showWarningMessage(prompt, { modal: false }, load, keep).then(async (choice) => {
      if (choice !== load) return;
      // Revert goes through VS Code so the tab's dirty state and undo stack stay right.
      this.sessionsFor(document.uri)[0]?.panel.reveal();
      await vscode.commands.executeCommand('workbench.action.files.revert');
    });
    return 'asked';
  }
}
