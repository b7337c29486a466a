// The expanded body of one message: reasoning, content and raw tool-call arguments. Text is
// inserted as text nodes only; very long text is rendered in chunks so a 1 MB tool return
// cannot stall the page; invisible/bidi characters are made visible; search matches are marked.
import type { MessageBody, RowSummary } from '../../../../src/shared/protocol';
import { appendVisibleText, el } from '../../common/dom';
import { formatChars } from '../format';

/** Characters rendered at once; "Show more" appends the next chunk. */
const FIRST_CHUNK = 20_000;
const NEXT_CHUNK = 200_000;
const MAX_MARKS_PER_CHUNK = 2_000;
/**
 * A paragraph longer than this is laid out without `unicode-bidi: plaintext` (styles.css
 * .long-paragraphs): Chromium resolves a plaintext paragraph's direction line by line, so a
 * 1 MB line with no newline (minified code, base64, a scraped page) took seconds against
 * ~0.2 s; the box takes its direction from its first strong character instead.
 */
const LONG_PARAGRAPH = 20_000;

/** Whether some line of `text` (between newlines) is longer than `limit` characters. */
export function hasLineLongerThan(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  let start = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
    if (nl - start > limit) return true;
    start = nl + 1;
  }
  return text.length - start > limit;
}

export interface BodyOptions {
  row: RowSummary;
  body: MessageBody;
  highlight: RegExp | null;
  onReveal(position: number): void;
}

export function renderMessageBody(opts: BodyOptions): HTMLElement {
  const { row, body } = opts;
  const root = el('div', { className: 'msg-body', attrs: { role: 'group', 'aria-label': `Message ${row.position} body` } });

  const meta = el('div', { className: 'msg-meta' });
  if (row.role === 'tool') {
    meta.append(el('span', { text: row.toolName ? `Return of ${row.toolName}` : 'Tool return' }));
    if (row.issuedBy !== undefined) {
      meta.append(' · issued by ');
      meta.append(stepChip(row.issuedBy, opts.onReveal));
    }
    if (body.toolCallId) meta.append(el('span', { className: 'muted', text: ` · call id ${body.toolCallId}` }));
  }
  meta.append(el('span', { className: 'muted', text: `${row.role === 'tool' ? ' · ' : ''}${formatChars(body.content.length)}` }));
  root.append(meta);

  if (body.reasoning) root.append(section('Reasoning', body.reasoning, 'msg-reasoning', opts.highlight));
  if (body.content || (!body.reasoning && body.toolCalls.length === 0)) {
    root.append(section(row.role === 'tool' ? 'Returned content' : 'Content', body.content, 'msg-content', opts.highlight));
  }
  if (body.toolCalls.length) {
    const calls = el('div', { className: 'msg-section msg-calls' });
    calls.append(el('div', { className: 'msg-section-title', text: body.toolCalls.length === 1 ? 'Tool call' : `Tool calls (${body.toolCalls.length})` }));
    for (const call of body.toolCalls) {
      const head = el('div', { className: 'msg-call-head' });
      head.append(el('span', { className: 'msg-call-name', text: call.name }));
      if (call.id) head.append(el('span', { className: 'muted', text: ` id ${call.id}` }));
      head.append(
        call.argumentsValid
          ? el('span', { className: 'pill pill-ok', text: 'valid JSON' })
          : el('span', { className: 'pill pill-error', text: 'invalid JSON arguments', title: 'The raw arguments string does not parse as JSON' }),
      );
      calls.append(head);
      let shown = call.rawArguments;
      if (call.argumentsValid) {
        try {
          shown = JSON.stringify(JSON.parse(call.rawArguments), null, 2);
        } catch {
          /* keep raw */
        }
      }
      const pre = el('div', { className: 'msg-text mono' + (call.argumentsValid ? '' : ' is-invalid') });
      renderLongText(pre, shown, opts.highlight);
      calls.append(pre);
    }
    root.append(calls);
  }
  return root;
}

function section(title: string, text: string, className: string, highlight: RegExp | null): HTMLElement {
  const s = el('div', { className: `msg-section ${className}` });
  s.append(el('div', { className: 'msg-section-title', text: `${title}${text.length > 2000 ? ` · ${formatChars(text.length)}` : ''}` }));
  const box = el('div', { className: 'msg-text' });
  if (!text) box.append(el('span', { className: 'muted', text: '(empty)' }));
  else renderLongText(box, text, highlight);
  s.append(box);
  return s;
}

export function stepChip(position: number, onReveal: (p: number) => void, label?: string, className = ''): HTMLButtonElement {
  const chip = el('button', {
    className: `chip step-chip ${className}`.trim(),
    text: label ?? `#${position}`,
    attrs: { type: 'button', title: `Go to message ${position}`, 'data-position': position },
  });
  chip.addEventListener('click', (ev) => {
    ev.stopPropagation();
    onReveal(position);
  });
  return chip;
}

/** Renders `text` into `box` chunk by chunk, with a "Show more" control for the rest. */
export function renderLongText(box: HTMLElement, text: string, highlight: RegExp | null): void {
  if (hasLineLongerThan(text, LONG_PARAGRAPH)) {
    box.classList.add('long-paragraphs');
    box.dir = 'auto';
  }
  let shown = 0;
  const more = el('div', { className: 'msg-more' });
  const appendChunk = (size: number) => {
    let end = Math.min(text.length, shown + size);
    // Do not split a surrogate pair.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end++;
    const chunk = el('span');
    appendHighlighted(chunk, text.slice(shown, end), highlight);
    box.insertBefore(chunk, more.isConnected ? more : null);
    shown = end;
    updateMore();
  };
  const updateMore = () => {
    more.replaceChildren();
    if (shown >= text.length) {
      more.remove();
      return;
    }
    const rest = text.length - shown;
    more.append(el('span', { className: 'muted', text: `… ${formatChars(rest)} more ` }));
    const next = el('button', { className: 'link-btn', text: `Show next ${formatChars(Math.min(rest, NEXT_CHUNK))}`, attrs: { type: 'button' } });
    next.addEventListener('click', (ev) => {
      ev.stopPropagation();
      appendChunk(NEXT_CHUNK);
    });
    const all = el('button', { className: 'link-btn', text: 'Show all', attrs: { type: 'button' } });
    all.addEventListener('click', (ev) => {
      ev.stopPropagation();
      appendChunk(text.length);
    });
    more.append(next, ' · ', all);
    if (!more.isConnected) box.append(more);
  };
  appendChunk(FIRST_CHUNK);
}

function appendHighlighted(parent: HTMLElement, text: string, highlight: RegExp | null): void {
  if (!highlight) {
    appendVisibleText(parent, text);
    return;
  }
  const re = new RegExp(highlight.source, highlight.flags.includes('g') ? highlight.flags : highlight.flags + 'g');
  let last = 0;
  let marks = 0;
  for (let m = re.exec(text); m && marks < MAX_MARKS_PER_CHUNK; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    if (m.index > last) appendVisibleText(parent, text.slice(last, m.index));
    const mark = el('mark', { className: 'search-hit' });
    appendVisibleText(mark, m[0]);
    parent.append(mark);
    last = m.index + m[0].length;
    marks++;
  }
  if (last < text.length) appendVisibleText(parent, text.slice(last));
}
