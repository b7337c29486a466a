// The typed message protocol between the collection view's host (src/extension/collection) and its
// webview (webview/src/collection). The webview's messages are zod schemas, parsed by the host
// (a page could post anything); their types come from the schemas. The host's messages are types:
// the webview imports this file for its types only, so zod does not enter its bundle.
// Rows never carry absolute paths the webview could send back: opening a row names its id, and
// the host looks the file and record up.
import { z } from 'zod';
import type { Unreadable } from '../core/collections/collect';
import type { AnnotatorProgress } from '../core/collections/queue';
import type { CollectionRow } from '../core/collections/rows';

export type { CollectionRow } from '../core/collections/rows';
export type { Unreadable } from '../core/collections/collect';

/** How far the host is in reading (indexing) the collection's files. */
export interface CollectionProgress {
  /** Files read so far. */
  done: number;
  /** Files found. */
  total: number;
  /** Reading has ended: every file was read, or the user cancelled (`cancelled`). */
  finished: boolean;
  cancelled?: boolean;
}

export interface CollectionInfo {
  /** What the collection is, as the user named it: a workspace-relative folder, JSONL or log. */
  title: string;
  /** folder | jsonl | inspect | run-folder */
  kind: string;
}

/** The annotation queue for the header (issue 16 item 6): the trajaudit.collection.* settings and the assignment file. */
export interface CollectionQueue {
  /** Whose annotations count (trajaudit.collection.annotator); null: anyone's. */
  annotator: string | null;
  /** Blind mode: the audit columns of rows the annotator has not saved are hidden (the host sends them without). */
  blind: boolean;
  /** The assignment file as the user named it (trajaudit.collection.assignmentsFile); absent without one. */
  assignmentsFile?: string;
  /** Each annotator's annotated / assigned rows, in the file's order; absent when there is no file or it cannot be read. */
  progress?: AnnotatorProgress[];
  /** Why the assignment file could not be read: one line naming it. */
  problem?: string;
}

/** Host → webview. */
export type CollectionToWebview =
  /** The whole state: sent on every `ready` (a hidden webview is torn down and comes back). */
  | { type: 'init'; info: CollectionInfo; rows: CollectionRow[]; unreadable: Unreadable[]; progress: CollectionProgress }
  /** More rows read (appended) or rows read again (replaced by id), with the progress. */
  | { type: 'rows'; rows: CollectionRow[]; unreadable: Unreadable[]; progress: CollectionProgress }
  | { type: 'status'; text: string; kind: 'info' | 'error' }
  /** Select this row and scroll to it ("Next unannotated"). */
  | { type: 'select'; id: string }
  /** The queue's settings and progress: after `init`, when a row is read again (an annotation saved) and when a setting changes. */
  | { type: 'queue'; queue: CollectionQueue };

const text = z.string().max(10_000);

/** What the table shows: its sort, facet and text filters, and the selected row. */
const viewQuery = {
  selectedId: text.optional(),
  sort: z.object({ column: text, descending: z.boolean() }).optional(),
  facets: z.record(text, z.array(text).max(10_000)).optional(),
  text: text.optional(),
};

/** Webview → host, parsed by the host. */
export const collectionFromWebviewSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** Open a row's trajectory in the trajectory editor. */
  z.object({ type: z.literal('open'), id: text }),
  /** The table's order and selection changed (the host runs "Next unannotated" in that order). */
  z.object({ type: z.literal('viewState'), ...viewQuery }),
  /** "Next unannotated" from the view's key (n): the next row after the selected one without a saved annotation. */
  z.object({ type: z.literal('nextUnannotated'), ...viewQuery }),
  /** The header's Blind toggle: the host writes trajaudit.collection.blind and answers with 'queue' (and the rows again when it changed). */
  z.object({ type: z.literal('setBlind'), blind: z.boolean() }),
  /** Stop reading files (the rows read so far stay). */
  z.object({ type: z.literal('cancel') }),
  /** "Compare with marked" (key c): the row marked for compare (key x) against another row; the host opens the compare view. */
  z.object({ type: z.literal('compare'), marked: text, other: text }),
  /** Export… : the rows the table shows (its filters, in its order) or all rows, with their annotations and audits; the host asks where. */
  z.object({ type: z.literal('export'), format: z.enum(['csv', 'parquet']), scope: z.enum(['shown', 'all']), ...viewQuery }),
  /** After each render: what the page shows (tests, diagnostics). */
  z.object({
    type: z.literal('rendered'),
    shown: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    domRows: z.number().int().nonnegative(),
  }),
  z.object({ type: z.literal('cspViolation'), directive: text, blocked: text, sample: text }),
  z.object({ type: z.literal('log'), level: z.enum(['info', 'error']), message: text }),
]);

export type CollectionFromWebview = z.infer<typeof collectionFromWebviewSchema>;

/** The page's saved UI state (VS Code's webview state): where the user was, never row content. */
export interface CollectionViewState {
  selectedId?: string;
  sort?: { column: string; descending: boolean };
  facets?: Record<string, string[]>;
  text?: string;
  scrollTop?: number;
  /** The row marked for compare (key x). */
  markedId?: string;
}
