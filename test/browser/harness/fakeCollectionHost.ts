// The collection view's fake extension host, in the test process: answers the webview in
// src/shared/collectionProtocol.ts with the rows the host's own builder made from the fixture
// (collectionFixtures.ts, readFileRows), and parses every webview message with the protocol's
// schema as src/extension/collection/collectionPanel.ts does. Every message both ways is recorded.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { annotatorProgress, blindRow, nextUnannotated, type Assignments } from '../../../src/core/collections/queue';
import { queryRows, type FacetId, type TableQuery } from '../../../src/core/collections/table';
import type { FileRows } from '../../../src/extension/collection/rowReader';
import {
  collectionFromWebviewSchema,
  type CollectionFromWebview,
  type CollectionProgress,
  type CollectionRow,
  type CollectionToWebview,
} from '../../../src/shared/collectionProtocol';
import { COLLECTION_FIXTURE_FILE, COLLECTION_ROWS_FILE } from './collectionFixtures';
import { POST_BINDING, type HarnessWindow } from './pageGlobals';
import { fixturesDir } from './paths';

let fixtureRows: CollectionRow[] | undefined;

/** The fixture's 10,000 rows, as the host builds them. */
export function collectionFixtureRows(): CollectionRow[] {
  fixtureRows ??= (JSON.parse(readFileSync(join(fixturesDir, COLLECTION_ROWS_FILE), 'utf8')) as FileRows).rows.map((r) => r.row);
  return fixtureRows;
}

export interface CollectionHostOptions {
  /** Rows sent with `init` (default: all); the rest arrive by `sendRows`. */
  initialRows?: number;
  /** The progress sent with `init` (default: every file read). */
  progress?: CollectionProgress;
  /** The trajaudit.collection.* settings the host would read: whose annotations count, blind mode, the assignment file's lists. */
  queue?: { annotator: string | null; blind: boolean; assignments?: Assignments; assignmentsFile?: string };
}

type Posted<T extends CollectionFromWebview['type']> = Extract<CollectionFromWebview, { type: T }>;

export class FakeCollectionHost {
  readonly posted: CollectionFromWebview[] = [];
  readonly sent: CollectionToWebview[] = [];
  readonly errorLogs: string[] = [];
  /** Messages that failed the protocol's schema (there should be none). */
  readonly invalid: unknown[] = [];
  private delivery: Promise<void> = Promise.resolve();
  private sentRows: number;
  /** Whether 'setBlind' is answered as collectionPanel.ts does (the setting written, the rows and queue sent again); off: the message is only recorded. */
  answerSetBlind = true;

  private constructor(
    private readonly page: Page,
    readonly rows: CollectionRow[],
    private readonly options: CollectionHostOptions,
  ) {
    this.sentRows = options.initialRows ?? rows.length;
  }

  static async attach(page: Page, options: CollectionHostOptions = {}): Promise<FakeCollectionHost> {
    // A copy: saveAnnotation replaces rows, and the fixture's rows are shared by every test in the worker.
    const host = new FakeCollectionHost(page, collectionFixtureRows().slice(), options);
    await page.exposeFunction(POST_BINDING, (message: unknown) => host.receive(message));
    return host;
  }

  postedOf<T extends CollectionFromWebview['type']>(type: T): Posted<T>[] {
    return this.posted.filter((m): m is Posted<T> => m.type === type);
  }

  /** The latest 'rendered' report. */
  lastRendered(): Posted<'rendered'> | undefined {
    return this.postedOf('rendered').at(-1);
  }

  private receive(raw: unknown): void {
    const parsed = collectionFromWebviewSchema.safeParse(raw);
    if (!parsed.success) {
      this.invalid.push(raw);
      return;
    }
    const message = parsed.data;
    this.posted.push(message);
    if (message.type === 'log' && message.level === 'error') this.errorLogs.push(message.message);
    if (message.type === 'nextUnannotated') {
      // As collectionPanel.ts does: the queue rule over the table's order.
      const query: TableQuery = {
        ...(message.sort ? { sort: message.sort as TableQuery['sort'] } : {}),
        ...(message.facets ? { facets: message.facets as Partial<Record<FacetId, string[]>> } : {}),
        ...(message.text ? { text: message.text } : {}),
      };
      const next = nextUnannotated(queryRows(this.rows.slice(0, this.sentRows), query), message.selectedId ?? null);
      if (next) void this.send({ type: 'select', id: next.id });
    }
    if (message.type === 'setBlind' && this.answerSetBlind && this.options.queue) {
      // As collectionPanel.ts does once the setting is written: the whole table again (blind rows), then the queue.
      this.options.queue = { ...this.options.queue, blind: message.blind };
      this.sendInit();
    }
    if (message.type === 'ready') this.sendInit();
  }

  private sendInit(): void {
    void this.send({
      type: 'init',
      info: { title: COLLECTION_FIXTURE_FILE, kind: 'JSONL' },
      rows: this.visible(this.rows.slice(0, this.sentRows)),
      unreadable: [],
      progress: this.options.progress ?? { done: 1, total: 1, finished: true },
    });
    void this.sendQueue();
  }

  /** As collectionPanel.ts sends rows: in blind mode without the audits of rows the annotator has not saved. */
  private visible(rows: CollectionRow[]): CollectionRow[] {
    const queue = this.options.queue;
    return queue?.blind ? rows.map((r) => blindRow(r, true, queue.annotator)) : rows;
  }

  /** The header's queue state, with each annotator's progress over the rows sent (core's annotatorProgress). */
  private sendQueue(): Promise<void> | undefined {
    const queue = this.options.queue;
    if (!queue) return undefined;
    const { assignments, assignmentsFile, ...settings } = queue;
    return this.send({
      type: 'queue',
      queue: {
        ...settings,
        ...(assignmentsFile ? { assignmentsFile } : {}),
        ...(assignments ? { progress: annotatorProgress(this.rows.slice(0, this.sentRows), assignments) } : {}),
      },
    });
  }

  /**
   * `annotator` saves an annotation of row `id`: as the host does when the sidecar changes, the
   * row is read again (here: marked annotated) and sent with the queue's new progress.
   */
  async saveAnnotation(id: string, annotator: string): Promise<CollectionRow> {
    const at = this.rows.findIndex((r) => r.id === id);
    const before = this.rows[at];
    const saved: CollectionRow = {
      ...before,
      human: { criticalStep: 1, rootCause: 'unsupported_answer', toleranceSpan: null },
      humanSource: 'annotation',
      annotator,
      annotated: true,
      state: before.audited ? 'annotated+audited' : 'annotated',
    };
    this.rows[at] = saved;
    await this.send({ type: 'rows', rows: this.visible([saved]), unreadable: [], progress: this.options.progress ?? { done: 1, total: 1, finished: true } });
    await this.sendQueue();
    return saved;
  }

  /** Sends the next `count` rows with `progress`, as the host's reader does while it reads. */
  sendRows(count: number, progress: CollectionProgress): Promise<void> {
    const rows = this.rows.slice(this.sentRows, this.sentRows + count);
    this.sentRows += rows.length;
    return this.send({ type: 'rows', rows, unreadable: [], progress });
  }

  send(message: CollectionToWebview): Promise<void> {
    this.sent.push(message);
    // In order, as VS Code delivers them.
    this.delivery = this.delivery.then(() =>
      // As a JSON string: Playwright serializes a large object argument field by field, which takes seconds for 10,000 rows.
      this.page.evaluate((json) => (window as unknown as HarnessWindow).__harnessDeliver(JSON.parse(json)), JSON.stringify(message)).catch(() => undefined),
    );
    return this.delivery;
  }
}
