// The trajectory editor's fake extension host, in the test process: loads a trajectory file and
// its sidecar through the real loader and answers the webview in src/shared/protocol.ts with the
// host's own view builders (src/core/view: rows, header, record list, search, answer trace,
// message bodies, token counts), as src/extension/editor/panelSession.ts does. It keeps an undo
// stack of annotation edits, as VS Code does for the custom editor, and records every message
// both ways so tests read them typed.
import { basename } from 'node:path';
import type { Page } from '@playwright/test';
import { loadFile, type LoadedFile } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord, type TrajectoryRecord } from '../../../src/core/load/loadRecord';
import { annotationSchema } from '../../../src/core/sidecar/schema';
import { readSidecar, sidecarPathFor } from '../../../src/core/sidecar/sidecarFile';
import { answerTrace } from '../../../src/core/view/answerTrace';
import { messageBody } from '../../../src/core/view/messageBody';
import { countRecordTokens, type RecordTokens } from '../../../src/core/view/recordTokens';
import { buildRecordList, buildRecordView, FIRST_WINDOW_ROWS } from '../../../src/core/view/recordView';
import { embeddedInitElement } from '../../../src/extension/pageHtml';
import { searchMessages } from '../../../src/core/view/search';
import { buildNuggetsView } from '../../../src/core/view/nuggetEvidence';
import type { AnnotationData, AuditData, FromWebview, RecordListEntry, RecordView, ToWebview } from '../../../src/shared/protocol';
import { POST_BINDING, type HarnessWindow } from './pageGlobals';

export interface EditorHostOptions {
  /** The record opens read-only with this reason (as for a sidecar that cannot be saved). */
  readOnlyReason?: string;
  /** Holds the view until `sendInit()`: a view too big to embed comes by message, later. */
  holdInit?: boolean;
  /**
   * The page embeds the view's first window (its first FIRST_WINDOW_ROWS rows), as the host's
   * page does for a view too big to embed whole; the whole view comes with `init` after 'ready'.
   */
  embedFirstWindow?: boolean;
}

type Sent<T extends ToWebview['type']> = Extract<ToWebview, { type: T }>;
type Posted<T extends FromWebview['type']> = Extract<FromWebview, { type: T }>;

/** A trajectory file as the host holds it: records, and each record's annotation and audits. */
interface OpenFile {
  /** The file's path (the gold nuggets are looked for beside it). */
  path: string;
  loaded: LoadedFile;
  records: TrajectoryRecord[];
  audits: Map<string, AuditData[]>;
  annotations: Map<string, AnnotationData | undefined>;
}

// Loading the 5,000-message fixture takes a while: each worker parses a file once.
const loadedFiles = new Map<string, LoadedFile>();

function openFile(path: string): OpenFile {
  let loaded = loadedFiles.get(path);
  if (!loaded) loadedFiles.set(path, (loaded = loadFile(path)));
  const records = loaded.records.filter(isTrajectoryRecord);
  if (records.length === 0) throw new Error(`${path}: no trajectory records`);
  const sidecar = readSidecar(sidecarPathFor(path));
  const audits = new Map<string, AuditData[]>();
  const annotations = new Map<string, AnnotationData | undefined>();
  for (const r of records) {
    const entry = sidecar?.records[r.id];
    audits.set(r.id, entry?.audits ?? []);
    annotations.set(r.id, entry?.annotation ?? undefined);
  }
  return { path, loaded, records, audits, annotations };
}

export class FakeEditorHost {
  /** Every message the webview posted, in order. */
  readonly posted: FromWebview[] = [];
  /** Every message sent to the webview, in order. */
  readonly sent: ToWebview[] = [];
  /** `log` messages of level error (a test fails on any). */
  readonly errorLogs: string[] = [];
  private recordId: string;
  private readonly undoStack: { recordId: string; before: AnnotationData | undefined }[] = [];
  private readonly tokenCache = new Map<string, RecordTokens>();
  private tokenRun = 0;
  private heldInit: (() => Promise<void>) | undefined;
  private delivery: Promise<void> = Promise.resolve();

  private constructor(
    private readonly page: Page,
    private readonly file: OpenFile,
    private readonly options: EditorHostOptions,
  ) {
    this.recordId = file.records[0].id;
  }

  /** Loads `path` and connects to `page` (before it navigates): the page's posts come here. */
  static async attach(page: Page, path: string, options: EditorHostOptions = {}): Promise<FakeEditorHost> {
    const host = new FakeEditorHost(page, openFile(path), options);
    await page.exposeFunction(POST_BINDING, (message: FromWebview) => host.receive(message));
    if (options.embedFirstWindow) {
      // The harness server's page with the element the host's page builder adds, before the scripts.
      await page.route(/\/editor\/(\?.*)?$/, async (route) => {
        const response = await route.fetch();
        const html = (await response.text()).replace('<script nonce=', `${embeddedInitElement(JSON.stringify(host.firstWindowInit()))}<script nonce=`);
        await route.fulfill({ response, body: html });
      });
    }
    return host;
  }

  get currentRecordId(): string {
    return this.recordId;
  }

  /** The records' ids in file order. */
  get recordIds(): string[] {
    return this.file.records.map((r) => r.id);
  }

  postedOf<T extends FromWebview['type']>(type: T): Posted<T>[] {
    return this.posted.filter((m): m is Posted<T> => m.type === type);
  }

  sentOf<T extends ToWebview['type']>(type: T): Sent<T>[] {
    return this.sent.filter((m): m is Sent<T> => m.type === type);
  }

  annotation(recordId = this.recordId): AnnotationData | undefined {
    return this.file.annotations.get(recordId);
  }

  /** Selects and scrolls to a position, switching record first when needed (the host's reveal). */
  async reveal(position: number, recordId = this.recordId): Promise<void> {
    if (recordId !== this.recordId) {
      this.recordId = recordId;
      this.sendRecord('record');
    }
    await this.send({ type: 'reveal', recordId, position });
  }

  /** VS Code's undo of the last annotation edit: the host sends the annotation before it. */
  async undo(): Promise<void> {
    const entry = this.undoStack.pop();
    if (!entry) throw new Error('nothing to undo');
    this.file.annotations.set(entry.recordId, entry.before);
    await this.send({ type: 'annotation', recordId: entry.recordId, annotation: entry.before, records: this.recordList() });
  }

  async error(message: string): Promise<void> {
    await this.send({ type: 'error', message });
  }

  /** Sends the held view (`holdInit`). */
  async sendInit(): Promise<void> {
    const init = this.heldInit;
    if (!init) throw new Error('no view is held: the page has not said ready, or holdInit is off');
    this.heldInit = undefined;
    await init();
  }

  get holdsInit(): boolean {
    return this.heldInit !== undefined;
  }

  // ── the host's side of the protocol ────────────────────────────────────────────────────

  private record(id: string): TrajectoryRecord | undefined {
    return this.file.records.find((r) => r.id === id);
  }

  private recordList(): RecordListEntry[] {
    const sidecarRecords = Object.fromEntries(
      this.file.records.map((r) => [r.id, { annotation: this.file.annotations.get(r.id), audits: this.file.audits.get(r.id) }]),
    );
    return buildRecordList(this.file.loaded, sidecarRecords);
  }

  /** The `init` of the page's first window (`embedFirstWindow`). */
  private firstWindowInit(): Sent<'init'> {
    return { ...this.initMessage(this.view(FIRST_WINDOW_ROWS)), firstWindow: true };
  }

  private view(rowLimit?: number): RecordView {
    const record = this.record(this.recordId) ?? this.file.records[0];
    const view = buildRecordView(
      this.file.loaded.file,
      this.file.loaded,
      record,
      { annotation: this.file.annotations.get(record.id), audits: this.file.audits.get(record.id) },
      {},
      rowLimit,
    );
    const cached = this.tokenCache.get(record.id);
    if (cached) {
      view.rows.forEach((row, i) => (row.tokens = cached.counts[i]));
      view.header.tokens = cached.totals;
    }
    return view;
  }

  private sendRecord(type: 'init' | 'record'): Promise<void> {
    const view = this.view();
    this.tokenRun++;
    if (type === 'record') return this.send({ type: 'record', view, records: this.recordList() });
    return this.send(this.initMessage(view));
  }

  private initMessage(view: RecordView): Sent<'init'> {
    const init: Sent<'init'> = { type: 'init', file: this.file.loaded.file, container: this.file.loaded.container, records: this.recordList(), view };
    if (this.options.readOnlyReason) init.readOnlyReason = this.options.readOnlyReason;
    return init;
  }

  private async streamTokens(recordId: string): Promise<void> {
    const record = this.record(recordId);
    if (!record || this.tokenCache.has(recordId)) return;
    const run = ++this.tokenRun;
    const counted = await countRecordTokens(record.trajectory, {
      onProgress: (tokens) => void this.send({ type: 'tokens', recordId, tokens }),
      isCancelled: () => run !== this.tokenRun,
    });
    if (!counted) return;
    this.tokenCache.set(recordId, counted);
    await this.send({ type: 'tokens', recordId, tokens: counted.counts, totals: counted.totals });
  }

  private reply(requestId: number, body: Sent<'reply'>['body']): Promise<void> {
    return this.send({ type: 'reply', requestId, body });
  }

  private receive(message: FromWebview): void {
    this.posted.push(message);
    try {
      this.handle(message);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      if ('requestId' in message) void this.reply(message.requestId, { error: text });
      else void this.send({ type: 'error', message: text });
    }
  }

  private handle(message: FromWebview): void {
    switch (message.type) {
      case 'ready':
        // The harness page embeds no whole view (a first window at most): the host answers with `init`.
        if (this.options.holdInit) this.heldInit = () => this.sendRecord('init');
        else void this.sendRecord('init');
        return;
      case 'rendered':
        if (message.recordId === this.recordId) void this.streamTokens(message.recordId);
        return;
      case 'selectRecord':
        if (this.record(message.recordId)) {
          this.recordId = message.recordId;
          void this.sendRecord('record');
        }
        return;
      case 'getMessage': {
        const m = this.record(message.recordId)?.trajectory.messages[message.position];
        void this.reply(message.requestId, m ? messageBody(m) : { error: `no message ${message.position}` });
        return;
      }
      case 'search': {
        const t = this.record(message.recordId)?.trajectory;
        void this.reply(message.requestId, t ? { positions: searchMessages(t, message.query) } : { error: 'no such record' });
        return;
      }
      case 'answerTrace': {
        const t = this.record(message.recordId)?.trajectory;
        void this.reply(message.requestId, t ? answerTrace(t) : { error: 'no such record' });
        return;
      }
      case 'nuggets': {
        const t = this.record(message.recordId)?.trajectory;
        const oneTrajectoryFile = this.file.loaded.container === 'json' && this.file.records.length === 1;
        const path = this.file.path;
        void this.reply(
          message.requestId,
          t ? buildNuggetsView(path, message.recordId, t, { oneTrajectoryFile, displayName: (p) => basename(p) }) : { error: 'no such record' },
        );
        return;
      }
      case 'editAnnotation': {
        if (!this.record(message.recordId)) throw new Error(`no record "${message.recordId}"`);
        // The document validates as TrajectoryDocument.setAnnotation does.
        annotationSchema.parse(message.annotation);
        this.undoStack.push({ recordId: message.recordId, before: this.file.annotations.get(message.recordId) });
        this.file.annotations.set(message.recordId, message.annotation);
        void this.send({ type: 'annotation', recordId: message.recordId, annotation: message.annotation, records: this.recordList() });
        return;
      }
      case 'log':
        if (message.level === 'error') this.errorLogs.push(message.message);
        return;
      default:
        return assertNever(message);
    }
  }

  /** Delivers host messages in order; one sent while the page navigates or closes is dropped, as VS Code drops it. */
  private send(message: ToWebview): Promise<void> {
    this.sent.push(message);
    this.delivery = this.delivery.then(() =>
      this.page.evaluate((m) => (window as unknown as HarnessWindow).__harnessDeliver(m), message as unknown).catch(() => undefined),
    );
    return this.delivery;
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected webview message ${JSON.stringify(value)}`);
}
