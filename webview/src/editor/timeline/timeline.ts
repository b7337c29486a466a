// The timeline: a virtualized listbox with one row per message. Owns selection display,
// expansion (bodies fetched from the host with getMessage and cached) and scrolling.
import type { MessageBody } from '../../../../src/shared/protocol';
import type { HostConnection } from '../hostConnection';
import type { Markers } from '../markers';
import type { Store } from '../state';
import { el } from '../../common/dom';
import { createRowElement, isOneLine, rowDomId, updateRowElement } from './rowView';
import { renderMessageBody } from './messageBody';
import { VirtualList } from './virtualList';

/** Bodies kept in memory, by total characters (a few 1 MB tool returns at most). */
const BODY_CACHE_CHARS = 24_000_000;

export class Timeline {
  readonly root: HTMLElement;
  readonly scroller: HTMLElement;
  private readonly content: HTMLElement;
  private readonly list: VirtualList;
  private lineHeight = 18;
  private viewsShown = 0;
  private readonly bodies = new Map<number, MessageBody>();
  private bodiesChars = 0;
  private readonly loading = new Map<number, Promise<MessageBody>>();
  private highlight: RegExp | null = null;
  /** Called after the viewport moves (for the density strip and state persistence). */
  onViewportChange: (first: number, last: number) => void = () => {};

  constructor(
    private readonly store: Store,
    private readonly markers: Markers,
    private readonly host: HostConnection,
    private readonly reveal: (position: number) => void,
  ) {
    this.root = el('div', { className: 'timeline' });
    this.scroller = el('div', {
      className: 'tl-scroller',
      attrs: { role: 'listbox', tabindex: 0, 'aria-label': 'Timeline: one row per message', 'aria-multiselectable': 'false' },
    });
    this.content = el('div', { className: 'tl-content' });
    this.scroller.append(this.content);
    this.root.append(this.scroller);
    this.measureLineHeight();

    this.list = new VirtualList({
      scroller: this.scroller,
      content: this.content,
      count: 0,
      overscan: 360,
      estimateHeight: (i) => this.estimate(i),
      createRow: (i) => this.createRow(i),
      updateRow: (i, row) => this.updateRow(i, row),
      pinnedIndex: () => (this.store.selected === null ? null : this.store.indexOf(this.store.selected)),
      onRendered: (_first, _last, visibleFirst, visibleLast) => this.onViewportChange(visibleFirst, visibleLast),
    });

    this.content.addEventListener('click', (ev) => this.onClick(ev));
    this.content.addEventListener('dblclick', (ev) => {
      const target = ev.target as HTMLElement;
      if (target.closest('.msg-body')) return;
      const row = target.closest<HTMLElement>('.tl-row');
      if (row) this.toggle(Number(row.dataset.position));
    });
    this.scroller.addEventListener('focus', () => {
      if (this.store.selected === null && this.store.rows.length) this.select(this.firstVisiblePosition(), 'none');
    });

    store.on('view', () => this.setView());
    store.on('selection', ({ previous, current }) => {
      for (const p of [previous, current]) if (p !== null) this.list.refreshRow(this.store.indexOf(p));
      if (current === null) this.scroller.removeAttribute('aria-activedescendant');
      else {
        if (!this.list.rowElement(this.store.indexOf(current))) this.list.render(); // mounts the pinned row
        this.scroller.setAttribute('aria-activedescendant', rowDomId(current));
      }
    });
    store.on('expanded', ({ position }) => this.list.invalidate(this.store.indexOf(position)));
    store.on('tokens', () => this.list.refreshMounted());
    store.on('search', () => this.updateHighlight());
  }

  setView(): void {
    this.bodies.clear();
    this.bodiesChars = 0;
    this.loading.clear();
    // The constructor measured already; measuring again now would lay out the whole new page.
    // The first view mounts only the rows in view, without asking the layout where they are;
    // the rows around them follow (afterFirstPaint).
    const first = this.viewsShown++ === 0;
    if (first) this.list.overscanNow = 0;
    else {
      this.measureLineHeight();
      this.scroller.scrollTop = 0;
    }
    this.list.setCount(this.store.rows.length, first);
    this.scroller.removeAttribute('aria-activedescendant');
  }

  /** Once the first rows are on screen: mount the rows around the view too. */
  afterFirstPaint(): void {
    if (this.list.overscanNow === undefined) return;
    this.list.overscanNow = undefined;
    this.list.render();
  }

  /** After markers were recomputed. */
  refreshMarkers(): void {
    this.list.refreshMounted();
  }

  /** Selects `position`; `scroll` decides how the row is brought into view. */
  select(position: number, scroll: 'auto' | 'center' | 'start' | 'none' = 'auto'): void {
    const index = this.store.indexOf(position);
    if (index < 0) return;
    this.store.select(position);
    if (scroll !== 'none') this.list.scrollToIndex(index, scroll);
  }

  /** Selects and scrolls a row into the middle of the view (search, outline, chips). */
  revealPosition(position: number): void {
    this.select(position, 'center');
  }

  focus(): void {
    this.scroller.focus({ preventScroll: true });
  }

  moveBy(delta: number): void {
    const rows = this.store.rows;
    if (!rows.length) return;
    const current = this.store.selected === null ? -1 : this.store.indexOf(this.store.selected);
    const base = current < 0 ? (delta > 0 ? this.list.visibleRange().first - 1 : this.list.visibleRange().first + 1) : current;
    const next = Math.max(0, Math.min(rows.length - 1, base + delta));
    this.select(rows[next].position);
  }

  moveToEdge(end: boolean): void {
    const rows = this.store.rows;
    if (rows.length) this.select(rows[end ? rows.length - 1 : 0].position, end ? 'auto' : 'start');
  }

  movePage(direction: 1 | -1): void {
    const { first, last } = this.list.visibleRange();
    this.moveBy(direction * Math.max(1, last - first - 1));
  }

  /** Next/previous decision step relative to the selection. */
  moveDecision(direction: 1 | -1): void {
    const idx = this.store.decisionIndices;
    if (!idx.length) return;
    const current = this.store.selected === null ? (direction > 0 ? -1 : Infinity) : this.store.indexOf(this.store.selected);
    let target: number | undefined;
    if (direction > 0) target = idx.find((i) => i > current);
    else
      for (let k = idx.length - 1; k >= 0; k--)
        if (idx[k] < current) {
          target = idx[k];
          break;
        }
    if (target !== undefined) this.select(this.store.rows[target].position, 'auto');
  }

  toggle(position: number): void {
    this.store.setExpanded(position, !this.store.expanded.has(position));
  }

  scrollTop(): number {
    return this.scroller.scrollTop;
  }

  restoreScroll(top: number): void {
    this.scroller.scrollTop = top;
    this.list.render();
  }

  firstVisiblePosition(): number {
    const { first } = this.list.visibleRange();
    return this.store.rows[Math.max(0, first)]?.position ?? 0;
  }

  visibleRange(): { first: number; last: number } {
    return this.list.visibleRange();
  }

  scrollToIndex(index: number): void {
    this.list.scrollToIndex(index, 'center');
  }

  /** Fetches (or returns the cached) body of a message. */
  getBody(position: number): Promise<MessageBody> {
    const cached = this.bodies.get(position);
    if (cached) return Promise.resolve(cached);
    let p = this.loading.get(position);
    if (!p) {
      const recordId = this.store.recordId;
      p = this.host.request('getMessage', { recordId, position }).then(
        (body) => {
          this.loading.delete(position);
          if (recordId === this.store.recordId) this.cacheBody(position, body);
          return body;
        },
        (err) => {
          this.loading.delete(position);
          throw err;
        },
      );
      this.loading.set(position, p);
    }
    return p;
  }

  private cacheBody(position: number, body: MessageBody): void {
    const size = body.content.length + (body.reasoning?.length ?? 0) + body.toolCalls.reduce((n, c) => n + c.rawArguments.length, 0);
    this.bodies.set(position, body);
    this.bodiesChars += size;
    // Evict the oldest bodies that are not expanded.
    for (const [p, b] of this.bodies) {
      if (this.bodiesChars <= BODY_CACHE_CHARS) break;
      if (this.store.expanded.has(p)) continue;
      this.bodies.delete(p);
      this.bodiesChars -= b.content.length + (b.reasoning?.length ?? 0) + b.toolCalls.reduce((n, c) => n + c.rawArguments.length, 0);
    }
  }

  private measureLineHeight(): void {
    const probe = el('div', { className: 'tl-probe', text: 'Xg' });
    document.body.append(probe);
    const h = probe.getBoundingClientRect().height;
    probe.remove();
    if (h > 8 && h < 80) this.lineHeight = Math.ceil(h);
    this.root.style.setProperty('--tl-lh', `${this.lineHeight}px`);
    this.root.style.setProperty('--tl-h1', `${this.lineHeight + 8}px`);
    this.root.style.setProperty('--tl-h2', `${this.lineHeight * 2 + 10}px`);
  }

  private collapsedHeight(index: number): number {
    const row = this.store.rows[index];
    return row && isOneLine(row) ? this.lineHeight + 8 : this.lineHeight * 2 + 10;
  }

  private estimate(index: number): number {
    const row = this.store.rows[index];
    const base = this.collapsedHeight(index);
    if (!row || !this.store.expanded.has(row.position)) return base;
    return base + Math.min(window.innerHeight * 0.6, 80 + row.chars / 6);
  }

  private context(index: number) {
    const row = this.store.rows[index];
    return {
      markers: this.markers,
      total: this.store.rows.length,
      selected: this.store.selected === row.position,
      expanded: this.store.expanded.has(row.position),
    };
  }

  private createRow(index: number): HTMLElement {
    const row = this.store.rows[index];
    const ctx = this.context(index);
    const rowEl = createRowElement(row, index, ctx);
    if (ctx.expanded) rowEl.append(this.bodyElement(row.position));
    return rowEl;
  }

  private updateRow(index: number, rowEl: HTMLElement): void {
    const row = this.store.rows[index];
    if (row) updateRowElement(row, index, rowEl, this.context(index));
  }

  private bodyElement(position: number): HTMLElement {
    const holder = el('div', { className: 'tl-body' });
    const row = this.store.rowAt(position)!;
    const fill = (body: MessageBody) => {
      holder.replaceChildren(renderMessageBody({ row, body, highlight: this.highlight, onReveal: this.reveal }));
    };
    const cached = this.bodies.get(position);
    if (cached) fill(cached);
    else {
      holder.append(el('div', { className: 'msg-loading', text: 'Loading message…', attrs: { role: 'status' } }));
      this.getBody(position).then(fill, (err: Error) => {
        holder.replaceChildren(el('div', { className: 'msg-error', text: `Could not load message ${position}: ${err.message}`, attrs: { role: 'alert' } }));
      });
    }
    return holder;
  }

  private onClick(ev: MouseEvent): void {
    const target = ev.target as HTMLElement;
    const rowEl = target.closest<HTMLElement>('.tl-row');
    if (!rowEl) return;
    const position = Number(rowEl.dataset.position);
    const inBody = !!target.closest('.tl-body');
    if (!inBody) {
      this.select(position, 'none');
      this.focus();
      if (target.closest('.tl-twisty')) this.toggle(position);
    } else if (this.store.selected !== position) {
      this.select(position, 'none');
    }
  }

  private updateHighlight(): void {
    const req = this.store.search.request;
    let re: RegExp | null = null;
    if (req && req.text && this.store.search.positions.length) {
      try {
        const source = req.regex ? req.text : req.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        re = new RegExp(source, req.caseSensitive ? 'g' : 'gi');
      } catch {
        re = null;
      }
    }
    const same = (a: RegExp | null, b: RegExp | null) => (a?.source ?? null) === (b?.source ?? null) && (a?.flags ?? null) === (b?.flags ?? null);
    if (same(re, this.highlight)) return;
    this.highlight = re;
    // Rebuild expanded bodies that are on screen so the marks follow the search.
    for (const p of this.store.expanded) this.list.invalidate(this.store.indexOf(p));
  }
}
