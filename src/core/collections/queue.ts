// The annotation queue of a collection (issue 16 item 6): "next unannotated" in the table's
// current order, an assignment file of row ids per annotator and each annotator's progress, and
// blind mode (a row's audits hidden until its annotator has saved an annotation). Pure, no Node or
// VS Code: the webview bundles it.
//
// The assignment file (docs/cli.md, `trajaudit collection --assignments FILE`):
//   {"annotators": {"alice": ["runs/a.traj.json#0", "b.jsonl#q17"], "bob": ["b.jsonl"]}}
// An id is a row id `<file>#<record>`; `<file>` alone assigns every record of the file. A file
// matches a row's file exactly or as its trailing path (`nested/beta.traj.json` matches
// `/data/corpus/nested/beta.traj.json`), so the file can name paths relative to the corpus.
import { z } from 'zod';
import { InputError } from '../input/inputError';
import type { CollectionRow } from './rows';

export const assignmentsSchema = z.strictObject({
  annotators: z.record(z.string().min(1, { message: 'expected an annotator name' }), z.array(z.string().min(1, { message: 'expected a row id' }))),
});
export type Assignments = z.infer<typeof assignmentsSchema>;

/** An assignment file's JSON value, checked; a wrong shape is one line naming the JSON path. */
export function parseAssignments(value: unknown, file: string): Assignments {
  const parsed = assignmentsSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = `$${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}`;
  throw new InputError(file, `${issue.message}; expected {"annotators": {"<name>": ["<file>#<record>", …]}}`, { path });
}

function normalizedPath(file: string): string {
  return file.replace(/\\/g, '/').replace(/^\.\//, '');
}

function fileMatches(rowFile: string, assigned: string): boolean {
  const row = normalizedPath(rowFile);
  const wanted = normalizedPath(assigned);
  return row === wanted || row.endsWith(`/${wanted}`);
}

/** The rows one assignment id names: `<file>#<record>` (the record after the last `#`), or every record of `<file>`. */
export function rowsOfAssignment(rows: readonly CollectionRow[], id: string): CollectionRow[] {
  const exact = rows.filter((r) => r.id === id);
  if (exact.length) return exact;
  const hash = id.lastIndexOf('#');
  const byRecord = hash > 0 ? rows.filter((r) => r.record === id.slice(hash + 1) && fileMatches(r.file, id.slice(0, hash))) : [];
  return byRecord.length ? byRecord : rows.filter((r) => fileMatches(r.file, id));
}

/** Saved by this annotator: the sidecar's annotation names them (an unnamed annotation counts for no one but the unnamed user). */
export function annotatedBy(row: CollectionRow, annotator: string | null): boolean {
  return row.annotated && (annotator === null || row.annotator === annotator);
}

export interface AnnotatorProgress {
  annotator: string;
  /** Rows assigned (ids that name several rows count each row once). */
  assigned: number;
  /** Of those, saved by this annotator. */
  annotated: number;
  /** Of those, saved by someone else (the sidecar holds one annotation per record). */
  annotatedByOthers: number;
  /** Ids that name no row of the collection. */
  missing: string[];
}

/** Each annotator's progress over the rows assigned to them, in the file's order of annotators. */
export function annotatorProgress(rows: readonly CollectionRow[], assignments: Assignments): AnnotatorProgress[] {
  return Object.entries(assignments.annotators).map(([annotator, ids]) => {
    const assigned = new Map<string, CollectionRow>();
    const missing: string[] = [];
    for (const id of ids) {
      const found = rowsOfAssignment(rows, id);
      if (found.length === 0) missing.push(id);
      for (const row of found) assigned.set(row.id, row);
    }
    const mine = [...assigned.values()];
    const annotated = mine.filter((r) => annotatedBy(r, annotator)).length;
    const annotatedByOthers = mine.filter((r) => r.annotated && !annotatedBy(r, annotator)).length;
    return { annotator, assigned: mine.length, annotated, annotatedByOthers, missing };
  });
}

export interface QueueOptions {
  /** Whose queue: rows they have saved are done; null: any saved annotation makes a row done. */
  annotator?: string | null;
  /** Only the rows assigned to `annotator` in this assignment (needs `annotator`). */
  assignments?: Assignments;
}

/**
 * The next row after `afterId` in `rows` (the table's current order, sorted and filtered) that is
 * still to annotate, wrapping around to the top; null when every row in the queue is done. With no
 * `afterId` (or one no longer shown) it starts at the top.
 */
export function nextUnannotated(rows: readonly CollectionRow[], afterId: string | null, options: QueueOptions = {}): CollectionRow | null {
  const annotator = options.annotator ?? null;
  let inQueue: (row: CollectionRow) => boolean = () => true;
  if (options.assignments && annotator !== null) {
    const assignedIds = new Set((options.assignments.annotators[annotator] ?? []).flatMap((id) => rowsOfAssignment(rows, id).map((r) => r.id)));
    inQueue = (row) => assignedIds.has(row.id);
  }
  const start = afterId === null ? -1 : rows.findIndex((r) => r.id === afterId);
  for (let step = 1; step <= rows.length; step++) {
    const row = rows[(start + step + rows.length) % rows.length];
    if (row.id !== afterId && inQueue(row) && !annotatedBy(row, annotator)) return row;
  }
  return null;
}

/** Blind mode: a row's audits stay hidden until the annotator has saved an annotation of it. */
export function auditsVisible(row: CollectionRow, blind: boolean, annotator: string | null): boolean {
  return !blind || annotatedBy(row, annotator);
}

/** The row as blind mode shows it: the audit's step, root cause, method and agreement hidden until the annotator has saved. */
export function blindRow(row: CollectionRow, blind: boolean, annotator: string | null): CollectionRow {
  return auditsVisible(row, blind, annotator) ? row : { ...row, audit: null, auditMethod: null, agreement: null };
}
