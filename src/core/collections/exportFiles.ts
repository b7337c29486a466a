// Writing a collection's export to disk (issue 16 item 7), shared by `trajaudit collection
// --export` (three files in a folder) and the collection view's Export… (the rows file the user
// picked, the annotations and audits beside it). The tables and their CSV and Parquet bytes are
// exportTable.ts; every file is replaced atomically (core/files/atomicWrite.ts).
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '../files/atomicWrite';
import type { SidecarRecord } from '../sidecar/schema';
import { readSidecar, sidecarPathFor } from '../sidecar/sidecarFile';
import { annotationsTable, auditsTable, rowsTable, toCsv, toParquet, type ExportTable, type RowWithSidecar } from './exportTable';
import { auditsVisible, blindRow } from './queue';
import type { CollectionRow } from './rows';

export const EXPORT_KINDS = ['csv', 'parquet'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/**
 * Each row with its sidecar record, each sidecar read once (one that cannot be read is already
 * listed as unreadable when the rows were read). `trajectoryFile` is where a row's file is on disk
 * (the view shows workspace-relative paths; the CLI's rows hold the path itself).
 */
export function rowsWithSidecars(rows: readonly CollectionRow[], trajectoryFile: (row: CollectionRow) => string = (row) => row.file): RowWithSidecar[] {
  const sidecars = new Map<string, Record<string, SidecarRecord> | undefined>();
  return rows.map((row) => {
    const file = trajectoryFile(row);
    if (!sidecars.has(file)) {
      let records: Record<string, SidecarRecord> | undefined;
      try {
        records = readSidecar(sidecarPathFor(file))?.records;
      } catch {
        records = undefined;
      }
      sidecars.set(file, records);
    }
    const records = sidecars.get(file);
    return { row, sidecarRecord: records && Object.hasOwn(records, row.record) ? records[row.record] : undefined };
  });
}

/** The three tables of an export: rows, their sidecars' annotations, their sidecars' audits. */
export function exportTables(rows: readonly CollectionRow[], withSidecars: readonly RowWithSidecar[]): [ExportTable, ExportTable, ExportTable] {
  return [rowsTable(rows), annotationsTable(withSidecars), auditsTable(withSidecars)];
}

function encode(table: ExportTable, kind: ExportKind): string | Uint8Array {
  return kind === 'csv' ? toCsv(table) : toParquet(table);
}

/** Writes rows.<kind>, annotations.<kind> and audits.<kind> into `out` (created if missing); returns the files written. */
export function writeExportFolder(rows: readonly CollectionRow[], kind: ExportKind, out: string, withSidecars = rowsWithSidecars(rows)): string[] {
  mkdirSync(out, { recursive: true });
  return exportTables(rows, withSidecars).map((table) => {
    const file = join(out, `${table.name}.${kind}`);
    writeFileAtomic(file, encode(table, kind));
    return file;
  });
}

/**
 * Where a rows export at `target` puts its annotations and audits: beside it, named by its stem
 * (`run.rows.csv` or `run.csv` → `run.annotations.csv`, `run.audits.csv`).
 */
export function companionFiles(target: string, kind: ExportKind): { annotations: string; audits: string } {
  const stem = basename(target)
    .replace(new RegExp(`\\.${kind}$`, 'i'), '')
    .replace(/\.rows$/i, '');
  return { annotations: join(dirname(target), `${stem}.annotations.${kind}`), audits: join(dirname(target), `${stem}.audits.${kind}`) };
}

export interface WrittenExport {
  rows: string;
  annotations: string;
  audits: string;
  /** Records per table. */
  counts: { rows: number; annotations: number; audits: number };
}

/**
 * The view's export: the rows table at `target`, the annotations and audits beside it
 * (companionFiles). A file that cannot be written is one line naming it and the system's reason;
 * files already replaced stay replaced (each write is atomic on its own).
 */
export function writeExportFiles(rows: readonly CollectionRow[], withSidecars: readonly RowWithSidecar[], kind: ExportKind, target: string): WrittenExport {
  const { annotations, audits } = companionFiles(target, kind);
  const [rowTable, annotationTable, auditTable] = exportTables(rows, withSidecars);
  const writes: [string, ExportTable][] = [
    [target, rowTable],
    [annotations, annotationTable],
    [audits, auditTable],
  ];
  for (const [file, table] of writes) {
    try {
      writeFileAtomic(file, encode(table, kind));
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
      throw new Error(`Could not write ${file}: ${reason}; expected a writable folder`);
    }
  }
  return {
    rows: target,
    annotations,
    audits,
    counts: { rows: rowTable.records.length, annotations: annotationTable.records.length, audits: auditTable.records.length },
  };
}

/**
 * Blind mode's export holds what the view shows: a row's newest audit, method and agreement (the
 * rows table) and its audits (the audits table) only once the annotator has saved an annotation
 * of it (queue.ts, blindRow).
 */
export function blindExport(
  items: readonly RowWithSidecar[],
  blind: boolean,
  annotator: string | null,
): { rows: CollectionRow[]; withSidecars: RowWithSidecar[] } {
  const withSidecars = items.map((item) =>
    auditsVisible(item.row, blind, annotator) || !item.sidecarRecord ? item : { row: item.row, sidecarRecord: { ...item.sidecarRecord, audits: [] } },
  );
  return { rows: items.map((item) => blindRow(item.row, blind, annotator)), withSidecars };
}
