// Clarify-Then-Search (seed 004): each instance's underspecified (blurred) query beside the intent
// (fused) query, and the weighted golden nuggets.
import { html, nothing, render, type TemplateResult } from 'lit';
import { el } from '../common/dom';
import type { ClarifyView as Instance } from '../../../src/shared/itemProtocol';
import type { ItemApp } from './itemApp';
import { chip, debounce, fieldList, highlighted, input } from './common';
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
    const legend = el('span', { className: 'ia-legend muted' });
    render(html`<span>Nugget weight: </span>${pips(3)}<span> core  </span>${pips(2)}<span> important  </span>${pips(1)}<span> supporting</span>`, legend);
    const bar = el('div', { className: 'ia-filterbar', children: [this.search, this.count, legend] });
    this.list = el('div', { className: 'ia-cards' });
    this.root = el('div', { className: 'ia-tableview', children: [bar, el('div', { className: 'ia-table-scroll', children: [this.list] })] });
    const refresh = debounce(() => this.render(), 120);
    this.search.addEventListener('input', refresh);
    this.render();
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
    render(shown.length ? shown.map((x) => this.card(x, q)) : html`<div class="ia-empty">No instance matches.</div>`, this.list);
    this.count.textContent =
      shown.length === this.instances.length ? `${this.instances.length} instances` : `${shown.length} of ${this.instances.length} instances`;
  }

  private card(x: Instance, q: string): TemplateResult {
    const total = x.nuggets.reduce((sum, n) => sum + n.weight, 0);
    const text = (className: string, value: string) => html`<div class=${className}>${highlighted(value, searchRanges(value, q), 'ia-hit')}</div>`;
    return html`<article class="ia-card" data-id=${x.id}>
      <header class="ia-card-head">
        <span class="ia-item-id">${x.id}</span><span class="muted">${`${x.nuggets.length} nuggets · total weight ${total}`}</span>
      </header>
      <div class="ia-compare">
        <div class="ia-cmp ia-cmp-blurred"><div class="ia-label">BLURRED QUERY · what the user typed</div>${text('ia-cmp-text', x.blurred)}</div>
        <div class="ia-cmp-arrow" aria-hidden="true">→</div>
        <div class="ia-cmp ia-cmp-fused"><div class="ia-label">FUSED QUERY · the intent</div>${text('ia-cmp-text', x.fused)}</div>
      </div>
      <ul class="ia-nuggets">
        ${[...x.nuggets]
          .sort((a, b) => b.weight - a.weight)
          .map(
            (n) =>
              html`<li class=${`ia-nugget ia-nugget-w${n.weight}`}>
                ${pips(n.weight)}<span class="ia-nugget-text">${highlighted(n.text, searchRanges(n.text, q), 'ia-hit')}</span
                ><span class="ia-nugget-ev">${n.evidenceIds.map((id) => chip(id, 'ia-chip-ev', 'evidence id'))}</span>
              </li>`,
          )}
      </ul>
      ${x.extra.length ? fieldList(x.extra, 'ia-card-extra') : nothing}
    </article>`;
  }
}

function pips(weight: number): TemplateResult {
  const label = WEIGHT_LABEL[weight] ?? `weight ${weight}`;
  return html`<span class=${`ia-pips ia-w${weight}`} aria-label=${label} title=${label}
    >${[1, 2, 3].map((i) => html`<span class=${i <= weight ? 'ia-pip is-on' : 'ia-pip'}></span>`)}</span
  >`;
}
