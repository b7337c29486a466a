// Gold nuggets (issue 18 item 4): the nuggets `trajaudit build nuggets` wrote for this record
// (text, weight, evidence ids), asked of the host once the panels are mounted, so opening a file
// never waits on its gold file. Clicking an evidence id reveals and selects its tool return in the
// timeline and shows the quote of that result here; an id that no longer resolves is shown as
// unresolved. The section stays hidden when the host finds no gold file for the trajectory.
// Gold text comes from a model reading web pages: it reaches the page as text nodes only (el).
import type { NuggetEvidence, NuggetsView } from '../../../src/shared/protocol';
import type { HostConnection } from './hostConnection';
import type { Store } from './state';
import { el, visiblePlain } from '../common/dom';
import { plural } from './format';

export class NuggetPanel {
  readonly root: HTMLElement;
  private readonly count: HTMLElement;
  private readonly body: HTMLElement;
  private readonly quote: HTMLElement;
  /** Answers to an older request (another record) are dropped. */
  private request = 0;

  constructor(
    private readonly store: Store,
    private readonly host: HostConnection,
    private readonly reveal: (position: number) => void,
  ) {
    this.root = el('section', { className: 'panel-section nuggets', attrs: { 'aria-labelledby': 'nuggets-heading' } });
    const head = el('div', { className: 'section-head' });
    this.count = el('span', { className: 'section-count' });
    head.append(el('h2', { text: 'Gold nuggets', attrs: { id: 'nuggets-heading' } }), this.count);
    this.body = el('div', { className: 'ng-body' });
    this.quote = el('div', { className: 'ng-quote', attrs: { role: 'status', 'aria-live': 'polite', hidden: true } });
    this.root.append(head, this.body, this.quote);
    this.root.hidden = true;
    store.on('view', () => void this.load());
    // Built after the first view (App.mountPanels): ask for the record shown now.
    if (store.view) void this.load();
  }

  private async load(): Promise<void> {
    const recordId = this.store.recordId;
    const request = ++this.request;
    try {
      const view = await this.host.request('nuggets', { recordId });
      if (request === this.request) this.render(view);
    } catch (err) {
      if (request !== this.request) return;
      this.root.hidden = false;
      this.count.textContent = '';
      this.quote.hidden = true;
      this.body.replaceChildren(el('p', { className: 'msg-error', text: `Gold nuggets could not be read: ${(err as Error).message}` }));
    }
  }

  private render(view: NuggetsView): void {
    this.quote.hidden = true;
    this.quote.replaceChildren();
    if (!view.goldFile) {
      this.root.hidden = true;
      this.body.replaceChildren();
      return;
    }
    this.root.hidden = false;
    this.count.textContent = plural(view.nuggets.length, 'nugget');
    if (view.instanceId === undefined) {
      this.body.replaceChildren(
        el('p', { className: 'muted', text: `${view.goldFile} has no line for ${view.candidates.map((c) => `"${c}"`).join(' or ')}.` }),
      );
      return;
    }
    const source = el('p', { className: 'muted ng-source', text: `${view.goldFile}, line ${view.line} (${view.instanceId})` });
    const list = el('ol', { className: 'ng-list' });
    for (const nugget of view.nuggets) {
      const item = el('li', { className: 'ng-item' });
      item.append(
        el('span', { className: 'chip ng-weight', text: `w${nugget.weight}`, title: `weight ${nugget.weight}` }),
        el('span', { className: 'ng-text', text: visiblePlain(nugget.text) }),
      );
      const ids = el('span', { className: 'ng-evidence', attrs: { 'aria-label': 'Evidence' } });
      ids.append(...nugget.evidence.map((e) => this.evidenceChip(e)));
      item.append(ids);
      list.append(item);
    }
    this.body.replaceChildren(source, list);
  }

  private evidenceChip(e: NuggetEvidence): HTMLElement {
    if (!e.resolved || e.position === undefined)
      return el('span', {
        className: 'chip ng-id is-unresolved',
        text: `${e.id} unresolved`,
        title: `${e.id} is no search or visit result of this trajectory`,
        attrs: { 'data-evidence': e.id },
      });
    const where = `message ${e.position}${e.result !== undefined ? `, result ${e.result}` : ''}`;
    const chip = el('button', {
      className: 'chip step-chip ng-id',
      text: e.id,
      title: `Go to ${where}`,
      attrs: { type: 'button', 'data-evidence': e.id, 'data-position': e.position },
    });
    chip.addEventListener('click', (ev) => {
      ev.stopPropagation();
      this.showQuote(e, where);
      this.reveal(e.position as number);
    });
    return chip;
  }

  private showQuote(e: NuggetEvidence, where: string): void {
    this.quote.hidden = false;
    this.quote.replaceChildren(
      el('div', { className: 'ng-quote-head muted', text: `${e.id} · ${e.kind ?? 'tool'} return, ${where}` }),
      el('q', { className: 'ng-quote-text', text: visiblePlain(e.quote ?? '') }),
    );
  }
}
