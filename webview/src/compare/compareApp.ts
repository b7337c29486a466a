// The compare view (issue 16 item 4): two trajectories side by side, one row per pair of the
// decision-step alignment the host built (src/core/collections/compareView.ts over align.ts).
// Each side scrolls on its own pane; scrolling one scrolls the other to the aligned row (the same
// row index, at the same fraction of the row), and the two rows of a pair are given the same
// height so aligned steps sit level. The first divergence is marked, and `d` (or the button)
// jumps to it. Everything is a Lit template with text bindings only: trajectory text from the web
// is never parsed as HTML. Keys: j/k move, d first divergence, Enter opens the selected step of
// the focused side (a by default) in the trajectory editor.
import './compare.css';
import { html, nothing, render, type TemplateResult } from 'lit';
import { ROOT_CAUSE_LABELS, type RootCause } from '../../../src/core/model/rootCauses';
import type {
  CompareFromWebview,
  CompareRow,
  CompareSide,
  CompareStep,
  CompareToWebview,
  CompareViewModel,
  CompareViewState,
} from '../../../src/shared/compareProtocol';
import { HostLink, assertNever } from '../common/hostLink';

type SideId = 'a' | 'b';
const SIDES: SideId[] = ['a', 'b'];

const rootCauseText = (id: string | null) => (id === null ? 'no root cause' : (ROOT_CAUSE_LABELS[id as RootCause] ?? id));
const stepText = (step: number | null) => (step === null ? 'no critical step' : `critical step ${step}`);

export class CompareApp {
  private readonly host = new HostLink<CompareFromWebview, CompareToWebview>('compare');
  private readonly mount: HTMLElement;
  private view: CompareViewModel | undefined;
  private status: { text: string; kind: 'info' | 'error' } | undefined;
  private selected = -1;
  private focusedSide: SideId = 'a';
  private restoredScroll: number | undefined;
  /** The scrollTop each pane was last set to by the other's scroll, so that echo is not synced back. */
  private readonly echo: Record<SideId, number | undefined> = { a: undefined, b: undefined };
  private readonly resize = new ResizeObserver(() => this.levelRows());
  private resizedWidth = -1;

  constructor(mount: HTMLElement) {
    this.mount = mount;
    document.addEventListener('securitypolicyviolation', (e) =>
      this.host.post({ type: 'cspViolation', directive: e.effectiveDirective || e.violatedDirective, blocked: e.blockedURI, sample: e.sample ?? '' }),
    );
    window.addEventListener('error', (e) => this.host.post({ type: 'log', level: 'error', message: `compare: ${e.message}` }));
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
        this.resizedWidth = -1;
        if (this.selected >= msg.view.rows.length) this.selected = -1;
        const a = msg.view.a;
        const b = msg.view.b;
        document.title = `Compare ${a.file}#${a.record} ↔ ${b.file}#${b.record}`;
        this.draw();
        this.levelRows();
        const pane = this.pane('a');
        if (pane && this.restoredScroll !== undefined) pane.scrollTop = this.restoredScroll;
        else if (this.selected >= 0) this.reveal(this.selected, 'nearest');
        this.restoredScroll = undefined;
        if (this.selected < 0 && msg.view.rows.length) this.select(0, false);
        pane?.focus({ preventScroll: true });
        requestAnimationFrame(() => this.host.post({ type: 'rendered', rows: this.mount.querySelectorAll('.cmp-pane[data-side="a"] .cmp-row').length }));
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

  private rowsOf(side: SideId): HTMLElement[] {
    return [...(this.pane(side)?.querySelectorAll<HTMLElement>('.cmp-row') ?? [])];
  }

  /** Gives both rows of each pair the taller one's height, so the pair sits level across the panes. */
  private levelRows(): void {
    const a = this.rowsOf('a');
    const b = this.rowsOf('b');
    if (a.length !== b.length || a.length === 0) return;
    const width = this.pane('a')?.clientWidth ?? 0;
    if (width === this.resizedWidth && a[0].style.minHeight) return;
    this.resizedWidth = width;
    for (const row of [...a, ...b]) row.style.minHeight = '';
    const heights = a.map((row, i) => Math.max(row.getBoundingClientRect().height, b[i].getBoundingClientRect().height));
    heights.forEach((h, i) => {
      a[i].style.minHeight = `${h}px`;
      b[i].style.minHeight = `${h}px`;
    });
  }

  /** The row at the top of a pane and how far into it the pane is scrolled (0..1). */
  private topRow(side: SideId): { index: number; fraction: number } | undefined {
    const pane = this.pane(side);
    const rows = this.rowsOf(side);
    if (!pane || rows.length === 0) return undefined;
    const top = pane.scrollTop;
    let lo = 0;
    let hi = rows.length - 1;
    // The last row whose top is at or above the pane's top (rows are in document order).
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (rows[mid].offsetTop <= top) lo = mid;
      else hi = mid - 1;
    }
    const row = rows[lo];
    const fraction = row.offsetHeight > 0 ? Math.min(1, Math.max(0, (top - row.offsetTop) / row.offsetHeight)) : 0;
    return { index: lo, fraction };
  }

  /** Scrolls the other pane so the row at this pane's top is at its top too. */
  private syncFrom(side: SideId): void {
    const pane = this.pane(side);
    if (!pane) return;
    const echoed = this.echo[side];
    if (echoed !== undefined && Math.abs(pane.scrollTop - echoed) < 1) {
      this.echo[side] = undefined;
      return;
    }
    this.echo[side] = undefined;
    const other: SideId = side === 'a' ? 'b' : 'a';
    const target = this.pane(other);
    const at = this.topRow(side);
    const row = at && this.rowsOf(other)[at.index];
    if (!target || !at || !row) return;
    const wanted = Math.round(row.offsetTop + at.fraction * row.offsetHeight);
    if (Math.abs(target.scrollTop - wanted) < 1) return;
    target.scrollTop = wanted;
    this.echo[other] = target.scrollTop;
    this.saveState();
  }

  private select(index: number, scroll = true): void {
    const rows = this.view?.rows ?? [];
    if (rows.length === 0) return;
    this.selected = Math.max(0, Math.min(index, rows.length - 1));
    for (const side of SIDES)
      this.rowsOf(side).forEach((row, i) => {
        row.classList.toggle('selected', i === this.selected);
        row.setAttribute('aria-selected', String(i === this.selected));
      });
    if (scroll) this.reveal(this.selected, 'nearest');
    this.saveState();
  }

  /** Scrolls both panes to a row (each pane to its own copy of the row, which sit level). */
  private reveal(index: number, block: ScrollLogicalPosition): void {
    for (const side of SIDES) {
      const pane = this.pane(side);
      const row = this.rowsOf(side)[index];
      if (!pane || !row) continue;
      const top = row.offsetTop;
      const bottom = top + row.offsetHeight;
      let next = pane.scrollTop;
      if (block === 'start') next = top;
      else if (top < pane.scrollTop) next = top;
      else if (bottom > pane.scrollTop + pane.clientHeight) next = bottom - pane.clientHeight;
      if (Math.abs(next - pane.scrollTop) >= 1) {
        pane.scrollTop = next;
        this.echo[side] = pane.scrollTop;
      }
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
    const step = row?.[side] ?? row?.[side === 'a' ? 'b' : 'a'];
    if (!row || !step) return;
    const which: SideId = row[side] ? side : side === 'a' ? 'b' : 'a';
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
    const actions: Record<string, () => void> = {
      j: () => this.select(this.selected + 1),
      ArrowDown: () => this.select(this.selected + 1),
      k: () => this.select(this.selected < 0 ? 0 : this.selected - 1),
      ArrowUp: () => this.select(this.selected < 0 ? 0 : this.selected - 1),
      g: () => this.select(0),
      G: () => this.select((this.view?.rows.length ?? 1) - 1),
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
    if (view && !this.resizeObserved) {
      this.resizeObserved = true;
      for (const side of SIDES) {
        const pane = this.pane(side);
        if (!pane) continue;
        this.resize.observe(pane);
        pane.addEventListener('scroll', () => this.syncFrom(side), { passive: true });
        pane.addEventListener('focus', () => (this.focusedSide = side));
      }
    }
  }
  private resizeObserved = false;

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
        <span class="muted cmp-keys">j/k move · d first divergence · Enter open the step · double-click opens a side's step</span>
      </p>`;
  }

  private column(side: SideId, view: CompareViewModel): TemplateResult {
    const info = view[side];
    return html`<section class="cmp-side" data-side=${side} aria-label=${`Side ${side}`}>
      ${this.sideHead(side, info)}
      <div class="cmp-pane" data-side=${side} tabindex="0" role="list" aria-label=${`Steps of ${info.file}#${info.record}`}>
        ${view.rows.map((row, i) => this.row(side, row, i))}
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

  private row(side: SideId, row: CompareRow, index: number): TemplateResult {
    const step = row[side];
    const classes = [
      'cmp-row',
      row.kind,
      row.firstDivergence ? 'first-divergence' : '',
      index === this.view?.firstDivergenceRow ? 'divergence-start' : '',
      index === this.selected ? 'selected' : '',
    ]
      .filter(Boolean)
      .join(' ');
    return html`<div
      class=${classes}
      role="listitem"
      data-row=${index}
      data-position=${step ? String(step.position) : ''}
      aria-selected=${String(index === this.selected)}
      @click=${() => this.select(index, false)}
      @dblclick=${() => step && this.open(side, index)}
    >
      ${step ? this.stepCell(step) : html`<div class="cmp-gap muted">${index === this.view?.firstDivergenceRow ? 'no aligned step — the runs part here' : 'no aligned step'}</div>`}
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
