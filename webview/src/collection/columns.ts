// What each column of the collection table shows: its cell text, width and alignment. The sort
// and filter rules are src/core/collections/table.ts; this is only how a row reads on screen.
import { columnOf, outcomeLabel, type Column, type ColumnId } from '../../../src/core/collections/table';
import type { CollectionRow } from '../../../src/shared/collectionProtocol';
import { ROOT_CAUSE_LABELS, type RootCause } from '../../../src/core/model/rootCauses';

export interface DisplayColumn {
  column: Column;
  /** Header text (short); the column's full label is its tooltip. */
  head: string;
  width: number;
  cell(row: CollectionRow): string;
}

const number = (value: number | null): string => (value === null ? '' : value.toLocaleString('en-US'));

function rootCauseText(id: string | null): string {
  if (id === null) return '';
  return ROOT_CAUSE_LABELS[id as RootCause] ?? id;
}

function outcomeText(row: CollectionRow): string {
  const label = outcomeLabel(row);
  if (label === 'none') return '';
  const score = row.outcome.score;
  if (label === 'score') return String(score);
  return score === null || (label === 'success' && score === 1) || (label === 'failure' && score === 0) ? label : `${label} ${score}`;
}

const STATE_TEXT: Record<CollectionRow['state'], string> = {
  'annotated+audited': 'annotated, audited',
  annotated: 'annotated',
  audited: 'audited',
  open: '—',
};

function display(id: ColumnId, head: string, width: number, cell: (row: CollectionRow) => string): DisplayColumn {
  const column = columnOf(id);
  if (!column) throw new Error(`no column ${id}`);
  return { column, head, width, cell };
}

/** The table's columns, left to right (file and record are in the id). */
export const DISPLAY_COLUMNS: readonly DisplayColumn[] = [
  display('id', 'Trajectory', 280, (r) => r.id),
  display('format', 'Format', 120, (r) => r.format),
  display('model', 'Model', 130, (r) => r.model ?? ''),
  display('dataset', 'Dataset', 100, (r) => r.dataset ?? ''),
  display('outcome', 'Outcome', 84, outcomeText),
  display('messages', 'Msgs', 68, (r) => number(r.messages)),
  display('decisionSteps', 'Steps', 64, (r) => number(r.decisionSteps)),
  display('tokens', 'Tokens', 76, (r) => number(r.tokens)),
  display('toolCalls', 'Calls', 54, (r) => number(r.toolCalls)),
  display('calls:search', 'Search', 60, (r) => number(r.toolCallsByKind.search)),
  display('calls:visit', 'Visit', 52, (r) => number(r.toolCallsByKind.visit)),
  display('calls:code', 'Code', 52, (r) => number(r.toolCallsByKind.code)),
  display('calls:file-edit', 'Edit', 48, (r) => number(r.toolCallsByKind['file-edit'])),
  display('calls:other', 'Other', 52, (r) => number(r.toolCallsByKind.other)),
  display('humanStep', 'Human step', 84, (r) => number(r.human?.criticalStep ?? null) + (r.humanSource === 'gold' ? ' (gold)' : '')),
  display('humanRootCause', 'Human root cause', 190, (r) => rootCauseText(r.human?.rootCause ?? null)),
  display('auditStep', 'Audit step', 74, (r) => number(r.audit?.criticalStep ?? null)),
  display('auditRootCause', 'Audit root cause', 190, (r) => rootCauseText(r.audit?.rootCause ?? null)),
  display('agreement', 'Agreement', 90, (r) => r.agreement ?? ''),
  display('state', 'State', 130, (r) => STATE_TEXT[r.state]),
];

/** The CSS grid columns of the header and every row. */
export const GRID_TEMPLATE = DISPLAY_COLUMNS.map((c) => `${c.width}px`).join(' ');
export const TABLE_WIDTH = DISPLAY_COLUMNS.reduce((sum, c) => sum + c.width, 0);
