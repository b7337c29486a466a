// Clarify-Then-Search (seed 004): each instance's underspecified (blurred) query beside the intent
// (fused) query, and the weighted golden nuggets.
import { el } from '../common/dom';
import type { ClarifyView as Instance } from '../../../src/shared/itemProtocol';
import type { ItemApp } from './itemApp';
import { chip, debounce, fieldList, highlightedText, input } from './common';
import { searchRanges } from './segments';

const WEIGHT_LABEL: Record<number, string> = { 1: 'weight 1 · supporting', 2: 'weight 2 · important', 3: 'weight 3 · core' };

export class ClarifyView {
  readonly root: HTMLElement;
  private readonly list: HTMLElement;
  private readonly count: HTMLElement;
  private readonly search: HTMLInputElement;

  constructor(
    private readonly app: ItemApp,
    private readonly instances: Instance[],
  ) {
    this.search = input('Search queries and nuggets', 'ia-search');
    this.search.setAttribute('aria-label', 'Search');
    this.search.value = app.ui.clarify?.q ?? '';
    this.count = el('span', { className: 'ia-filter-count muted', attrs: { 'aria-live': 'polite' } });
    const legend = el('span', {
      className: 'ia-legend muted',
      children: [
        el('span', { text: 'Nugget weight: ' }),
        this.pips(3),
        el('span', { text: ' core  ' }),
        this.pips(2),
        el('span', { text: ' important  ' }),
        this.pips(1),
        el('span', { text: ' supporting' }),
      ],
    });
    const bar = el('div', { className: 'ia-filterbar', children: [this.search, this.count, legend] });
    this.list = el('div', { className: 'ia-cards' });
    this.root = el('div', { className: 'ia-tableview', children: [bar, el('div', { className: 'ia-table-scroll', children: [this.list] })] });
    const refresh = debounce(() => this.render(), 120);
    this.search.addEventListener('input', refresh);
    this.render();
  }

  private pips(weight: number): HTMLElement {
    const span = el('span', {
      className: `ia-pips ia-w${weight}`,
      attrs: { 'aria-label': WEIGHT_LABEL[weight] ?? `weight ${weight}` },
      title: WEIGHT_LABEL[weight] ?? `weight ${weight}`,
    });
    for (let i = 1; i <= 3; i++) span.append(el('span', { className: `ia-pip${i <= weight ? ' is-on' : ''}` }));
    return span;
  }

  private render(): void {
    const q = this.search.value.trim();
    const ql = q.toLowerCase();
    this.app.saveUi({ clarify: { q } });
    const shown = this.instances.filter(
      (x) =>
        !ql ||
        x.id.toLowerCase().includes(ql) ||
        x.blurred.toLowerCase().includes(ql) ||
        x.fused.toLowerCase().includes(ql) ||
        x.nuggets.some((n) => n.text.toLowerCase().includes(ql)),
    );
    const cards = shown.map((x) => this.card(x, q));
    if (!cards.length) cards.push(el('div', { className: 'ia-empty', text: 'No instance matches.' }));
    this.list.replaceChildren(...cards);
    this.count.textContent =
      shown.length === this.instances.length ? `${this.instances.length} instances` : `${shown.length} of ${this.instances.length} instances`;
  }

  private card(x: Instance, q: string): HTMLElement {
    const total = x.nuggets.reduce((s, n) => s + n.weight, 0);
    const card = el('article', { className: 'ia-card', attrs: { 'data-id': x.id } });
    card.append(
      el('header', {
        className: 'ia-card-head',
        children: [
          el('span', { className: 'ia-item-id', text: x.id }),
          el('span', { className: 'muted', text: `${x.nuggets.length} nuggets · total weight ${total}` }),
        ],
      }),
    );
    const cmp = el('div', { className: 'ia-compare' });
    cmp.append(
      el('div', {
        className: 'ia-cmp ia-cmp-blurred',
        children: [
          el('div', { className: 'ia-label', text: 'BLURRED QUERY · what the user typed' }),
          highlightedText('div', 'ia-cmp-text', x.blurred, searchRanges(x.blurred, q), 'ia-hit'),
        ],
      }),
      el('div', { className: 'ia-cmp-arrow', text: '→', attrs: { 'aria-hidden': 'true' } }),
      el('div', {
        className: 'ia-cmp ia-cmp-fused',
        children: [
          el('div', { className: 'ia-label', text: 'FUSED QUERY · the intent' }),
          highlightedText('div', 'ia-cmp-text', x.fused, searchRanges(x.fused, q), 'ia-hit'),
        ],
      }),
    );
    card.append(cmp);
    const ul = el('ul', { className: 'ia-nuggets' });
    for (const n of [...x.nuggets].sort((a, b) => b.weight - a.weight)) {
      const li = el('li', { className: `ia-nugget ia-nugget-w${n.weight}` });
      li.append(this.pips(n.weight), highlightedText('span', 'ia-nugget-text', n.text, searchRanges(n.text, q), 'ia-hit'));
      const ev = el('span', { className: 'ia-nugget-ev' });
      for (const id of n.evidenceIds) ev.append(chip(id, 'ia-chip-ev', 'evidence id'));
      li.append(ev);
      ul.append(li);
    }
    card.append(ul);
    if (x.extra.length) card.append(fieldList(x.extra, 'ia-card-extra'));
    return card;
  }
}
