// One timeline row: the one- or two-line summary of a message (position, role or agent, tool
// calls, token count, preview) with marker badges, plus the expanded body when open.
import type { RowSummary } from '../../../../src/shared/protocol';
import { el, visiblePlain } from '../../common/dom';
import { isOneLine, roleLabel, rowAriaParts, rowDomId, rowHeadline, rowKind, rowPreview } from '../../../../src/shared/rowText';
import { formatCount } from '../format';
import { M, type Markers } from '../markers';

export { rowKind, isOneLine, rowDomId, roleLabel, type RowKind } from '../../../../src/shared/rowText';

export function rowAriaLabel(row: RowSummary, markers: Markers, index: number): string {
  const parts = rowAriaParts(row);
  const f = markers.flags[index] ?? 0;
  if (f & M.SPAN) parts.push('in your tolerance span');
  for (const n of markers.notes.get(index) ?? []) parts.push(n.text);
  if (f & M.MATCH) parts.push('search match');
  return parts.join(', ');
}

export interface RowRenderContext {
  markers: Markers;
  total: number;
  selected: boolean;
  expanded: boolean;
}

/** Builds the row element (without body; the timeline adds it when expanded). */
export function createRowElement(row: RowSummary, index: number, ctx: RowRenderContext): HTMLElement {
  const kind = rowKind(row);
  const rowEl = el('div', {
    className: `tl-row kind-${kind}${isOneLine(row) ? ' one-line' : ''}${row.isError ? ' is-error' : ''}`,
    attrs: {
      role: 'option',
      id: rowDomId(row.position),
      'aria-posinset': index + 1,
      'aria-setsize': ctx.total,
      'data-position': row.position,
    },
  });
  const line = el('div', { className: 'tl-line' });
  const gutter = el('span', { className: 'tl-gutter', attrs: { 'aria-hidden': 'true' } });
  const twisty = el('span', { className: 'tl-twisty', attrs: { 'aria-hidden': 'true' } });
  const pos = el('span', { className: 'tl-pos', text: String(row.position) });
  const role = el('span', { className: `tl-role role-${row.role}`, text: roleLabel(row), title: row.agent ? `${row.agent} (${row.role})` : row.role });
  const text = el('div', { className: 'tl-text' });
  const head = el('div', { className: 'tl-head' });
  if (row.role !== 'tool' && row.calls.length) {
    for (const call of row.calls) head.append(el('span', { className: 'tl-call', text: visiblePlain(call), title: call }));
  } else {
    head.append(el('span', { className: 'tl-headline', text: rowHeadline(row) }));
    if (row.role === 'tool' && row.issuedBy !== undefined) head.append(el('span', { className: 'tl-issuer', text: `← ${row.issuedBy}` }));
  }
  if (row.isError) head.append(el('span', { className: 'pill pill-error', text: 'error' }));
  if (row.isFinalAnswer && row.calls.length) head.append(el('span', { className: 'pill pill-final', text: 'final answer' }));
  const shown = rowPreview(row);
  const preview = el('div', { className: `tl-preview${shown.muted ? ' muted' : ''}`, text: shown.text });
  text.append(head, preview);
  const tokens = el('span', { className: 'tl-tokens' });
  line.append(gutter, twisty, pos, role, text, tokens);
  rowEl.append(line);
  updateRowElement(row, index, rowEl, ctx);
  return rowEl;
}

/** Refreshes what can change without rebuilding: selection, expansion, markers, tokens. */
export function updateRowElement(row: RowSummary, index: number, rowEl: HTMLElement, ctx: RowRenderContext): void {
  const f = ctx.markers.flags[index] ?? 0;
  rowEl.classList.toggle('is-selected', ctx.selected);
  rowEl.classList.toggle('is-expanded', ctx.expanded);
  rowEl.classList.toggle('is-match', (f & M.MATCH) !== 0);
  rowEl.classList.toggle('is-current-match', (f & M.CURRENT_MATCH) !== 0);
  rowEl.classList.toggle('in-span', (f & M.SPAN) !== 0);
  rowEl.classList.toggle('span-start', (f & M.SPAN_START) !== 0);
  rowEl.classList.toggle('span-end', (f & M.SPAN_END) !== 0);
  rowEl.classList.toggle('in-gold-span', (f & M.GOLD_SPAN) !== 0);
  rowEl.classList.toggle('gold-span-start', (f & M.GOLD_SPAN_START) !== 0);
  rowEl.classList.toggle('gold-span-end', (f & M.GOLD_SPAN_END) !== 0);
  rowEl.classList.toggle('is-critical', (f & M.CRITICAL) !== 0);
  rowEl.setAttribute('aria-selected', ctx.selected ? 'true' : 'false');
  rowEl.setAttribute('aria-expanded', ctx.expanded ? 'true' : 'false');
  rowEl.setAttribute('aria-label', rowAriaLabel(row, ctx.markers, index));

  const line = rowEl.firstElementChild as HTMLElement;
  const gutter = line.children[0] as HTMLElement;
  const twisty = line.children[1] as HTMLElement;
  const tokens = line.children[5] as HTMLElement;
  twisty.textContent = ctx.expanded ? '▾' : '▸';
  const notes = ctx.markers.notes.get(index);
  const key = `${ctx.markers.version}`;
  if (gutter.dataset.v !== key) {
    gutter.dataset.v = key;
    gutter.replaceChildren(el('span', { className: 'band band-human' }), el('span', { className: 'band band-gold' }));
    const badges = el('span', { className: 'tl-badges' });
    // At most three badges fit the gutter; the audit-cited dot goes last (every note is in the title).
    const shown = [...(notes ?? [])].sort((a, b) => Number(a.kind === 'cited') - Number(b.kind === 'cited'));
    for (const n of shown) {
      if (badges.childElementCount >= 3) break;
      badges.append(el('span', { className: `mk mk-${n.kind}`, text: n.badge, title: n.text }));
    }
    gutter.append(badges);
    gutter.title = (notes ?? []).map((n) => n.text).join('\n');
  }
  const t = row.tokens === undefined ? '' : formatCount(row.tokens);
  if (tokens.textContent !== t) {
    tokens.textContent = t;
    tokens.title = row.tokens === undefined ? '' : `${row.tokens} tokens (o200k)`;
  }
}
