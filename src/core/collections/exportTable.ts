// Export of a collection (issue 16 item 7): its rows, its human annotations (one row per
// annotation) and its audits (one row per audit) as typed tables, written as CSV (RFC 4180) or
// Parquet (hyparquet-writer) for pandas, Polars or DuckDB. Column names are snake_case so a query
// needs no quoting: SELECT human_root_cause, count(*) FROM 'rows.parquet' GROUP BY 1.
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { AuditEntry, SidecarRecord } from '../sidecar/schema';
import { TOOL_KINDS } from '../stats/toolKinds';
import type { CollectionRow } from './rows';

export type CellType = 'string' | 'int' | 'double' | 'boolean';
export type Cell = string | number | boolean | null;

export interface TableColumn {
  name: string;
  type: CellType;
}

export interface ExportTable {
  name: 'rows' | 'annotations' | 'audits';
  columns: TableColumn[];
  /** One array per row, cells in column order; null is a missing value. */
  records: Cell[][];
}

interface ColumnSpec<T> extends TableColumn {
  value(item: T): Cell;
}

const col = <T>(name: string, type: CellType, value: (item: T) => Cell): ColumnSpec<T> => ({ name, type, value });

function tableOf<T>(name: ExportTable['name'], specs: readonly ColumnSpec<T>[], items: readonly T[]): ExportTable {
  return { name, columns: specs.map(({ name: n, type }) => ({ name: n, type })), records: items.map((item) => specs.map((s) => s.value(item))) };
}

const ROW_COLUMNS: readonly ColumnSpec<CollectionRow>[] = [
  col('id', 'string', (r) => r.id),
  col('file', 'string', (r) => r.file),
  col('record', 'string', (r) => r.record),
  col('format', 'string', (r) => r.format),
  col('model', 'string', (r) => r.model),
  col('dataset', 'string', (r) => r.dataset),
  col('query', 'string', (r) => r.query),
  col('outcome_success', 'boolean', (r) => r.outcome.success),
  col('outcome_score', 'double', (r) => r.outcome.score),
  col('outcome_source', 'string', (r) => r.outcome.source),
  col('messages', 'int', (r) => r.messages),
  col('decision_steps', 'int', (r) => r.decisionSteps),
  col('tokens', 'int', (r) => r.tokens),
  col('tool_calls', 'int', (r) => r.toolCalls),
  col('atomic_ops', 'int', (r) => r.atomicOps),
  ...TOOL_KINDS.map((kind) => col<CollectionRow>(`calls_${kind.replace(/-/g, '_')}`, 'int', (r) => r.toolCallsByKind[kind])),
  col('human_critical_step', 'int', (r) => r.human?.criticalStep ?? null),
  col('human_root_cause', 'string', (r) => r.human?.rootCause ?? null),
  col('human_span_start', 'int', (r) => r.human?.toleranceSpan?.[0] ?? null),
  col('human_span_end', 'int', (r) => r.human?.toleranceSpan?.[1] ?? null),
  col('human_source', 'string', (r) => r.humanSource),
  col('annotator', 'string', (r) => r.annotator),
  col('audit_critical_step', 'int', (r) => r.audit?.criticalStep ?? null),
  col('audit_root_cause', 'string', (r) => r.audit?.rootCause ?? null),
  col('audit_method', 'string', (r) => r.auditMethod),
  col('audits', 'int', (r) => r.audits),
  col('agreement', 'string', (r) => r.agreement),
  col('annotated', 'boolean', (r) => r.annotated),
  col('audited', 'boolean', (r) => r.audited),
  col('state', 'string', (r) => r.state),
];

/** One row per collection row, every field of CollectionRow flattened. */
export function rowsTable(rows: readonly CollectionRow[]): ExportTable {
  return tableOf('rows', ROW_COLUMNS, rows);
}

/** A collection row with its sidecar record, read from `<file>.audit.json` when exporting. */
export interface RowWithSidecar {
  row: CollectionRow;
  sidecarRecord: SidecarRecord | undefined;
}

const text = (value: string | null | undefined): string | null => value ?? null;
const step = (value: number | null | undefined): number | null => (typeof value === 'number' ? value : null);
/** Lists as one JSON array text per cell: a CSV cell holds one value, and JSON keeps commas and newlines inside items. */
const list = (value: readonly unknown[] | null | undefined): string | null => (value && value.length ? JSON.stringify(value) : null);

type Annotation = NonNullable<SidecarRecord['annotation']>;

const ANNOTATION_COLUMNS: readonly ColumnSpec<{ row: CollectionRow; annotation: Annotation }>[] = [
  col('row_id', 'string', ({ row }) => row.id),
  col('file', 'string', ({ row }) => row.file),
  col('record', 'string', ({ row }) => row.record),
  col('annotator', 'string', ({ annotation }) => text(annotation.annotator)),
  col('critical_step', 'int', ({ annotation }) => step(annotation.criticalStep)),
  col('span_start', 'int', ({ annotation }) => step(annotation.toleranceSpan?.[0])),
  col('span_end', 'int', ({ annotation }) => step(annotation.toleranceSpan?.[1])),
  col('root_cause', 'string', ({ annotation }) => text(annotation.rootCause)),
  col('rationale', 'string', ({ annotation }) => text(annotation.rationale)),
  col('repair_directive', 'string', ({ annotation }) => text(annotation.repairDirective)),
  col('repair_rubrics', 'string', ({ annotation }) => list(annotation.repairRubrics)),
  col('updated_at', 'string', ({ annotation }) => text(annotation.updatedAt)),
  col('trajectory_sha256', 'string', ({ annotation }) => text(annotation.trajectorySha256)),
];

/** The sidecars' human annotations, one row each (a record holds at most one). */
export function annotationsTable(items: readonly RowWithSidecar[]): ExportTable {
  const annotations = items.flatMap(({ row, sidecarRecord }) => (sidecarRecord?.annotation ? [{ row, annotation: sidecarRecord.annotation }] : []));
  return tableOf('annotations', ANNOTATION_COLUMNS, annotations);
}

function usageNumber(audit: AuditEntry, key: string): number | null {
  const value = (audit.usage as Record<string, unknown> | null | undefined)?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

const AUDIT_COLUMNS: readonly ColumnSpec<{ row: CollectionRow; audit: AuditEntry }>[] = [
  col('row_id', 'string', ({ row }) => row.id),
  col('file', 'string', ({ row }) => row.file),
  col('record', 'string', ({ row }) => row.record),
  col('audit_id', 'string', ({ audit }) => audit.id),
  col('method', 'string', ({ audit }) => audit.method),
  col('provider', 'string', ({ audit }) => text(audit.provider)),
  col('model', 'string', ({ audit }) => text(audit.model)),
  col('created_at', 'string', ({ audit }) => text(audit.createdAt)),
  col('prompt_version', 'string', ({ audit }) => text(audit.promptVersion)),
  col('critical_step', 'int', ({ audit }) => step(audit.diagnosis?.criticalStep)),
  col('root_cause', 'string', ({ audit }) => text(audit.diagnosis?.rootCause)),
  col('rationale', 'string', ({ audit }) => text(audit.diagnosis?.rationale)),
  col('cited_steps', 'string', ({ audit }) => list(audit.diagnosis?.citedSteps)),
  col('repair_directives', 'string', ({ audit }) => list(audit.repair?.directives)),
  col('input_tokens', 'int', ({ audit }) => usageNumber(audit, 'inputTokens')),
  col('cached_input_tokens', 'int', ({ audit }) => usageNumber(audit, 'cachedInputTokens')),
  col('output_tokens', 'int', ({ audit }) => usageNumber(audit, 'outputTokens')),
  col('latency_ms', 'double', ({ audit }) => usageNumber(audit, 'latencyMs')),
];

/** Every audit of every row, in the sidecars' order. */
export function auditsTable(items: readonly RowWithSidecar[]): ExportTable {
  const audits = items.flatMap(({ row, sidecarRecord }) => (sidecarRecord?.audits ?? []).map((audit) => ({ row, audit })));
  return tableOf('audits', AUDIT_COLUMNS, audits);
}

// ---- CSV (RFC 4180) ----

function csvField(cell: Cell): string {
  if (cell === null) return '';
  const value = String(cell);
  // Quoted when it holds a separator, a quote or a line break (or begins or ends with a space,
  // which some readers trim); quotes inside are doubled.
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** RFC 4180 text: a header line, CRLF line ends, empty fields for missing values. */
export function toCsv(table: ExportTable): string {
  const lines = [table.columns.map((c) => csvField(c.name)), ...table.records.map((record) => record.map(csvField))];
  return lines.map((fields) => `${fields.join(',')}\r\n`).join('');
}

// ---- Parquet ----

const PARQUET_TYPES = { string: 'STRING', int: 'INT64', double: 'DOUBLE', boolean: 'BOOLEAN' } as const;

/** Parquet bytes: one typed, nullable column per table column (ints as INT64, so DuckDB reads BIGINT). */
export function toParquet(table: ExportTable): Uint8Array {
  const columnData = table.columns.map((column, i) => ({
    name: column.name,
    type: PARQUET_TYPES[column.type],
    data: table.records.map((record) => {
      const cell = record[i];
      return column.type === 'int' && typeof cell === 'number' ? BigInt(cell) : cell;
    }),
  }));
  return new Uint8Array(parquetWriteBuffer({ columnData, createdBy: 'trajaudit' }));
}
