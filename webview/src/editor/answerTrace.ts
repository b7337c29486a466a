// Answer trace: where the predicted answer (and the gold answer, when the file has one) occurs
// in the trajectory. Each occurrence is a chip that reveals its row; the first is flagged with
// its source type. Occurrences are also marked in the timeline gutter and the density strip.
import type { AnswerOccurrence, AnswerTrace } from '../../../src/shared/protocol';
import type { HostConnection } from './hostConnection';
import type { Store } from './state';
import { el, visiblePlain } from '../common/dom';
import { stepChip } from './timeline/messageBody';
import { iconButton } from '../common/widgetFactories';

const MAX_CHIPS = 60;

export class AnswerTracePanel {
  readonly button: HTMLButtonElement;
  readonly root: HTMLElement;
  private busy = false;

  constructor(
    private readonly store: Store,
    private readonly host: HostConnection,
    private readonly reveal: (position: number) => void,
  ) {
    this.button = el('button', {
      className: 'text-btn trace-button',
      text: 'Trace answer',
      title: 'Find every occurrence of the predicted (and gold) answer',
      attrs: { type: 'button', 'aria-pressed': 'false' },
    });
    this.button.addEventListener('click', () => (this.store.trace ? this.store.setTrace(null) : void this.run()));
    this.root = el('div', { className: 'trace', attrs: { role: 'region', 'aria-label': 'Answer trace' } });
    this.root.hidden = true;
    store.on('trace', (t) => this.render(t));
    store.on('view', () => this.render(null));
  }

  async run(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.button.textContent = 'Tracing…';
    const recordId = this.store.recordId;
    try {
      const trace = await this.host.request('answerTrace', { recordId });
      if (recordId === this.store.recordId) this.store.setTrace(trace);
    } catch (err) {
      this.root.hidden = false;
      this.root.replaceChildren(el('span', { className: 'msg-error', text: `Answer trace failed: ${(err as Error).message}` }));
    } finally {
      this.busy = false;
      this.button.textContent = 'Trace answer';
    }
  }

  private render(trace: AnswerTrace | null): void {
    this.button.setAttribute('aria-pressed', trace ? 'true' : 'false');
    this.button.classList.toggle('is-on', !!trace);
    if (!trace) {
      this.root.hidden = true;
      this.root.replaceChildren();
      return;
    }
    this.root.hidden = false;
    const lines: HTMLElement[] = [];
    if (trace.predicted) lines.push(this.line('Predicted', 'pred', trace.predicted));
    if (trace.gold) lines.push(this.line('Gold', 'gold', trace.gold));
    if (!lines.length) lines.push(el('div', { className: 'muted', text: 'No answer to trace in this record.' }));
    const close = iconButton('✕', 'Close answer trace', () => this.store.setTrace(null), 'trace-close');
    this.root.replaceChildren(...lines, close);
  }

  private line(label: string, kind: 'pred' | 'gold', t: { text: string; occurrences: AnswerOccurrence[]; first?: AnswerOccurrence }): HTMLElement {
    const line = el('div', { className: `trace-line trace-${kind}` });
    line.append(el('span', { className: 'trace-label', text: label }));
    line.append(el('q', { className: 'trace-text', text: visiblePlain(t.text), title: t.text }));
    const n = t.occurrences.length;
    line.append(el('span', { className: 'muted', text: n === 0 ? 'never occurs' : `${n} occurrence${n === 1 ? '' : 's'}` }));
    const chips = el('span', { className: 'trace-chips' });
    const sorted = [...t.occurrences].sort((a, b) => this.store.indexOf(a.position) - this.store.indexOf(b.position));
    for (const o of sorted.slice(0, MAX_CHIPS)) {
      const first = t.first && t.first.position === o.position && t.first.source === o.source;
      const chip = stepChip(
        o.position,
        this.reveal,
        first ? `#${o.position} first · ${o.source}` : `#${o.position}`,
        `trace-chip trace-chip-${kind}${first ? ' is-first' : ''}`,
      );
      chip.title = `${first ? 'First occurrence' : 'Occurrence'} in message ${o.position} (${o.source})`;
      chips.append(chip);
    }
    if (sorted.length > MAX_CHIPS) chips.append(el('span', { className: 'muted', text: ` +${sorted.length - MAX_CHIPS} more (marked in the strip)` }));
    line.append(chips);
    return line;
  }
}
