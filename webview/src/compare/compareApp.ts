// The compare view (issue 16 item 4): two trajectories side by side, one row per pair of the
// decision-step alignment the host built (src/core/collections/compareView.ts over align.ts).
// Each side scrolls on its own pane, a virtual list (the editor timeline's VirtualList): only the
// rows in view and an overscan are in the DOM, so two runs of 5,000 steps (about 10,000 rows) open
// and scroll as fast as two of 50. Scrolling one pane scrolls the other to the aligned row (the
// same row index, at the same fraction of the row), and the two rows of a pair are given the same
// height (each row's cell gets the taller side's content height) so aligned steps sit level. The
// first divergence is marked, and `d` (or the button) jumps to it. Everything is a Lit template
// with text bindings only: trajectory text from the web is never parsed as HTML. Keys: j/k move,
// g/Home and G/End the ends, d first divergence, Enter opens the selected step of the focused side
// (a by default) in the trajectory editor.
import './compare.css';
import { html, nothing, render, type TemplateResult } from 'lit';
import { ROOT_CAUSE_LABELS, type RootCause } from '../../../src/core/model/rootCauses';
import type { CompareFromWebview, CompareSide, CompareStep, CompareToWebview, CompareViewModel, CompareViewState } from '../../../src/shared/compareProtocol';
import { HostLink, assertNever } from '../common/hostLink';
import { VirtualList } from '../editor/timeline/virtualList';

type SideId = 'a' | 'b';
const SIDES: SideId[] = ['a', 'b'];

const rootCauseText = (id: string | null) => (id === null ? 'no root cause' : (ROOT_CAUSE_LABELS[id as RootCause] ?? id));
const stepText = (step: number | null) => (step === null ? 'no critical step' : `critical step ${step}`);
const otherSide = (side: SideId): SideId => (side === 'a' ? 'b' : 'a');

/** Pixels around a row's cell: padding 4 + 4 and the bottom border (compare.css .cmp-row); the divergence start adds its 2 px top border. */
const ROW_CHROME = 9;
/** One line of step text (13 px mono), and the head line with its badges, for estimates before a row is measured. */
const LINE_PX = 17;
const HEAD_PX = 19;
/** Rows mounted above and below the view: a few rows, so a wheel turn never shows blank space. */
const OVERSCAN_PX = 300;
/** How long a jump is kept in place while the rows it lands on are measured (their heights replace estimates). */
const REVEAL_SETTLE_MS = 3000;

export class CompareApp {
  private readonly host = new HostLink<CompareFromWebview, CompareToWebview>('compare');
  private readonly mount: HTMLElement;
  private view: CompareViewModel | undefined;
  private status: { text: string; kind: 'info' | 'error' } | undefined;
  private selected = -1;
  private focusedSide: SideId = 'a';
  private restoredScroll: number | undefined;
  /** The scrollTop each pane was last set to by the other's scroll (or a jump), so that echo is not synced back. */
  private readonly echo: Record<SideId, number | undefined> = { a: undefined, b: undefined };
  private readonly lists: Partial<Record<SideId, VirtualList>> = {};
  /** Each side's measured content height per row (0: not measured yet); a pair's cells get the larger. */
  private natural: Record<SideId, Float32Array> = { a: new Float32Array(0), b: new Float32Array(0) };
  /** Content elements mounted since the last render of their side, measured together in one layout. */
  private readonly fresh: Record<SideId, HTMLElement[]> = { a: [], b: [] };
  /** Which side and row a mounted content element is, for the resize observer. */
  private readonly contents = new WeakMap<Element, { side: SideId; index: number }>();
  private readonly contentResize = new ResizeObserver((entries) => this.onContentResized(entries));
  /** Rows whose levelled height changed while a resize was being delivered; applied in the next frame (a write inside the observer would loop it). */
  private readonly levelLater = new Set<number>();
  private levelFrame = 0;
  /** A jump (d, End, a selection) kept in place while the rows around it are measured; a user's wheel or pointer drops it. */
  private pendingReveal: { index: number; mode: 'auto' | 'start'; until: number } | undefined;
  private revealing = false;
  private revealFrame = 0;
  /** Characters of step text per line on a pane, for height estimates. */
  private charsPerLine = 80;

  constructor(mount: HTMLElement) {
    this.mount = mount;
    document.addEventListener('securitypolicyviolation', (e) =>
      this.host.post({ type: 'cspViolation', directive: e.effectiveDirective || e.violatedDirective, blocked: e.blockedURI, sample: e.sample ?? '' }),
    );
    window.addEventListener('error', (e) => {
      // Not a failure: when measured heights replace estimates, the virtual list mounts rows from
      // inside its resize observer, and Chromium reports their first size notification, which
      // comes in the next frame, with this event. Nothing is lost or shown wrong.
      if (e.message.startsWith('ResizeObserver loop')) return;
      this.host.post({ type: 'log', level: 'error', message: `compare: ${e.message}` });
    });
    const saved = this.host.getState<CompareViewState>() ?? {};
    this.selected = saved.selectedRow ?? -1;
    this.restoredScroll = saved.scrollTop;
    document.addEventListener('keydown', (e) => this.onKey(e));
    this.draw();
    this.host.onMessage((msg) => this.onMessage(msg));
    this.host.post({ type: 'ready' });
  }

  private onMessage(msg: CompareToWebview): void {
    switch (msg.type) {
      case 'init': {
        this.view = msg.view;
        if (this.selected >= msg.view.rows.length) this.selected = -1;
        const a = msg.view.a;
        const b = msg.view.b;
        document.title = `Compare ${a.file}#${a.record} ↔ ${b.file}#${b.record}`;
        this.draw();
        this.setRows(msg.view);
        const pane = this.pane('a');
        if (pane && this.restoredScroll !== undefined) pane.scrollTop = this.restoredScroll;
        else if (this.selected >= 0) this.reveal(this.selected, 'auto');
        this.restoredScroll = undefined;
        if (this.selected < 0 && msg.view.rows.length) this.select(0, false);
        pane?.focus({ preventScroll: true });
        requestAnimationFrame(() =>
          this.host.post({ type: 'rendered', rows: msg.view.rows.length, domRows: this.mount.querySelectorAll('.cmp-pane[data-side="a"] .cmp-row').length }),
        );
        break;
      }
      case 'status':
        this.status = { text: msg.text, kind: msg.kind };
        this.draw();
        break;
      default:
        assertNever(msg);
    }
  }

  private pane(side: SideId): HTMLElement | null {
    return this.mount.querySelector<HTMLElement>(`.cmp-pane[data-side="${side}"]`);
  }

  /** Gives both panes the view's rows: a virtual list each, created on the first view. */
  private setRows(view: CompareViewModel): void {
    const count = view.rows.length;
    this.natural = { a: new Float32Array(count), b: new Float32Array(count) };
    const width = this.pane('a')?.clientWidth ?? 0;
    // 13 px monospace is about 7.8 px a character; the row's padding takes 20 px.
    if (width > 0) this.charsPerLine = Math.max(20, Math.floor((width - 20) / 7.8));
    for (const side of SIDES) {
      const existing = this.lists[side];
      if (existing) {
        existing.setCount(count);
        continue;
      }
      const pane = this.pane(side);
      const content = pane?.querySelector<HTMLElement>('.cmp-rows');
      if (!pane || !content) continue;
      this.lists[side] = new VirtualList({
        scroller: pane,
        content,
        count,
        overscan: OVERSCAN_PX,
        estimateHeight: (i) => this.estimateHeight(i),
        createRow: (i) => this.createRow(side, i),
        updateRow: (i, row) => this.decorate(row, i),
        releaseRow: (_i, row) => this.releaseRow(row),
        // The selected row stays mounted, so aria-activedescendant always names an element.
        pinnedIndex: () => (this.selected >= 0 ? this.selected : null),
        onRendered: () => this.onRendered(side),
      });
      pane.addEventListener('scroll', () => this.syncFrom(side), { passive: true });
      pane.addEventListener('focus', () => (this.focusedSide = side));
      // The user scrolls: a jump still settling gives way.
      for (const type of ['wheel', 'pointerdown', 'touchstart'] as const)
        pane.addEventListener(type, () => (this.pendingReveal = undefined), { passive: true });
      pane.addEventListener('click', (e) => {
        const index = this.rowIndexOf(e.target);
        if (index !== undefined) this.select(index, false);
      });
      pane.addEventListener('dblclick', (e) => {
        const index = this.rowIndexOf(e.target);
        if (index !== undefined && this.view?.rows[index]?.[side]) this.open(side, index);
      });
    }
  }

  private rowIndexOf(target: EventTarget | null): number | undefined {
    const row = target instanceof Element ? target.closest<HTMLElement>('.cmp-row') : null;
    const index = row ? Number(row.dataset.row) : NaN;
    return Number.isInteger(index) ? index : undefined;
  }

  // ---------- rows: created, levelled, released ----------

  private estimateHeight(index: number): number {
    const row = this.view?.rows[index];
    if (!row) return LINE_PX + ROW_CHROME;
    const chrome = ROW_CHROME + (index === this.view?.firstDivergenceRow ? 2 : 0);
    const measured = Math.max(this.natural.a[index] ?? 0, this.natural.b[index] ?? 0);
    if (measured > 0) return measured + chrome;
    const side = (step: CompareStep | null) => {
      if (!step) return LINE_PX;
      const lines = (text: string, max: number) => Math.min(max, Math.max(1, Math.ceil(text.length / this.charsPerLine)));
      return HEAD_PX + lines(step.text, 4) * LINE_PX + (step.result ? lines(step.result, 2) * LINE_PX : 0);
    };
    return Math.max(side(row.a), side(row.b)) + chrome;
  }

  private createRow(side: SideId, index: number): HTMLElement {
    const data = this.view!.rows[index];
    const step = data[side];
    const row = document.createElement('div');
    row.id = `cmp-${side}-row-${index}`;
    row.setAttribute('role', 'listitem');
    row.setAttribute('aria-posinset', String(index + 1));
    row.setAttribute('aria-setsize', String(this.view!.rows.length));
    row.dataset.row = String(index);
    row.dataset.position = step ? String(step.position) : '';
    row.className = ['cmp-row', data.kind, data.firstDivergence ? 'first-divergence' : '', index === this.view?.firstDivergenceRow ? 'divergence-start' : '']
      .filter(Boolean)
      .join(' ');
    this.decorate(row, index);
    render(this.cell(side, step, index), row);
    const cell = row.firstElementChild as HTMLElement;
    const content = cell.firstElementChild as HTMLElement;
    const level = this.levelOf(index);
    if (level > 0) cell.style.minHeight = `${level}px`;
    this.contents.set(content, { side, index });
    this.fresh[side].push(content);
    return row;
  }

  private decorate(row: HTMLElement, index: number): void {
    row.classList.toggle('selected', index === this.selected);
    row.setAttribute('aria-selected', String(index === this.selected));
  }

  private releaseRow(row: HTMLElement): void {
    const content = row.firstElementChild?.firstElementChild;
    if (!content) return;
    this.contentResize.unobserve(content);
    this.contents.delete(content);
  }

  private levelOf(index: number): number {
    return Math.max(this.natural.a[index] ?? 0, this.natural.b[index] ?? 0);
  }

  /** Sets a row's cell on both sides to the pair's level (the taller content), where it is mounted. */
  private applyLevel(index: number): void {
    const level = this.levelOf(index);
    if (level <= 0) return;
    for (const side of SIDES) {
      const cell = this.lists[side]?.rowElement(index)?.firstElementChild as HTMLElement | null | undefined;
      const value = `${level}px`;
      if (cell && cell.style.minHeight !== value) cell.style.minHeight = value;
    }
  }

  /**
   * After a side renders: its new rows are levelled in the next frame, and a pending jump that
   * no longer holds is re-applied in the next frame. Not now: a render can run inside the list's
   * resize observer, where changing a row's height again would leave its notifications undelivered.
   */
  private onRendered(side: SideId): void {
    if (this.fresh[side].length) this.scheduleLevel();
    const reveal = this.pendingReveal;
    if (!reveal || this.revealing || this.revealFrame) return;
    if (performance.now() > reveal.until) this.pendingReveal = undefined;
    else if (!this.inPlace(reveal))
      this.revealFrame = requestAnimationFrame(() => {
        this.revealFrame = 0;
        this.applyReveal();
      });
  }

  /** Whether a jump's row is where it was put on both panes ('start': at the top, or the pane is at its end; 'auto': in view). */
  private inPlace(reveal: { index: number; mode: 'auto' | 'start' }): boolean {
    return SIDES.every((side) => {
      const pane = this.pane(side);
      const list = this.lists[side];
      if (!pane || !list) return true;
      const top = list.offsetOf(reveal.index);
      const height = list.heightOf(reveal.index);
      const scrolled = pane.scrollTop;
      const view = pane.clientHeight;
      if (reveal.mode === 'start') return Math.abs(top - scrolled) < 1 || (scrolled >= list.totalHeight() - view - 1 && top >= scrolled);
      return top >= scrolled - 0.5 && (top + height <= scrolled + view + 0.5 || (height > view && Math.abs(top - scrolled) < 1));
    });
  }

  /** A mounted step's content changed height (the pane was resized, a font loaded): level its pair in the next frame. */
  private onContentResized(entries: ResizeObserverEntry[]): void {
    for (const entry of entries) {
      const at = this.contents.get(entry.target);
      const height = entry.borderBoxSize?.[0]?.blockSize ?? (entry.target as HTMLElement).offsetHeight;
      if (!at || height <= 0 || Math.abs(height - this.natural[at.side][at.index]) < 0.5) continue;
      this.natural[at.side][at.index] = height;
      this.levelLater.add(at.index);
    }
    if (this.levelLater.size) this.scheduleLevel();
  }

  private scheduleLevel(): void {
    if (!this.levelFrame) this.levelFrame = requestAnimationFrame(() => this.level());
  }

  /** Measures the rows mounted since the last pass (one layout for all) and levels their pairs and those whose content resized. */
  private level(): void {
    this.levelFrame = 0;
    for (const side of SIDES) {
      const fresh = this.fresh[side].splice(0);
      const heights = fresh.map((content) => (content.isConnected ? content.getBoundingClientRect().height : 0));
      fresh.forEach((content, k) => {
        const at = this.contents.get(content);
        if (!at || heights[k] <= 0) return;
        this.natural[side][at.index] = heights[k];
        this.levelLater.add(at.index);
        this.contentResize.observe(content);
      });
    }
    for (const index of this.levelLater) this.applyLevel(index);
    this.levelLater.clear();
  }

  // ---------- scrolling ----------

  /** Scrolls the other pane so the row at this pane's top is at its top too, at the same fraction of the row. */
  private syncFrom(side: SideId): void {
    const pane = this.pane(side);
    const list = this.lists[side];
    if (!pane || !list) return;
    const echoed = this.echo[side];
    this.echo[side] = undefined;
    if (echoed !== undefined && Math.abs(pane.scrollTop - echoed) < 1) return;
    const other = otherSide(side);
    const target = this.pane(other);
    const otherList = this.lists[other];
    const index = list.indexAt(pane.scrollTop);
    if (!target || !otherList || index < 0) return;
    const height = list.heightOf(index);
    const fraction = height > 0 ? Math.min(1, Math.max(0, (pane.scrollTop - list.offsetOf(index)) / height)) : 0;
    const wanted = Math.round(otherList.offsetOf(index) + fraction * otherList.heightOf(index));
    if (Math.abs(target.scrollTop - wanted) >= 1) {
      target.scrollTop = wanted;
      this.echo[other] = target.scrollTop;
    }
    this.saveState();
  }

  private select(index: number, scroll = true): void {
    const rows = this.view?.rows ?? [];
    if (rows.length === 0) return;
    this.selected = Math.max(0, Math.min(index, rows.length - 1));
    for (const side of SIDES) {
      const list = this.lists[side];
      if (!list) continue;
      list.refreshMounted();
      // Mounts the selected row (pinned) and lets the previous one go.
      list.render();
      this.pane(side)?.setAttribute('aria-activedescendant', `cmp-${side}-row-${this.selected}`);
    }
    if (scroll) this.reveal(this.selected, 'auto');
    this.saveState();
  }

  /** Scrolls both panes to a row ('auto': just into view; 'start': at the top), and keeps it there while the rows around it are measured. */
  private reveal(index: number, mode: 'auto' | 'start'): void {
    this.pendingReveal = { index, mode, until: performance.now() + REVEAL_SETTLE_MS };
    this.applyReveal();
  }

  private applyReveal(): void {
    const reveal = this.pendingReveal;
    if (!reveal) return;
    this.revealing = true;
    try {
      for (const side of SIDES) {
        const pane = this.pane(side);
        const list = this.lists[side];
        if (!pane || !list) continue;
        const before = pane.scrollTop;
        list.scrollToIndex(reveal.index, reveal.mode);
        if (Math.abs(pane.scrollTop - before) >= 1) this.echo[side] = pane.scrollTop;
      }
    } finally {
      this.revealing = false;
    }
  }

  private jumpToDivergence(): void {
    const row = this.view?.firstDivergenceRow;
    if (row === null || row === undefined) return;
    this.select(row, false);
    this.reveal(row, 'start');
    this.pane(this.focusedSide)?.focus({ preventScroll: true });
  }

  private open(side: SideId, index = this.selected): void {
    const row = this.view?.rows[index];
    const step = row?.[side] ?? row?.[otherSide(side)];
    if (!row || !step) return;
    const which: SideId = row[side] ? side : otherSide(side);
    this.host.post({ type: 'open', side: which, position: step.position });
  }

  private saveTimer = 0;
  private saveState(): void {
    window.clearTimeout(this.saveTimer);
    this.saveTimer = window.setTimeout(() => {
      const state: CompareViewState = { ...(this.selected >= 0 ? { selectedRow: this.selected } : {}), scrollTop: this.pane('a')?.scrollTop ?? 0 };
      this.host.setState(state);
    }, 100);
  }

  private onKey(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if ((e.target as HTMLElement).matches('input, textarea, select')) return;
    const last = () => (this.view?.rows.length ?? 1) - 1;
    const actions: Record<string, () => void> = {
      j: () => this.select(this.selected + 1),
      ArrowDown: () => this.select(this.selected + 1),
      k: () => this.select(this.selected < 0 ? 0 : this.selected - 1),
      ArrowUp: () => this.select(this.selected < 0 ? 0 : this.selected - 1),
      g: () => this.select(0),
      Home: () => this.select(0),
      G: () => this.select(last()),
      End: () => this.select(last()),
      d: () => this.jumpToDivergence(),
      Enter: () => this.open(this.focusedSide),
    };
    const action = actions[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  }

  // ---------- templates (text bindings only) ----------

  private draw(): void {
    const view = this.view;
    render(
      html`<div class="cmp">
        <header class="cmp-header">${view ? this.summary(view) : html`<p class="muted">Loading the comparison…</p>`}
          ${this.status ? html`<p class="cmp-status ${this.status.kind}" role="status">${this.status.text}</p>` : nothing}
        </header>
        ${view ? html`<div class="cmp-columns">${SIDES.map((side) => this.column(side, view))}</div>` : nothing}
      </div>`,
      this.mount,
    );
  }

  private summary(view: CompareViewModel): TemplateResult {
    const divergence = view.firstDivergence;
    return html`<h1 class="cmp-title">Compare two trajectories</h1>
      ${
        view.sameQuery
          ? html`<p class="cmp-query" title=${view.a.query ?? ''}>${view.a.query}</p>`
          : html`<p class="cmp-query cmp-warning" title=${`a: ${view.a.query ?? 'no query'}\nb: ${view.b.query ?? 'no query'}`}>
              The queries differ: a asks “${view.a.query ?? 'no query'}”; b asks “${view.b.query ?? 'no query'}”.
            </p>`
      }
      <p class="cmp-summary" role="status">
        <span class="cmp-aligned">${view.alignedRows} of ${view.rows.length} rows aligned</span>
        <span class="cmp-divergence"
          >${divergence ? `First divergence: a ${divergence.a ?? '—'}, b ${divergence.b ?? '—'}` : 'The runs never diverge'}</span
        >
        <button type="button" class="cmp-jump" ?disabled=${view.firstDivergenceRow === null} @click=${() => this.jumpToDivergence()}>
          Jump to first divergence (d)
        </button>
        <span class="muted cmp-keys">j/k move · Home/End the ends · d first divergence · Enter open the step · double-click opens a side's step</span>
      </p>`;
  }

  private column(side: SideId, view: CompareViewModel): TemplateResult {
    const info = view[side];
    return html`<section class="cmp-side" data-side=${side} aria-label=${`Side ${side}`}>
      ${this.sideHead(side, info)}
      <div class="cmp-pane" data-side=${side} tabindex="0" role="list" aria-label=${`Steps of ${info.file}#${info.record}`}>
        <div class="cmp-rows"></div>
      </div>
    </section>`;
  }

  private sideHead(side: SideId, info: CompareSide): TemplateResult {
    const human = info.human;
    const audit = info.audit;
    return html`<div class="cmp-side-head">
      <div class="cmp-file"><span class="cmp-side-id">${side}</span> <span class="cmp-file-name">${info.file}#${info.record}</span></div>
      <div class="cmp-meta muted">
        ${[info.format, info.model, info.dataset, `${info.decisionSteps} decision steps`, `${info.messages} messages`].filter(Boolean).join(' · ')}
      </div>
      ${info.predictedAnswer !== null ? html`<div class="cmp-answer">Answer: <span class="cmp-answer-text">${info.predictedAnswer}</span></div>` : nothing}
      <div class="cmp-human">
        ${
          human
            ? `${human.source === 'gold' ? 'Gold' : `Human${human.annotator ? ` (${human.annotator})` : ''}`}: ${stepText(human.criticalStep)} · ${rootCauseText(human.rootCause)}`
            : 'No human annotation'
        }
      </div>
      <div class="cmp-audit">
        ${
          audit
            ? `Audit ${audit.method}${audit.model ? ` (${audit.model})` : ''}: ${stepText(audit.criticalStep)} · ${rootCauseText(audit.rootCause)}${info.audits > 1 ? ` · newest of ${info.audits}` : ''}`
            : 'Not audited'
        }
      </div>
    </div>`;
  }

  /** A row's cell (its min-height levels the pair) around the step or the gap. */
  private cell(side: SideId, step: CompareStep | null, index: number): TemplateResult {
    return html`<div class="cmp-cell">
      ${
        step
          ? this.stepCell(step)
          : html`<div class="cmp-gap muted">${index === this.view?.firstDivergenceRow ? 'no aligned step — the runs part here' : 'no aligned step'}</div>`
      }
    </div>`;
  }

  private stepCell(step: CompareStep): TemplateResult {
    return html`<div class="cmp-step">
      <div class="cmp-step-head">
        <span class="cmp-pos">#${step.position}</span>
        ${step.tools.length ? html`<span class="cmp-tools">${step.tools.join(', ')}</span>` : html`<span class="cmp-tools reply">reply</span>`}
        ${step.humanCritical ? html`<span class="cmp-badge human" title="The human's critical step">human critical</span>` : nothing}
        ${!step.humanCritical && step.inHumanSpan ? html`<span class="cmp-badge span" title="Inside the human's tolerance span">in span</span>` : nothing}
        ${step.auditCritical ? html`<span class="cmp-badge audit" title="The newest audit's critical step">audit critical</span>` : nothing}
        ${step.finalAnswer ? html`<span class="cmp-badge answer">final answer</span>` : nothing}
      </div>
      <div class="cmp-text">${step.text}</div>
      ${step.result ? html`<div class="cmp-result muted">→ ${step.result}</div>` : nothing}
    </div>`;
  }
}

export function startCompareApp(mount: HTMLElement): void {
  new CompareApp(mount);
}
