// The outline: every decision step (position, agent, tool calls, preview), virtualized.
// Clicking an entry (or Enter on it) reveals that row in the timeline; the entry of the step
// the selection belongs to is highlighted.
import type { Store } from './state';
import type { Markers } from './markers';
import { el, visiblePlain } from '../common/dom';
import { VirtualList } from './timeline/virtualList';
import { roleLabel } from './timeline/rowView';
import { plural } from './format';

export class OutlinePanel {
  readonly root: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly content: HTMLElement;
  private readonly count: HTMLElement;
  private readonly list: VirtualList;
  private current = -1; // index into decisionIndices
  private focusIndex = -1;

  constructor(
    private readonly store: Store,
    private readonly markers: Markers,
    private readonly reveal: (position: number, keepFocus?: boolean) => void,
  ) {
    this.root = el('section', { className: 'panel-section outline', attrs: { 'aria-labelledby': 'outline-heading' } });
    const head = el('div', { className: 'section-head' });
    head.append(el('h2', { text: 'Outline', attrs: { id: 'outline-heading' } }));
    this.count = el('span', { className: 'section-count' });
    head.append(this.count);
    this.scroller = el('div', {
      className: 'ol-scroller',
      attrs: { role: 'listbox', tabindex: 0, 'aria-label': 'Decision steps' },
    });
    this.content = el('div', { className: 'ol-content' });
    this.scroller.append(this.content);
    this.root.append(head, this.scroller);

    this.list = new VirtualList({
      scroller: this.scroller,
      content: this.content,
      count: 0,
      overscan: 300,
      estimateHeight: () => this.itemHeight(),
      createRow: (i) => this.createItem(i),
      updateRow: (i, item) => this.updateItem(i, item),
      pinnedIndex: () => (this.focusIndex >= 0 ? this.focusIndex : null),
    });

    this.content.addEventListener('click', (ev) => {
      const item = (ev.target as HTMLElement).closest<HTMLElement>('.ol-item');
      if (!item) return;
      const i = Number(item.dataset.index);
      this.setFocusIndex(i);
      this.reveal(Number(item.dataset.position));
    });
    this.scroller.addEventListener('keydown', (ev) => this.onKey(ev));

    store.on('view', () => this.showView());
    store.on('selection', ({ current }) => this.follow(current));
    // Built after the first view (App.mountPanels): draw what the store holds now.
    if (store.view) {
      this.showView();
      this.follow(store.selected);
    }
  }

  private showView(): void {
    this.current = -1;
    this.focusIndex = -1;
    this.list.setCount(this.store.decisionIndices.length);
    this.count.textContent = plural(this.store.decisionIndices.length, 'decision step');
  }

  refreshMarkers(): void {
    this.list.refreshMounted();
  }

  private itemHeight(): number {
    return 40;
  }

  private createItem(i: number): HTMLElement {
    const row = this.store.rows[this.store.decisionIndices[i]];
    const item = el('div', {
      className: `ol-item${row.isFinalAnswer ? ' is-final' : ''}`,
      attrs: {
        role: 'option',
        id: `ol-item-${row.position}`,
        'data-position': row.position,
        'aria-posinset': i + 1,
        'aria-setsize': this.store.decisionIndices.length,
      },
    });
    const top = el('div', { className: 'ol-top' });
    top.append(el('span', { className: 'ol-pos', text: String(row.position) }));
    top.append(el('span', { className: 'ol-badges', attrs: { 'aria-hidden': 'true' } }));
    const calls = row.calls.length ? row.calls.join(' · ') : row.isFinalAnswer ? 'final answer' : 'reply';
    top.append(el('span', { className: 'ol-calls', text: visiblePlain(calls) }));
    const bottom = el('div', { className: 'ol-preview' });
    if (row.agent) bottom.append(el('span', { className: 'ol-agent', text: `${roleLabel(row)} · ` }));
    bottom.append(visiblePlain(row.preview || ''));
    item.append(top, bottom);
    item.title = `${row.position}: ${calls}`;
    this.updateItem(i, item);
    return item;
  }

  private updateItem(i: number, item: HTMLElement): void {
    const rowIndex = this.store.decisionIndices[i];
    const row = this.store.rows[rowIndex];
    item.classList.toggle('is-current', i === this.current);
    item.classList.toggle('is-focused', i === this.focusIndex);
    item.setAttribute('aria-selected', i === this.current ? 'true' : 'false');
    const badges = item.querySelector('.ol-badges') as HTMLElement;
    const notes = this.markers.notes.get(rowIndex) ?? [];
    badges.replaceChildren(
      ...notes
        .filter((n) => n.kind !== 'cited')
        .slice(0, 3)
        .map((n) => el('span', { className: `mk mk-${n.kind}`, text: n.badge, title: n.text })),
    );
    const label = [`Step ${row.position}`, row.calls.join(', ') || (row.isFinalAnswer ? 'final answer' : 'reply'), ...notes.map((n) => n.text)];
    item.setAttribute('aria-label', label.join(', '));
  }

  /** Highlights the decision step that the selected message belongs to. */
  private follow(position: number | null): void {
    let next = -1;
    if (position !== null) {
      const decision = this.store.decisionAtOrBefore(position);
      if (decision !== null) {
        const rowIndex = this.store.indexOf(decision);
        next = this.store.decisionIndices.indexOf(rowIndex);
      }
    }
    if (next === this.current) return;
    const prev = this.current;
    this.current = next;
    if (prev >= 0) this.list.refreshRow(prev);
    if (next >= 0) {
      this.list.refreshRow(next);
      this.list.scrollToIndex(next, 'auto');
    }
  }

  private setFocusIndex(i: number): void {
    const prev = this.focusIndex;
    this.focusIndex = i;
    if (prev >= 0) this.list.refreshRow(prev);
    this.list.scrollToIndex(i, 'auto');
    this.list.refreshRow(i);
    const row = this.store.rows[this.store.decisionIndices[i]];
    if (row) this.scroller.setAttribute('aria-activedescendant', `ol-item-${row.position}`);
  }

  private onKey(ev: KeyboardEvent): void {
    const n = this.store.decisionIndices.length;
    if (!n) return;
    const base = this.focusIndex >= 0 ? this.focusIndex : Math.max(0, this.current);
    let next = base;
    if (ev.key === 'ArrowDown') next = Math.min(n - 1, base + 1);
    else if (ev.key === 'ArrowUp') next = Math.max(0, base - 1);
    else if (ev.key === 'Home') next = 0;
    else if (ev.key === 'End') next = n - 1;
    else if (ev.key === 'Enter' || ev.key === ' ') {
      const row = this.store.rows[this.store.decisionIndices[base]];
      if (row) this.reveal(row.position, true);
      ev.preventDefault();
      ev.stopPropagation();
      return;
    } else return;
    ev.preventDefault();
    ev.stopPropagation();
    this.setFocusIndex(next);
  }
}
