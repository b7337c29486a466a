// The record list of a JSONL file (shown when it holds more than one record): filters
// all / annotated / audited / disagreeing, and H / L to move between records.
import type { RecordListEntry } from '../../../src/shared/protocol';
import type { HostConnection } from './hostConnection';
import type { RecordFilter, Store } from './state';
import { el, visiblePlain } from '../common/dom';
import { VirtualList } from './timeline/virtualList';

const FILTERS: { id: RecordFilter; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'annotated', label: 'Annotated' },
  { id: 'audited', label: 'Audited' },
  { id: 'disagreeing', label: 'Disagree' },
];

export class RecordList {
  readonly root: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly content: HTMLElement;
  private readonly filterBar: HTMLElement;
  private readonly list: VirtualList;
  private filtered: RecordListEntry[] = [];
  filter: RecordFilter = 'all';
  onFilterChange: () => void = () => {};
  /** Called before asking the host for another record (flushes pending edits). */
  beforeSwitch: () => void = () => {};

  constructor(
    private readonly store: Store,
    private readonly host: HostConnection,
    filter: RecordFilter = 'all',
  ) {
    this.filter = filter;
    this.root = el('section', { className: 'panel-section records', attrs: { 'aria-labelledby': 'records-heading' } });
    const head = el('div', { className: 'section-head' });
    head.append(el('h2', { text: 'Records', attrs: { id: 'records-heading' } }));
    this.filterBar = el('div', { className: 'seg', attrs: { role: 'radiogroup', 'aria-label': 'Filter records' } });
    this.scroller = el('div', { className: 'rl-scroller', attrs: { role: 'listbox', tabindex: 0, 'aria-label': 'Records in this file' } });
    this.content = el('div', { className: 'rl-content' });
    this.scroller.append(this.content);
    this.root.append(head, this.filterBar, this.scroller);
    this.list = new VirtualList({
      scroller: this.scroller,
      content: this.content,
      count: 0,
      overscan: 200,
      estimateHeight: () => 26,
      createRow: (i) => this.createItem(i),
      updateRow: (i, item) => this.updateItem(i, item),
    });
    this.content.addEventListener('click', (ev) => {
      const item = (ev.target as HTMLElement).closest<HTMLElement>('.rl-item');
      if (item?.dataset.id) this.open(item.dataset.id);
    });
    this.scroller.addEventListener('keydown', (ev) => {
      if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
        ev.preventDefault();
        ev.stopPropagation();
        this.step(ev.key === 'ArrowDown' ? 1 : -1);
      }
    });
    store.on('records', () => this.refresh());
    store.on('view', () => this.refresh());
    this.refresh();
  }

  get visible(): boolean {
    return this.store.records.length > 1;
  }

  setFilter(filter: RecordFilter): void {
    this.filter = filter;
    this.refresh();
    this.onFilterChange();
  }

  /** Moves to the previous/next record of the filtered list (H / L). */
  step(direction: 1 | -1): void {
    if (!this.filtered.length) return;
    const i = this.filtered.findIndex((r) => r.id === this.store.recordId);
    const next = i < 0 ? (direction > 0 ? 0 : this.filtered.length - 1) : i + direction;
    if (next < 0 || next >= this.filtered.length) return;
    this.open(this.filtered[next].id);
  }

  private open(id: string): void {
    if (id === this.store.recordId) return;
    this.beforeSwitch();
    this.host.post({ type: 'selectRecord', recordId: id });
  }

  private matches(r: RecordListEntry, f: RecordFilter): boolean {
    return f === 'all' || (f === 'annotated' && r.annotated) || (f === 'audited' && r.audited) || (f === 'disagreeing' && r.disagreeing);
  }

  private refresh(): void {
    this.root.hidden = !this.visible;
    if (!this.visible) return;
    const records = this.store.records;
    this.filterBar.replaceChildren(
      ...FILTERS.map((f) => {
        const n = records.filter((r) => this.matches(r, f.id)).length;
        const b = el('button', {
          className: `seg-btn${this.filter === f.id ? ' is-on' : ''}`,
          text: `${f.label} ${n}`,
          attrs: { type: 'button', role: 'radio', 'aria-checked': this.filter === f.id ? 'true' : 'false' },
        });
        b.addEventListener('click', () => this.setFilter(f.id));
        return b;
      }),
    );
    this.filtered = records.filter((r) => this.matches(r, this.filter));
    this.list.setCount(this.filtered.length);
    const i = this.filtered.findIndex((r) => r.id === this.store.recordId);
    if (i >= 0) {
      this.list.scrollToIndex(i, 'auto');
      this.scroller.setAttribute('aria-activedescendant', `rl-item-${i}`);
    }
  }

  private createItem(i: number): HTMLElement {
    const r = this.filtered[i];
    const item = el('div', {
      className: 'rl-item',
      attrs: { role: 'option', id: `rl-item-${i}`, 'data-id': r.id, title: r.line !== undefined ? `line ${r.line}: ${r.id}` : r.id },
    });
    item.append(el('span', { className: 'rl-label', text: visiblePlain(r.label || r.id) }));
    const flags = el('span', { className: 'rl-flags' });
    if (r.annotated) flags.append(el('span', { className: 'mk mk-critical', text: '✎', title: 'annotated' }));
    if (r.audited) flags.append(el('span', { className: 'mk mk-audit', text: 'A', title: 'audited' }));
    if (r.disagreeing) flags.append(el('span', { className: 'mk mk-disagree', text: '≠', title: 'your annotation and the newest audit disagree' }));
    item.append(flags);
    const state = [r.annotated && 'annotated', r.audited && 'audited', r.disagreeing && 'disagreeing'].filter(Boolean).join(', ');
    item.setAttribute('aria-label', `${r.label || r.id}${state ? ', ' + state : ''}`);
    this.updateItem(i, item);
    return item;
  }

  private updateItem(i: number, item: HTMLElement): void {
    const current = this.filtered[i]?.id === this.store.recordId;
    item.classList.toggle('is-current', current);
    item.setAttribute('aria-selected', current ? 'true' : 'false');
  }
}
