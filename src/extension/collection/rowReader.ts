// Reads a collection's files into rows, one file at a time, yielding to the event loop between
// files so the extension host stays responsive, reporting rows in batches with the progress, and
// stopping when cancelled (the rows read so far stay). No `vscode` here: the caller passes how
// paths are shown. With a storage folder the rows come through the collection index
// (core/collections/collectionIndex.ts, issue 16 item 2): a second open reads the index instead of
// parsing and tokenizing, and a changed file is read again alone.
import { collectFile, collectionFiles, type Unreadable } from '../../core/collections/collect';
import { indexCollection, rowIndexOptions, type IndexCounts } from '../../core/collections/collectionIndex';
import { rowOf, type CollectionRow } from '../../core/collections/rows';
import type { ToolNames } from '../../core/stats/statistics';
import type { CollectionProgress } from '../../shared/collectionProtocol';

/** Where a row's trajectory is: the absolute file and the record id. */
export interface RowTarget {
  file: string;
  record: string;
}

export interface ReadOptions {
  names?: ToolNames;
  /** Where the collection's index lives (VS Code's storage); without one every file is parsed. */
  storageDir?: string;
  /** Index notes (an index that could not be read or written), one line each. */
  onNote?(message: string): void;
  /** How a path is shown (workspace-relative in the editor). */
  display(path: string): string;
  /** Called with each batch of rows and the progress; the last call has `finished`. */
  onRows(rows: CollectionRow[], unreadable: Unreadable[], progress: CollectionProgress): void;
  /** Milliseconds between batches while reading. */
  batchMs?: number;
}

export type FileRows = { rows: { row: CollectionRow; target: RowTarget }[]; unreadable: Unreadable[] };

/** The rows of one file (every trajectory record with its sidecar record). */
export function readFileRows(file: string, named: boolean, options: Pick<ReadOptions, 'names' | 'display'>): FileRows {
  const collected = collectFile(file, { named });
  return {
    rows: collected.trajectories.map((t) => ({
      row: rowOf(t, { names: options.names, displayFile: options.display(t.file) }),
      target: { file: t.file, record: t.record },
    })),
    unreadable: collected.unreadable.map((u) => ({ file: options.display(u.file), message: u.message })),
  };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class RowReader {
  private cancelled = false;
  private readonly abort = new AbortController();
  readonly targets = new Map<string, RowTarget>();
  /** How the index answered (files from the index, re-hashed, re-read), once an indexed read has ended. */
  indexCounts: IndexCounts | undefined;

  constructor(
    private readonly paths: readonly string[],
    private readonly options: ReadOptions,
  ) {}

  cancel(): void {
    this.cancelled = true;
    this.abort.abort();
  }

  /** Reads every file; resolves with the final progress. */
  read(): Promise<CollectionProgress> {
    return this.options.storageDir ? this.readIndexed(this.options.storageDir) : this.readFiles();
  }

  /** Rows as the index stores them (absolute paths) with the display name the view shows. */
  private shown(row: CollectionRow): CollectionRow {
    const file = this.options.display(row.file);
    return { ...row, file, id: `${file}#${row.record}` };
  }

  private async readIndexed(storageDir: string): Promise<CollectionProgress> {
    const { display, onRows, batchMs = 150 } = this.options;
    const relabel = (list: Unreadable[]) => list.map((u) => ({ file: display(u.file), message: u.message }));
    let rows: CollectionRow[] = [];
    let unreadable: Unreadable[] = [];
    let last = Date.now();
    let progress: CollectionProgress = { done: 0, total: 0, finished: false };
    for await (const event of indexCollection(rowIndexOptions({ storageDir, paths: this.paths, names: this.options.names, signal: this.abort.signal }))) {
      if (event.kind === 'start') {
        progress = { done: 0, total: event.total, finished: false };
        unreadable.push(...relabel(event.unreadable));
      } else if (event.kind === 'note') this.options.onNote?.(event.message);
      else if (event.kind === 'file') {
        for (const stored of event.values) {
          const row = this.shown(stored);
          this.targets.set(row.id, { file: stored.file, record: stored.record });
          rows.push(row);
        }
        unreadable.push(...relabel(event.unreadable));
        progress = { done: event.done, total: event.total, finished: false };
        if (Date.now() - last >= batchMs) {
          onRows(rows, unreadable, progress);
          rows = [];
          unreadable = [];
          last = Date.now();
        }
      } else {
        this.indexCounts = event.counts;
        progress = { done: progress.done, total: progress.total, finished: true, ...(event.cancelled ? { cancelled: true } : {}) };
      }
    }
    if (!progress.finished) progress = { ...progress, finished: true, ...(this.cancelled ? { cancelled: true } : {}) };
    onRows(rows, unreadable, progress);
    return progress;
  }

  private async readFiles(): Promise<CollectionProgress> {
    const listed = collectionFiles(this.paths);
    const total = listed.files.length;
    let rows: CollectionRow[] = [];
    let unreadable: Unreadable[] = listed.unreadable.map((u) => ({ file: this.options.display(u.file), message: u.message }));
    let last = Date.now();
    const batchMs = this.options.batchMs ?? 150;
    let done = 0;
    for (const file of listed.files) {
      if (this.cancelled) break;
      const read = readFileRows(file, this.paths.includes(file), this.options);
      for (const { row, target } of read.rows) {
        this.targets.set(row.id, target);
        rows.push(row);
      }
      unreadable.push(...read.unreadable);
      done++;
      if (Date.now() - last >= batchMs) {
        this.options.onRows(rows, unreadable, { done, total, finished: false });
        rows = [];
        unreadable = [];
        last = Date.now();
      }
      await nextTurn();
    }
    const progress: CollectionProgress = { done, total, finished: true, ...(this.cancelled && done < total ? { cancelled: true } : {}) };
    this.options.onRows(rows, unreadable, progress);
    return progress;
  }
}
