// The words of a timeline row and of the header (the webview builds them as DOM).
import type { RowSummary } from './protocol';

export type RowKind = 'decision' | 'final' | 'tool' | 'user' | 'system' | 'assistant';

export function rowKind(row: RowSummary): RowKind {
  if (row.isFinalAnswer) return 'final';
  if (row.isDecision) return 'decision';
  return row.role;
}

/** Tool returns take one line; everything else shows a heading line and a preview line. */
export function isOneLine(row: RowSummary): boolean {
  return row.role === 'tool';
}

export function rowDomId(position: number): string {
  return `tl-row-${position}`;
}

export function roleLabel(row: RowSummary): string {
  if (row.agent && row.agent !== row.role) return row.agent;
  return row.role;
}

/** The heading line of a row without tool calls (tool returns, replies, the final answer). */
export function rowHeadline(row: RowSummary): string {
  if (row.role === 'tool') return row.toolName ? `↳ ${row.toolName}` : '↳ tool';
  if (row.calls.length) return row.calls.join('  ·  ');
  if (row.isFinalAnswer) return 'Final answer';
  if (row.role === 'user') return 'User';
  if (row.role === 'system') return 'System prompt';
  return row.hasReasoning ? 'Reasoning / reply' : 'Reply';
}

/** What a screen reader hears of a row, before its markers. */
export function rowAriaParts(row: RowSummary): string[] {
  const parts = [`Message ${row.position}`, roleLabel(row)];
  if (row.isFinalAnswer) parts.push('final answer');
  else if (row.isDecision) parts.push('decision step');
  if (row.role === 'tool') parts.push(`return of ${row.toolName ?? 'tool'}${row.issuedBy !== undefined ? ` issued by ${row.issuedBy}` : ''}`);
  if (row.calls.length) parts.push(`calls ${row.calls.map(callToolName).join(', ')}`);
  if (row.tokens !== undefined) parts.push(`${row.tokens} tokens`);
  if (row.isError) parts.push('error');
  return parts;
}

/** The tool name of a summarized call such as `search(query=["a"])`. */
export function callToolName(call: string): string {
  const i = call.indexOf('(');
  return (i < 0 ? call : call.slice(0, i)).trim();
}

/** The preview line's text; `muted` when the message has no text of its own. */
export function rowPreview(row: RowSummary): { text: string; muted: boolean } {
  return { text: visiblePlain(row.preview) || (row.hasReasoning ? '(reasoning only)' : '(empty)'), muted: !row.preview };
}

export function formatCount(n: number | undefined | null): string {
  if (n === undefined || n === null || !Number.isFinite(n)) return '—';
  if (Math.abs(n) < 1000) return String(n);
  if (Math.abs(n) < 1_000_000) return (n / 1000).toFixed(Math.abs(n) < 10_000 ? 1 : 0).replace(/\.0$/, '') + 'K';
  return (n / 1_000_000).toFixed(1).replace(/\.0$/, '') + 'M';
}

/** An exact count with thousands separators: 5,000. */
export function formatInt(n: number | undefined | null): string {
  if (n === undefined || n === null || !Number.isFinite(n)) return '—';
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// Invisible or direction-changing characters can hide or reorder what an auditor reads
// (bidi overrides, zero-width spaces, BOM). They are shown as visible escapes.
export const CONTROL_RE = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
const CONTROL_NAMES: Record<string, string> = {
  '\u00AD': 'SHY',
  '\u061C': 'ALM',
  '\u180E': 'MVS',
  '\u200B': 'ZWSP',
  '\u200C': 'ZWNJ',
  '\u200D': 'ZWJ',
  '\u200E': 'LRM',
  '\u200F': 'RLM',
  '\u202A': 'LRE',
  '\u202B': 'RLE',
  '\u202C': 'PDF',
  '\u202D': 'LRO',
  '\u202E': 'RLO',
  '\u2060': 'WJ',
  '\u2061': 'FA',
  '\u2062': 'IT',
  '\u2063': 'IS',
  '\u2064': 'IP',
  '\u2066': 'LRI',
  '\u2067': 'RLI',
  '\u2068': 'FSI',
  '\u2069': 'PDI',
  '\uFEFF': 'BOM',
};

export function controlName(ch: string): string {
  return CONTROL_NAMES[ch] ?? 'U+' + ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
}

/** For one-line previews: replaces invisible/bidi characters with a visible ⟦NAME⟧. */
export function visiblePlain(text: string): string {
  CONTROL_RE.lastIndex = 0;
  return CONTROL_RE.test(text) ? text.replace(CONTROL_RE, (ch) => `⟦${controlName(ch)}⟧`) : text;
}
