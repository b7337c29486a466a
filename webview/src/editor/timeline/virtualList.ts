// A virtualized vertical list: only rows in or near the viewport are in the DOM. Rows may have
// variable heights: heights are estimated, then measured with a ResizeObserver into a height
// cache; prefix offsets are rebuilt lazily and the first visible row is found by binary search.
// When a row above the viewport changes height, the scroll position is corrected so the rows
// the user is looking at do not move.

export interface VirtualListOptions {
  /** The scrolling element (overflow: auto). */
  scroller: HTMLElement;
  /** The element rows are placed in (position: relative); its height is set to the total. */
  content: HTMLElement;
  count: number;
  estimateHeight(index: number): number;
  createRow(index: number): HTMLElement;
  /** Refreshes a mounted row in place (selection, markers, tokens). */
  updateRow?(index: number, row: HTMLElement): void;
  /** Called when a row leaves the DOM. */
  releaseRow?(index: number, row: HTMLElement): void;
  /** Extra pixels rendered above and below the viewport. */
  overscan?: number;
  /** A row kept mounted even when off-screen (the selected row, for aria-activedescendant). */
  pinnedIndex?(): number | null;
  /** After each render: the mounted range and the range actually in view. */
  onRendered?(first: number, last: number, visibleFirst: number, visibleLast: number): void;
}

export class VirtualList {
  private heights = new Float64Array(0);
  private offsets = new Float64Array(1);
  private dirtyFrom = 0;
  private readonly mounted = new Map<number, HTMLElement>();
  private readonly resizeObserver: ResizeObserver;
  private readonly viewportObserver: ResizeObserver;
  private frame = 0;
  private count = 0;
  private viewportHeight = 0;
  private firstVisible = 0;
  private lastVisible = -1;
  /** Overrides opts.overscan (0: only the rows in view, for a first frame that should come fast). */
  overscanNow: number | undefined;
  /** The next render assumes the list is at the top of a window-high viewport instead of asking the layout. */
  private assumeTop = false;

  constructor(private readonly opts: VirtualListOptions) {
    this.resizeObserver = new ResizeObserver((entries) => this.onRowsResized(entries));
    this.viewportObserver = new ResizeObserver(() => {
      this.viewportHeight = this.opts.scroller.clientHeight;
      this.scheduleRender();
    });
    this.viewportObserver.observe(opts.scroller);
    opts.scroller.addEventListener('scroll', () => this.scheduleRender(), { passive: true });
    this.setCount(opts.count);
  }

  /**
   * Replaces every row (new data): drops mounted rows and re-estimates all heights. `fresh`: the
   * scroller has never scrolled and the page has not been laid out yet, so the rows are placed
   * without reading the layout (a read would lay out the whole page once more before its first frame).
   */
  setCount(count: number, fresh = false): void {
    for (const [i, row] of this.mounted) this.unmount(i, row);
    this.count = count;
    this.heights = new Float64Array(count);
    for (let i = 0; i < count; i++) this.heights[i] = this.opts.estimateHeight(i);
    this.offsets = new Float64Array(count + 1);
    this.dirtyFrom = 0;
    this.ensureOffsets();
    this.opts.content.style.height = `${this.totalHeight()}px`;
    if (fresh) this.assumeTop = true;
    else this.viewportHeight = this.opts.scroller.clientHeight;
    this.render();
  }

  get length(): number {
    return this.count;
  }

  totalHeight(): number {
    this.ensureOffsets();
    return this.offsets[this.count];
  }

  offsetOf(index: number): number {
    this.ensureOffsets();
    return this.offsets[Math.max(0, Math.min(index, this.count))];
  }

  heightOf(index: number): number {
    return this.heights[index] ?? 0;
  }

  /** The index of the row containing vertical offset `y` (binary search over prefix offsets). */
  indexAt(y: number): number {
    this.ensureOffsets();
    let lo = 0;
    let hi = this.count - 1;
    if (hi < 0) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.offsets[mid] <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  visibleRange(): { first: number; last: number } {
    return { first: this.firstVisible, last: this.lastVisible };
  }

  rowElement(index: number): HTMLElement | undefined {
    return this.mounted.get(index);
  }

  /** Re-estimates one row's height (e.g. it was collapsed) and re-renders it. */
  invalidate(index: number, rebuild = true): void {
    if (index < 0 || index >= this.count) return;
    const row = this.mounted.get(index);
    if (rebuild && row) {
      this.unmount(index, row);
    }
    const h = this.opts.estimateHeight(index);
    if (!row || rebuild) {
      const shift = this.setHeight(index, h, this.opts.scroller.scrollTop);
      if (shift) this.opts.scroller.scrollTop += shift;
    }
    this.render();
  }

  /** Calls updateRow on every mounted row. */
  refreshMounted(): void {
    if (!this.opts.updateRow) return;
    for (const [i, row] of this.mounted) this.opts.updateRow(i, row);
  }

  refreshRow(index: number): void {
    const row = this.mounted.get(index);
    if (row && this.opts.updateRow) this.opts.updateRow(index, row);
  }

  /** Scrolls so row `index` is visible: 'auto' scrolls minimally, 'center' centers it, 'start' puts it on top. */
  scrollToIndex(index: number, mode: 'auto' | 'center' | 'start' = 'auto'): void {
    if (index < 0 || index >= this.count) return;
    const top = this.offsetOf(index);
    const height = this.heights[index];
    const scroller = this.opts.scroller;
    const view = scroller.clientHeight || this.viewportHeight;
    let target = scroller.scrollTop;
    if (mode === 'start') target = top;
    else if (mode === 'center') target = top - Math.max(0, (view - Math.min(height, view)) / 2);
    else if (top < scroller.scrollTop) target = top;
    else if (top + height > scroller.scrollTop + view) target = height > view ? top : top + height - view;
    target = Math.max(0, Math.min(target, this.totalHeight() - view));
    if (Math.abs(target - scroller.scrollTop) > 0.5) scroller.scrollTop = target;
    this.render();
  }

  scheduleRender(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Mounts the rows in [scrollTop - overscan, scrollTop + height + overscan] now. */
  render(): void {
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
    }
    this.ensureOffsets();
    const scroller = this.opts.scroller;
    const overscan = this.overscanNow ?? this.opts.overscan ?? 400;
    const view = this.viewportHeight || (this.assumeTop ? window.innerHeight : scroller.clientHeight) || 800;
    const top = this.assumeTop ? 0 : scroller.scrollTop;
    this.assumeTop = false;
    let first = this.count ? this.indexAt(Math.max(0, top - overscan)) : 0;
    const last = this.count ? this.indexAt(top + view + overscan) : -1;
    if (first < 0) first = 0;
    this.firstVisible = this.count ? this.indexAt(top) : 0;
    this.lastVisible = this.count ? this.indexAt(top + view - 1) : -1;
    const pinned = this.opts.pinnedIndex?.() ?? null;

    for (const [i, row] of this.mounted) {
      if ((i < first || i > last) && i !== pinned) this.unmount(i, row);
    }
    const wanted: number[] = [];
    for (let i = first; i <= last; i++) wanted.push(i);
    if (pinned !== null && pinned >= 0 && pinned < this.count && (pinned < first || pinned > last)) wanted.push(pinned);
    const fragment = document.createDocumentFragment();
    for (const i of wanted) {
      let row = this.mounted.get(i);
      if (!row) {
        row = this.opts.createRow(i);
        row.dataset.index = String(i);
        row.style.position = 'absolute';
        row.style.left = '0';
        row.style.right = '0';
        this.mounted.set(i, row);
        fragment.appendChild(row);
        this.resizeObserver.observe(row);
      }
      row.style.transform = `translateY(${this.offsets[i]}px)`;
    }
    if (fragment.childNodes.length) this.opts.content.appendChild(fragment);
    this.opts.onRendered?.(first, last, this.firstVisible, this.lastVisible);
  }

  destroy(): void {
    this.resizeObserver.disconnect();
    this.viewportObserver.disconnect();
    for (const [i, row] of this.mounted) this.unmount(i, row);
  }

  private unmount(index: number, row: HTMLElement): void {
    this.resizeObserver.unobserve(row);
    row.remove();
    this.mounted.delete(index);
    this.opts.releaseRow?.(index, row);
  }

  /** Sets a row height; returns the scroll correction when the row lies above `anchorTop`. */
  private setHeight(index: number, h: number, anchorTop: number | null): number {
    const delta = h - this.heights[index];
    if (Math.abs(delta) < 0.5) return 0;
    this.ensureOffsets();
    const above = anchorTop !== null && this.offsets[index] + this.heights[index] <= anchorTop;
    this.heights[index] = h;
    this.dirtyFrom = Math.min(this.dirtyFrom, index);
    return above ? delta : 0;
  }

  private onRowsResized(entries: ResizeObserverEntry[]): void {
    let scrollDelta = 0;
    let changed = false;
    let anchorTop: number | null = null;
    for (const entry of entries) {
      const row = entry.target as HTMLElement;
      const index = Number(row.dataset.index);
      if (!Number.isInteger(index) || this.mounted.get(index) !== row) continue;
      const size = entry.borderBoxSize?.[0]?.blockSize ?? row.offsetHeight;
      if (size <= 0) continue; // detached or hidden
      if (Math.abs(size - this.heights[index]) >= 0.5) {
        anchorTop ??= this.opts.scroller.scrollTop;
        scrollDelta += this.setHeight(index, size, anchorTop);
        changed = true;
      }
    }
    if (!changed) return;
    this.ensureOffsets();
    this.opts.content.style.height = `${this.totalHeight()}px`;
    if (scrollDelta) this.opts.scroller.scrollTop += scrollDelta;
    this.render();
  }

  private ensureOffsets(): void {
    if (this.dirtyFrom > this.count) return;
    const { heights, offsets } = this;
    let acc = offsets[this.dirtyFrom];
    for (let i = this.dirtyFrom; i < this.count; i++) {
      offsets[i] = acc;
      acc += heights[i];
    }
    offsets[this.count] = acc;
    this.dirtyFrom = this.count + 1;
    this.opts.content.style.height = `${acc}px`;
  }
}
