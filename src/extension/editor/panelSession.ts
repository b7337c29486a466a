import { dirname, isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { buildRecordList, buildRecordView, FIRST_WINDOW_ROWS } from '../../core/view/recordView';
import { MIN_ROW_JSON_CHARS } from '../../core/view/rows';
import { answerTrace } from '../../core/view/answerTrace';
import { searchMessages } from '../../core/view/search';
import { messageBody } from '../../core/view/messageBody';
import { countRecordTokens } from '../../core/view/recordTokens';
import { buildNuggetsView } from '../../core/view/nuggetEvidence';
import type { AnnotationData, FromWebview, HeaderInfo, ToWebview } from '../../shared/protocol';
import { toolNames } from '../activeFile';
import type { TrajectoryDocument } from './trajectoryDocument';

export interface AnnotationEditor {
  applyAnnotation(document: TrajectoryDocument, recordId: string, annotation: AnnotationData | undefined, label: string): void;
}

/** One webview panel showing a document: answers the webview's requests, pushes changes. */
export class PanelSession implements vscode.Disposable {
  private recordId: string;
  private ready = false;
  /** The first `init`, built with the page, is still what the host would send (nothing changed since). */
  private embeddedInitFresh = false;
  /** That `init` when it was too big to embed, until postPreparedInit sends it. */
  private preparedInit: Extract<ToWebview, { type: 'init' }> | undefined;
  /** The view is certainly too big to embed: postPreparedInit builds and posts it after the page. */
  private initDeferred = false;
  /** postPreparedInit sent it: the webview gets it once its page has loaded. */
  private initInFlight = false;
  private disposed = false;
  private pendingReveal: { recordId: string; position: number } | undefined;
  private readonly tokenCache = new Map<string, { counts: number[]; totals: NonNullable<HeaderInfo['tokens']> }>();
  private tokenTimer: ReturnType<typeof setTimeout> | undefined;
  private tokenRun = 0;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly posted = new vscode.EventEmitter<ToWebview>();
  /** Fires with every message posted to the webview (tests check what the webview was sent). */
  readonly onDidPost = this.posted.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly document: TrajectoryDocument,
    private readonly editor: AnnotationEditor,
    private readonly log: (message: string) => void,
  ) {
    this.recordId = document.trajectoryRecords[0].id;
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: FromWebview) => this.handleMessage(m)),
      document.onDidChange((change) => {
        if (change.kind === 'annotation')
          this.post({ type: 'annotation', recordId: change.recordId, annotation: document.annotation(change.recordId), records: this.recordList() });
        else if (change.kind === 'audits')
          this.post({ type: 'audits', recordId: this.recordId, audits: document.audits(this.recordId), records: this.recordList() });
        else this.sendRecord('record');
      }),
    );
  }

  get currentRecordId(): string {
    return this.recordId;
  }

  private post(message: ToWebview): void {
    // Token counting runs on after its panel closed: VS Code throws for a disposed webview.
    if (this.disposed) return;
    if (!this.ready) {
      this.embeddedInitFresh = false;
      return;
    }
    void this.panel.webview.postMessage(message);
    this.posted.fire(message);
  }

  /**
   * The `init` message to embed in the page, so the first rows need no ready → init round trip.
   * A view past `maxChars` is embedded as its first window (FIRST_WINDOW_ROWS rows, drawn at
   * once by the same code; `firstWindow`) and the whole view is sent on the webview's 'ready':
   * built and posted with the page, its megabytes competed with VS Code making the page's frame
   * (120 MB file: first rows about 1.45 s against 1.1 s, the whole view no sooner).
   */
  embeddedInit(maxChars: number): { json?: string; firstWindow?: boolean } {
    this.embeddedInitFresh = true;
    const record = this.document.record(this.recordId) ?? this.document.trajectoryRecords[0];
    // A 5,000-message view takes 100–200 ms to build: when its rows alone exceed the limit it is
    // not built before the page goes out (the first window costs a few milliseconds).
    if (record.trajectory.messages.length * MIN_ROW_JSON_CHARS > maxChars) {
      const window = this.firstWindowJson(this.initMessage(this.view(FIRST_WINDOW_ROWS)), maxChars);
      if (window) return { json: window, firstWindow: true };
      this.initDeferred = true;
      return {};
    }
    const message = this.initMessage(this.view());
    const json = JSON.stringify(message);
    if (json.length <= maxChars) return { json };
    const window = this.firstWindowJson({ ...message, view: { ...message.view, rows: message.view.rows.slice(0, FIRST_WINDOW_ROWS) } }, maxChars);
    if (window) return { json: window, firstWindow: true };
    this.preparedInit = message;
    return {};
  }

  /** The first window's `init` as JSON; none when even that is past `maxChars` (rows of thousands of calls). */
  private firstWindowJson(message: Extract<ToWebview, { type: 'init' }>, maxChars: number): string | undefined {
    const json = JSON.stringify({ ...message, firstWindow: true });
    return json.length <= maxChars ? json : undefined;
  }

  /**
   * Posts the `init` too big to embed once the page was set: VS Code holds a message to a page
   * that is still loading and hands it over once the page has loaded (its webview
   * pre/index.html), so the view travels while the page loads instead of after the app's 'ready'.
   */
  postPreparedInit(): void {
    const prepared = this.preparedInit ?? (this.initDeferred && !this.disposed && !this.ready ? this.initMessage(this.view()) : undefined);
    this.preparedInit = undefined;
    this.initDeferred = false;
    if (!prepared || this.disposed || this.ready) return;
    this.initInFlight = true;
    void this.panel.webview.postMessage(prepared).then((delivered) => {
      if (!delivered) this.initInFlight = false;
    });
    this.posted.fire(prepared);
  }

  private initMessage(view: ReturnType<PanelSession['view']>): Extract<ToWebview, { type: 'init' }> {
    const readOnlyReason = this.document.sidecarProblem ? `Annotations cannot be saved: ${this.document.sidecarProblem}` : undefined;
    return {
      type: 'init',
      file: this.document.loaded.file,
      container: this.document.loaded.container,
      records: this.recordList(),
      view,
      ...(readOnlyReason ? { readOnlyReason } : {}),
    };
  }

  private recordList() {
    const sidecarRecords = Object.fromEntries(
      this.document.trajectoryRecords.map((r) => [r.id, { annotation: this.document.annotation(r.id), audits: this.document.audits(r.id) }]),
    );
    return buildRecordList(this.document.loaded, sidecarRecords).map((entry) =>
      this.document.annotationOutdated(entry.id) ? { ...entry, annotationOutdated: true } : entry,
    );
  }

  /** The current record's view; `rowLimit`: its first rows only. */
  private view(rowLimit?: number) {
    const record = this.document.record(this.recordId) ?? this.document.trajectoryRecords[0];
    const view = buildRecordView(
      this.document.loaded.file,
      this.document.loaded,
      record,
      { annotation: this.document.annotation(record.id), audits: this.document.audits(record.id) },
      toolNames(),
      rowLimit,
    );
    const cached = this.tokenCache.get(record.id);
    if (cached) {
      view.rows.forEach((row, i) => (row.tokens = cached.counts[i]));
      view.header.tokens = cached.totals;
    }
    return view;
  }

  private sendRecord(type: 'init' | 'record'): void {
    const view = this.view();
    this.post(type === 'init' ? this.initMessage(view) : { type: 'record', view, records: this.recordList() });
    this.afterRecordShown(view.recordId);
  }

  private afterRecordShown(recordId: string): void {
    // Counting tokens is CPU-heavy: start it once the webview has drawn this record (it posts
    // 'rendered'), so it does not compete with delivering and drawing the rows; a fallback timer
    // covers a webview that never says so.
    this.tokenRun++;
    clearTimeout(this.tokenTimer);
    if (!this.tokenCache.has(recordId)) this.tokenTimer = setTimeout(() => void this.streamTokens(recordId), 3000);
    if (this.pendingReveal && this.pendingReveal.recordId === this.recordId) {
      this.post({ type: 'reveal', ...this.pendingReveal });
      this.pendingReveal = undefined;
    }
  }

  private async streamTokens(recordId: string): Promise<void> {
    clearTimeout(this.tokenTimer);
    const record = this.document.record(recordId);
    if (!record || this.tokenCache.has(recordId)) return;
    const run = ++this.tokenRun;
    const counted = await countRecordTokens(record.trajectory, {
      onProgress: (tokens) => this.post({ type: 'tokens', recordId, tokens }),
      isCancelled: () => run !== this.tokenRun,
    });
    if (!counted) return;
    this.tokenCache.set(recordId, counted);
    this.post({ type: 'tokens', recordId, tokens: counted.counts, totals: counted.totals });
  }

  /** Asks the webview to select and scroll to a position (switching record if needed). */
  reveal(recordId: string | undefined, position: number): void {
    const target = recordId ?? this.recordId;
    if (!this.ready || target !== this.recordId) {
      this.pendingReveal = { recordId: target, position };
      if (this.document.record(target)) {
        // Before the webview is ready this only decides the record 'init' will show.
        if (target !== this.recordId) this.embeddedInitFresh = false;
        this.recordId = target;
        if (this.ready) this.sendRecord('record');
      }
      return;
    }
    this.post({ type: 'reveal', recordId: target, position });
  }

  /** trajaudit.editor.goldNuggetsFile as a path (relative to the trajectory's workspace folder), or undefined when not set. */
  private goldNuggetsSetting(): string | undefined {
    const setting = vscode.workspace.getConfiguration('trajaudit.editor', this.document.uri).get<string>('goldNuggetsFile')?.trim();
    if (!setting) return undefined;
    if (isAbsolute(setting)) return setting;
    const folder = vscode.workspace.getWorkspaceFolder(this.document.uri)?.uri.fsPath ?? dirname(this.document.uri.fsPath);
    return join(folder, setting);
  }

  private reply(requestId: number, body: Extract<ToWebview, { type: 'reply' }>['body']): void {
    this.post({ type: 'reply', requestId, body });
  }

  /** Handles one webview message (public so tests can drive the editor as its webview does). */
  handleMessage(message: FromWebview): void {
    try {
      switch (message.type) {
        case 'ready': {
          this.ready = true;
          // The page's init (embedded, or posted with the page) still holds: nothing to send.
          if (this.embeddedInitFresh && (message.embeddedInit || this.initInFlight)) this.afterRecordShown(this.recordId);
          else this.sendRecord('init');
          this.embeddedInitFresh = false;
          this.initInFlight = false;
          return;
        }
        case 'rendered':
          if (message.recordId === this.recordId) void this.streamTokens(message.recordId);
          return;
        case 'selectRecord':
          if (this.document.record(message.recordId)) {
            this.recordId = message.recordId;
            this.sendRecord('record');
          }
          return;
        case 'getMessage': {
          const m = this.document.record(message.recordId)?.trajectory.messages[message.position];
          if (!m) return this.reply(message.requestId, { error: `no message ${message.position}` });
          return this.reply(message.requestId, messageBody(m));
        }
        case 'search': {
          const t = this.document.record(message.recordId)?.trajectory;
          return this.reply(message.requestId, t ? { positions: searchMessages(t, message.query) } : { error: 'no such record' });
        }
        case 'answerTrace': {
          const t = this.document.record(message.recordId)?.trajectory;
          return this.reply(message.requestId, t ? answerTrace(t, toolNames()) : { error: 'no such record' });
        }
        case 'nuggets': {
          const t = this.document.record(message.recordId)?.trajectory;
          if (!t) return this.reply(message.requestId, { error: 'no such record' });
          const loaded = this.document.loaded;
          // A one-trajectory JSON file's gold line may be named by its file stem, as build nuggets names it.
          const oneTrajectoryFile = loaded.container === 'json' && this.document.trajectoryRecords.length === 1;
          const view = buildNuggetsView(this.document.uri.fsPath, message.recordId, t, {
            goldFile: this.goldNuggetsSetting(),
            oneTrajectoryFile,
            names: toolNames(),
            displayName: (path) => vscode.workspace.asRelativePath(path),
          });
          return this.reply(message.requestId, view);
        }
        case 'editAnnotation':
          this.editor.applyAnnotation(this.document, message.recordId, message.annotation, message.label);
          return;
        case 'log':
          this.log(`webview: ${message.message}`);
          return;
      }
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.log(`editor: ${text}`);
      if ('requestId' in message) this.reply(message.requestId, { error: text });
      else this.post({ type: 'error', message: text });
    }
  }

  dispose(): void {
    this.disposed = true;
    this.tokenRun++;
    clearTimeout(this.tokenTimer);
    for (const d of this.disposables) d.dispose();
    this.posted.dispose();
  }
}
