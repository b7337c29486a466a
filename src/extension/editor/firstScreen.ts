// The trajectory editor's first screen as static HTML, written by the host into the page: the
// header and the rows at the top of the timeline, in the markup and classes the webview's own
// code builds (webview/src/app.ts, header.ts, timeline/rowView.ts), without markers or panels.
// The page shows it while the webview's script is still to be parsed and run; the app then
// replaces it. Every piece of trajectory text is escaped here: nothing in it becomes markup.
// No `vscode` import: unit tests run this in plain Node.
import type { HeaderInfo, RowSummary, ToWebview } from '../../shared/protocol';
import { formatCount, formatInt, isOneLine, roleLabel, rowHeadline, rowKind, rowPreview, visiblePlain } from '../../shared/rowText';

type InitMessage = Extract<ToWebview, { type: 'init' }>;

/** Rows written: enough to fill a usual editor (two-line rows are ~46 px, tool returns ~27 px). */
const HEIGHT_BUDGET_PX = 1100;
const MAX_ROWS = 60;

/** Escapes text for an HTML text node or a double- or single-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Attrs = Record<string, string | number | boolean | undefined>;

function tag(name: string, className: string, attrs: Attrs, inner = ''): string {
  let out = `<${name}${className ? ` class="${escapeHtml(className)}"` : ''}`;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    out += value === true ? ` ${key}` : ` ${key}="${escapeHtml(String(value))}"`;
  }
  return `${out}>${inner}</${name}>`;
}

const text = (value: string) => escapeHtml(value);

/** The static first screen for `init` (the content of the page's #root). */
export function firstScreenHtml(init: InitMessage): string {
  const { view } = init;
  const header = headerHtml(init, view.header);
  const rows: string[] = [];
  let height = 0;
  for (let i = 0; i < view.rows.length && i < MAX_ROWS && height < HEIGHT_BUDGET_PX; i++) {
    rows.push(rowHtml(view.rows[i], i));
    height += isOneLine(view.rows[i]) ? 27 : 46;
  }
  const colhead = tag('div', 'tl-colhead', { 'aria-hidden': 'true' }, [
    tag('span', 'tl-gutter', {}),
    tag('span', 'tl-twisty', {}),
    tag('span', 'tl-pos', {}, '#'),
    tag('span', 'tl-role', {}, 'role'),
    tag('span', 'tl-text', {}, 'tool calls · preview'),
    tag('span', 'tl-tokens', {}, 'tokens'),
  ].join(''));
  const searchBar = tag('div', 'search', { role: 'search' }, tag('div', 'search-bar', {}, [
    tag('span', 'search-input', { 'aria-hidden': 'true' }, 'Search every message  ( / )'),
    iconButton('Aa', 'Match case', 'toggle'),
    iconButton('.*', 'Use regular expression', 'toggle'),
    iconButton('Filters', 'Filter by role and tool', 'toggle text-toggle'),
    iconButton('↑', 'Previous match (Shift+Enter, N)'),
    iconButton('↓', 'Next match (Enter, n)'),
    iconButton('✕', 'Close search (Escape)'),
  ].join('')));
  const scroller = tag('div', 'tl-scroller', {}, tag('div', 'tl-content', {}, rows.join('')));
  const center = tag('main', 'panel panel-center', { 'aria-label': 'Timeline' }, [
    searchBar,
    colhead,
    tag('div', 'timeline-wrap', {}, tag('div', 'timeline', {}, scroller) + tag('div', 'density-strip', { 'aria-hidden': 'true' })),
    tag('div', 'statusline', { 'aria-hidden': 'true' }),
  ].join(''));
  const main = tag('div', 'app-main', {}, [
    tag('nav', 'panel panel-left', { 'aria-label': 'Outline and records' }),
    tag('div', 'resizer resizer-left', { 'aria-hidden': 'true' }),
    center,
    tag('div', 'resizer resizer-right', { 'aria-hidden': 'true' }),
    tag('aside', 'panel panel-right', { 'aria-label': 'Annotation and audits' }),
  ].join(''));
  // A picture of the app for the moment before it runs: hidden from assistive technology, which
  // gets the live app (its listbox, labels and focus) ~50 ms later.
  return tag('div', 'app first-screen', { 'aria-hidden': 'true' }, tag('div', 'app-header-slot', {}, header) + main);
}

function iconButton(glyph: string, label: string, className = ''): string {
  return tag('button', `icon-btn ${className}`.trim(), { type: 'button', title: label, 'aria-label': label, tabindex: -1 }, text(glyph));
}

function headerHtml(init: InitMessage, h: HeaderInfo): string {
  const fileName = (h.file || init.file).split(/[\\/]/).pop() || h.file;
  const title: string[] = [
    tag('button', 'icon-btn hdr-collapse', { type: 'button', 'aria-expanded': 'true', 'aria-label': 'Hide query and statistics', tabindex: -1 }, '▾'),
    tag('h1', 'hdr-file', { title: h.file }, text(fileName)),
  ];
  if (init.records.length > 1 || h.recordId) title.push(tag('span', 'hdr-record', { title: `record ${h.recordId}` }, text(visiblePlain(h.recordId))));
  title.push(tag('span', 'pill pill-format', { title: `Detected format: ${h.format}\n${h.detectionReason}` }, text(`${h.format}${init.container ? ' · ' + init.container : ''}`)));
  if (init.readOnlyReason) title.push(tag('span', 'pill pill-warn', { title: init.readOnlyReason }, 'read-only'));
  const toolbar = [
    tag('button', 'text-btn trace-button', { type: 'button', title: 'Find every occurrence of the predicted (and gold) answer', 'aria-pressed': 'false', tabindex: -1 }, 'Trace answer'),
    iconButton('◧', 'Toggle the outline panel', 'toggle fs-outline-toggle'), // on from 860 px (styles.css), as Layout decides
    iconButton('◨', 'Toggle the annotation panel', 'toggle is-on'),
    iconButton('?', 'Keyboard shortcuts (?)'),
  ];
  const body: string[] = [];
  if (h.query) {
    const more = h.query.length > 240 ? tag('button', 'link-btn', { type: 'button', 'aria-expanded': 'false', tabindex: -1 }, 'more') : '';
    body.push(tag('div', 'hdr-field hdr-query', {}, tag('span', 'hdr-label', {}, 'Query') + tag('div', 'hdr-value clamp', {}, text(visiblePlain(h.query))) + more));
  }
  const answer = (label: string, value: string | undefined, className: string, titleText: string) =>
    tag('div', `hdr-field hdr-answer ${className}`, { title: titleText }, tag('span', 'hdr-label', {}, label) + tag('span', 'hdr-value', {}, text(value === undefined || value === '' ? '—' : visiblePlain(value))));
  let answers = answer('Predicted', h.predictedAnswer, 'ans-pred', 'The final answer the agent gave (incorrect)');
  if (h.goldAnswer !== undefined) answers += answer('Gold', h.goldAnswer, 'ans-gold', 'Gold answer from the file');
  body.push(tag('div', 'hdr-answers', {}, answers));
  const stat = (label: string, value: string, titleText: string, className = 'stat') => tag('div', className, { title: titleText }, tag('dt', '', {}, label) + tag('dd', '', {}, text(value)));
  const stats = [
    stat('messages', formatInt(h.messages), `${h.messages} messages`),
    stat('decision steps', formatInt(h.decisionSteps), `${h.decisionSteps} decision steps (assistant messages)`),
  ];
  if (h.tokens) {
    stats.push(
      stat('tokens', formatCount(h.tokens.total), `${h.tokens.total} tokens (o200k): content and reasoning of every message`),
      stat('tool returns', formatCount(h.tokens.toolReturns), `${h.tokens.toolReturns} tokens in tool returns`),
      stat('reasoning', formatCount(h.tokens.reasoning), `${h.tokens.reasoning} tokens of assistant reasoning`),
    );
  } else {
    stats.push(stat('tokens', 'counting…', 'Token counts are computed after the file opens', 'stat is-pending'));
  }
  stats.push(
    stat('tool calls', formatInt(h.toolCalls), `${h.toolCalls} structured tool calls`),
    stat('atomic ops', formatInt(h.atomicOps), `${h.atomicOps} atomic operations (batched queries/URLs expanded)`),
    stat('search', formatInt(h.searchCalls), `${h.searchCalls} search calls`),
    stat('visit', formatInt(h.visitCalls), `${h.visitCalls} visit calls`),
  );
  body.push(tag('dl', 'hdr-stats', { 'aria-label': 'Statistics' }, stats.join('')));
  body.push(tag('div', 'hdr-format muted', {}, text(`Format ${h.format}: ${h.detectionReason}`)));
  return tag('header', 'app-header', { 'aria-label': 'Trajectory summary' }, [
    tag('div', 'hdr-top', {}, tag('div', 'hdr-title', {}, title.join('')) + tag('div', 'hdr-toolbar', { role: 'toolbar', 'aria-label': 'View' }, toolbar.join(''))),
    tag('div', 'hdr-body', {}, body.join('')),
  ].join(''));
}

/** One row as createRowElement lays it out for the first view (the first row selected; no markers, no ARIA). */
function rowHtml(row: RowSummary, index: number): string {
  const selected = index === 0;
  const classes = `tl-row kind-${rowKind(row)}${isOneLine(row) ? ' one-line' : ''}${row.isError ? ' is-error' : ''}${selected ? ' is-selected' : ''}`;
  let head = '';
  if (row.role !== 'tool' && row.calls.length) {
    for (const call of row.calls) head += tag('span', 'tl-call', {}, text(visiblePlain(call)));
  } else {
    head += tag('span', 'tl-headline', {}, text(rowHeadline(row)));
    if (row.role === 'tool' && row.issuedBy !== undefined) head += tag('span', 'tl-issuer', {}, text(`← ${row.issuedBy}`));
  }
  if (row.isError) head += tag('span', 'pill pill-error', {}, 'error');
  if (row.isFinalAnswer && row.calls.length) head += tag('span', 'pill pill-final', {}, 'final answer');
  const preview = rowPreview(row);
  const line = [
    tag('span', 'tl-gutter', {}),
    tag('span', 'tl-twisty', {}, '▸'),
    tag('span', 'tl-pos', {}, String(row.position)),
    tag('span', `tl-role role-${row.role}`, {}, text(roleLabel(row))),
    tag('div', 'tl-text', {}, tag('div', 'tl-head', {}, head) + tag('div', `tl-preview${preview.muted ? ' muted' : ''}`, {}, text(preview.text))),
    tag('span', 'tl-tokens', {}, row.tokens === undefined ? '' : text(formatCount(row.tokens))),
  ].join('');
  return tag('div', classes, { 'data-position': row.position }, tag('div', 'tl-line', {}, line));
}
