// Reads a collection's files into rows, one file at a time, yielding to the event loop between
// files so the extension host stays responsive, reporting rows in batches with the progress, and
// stopping when cancelled (the rows read so far stay). No `vscode` here: the caller passes how
// paths are shown. The seam for the collection index (issue 16 item 2): `readFileRows` is the one
// place a file becomes rows, so an index can answer it from its cache instead of re-parsing.
import { collectFile, collectionFiles, type Unreadable } from '../../core/collections/collect';
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
  readonly targets = new Map<string, RowTarget>();

  constructor(
    private readonly paths: readonly string[],
    private readonly options: ReadOptions,
  ) {}

  cancel(): void {
    this.cancelled = true;
  }

  /** Reads every file; resolves with the final progress. */
  async read(): Promise<CollectionProgress> {
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
