// DeepSearchQA (seed 001): a readable table of problems with filters by category and answer
// type, and a search over problem, answer and id.
import { html, render } from 'lit';
import { el } from '../common/dom';
import type { DsqaRow } from '../../../src/shared/itemProtocol';
import type { ItemApp } from './itemApp';
import { chip, debounce, highlighted, input, select } from './common';
import { searchRanges } from './segments';

export class DsqaView {
  readonly root: HTMLElement;
  private readonly tbody: HTMLElement;
  private readonly count: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly category: HTMLSelectElement;
  private readonly type: HTMLSelectElement;
  private readonly empty: HTMLElement;

  constructor(
    private readonly app: ItemApp,
    private readonly rows: DsqaRow[],
  ) {
    const categories = new Map<string, number>();
    for (const r of rows) categories.set(r.category, (categories.get(r.category) ?? 0) + 1);
    const single = rows.filter((r) => r.answerType === 'Single Answer').length;
    this.search = input('Search problems, answers and ids', 'ia-search');
    this.search.setAttribute('aria-label', 'Search');
    this.category = select(
      [
        { value: '', label: `All categories (${rows.length})` },
        ...[...categories].sort(([a], [b]) => a.localeCompare(b)).map(([c, n]) => ({ value: c, label: `${c || '(none)'} (${n})` })),
      ],
      '',
      'Category',
    );
    this.type = select(
      [
        { value: '', label: 'All answer types' },
        { value: 'Single Answer', label: `Single Answer (${single})` },
        { value: 'Set Answer', label: `Set Answer (${rows.length - single})` },
      ],
      '',
      'Answer type',
    );
    this.count = el('span', { className: 'ia-filter-count muted', attrs: { 'aria-live': 'polite' } });
    const saved = app.ui.dsqa ?? {};
    this.search.value = saved.q ?? '';
    if (saved.category !== undefined && categories.has(saved.category)) this.category.value = saved.category;
    if (saved.type) this.type.value = saved.type;
    const bar = el('div', { className: 'ia-filterbar', children: [this.search, this.category, this.type, this.count] });

    const table = el('table', { className: 'ia-table ia-dsqa' });
    const head = el('tr');
    for (const [t, cls] of [
      ['ID', 'c-id'],
      ['Problem', 'c-problem'],
      ['Category', 'c-cat'],
      ['Type', 'c-type'],
      ['Answer', 'c-answer'],
    ])
      head.append(el('th', { text: t, className: cls, attrs: { scope: 'col' } }));
    table.append(el('thead', { children: [head] }));
    this.tbody = el('tbody');
    table.append(this.tbody);
    this.empty = el('div', { className: 'ia-empty ia-table-empty', text: 'No row matches the filters.', attrs: { hidden: true } });
    const scroller = el('div', { className: 'ia-table-scroll', children: [table, this.empty] });
    this.root = el('div', { className: 'ia-tableview', children: [bar, scroller] });

    const refresh = debounce(() => this.render(), 120);
    this.search.addEventListener('input', refresh);
    this.search.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.search.value) {
        this.search.value = '';
        this.render();
      }
    });
    this.category.addEventListener('change', () => this.render());
    this.type.addEventListener('change', () => this.render());
    this.render();
  }

  private render(): void {
    const q = this.search.value.trim();
    const ql = q.toLowerCase();
    const cat = this.category.value;
    const type = this.type.value;
    this.app.saveUi({ dsqa: { q, category: cat, type } });
    const shown = this.rows.filter(
      (r) =>
        (!this.category.selectedIndex || r.category === cat) &&
        (!type || r.answerType === type) &&
        (!ql || r.problem.toLowerCase().includes(ql) || r.answer.toLowerCase().includes(ql) || r.id.toLowerCase() === ql),
    );
    const cell = (text: string) => html`<div class="ia-cell-text">${highlighted(text, searchRanges(text, q), 'ia-hit')}</div>`;
    render(
      shown.map((r) => {
        const set = r.answerType === 'Set Answer';
        return html`<tr data-id=${r.id}>
          <td class="c-id">${r.id}</td>
          <td class="c-problem">${cell(r.problem)}</td>
          <td class="c-cat">${chip(r.category || '—', 'ia-chip-cat')}</td>
          <td class="c-type">${chip(set ? 'Set' : 'Single', set ? 'ia-chip-set' : 'ia-chip-single', r.answerType)}</td>
          <td class="c-answer">${cell(r.answer)}</td>
        </tr>`;
      }),
      this.tbody,
    );
    this.empty.hidden = shown.length > 0;
    this.count.textContent = shown.length === this.rows.length ? `${this.rows.length} rows` : `${shown.length} of ${this.rows.length} rows`;
  }
}
