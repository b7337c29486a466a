// The header: file and record, detected format, the query, predicted and gold answers, and the
// trajectory statistics (tokens arrive later, streamed by the host).
import type { Store } from './state';
import { el, visiblePlain } from '../common/dom';
import { formatCount, formatInt } from './format';

export class Header {
  readonly root: HTMLElement;
  private readonly title: HTMLElement;
  private readonly body: HTMLElement;
  readonly toolbar: HTMLElement;
  onToggleCollapsed: (collapsed: boolean) => void = () => {};
  private collapsed = false;

  constructor(private readonly store: Store) {
    this.root = el('header', { className: 'app-header', attrs: { 'aria-label': 'Trajectory summary' } });
    const top = el('div', { className: 'hdr-top' });
    this.title = el('div', { className: 'hdr-title' });
    this.toolbar = el('div', { className: 'hdr-toolbar', attrs: { role: 'toolbar', 'aria-label': 'View' } });
    top.append(this.title, this.toolbar);
    this.body = el('div', { className: 'hdr-body' });
    this.root.append(top, this.body);
    store.on('view', () => this.render());
    store.on('tokens', () => this.render());
    store.on('readOnly', () => this.render());
  }

  setCollapsed(collapsed: boolean): void {
    this.collapsed = collapsed;
    this.body.hidden = collapsed;
    this.root.classList.toggle('is-collapsed', collapsed);
  }

  isCollapsed(): boolean {
    return this.collapsed;
  }

  render(): void {
    const view = this.store.view;
    if (!view) return;
    const h = view.header;
    const fileName = (h.file || this.store.file).split(/[\\/]/).pop() || h.file;

    const toggle = el('button', {
      className: 'icon-btn hdr-collapse',
      text: this.collapsed ? '▸' : '▾',
      attrs: {
        type: 'button',
        'aria-expanded': this.collapsed ? 'false' : 'true',
        'aria-label': this.collapsed ? 'Show query and statistics' : 'Hide query and statistics',
      },
    });
    toggle.addEventListener('click', () => {
      this.setCollapsed(!this.collapsed);
      this.onToggleCollapsed(this.collapsed);
      this.render();
    });
    const title = el('h1', { className: 'hdr-file', text: fileName, title: h.file });
    const parts: (Node | string)[] = [toggle, title];
    if (this.store.records.length > 1 || h.recordId)
      parts.push(el('span', { className: 'hdr-record', text: visiblePlain(h.recordId), title: `record ${h.recordId}` }));
    parts.push(
      el('span', {
        className: 'pill pill-format',
        text: `${h.format}${this.store.container ? ' · ' + this.store.container : ''}`,
        title: `Detected format: ${h.format}\n${h.detectionReason}`,
      }),
    );
    if (this.store.readOnlyReason) parts.push(el('span', { className: 'pill pill-warn', text: 'read-only', title: this.store.readOnlyReason }));
    if (this.collapsed) {
      const q = h.query ? visiblePlain(h.query) : '';
      parts.push(el('span', { className: 'hdr-query-inline', text: q, title: h.query ?? '' }));
    }
    this.title.replaceChildren(...parts);

    const body: Node[] = [];
    if (h.query) {
      const q = el('div', { className: 'hdr-field hdr-query' });
      q.append(el('span', { className: 'hdr-label', text: 'Query' }));
      const text = el('div', { className: 'hdr-value clamp', text: visiblePlain(h.query) });
      q.append(text);
      if (h.query.length > 240) {
        const more = el('button', { className: 'link-btn', text: 'more', attrs: { type: 'button', 'aria-expanded': 'false' } });
        more.addEventListener('click', () => {
          const open = text.classList.toggle('clamp');
          more.textContent = open ? 'more' : 'less';
          more.setAttribute('aria-expanded', open ? 'false' : 'true');
        });
        q.append(more);
      }
      body.push(q);
    }
    const answers = el('div', { className: 'hdr-answers' });
    answers.append(answerField('Predicted', h.predictedAnswer, 'ans-pred', 'The final answer the agent gave (incorrect)'));
    if (h.goldAnswer !== undefined) answers.append(answerField('Gold', h.goldAnswer, 'ans-gold', 'Gold answer from the file'));
    body.push(answers);

    const stats = el('dl', { className: 'hdr-stats', attrs: { 'aria-label': 'Statistics' } });
    const stat = (label: string, value: string, title?: string) => {
      const d = el('div', { className: 'stat', title });
      d.append(el('dt', { text: label }), el('dd', { text: value }));
      stats.append(d);
    };
    stat('messages', formatInt(h.messages), `${h.messages} messages`);
    stat('decision steps', formatInt(h.decisionSteps), `${h.decisionSteps} decision steps (assistant messages)`);
    if (h.tokens) {
      stat('tokens', formatCount(h.tokens.total), `${h.tokens.total} tokens (o200k): content and reasoning of every message`);
      stat('tool returns', formatCount(h.tokens.toolReturns), `${h.tokens.toolReturns} tokens in tool returns`);
      stat('reasoning', formatCount(h.tokens.reasoning), `${h.tokens.reasoning} tokens of assistant reasoning`);
    } else {
      const d = el('div', { className: 'stat is-pending', title: 'Token counts are computed after the file opens' });
      d.append(el('dt', { text: 'tokens' }), el('dd', { text: 'counting…' }));
      stats.append(d);
    }
    stat('tool calls', formatInt(h.toolCalls), `${h.toolCalls} structured tool calls`);
    stat('atomic ops', formatInt(h.atomicOps), `${h.atomicOps} atomic operations (batched queries/URLs expanded)`);
    stat('search', formatInt(h.searchCalls), `${h.searchCalls} search calls`);
    stat('visit', formatInt(h.visitCalls), `${h.visitCalls} visit calls`);
    if (h.outcome) stat('outcome', h.outcome.text, `The outcome the file records, from ${h.outcome.source}`);
    body.push(stats);
    const fmt = el('div', { className: 'hdr-format muted', text: `Format ${h.format}: ${h.detectionReason}` });
    body.push(fmt);
    this.body.replaceChildren(...body);
    this.body.hidden = this.collapsed;
  }
}

function answerField(label: string, value: string | undefined, className: string, title: string): HTMLElement {
  const f = el('div', { className: `hdr-field hdr-answer ${className}`, title });
  f.append(el('span', { className: 'hdr-label', text: label }));
  f.append(el('span', { className: 'hdr-value', text: value === undefined || value === '' ? '—' : visiblePlain(value) }));
  return f;
}
