// The collection view (issue 16 item 1): one row per trajectory of a folder, JSONL, Inspect log or
// run folder. The header, filters and column heads are a Lit template (text bindings only); the
// rows are the timeline's virtual list (webview/src/editor/timeline/virtualList.ts) with fixed
// heights, so 10,000 rows keep a screenful of row elements in the DOM. Row text comes from the
// web (queries, model names): it is set as textContent, never parsed as HTML. Keyboard first:
// j/k (and the arrows) move, Enter opens the row's trajectory, n selects the next unannotated row
// (the host's queue rule), / goes to the filter, g/G to the ends; the selection, sort and filters
// are the page's saved state, so coming back to the view (VS Code tears a hidden webview down)
// returns to the same row.
import './collection.css';
import { html, nothing, render } from 'lit';
import { FACETS, facetCounts, queryRows, summarize, type FacetId, type TableQuery } from '../../../src/core/collections/table';
import type {
  CollectionFromWebview,
  CollectionInfo,
  CollectionProgress,
  CollectionQueue,
  CollectionRow,
  CollectionToWebview,
  CollectionViewState,
  Unreadable,
} from '../../../src/shared/collectionProtocol';
import { ROOT_CAUSE_LABELS, type RootCause } from '../../../src/core/model/rootCauses';
import { HostLink, assertNever } from '../common/hostLink';
import { VirtualList } from '../editor/timeline/virtualList';
import { DISPLAY_COLUMNS, GRID_TEMPLATE, TABLE_WIDTH } from './columns';

/** Fixed row height in CSS pixels (collection.css sets the same). */
export const ROW_HEIGHT = 24;
/** Facet values listed per facet before "and N more". */
const FACET_VALUES_SHOWN = 12;

const percent = (k: number, n: number) => (n === 0 ? '0%' : `${Math.round((100 * k) / n)}%`);
const count = (n: number) => n.toLocaleString('en-US');

export class CollectionApp {
  private readonly host = new HostLink<CollectionFromWebview, CollectionToWebview>('collection');
  private readonly chrome: HTMLElement;
  private readonly facetsPane: HTMLElement;
  private readonly head: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly content: HTMLElement;
  private readonly list: VirtualList;
  private info: CollectionInfo | undefined;
  private progress: CollectionProgress = { done: 0, total: 0, finished: false };
  private unreadable: Unreadable[] = [];
  private all: CollectionRow[] = [];
  private indexById = new Map<string, number>();
  private shown: CollectionRow[] = [];
  private selected = -1;
  private selectedId: string | undefined;
  /** The row marked for compare (x), by id: c compares it with the selected row. */
  private markedId: string | undefined;
  private query: TableQuery = {};
  private status: { text: string; kind: 'info' | 'error' } | undefined;
  /** The annotation queue's settings and progress (the host's 'queue'). */
  private queue: CollectionQueue | undefined;
  private exportFormat: 'csv' | 'parquet' = 'csv';
  private exportScope: 'shown' | 'all' = 'shown';
  private renderedFrame = 0;
  private restoredScroll: number | undefined;
  /** Bumped whenever rows arrive, so cached facet counts are recomputed. */
  private rowsVersion = 0;
  private facetCache: { key: string; rows: number; counts: ReturnType<typeof facetCounts> } | undefined;

  constructor(mount: HTMLElement) {
    document.addEventListener('securitypolicyviolation', (e) =>
      this.post({ type: 'cspViolation', directive: e.effectiveDirective || e.violatedDirective, blocked: e.blockedURI, sample: e.sample ?? '' }),
    );
    window.addEventListener('error', (e) => this.post({ type: 'log', level: 'error', message: `collection: ${e.message}` }));
    const saved = this.host.getState<CollectionViewState>() ?? {};
    this.selectedId = saved.selectedId;
    this.markedId = saved.markedId;
    this.query = {
      ...(saved.sort ? { sort: saved.sort as TableQuery['sort'] } : {}),
      ...(saved.facets ? { facets: saved.facets } : {}),
      ...(saved.text ? { text: saved.text } : {}),
    };
    this.restoredScroll = saved.scrollTop;

    const view = document.createElement('div');
    view.className = 'cv';
    view.style.setProperty('--cv-columns', GRID_TEMPLATE);
    view.style.setProperty('--cv-width', `${TABLE_WIDTH}px`);
    this.chrome = document.createElement('div');
    this.chrome.className = 'cv-chrome';
    const table = document.createElement('div');
    table.className = 'cv-table';
    this.head = document.createElement('div');
    this.head.className = 'cv-head';
    this.scroller = document.createElement('div');
    this.scroller.className = 'cv-scroller';
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute('role', 'grid');
    this.scroller.setAttribute('aria-label', 'Trajectories');
    this.scroller.setAttribute('aria-multiselectable', 'false');
    this.content = document.createElement('div');
    this.content.className = 'cv-content';
    this.content.setAttribute('role', 'rowgroup');
    this.scroller.append(this.content);
    table.append(this.head, this.scroller);
    const main = document.createElement('div');
    main.className = 'cv-main';
    this.facetsPane = document.createElement('aside');
    this.facetsPane.className = 'cv-facets';
    this.facetsPane.setAttribute('aria-label', 'Filters');
    main.append(this.facetsPane, table);
    view.append(this.chrome, main);
    mount.append(view);

    this.list = new VirtualList({
      scroller: this.scroller,
      content: this.content,
      count: 0,
      estimateHeight: () => ROW_HEIGHT,
      createRow: (i) => this.createRow(i),
      updateRow: (i, el) => this.fillRow(i, el),
      overscan: ROW_HEIGHT * 10,
      pinnedIndex: () => (this.selected >= 0 ? this.selected : null),
      onRendered: () => this.scheduleRendered(),
    });
    this.scroller.addEventListener('scroll', () => {
      this.head.scrollLeft = this.scroller.scrollLeft;
      this.saveStateSoon();
    });
    this.scroller.addEventListener('click', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('.cv-row');
      if (row) this.select(Number(row.dataset.index), false);
    });
    this.scroller.addEventListener('dblclick', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('.cv-row');
      if (row) this.openRow(Number(row.dataset.index));
    });
    document.addEventListener('keydown', (e) => this.onKey(e));
    this.update();
    this.host.onMessage((msg) => this.onMessage(msg));
    this.post({ type: 'ready' });
  }

  private post(message: CollectionFromWebview): void {
    this.host.post(message);
  }

  private onMessage(msg: CollectionToWebview): void {
    switch (msg.type) {
      case 'init':
        this.info = msg.info;
        this.all = [];
        this.indexById = new Map();
        this.merge(msg.rows);
        this.unreadable = msg.unreadable;
        this.progress = msg.progress;
        document.title = msg.info.title;
        this.refilter();
        if (this.restoredScroll !== undefined && this.selected < 0) this.scroller.scrollTop = this.restoredScroll;
        this.restoredScroll = undefined;
        // The first row is selected, so j goes to the second and Enter opens something.
        if (this.selected < 0 && this.selectedId === undefined && this.shown.length) this.select(0, false);
        this.scroller.focus({ preventScroll: true });
        break;
      case 'rows':
        this.merge(msg.rows);
        this.unreadable = msg.unreadable;
        this.progress = msg.progress;
        this.refilter();
        break;
      case 'status':
        this.status = { text: msg.text, kind: msg.kind };
        this.update();
        break;
      case 'select': {
        const index = this.shown.findIndex((r) => r.id === msg.id);
        if (index >= 0) this.select(index);
        break;
      }
      case 'queue':
        this.queue = msg.queue;
        this.update();
        // Blind mode marks the rows whose audits are hidden.
        this.list.refreshMounted();
        break;
      default:
        assertNever(msg);
    }
  }

  /** New rows are appended; a row with a known id replaces the old one in place. */
  private merge(rows: readonly CollectionRow[]): void {
    this.rowsVersion++;
    for (const row of rows) {
      const at = this.indexById.get(row.id);
      if (at === undefined) {
        this.indexById.set(row.id, this.all.length);
        this.all.push(row);
      } else this.all[at] = row;
    }
  }

  // ---------- filtering, sorting, selection ----------

  /**
   * Applies the query to every row and redraws, keeping the selected row (by id). `reveal`
   * scrolls to it (opening, rows arriving); a new sort or filter shows the top instead.
   */
  private refilter(reveal = true): void {
    this.shown = queryRows(this.all, this.query);
    const index = this.selectedId === undefined ? -1 : this.shown.findIndex((r) => r.id === this.selectedId);
    this.selected = index;
    this.list.setCount(this.shown.length);
    if (!reveal) this.scroller.scrollTop = 0;
    else if (index >= 0) this.list.scrollToIndex(index, 'center');
    this.update();
    this.saveState();
  }

  private select(index: number, scroll = true): void {
    if (this.shown.length === 0) return;
    const next = Math.max(0, Math.min(index, this.shown.length - 1));
    const previous = this.selected;
    this.selected = next;
    this.selectedId = this.shown[next].id;
    if (previous >= 0) this.list.refreshRow(previous);
    if (scroll) this.list.scrollToIndex(next);
    else this.list.render();
    this.list.refreshRow(next);
    this.scroller.setAttribute('aria-activedescendant', rowDomId(next));
    this.saveState();
  }

  private openRow(index: number): void {
    const row = this.shown[index];
    if (!row) return;
    this.select(index);
    this.post({ type: 'open', id: row.id });
  }

  private setSort(column: string): void {
    const current = this.query.sort;
    // A first click sorts numbers largest first and text A→Z; the next click reverses.
    const numeric = DISPLAY_COLUMNS.find((c) => c.column.id === column)?.column.numeric ?? false;
    const descending = current?.column === column ? !current.descending : numeric;
    this.query = { ...this.query, sort: { column: column as NonNullable<TableQuery['sort']>['column'], descending } };
    this.refilter(false);
  }

  private toggleFacet(facet: FacetId, value: string, on: boolean): void {
    const values = new Set(this.query.facets?.[facet] ?? []);
    if (on) values.add(value);
    else values.delete(value);
    this.query = { ...this.query, facets: { ...this.query.facets, [facet]: [...values] } };
    this.refilter(false);
  }

  private clearFilters(): void {
    this.query = { ...(this.query.sort ? { sort: this.query.sort } : {}) };
    this.refilter(false);
  }

  private textFrame = 0;
  private setText(text: string): void {
    this.query = { ...this.query, text };
    // One filter per frame while typing.
    if (!this.textFrame)
      this.textFrame = requestAnimationFrame(() => {
        this.textFrame = 0;
        this.refilter(false);
      });
  }

  private saveTimer = 0;
  private saveStateSoon(): void {
    window.clearTimeout(this.saveTimer);
    this.saveTimer = window.setTimeout(() => this.saveState(), 150);
  }

  private saveState(): void {
    const state = this.stateNow();
    this.host.setState(this.markedId === undefined ? state : { ...state, markedId: this.markedId });
    const { scrollTop: _scrollTop, ...view } = state;
    const key = JSON.stringify(view);
    if (key !== this.postedView) {
      this.postedView = key;
      this.post({ type: 'viewState', ...view });
    }
  }

  private stateNow(): CollectionViewState {
    return {
      ...(this.selectedId !== undefined ? { selectedId: this.selectedId } : {}),
      ...(this.query.sort ? { sort: this.query.sort } : {}),
      ...(this.query.facets ? { facets: Object.fromEntries(Object.entries(this.query.facets).map(([k, v]) => [k, [...(v ?? [])]])) } : {}),
      ...(this.query.text ? { text: this.query.text } : {}),
      scrollTop: this.scroller.scrollTop,
    };
  }

  /** The view state last sent to the host (sent again only when it changes). */
  private postedView = '';

  private viewQuery(): Omit<Extract<CollectionFromWebview, { type: 'nextUnannotated' }>, 'type'> {
    const { scrollTop: _scrollTop, ...view } = this.stateNow();
    return view;
  }

  private onKey(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target as HTMLElement;
    const inField = target.matches('input, textarea, select');
    if (inField) {
      if (target.classList.contains('cv-filter') && (e.key === 'Enter' || e.key === 'Escape' || e.key === 'ArrowDown')) {
        e.preventDefault();
        if (this.selected < 0) this.select(0);
        this.scroller.focus();
      }
      return;
    }
    const page = Math.max(1, Math.floor(this.scroller.clientHeight / ROW_HEIGHT) - 1);
    const moves: Record<string, () => void> = {
      j: () => this.select(this.selected + 1),
      ArrowDown: () => this.select(this.selected + 1),
      k: () => this.select(this.selected < 0 ? 0 : this.selected - 1),
      ArrowUp: () => this.select(this.selected < 0 ? 0 : this.selected - 1),
      g: () => this.select(0),
      Home: () => this.select(0),
      G: () => this.select(this.shown.length - 1),
      End: () => this.select(this.shown.length - 1),
      PageDown: () => this.select(this.selected + page),
      PageUp: () => this.select(this.selected - page),
      Enter: () => this.openRow(this.selected),
      n: () => this.post({ type: 'nextUnannotated', ...this.viewQuery() }),
      x: () => this.toggleMark(),
      c: () => this.compareWithMarked(),
      '/': () => this.chrome.querySelector<HTMLInputElement>('.cv-filter')?.focus(),
    };
    const action = moves[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  }

  // ---------- compare (x marks a row, c compares it with the selected one) ----------

  private toggleMark(): void {
    const row = this.shown[this.selected];
    if (!row) return;
    const previous = this.markedId === undefined ? -1 : this.shown.findIndex((r) => r.id === this.markedId);
    this.markedId = this.markedId === row.id ? undefined : row.id;
    if (previous >= 0) this.list.refreshRow(previous);
    this.list.refreshRow(this.selected);
    this.status = undefined;
    this.update();
    this.saveState();
  }

  private compareWithMarked(): void {
    const row = this.shown[this.selected];
    if (!row) return;
    if (this.markedId === undefined || this.markedId === row.id) {
      this.status = {
        text: this.markedId === undefined ? 'Mark a row for compare first (x).' : 'Select another row to compare with the marked one.',
        kind: 'info',
      };
      this.update();
      return;
    }
    this.post({ type: 'compare', marked: this.markedId, other: row.id });
  }

  // ---------- rows (imperative, textContent only) ----------

  private createRow(index: number): HTMLElement {
    const row = document.createElement('div');
    row.className = 'cv-row';
    row.setAttribute('role', 'row');
    for (const column of DISPLAY_COLUMNS) {
      const cell = document.createElement('div');
      cell.className = column.column.numeric ? 'cv-cell num' : 'cv-cell';
      cell.setAttribute('role', 'gridcell');
      row.append(cell);
    }
    this.fillRow(index, row);
    return row;
  }

  private fillRow(index: number, row: HTMLElement): void {
    const data = this.shown[index];
    if (!data) return;
    row.id = rowDomId(index);
    row.dataset.id = data.id;
    row.setAttribute('aria-rowindex', String(index + 2));
    row.setAttribute('aria-selected', String(index === this.selected));
    row.classList.toggle('selected', index === this.selected);
    row.classList.toggle('odd', index % 2 === 1);
    const cells = row.children;
    DISPLAY_COLUMNS.forEach((column, i) => {
      const text = column.cell(data);
      const cell = cells[i] as HTMLElement;
      if (cell.textContent !== text) cell.textContent = text;
    });
    (cells[0] as HTMLElement).title = data.query ? `${data.id}\n${data.query}` : data.id;
    row.dataset.state = data.state;
    row.dataset.agreement = data.agreement ?? '';
    row.classList.toggle('marked', data.id === this.markedId);
    // Blind mode: the host sent this audited row without its audit (not yet annotated by the annotator).
    const hidden = Boolean(this.queue?.blind) && data.audited && data.audit === null;
    row.classList.toggle('audits-hidden', hidden);
    for (const i of BLIND_COLUMNS) {
      const cell = cells[i] as HTMLElement;
      cell.classList.toggle('audit-hidden', hidden);
      if (hidden && cell.textContent !== 'hidden') cell.textContent = 'hidden';
    }
  }

  private scheduleRendered(): void {
    if (this.renderedFrame) return;
    this.renderedFrame = requestAnimationFrame(() => {
      this.renderedFrame = 0;
      this.post({ type: 'rendered', shown: this.shown.length, total: this.all.length, domRows: this.content.childElementCount });
    });
  }

  // ---------- chrome (Lit, text bindings only) ----------

  private update(): void {
    const summary = summarize(this.all);
    const annotators = Object.entries(summary.byAnnotator).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const reading = this.progress.total > 0 && !this.progress.finished;
    const filtering = Boolean(this.query.text?.trim()) || Object.values(this.query.facets ?? {}).some((v) => v && v.length > 0);
    render(
      html`<header class="cv-header">
          <h1 class="cv-title">${this.info?.title ?? 'Collection'}</h1>
          <p class="cv-counts" role="status">
            <span class="cv-shown">${count(this.shown.length)} of ${count(this.all.length)} trajectories</span>
            <span class="cv-annotated">annotated ${count(summary.annotated)} (${percent(summary.annotated, summary.rows)})</span>
            <span class="cv-audited">audited ${count(summary.audited)} (${percent(summary.audited, summary.rows)})</span>
            ${
              annotators.length
                ? html`<span class="cv-annotators">${annotators.map(([who, n]) => html`<span class="cv-annotator">${who}: ${count(n)}</span>`)}</span>`
                : nothing
            }
          </p>
          ${
            reading
              ? html`<div class="cv-progress">
                <progress max=${this.progress.total} .value=${this.progress.done} aria-label="Files read"></progress>
                <span>Reading ${count(this.progress.done)} of ${count(this.progress.total)} files</span>
                <button type="button" class="cv-cancel" @click=${() => this.post({ type: 'cancel' })}>Cancel</button>
              </div>`
              : this.progress.cancelled
                ? html`<p class="cv-progress muted">Stopped after ${count(this.progress.done)} of ${count(this.progress.total)} files.</p>`
                : nothing
          }
          ${
            this.unreadable.length
              ? html`<details class="cv-unreadable">
                <summary>${count(this.unreadable.length)} unreadable</summary>
                <ul>
                  ${this.unreadable.map((u) => html`<li><span class="cv-file">${u.file}</span>: ${u.message}</li>`)}
                </ul>
              </details>`
              : nothing
          }
          ${this.renderQueue()}
          ${this.status ? html`<p class="cv-status ${this.status.kind}">${this.status.text}</p>` : nothing}
        </header>
        <div class="cv-toolbar">
          <input
            class="cv-filter"
            type="search"
            placeholder="Filter (/): words in id, model, query, root cause…"
            aria-label="Filter rows"
            .value=${this.query.text ?? ''}
            @input=${(e: Event) => this.setText((e.target as HTMLInputElement).value)}
          />
          <button type="button" class="cv-clear" ?disabled=${!filtering} @click=${() => this.clearFilters()}>Clear filters</button>
          <span class="cv-export">
            <select
              class="cv-export-format"
              aria-label="Export format"
              .value=${this.exportFormat}
              @change=${(e: Event) => (this.exportFormat = (e.target as HTMLSelectElement).value === 'parquet' ? 'parquet' : 'csv')}
            >
              <option value="csv">CSV</option>
              <option value="parquet">Parquet</option>
            </select>
            <select
              class="cv-export-scope"
              aria-label="Rows to export"
              .value=${this.exportScope}
              @change=${(e: Event) => (this.exportScope = (e.target as HTMLSelectElement).value === 'all' ? 'all' : 'shown')}
            >
              <option value="shown">rows shown (${count(this.shown.length)})</option>
              <option value="all">all rows (${count(this.all.length)})</option>
            </select>
            <button
              type="button"
              class="cv-export-button"
              title="Write the rows, with their annotations and audits beside them, as CSV or Parquet"
              ?disabled=${this.all.length === 0}
              @click=${() => this.post({ type: 'export', format: this.exportFormat, scope: this.exportScope, ...this.viewQuery() })}
            >
              Export…
            </button>
          </span>
          <span class="cv-compare">
            <!-- The selection changes without a redraw of the toolbar, so neither button depends on it. -->
            <button type="button" class="cv-mark" title="Mark the selected row for compare, or unmark it" ?disabled=${this.shown.length === 0} @click=${() => this.toggleMark()}>
              Mark for compare (x)
            </button>
            <button type="button" class="cv-compare-button" ?disabled=${this.markedId === undefined} @click=${() => this.compareWithMarked()}>
              Compare with marked (c)
            </button>
            ${this.markedId !== undefined ? html`<span class="cv-marked muted" title=${this.markedId}>marked: ${this.markedId}</span>` : nothing}
          </span>
          <span class="muted cv-keys">j/k move · Enter open · n next unannotated · x mark · c compare · / filter</span>
        </div>`,
      this.chrome,
    );
    const sort = this.query.sort;
    render(
      html`<div class="cv-head-row" role="row">
        ${DISPLAY_COLUMNS.map((c) => {
          const sorted = sort?.column === c.column.id;
          return html`<button
            type="button"
            role="columnheader"
            class="cv-col ${c.column.numeric ? 'num' : ''} ${sorted ? 'sorted' : ''}"
            data-column=${c.column.id}
            title=${c.column.label}
            aria-sort=${sorted ? (sort.descending ? 'descending' : 'ascending') : 'none'}
            @click=${() => this.setSort(c.column.id)}
          >
            ${c.head}${sorted ? (sort.descending ? ' ▼' : ' ▲') : ''}
          </button>`;
        })}
      </div>`,
      this.head,
    );
    this.scroller.setAttribute('aria-rowcount', String(this.shown.length + 1));
    this.renderFacets();
  }

  /** Blind mode (its toggle) and each annotator's progress over the assignment file (the annotator's own first in bold). */
  private renderQueue() {
    const queue = this.queue;
    if (!queue) return nothing;
    const me = queue.annotator;
    // The toggle shows the host's state only: it asks the host, which writes the setting and answers with 'queue'.
    return html`<p class="cv-queue">
      <button
        type="button"
        class="cv-blind-toggle"
        aria-pressed=${String(queue.blind)}
        title=${`Blind mode (trajaudit.collection.blind) is ${queue.blind ? 'on' : 'off'}: ${queue.blind ? 'turn it off to show every audit' : 'turn it on to hide audits, their root causes and agreement until the row is annotated'}`}
        @click=${() => this.post({ type: 'setBlind', blind: !queue.blind })}
      >
        Blind mode: ${queue.blind ? 'on' : 'off'}
      </button>
      ${
        queue.blind
          ? html`<span class="cv-blind" title="trajaudit.collection.blind: audits, their root causes and agreement stay hidden until the row is annotated"
              >Blind: audits hidden until ${me ?? 'annotated'}${me ? ' has saved' : ''}</span
            >`
          : nothing
      }
      ${
        queue.progress
          ? html`<span class="cv-assignments" title=${queue.assignmentsFile ?? ''}
              >Assigned:
              ${queue.progress.map(
                (p) =>
                  html`<span
                    class="cv-assignee ${p.annotator === me ? 'me' : ''}"
                    data-annotator=${p.annotator}
                    title=${assigneeTitle(p)}
                    >${p.annotator} ${count(p.annotated)}/${count(p.assigned)}</span
                  >`,
              )}</span
            >`
          : nothing
      }
      ${queue.problem ? html`<span class="cv-queue-problem">${queue.problem}</span>` : nothing}
    </p>`;
  }

  private renderFacets(): void {
    // Counts change with the rows and the filters, not with the sort.
    const key = JSON.stringify([this.query.facets ?? {}, this.query.text ?? '']);
    if (!this.facetCache || this.facetCache.key !== key || this.facetCache.rows !== this.rowsVersion)
      this.facetCache = { key, rows: this.rowsVersion, counts: facetCounts(this.all, this.query) };
    const counts = this.facetCache.counts;
    render(
      html`${FACETS.map((facet) => {
        const values = counts[facet.id];
        const selected = new Set(this.query.facets?.[facet.id] ?? []);
        // A facet with one value filters nothing, unless that value is selected.
        if (values.length < 2 && selected.size === 0) return nothing;
        const listed = values.filter((v, i) => i < FACET_VALUES_SHOWN || selected.has(v.value));
        return html`<fieldset class="cv-facet" data-facet=${facet.id}>
          <legend>${facet.label}</legend>
          ${listed.map(
            (v) =>
              html`<label class="cv-facet-value"
                ><input type="checkbox" .checked=${selected.has(v.value)} @change=${(e: Event) => this.toggleFacet(facet.id, v.value, (e.target as HTMLInputElement).checked)} /><span
                  class="cv-facet-name"
                  title=${v.value}
                  >${facetValueText(facet.id, v.value)}</span
                ><span class="cv-facet-count">${count(v.count)}</span></label
              >`,
          )}
          ${values.length > listed.length ? html`<p class="muted cv-more">and ${values.length - listed.length} more</p>` : nothing}
        </fieldset>`;
      })}`,
      this.facetsPane,
    );
  }
}

/** The columns blind mode hides (their cells read "hidden"). */
const BLIND_COLUMNS = DISPLAY_COLUMNS.flatMap((c, i) =>
  c.column.id === 'auditStep' || c.column.id === 'auditRootCause' || c.column.id === 'agreement' ? [i] : [],
);

function assigneeTitle(p: NonNullable<CollectionQueue['progress']>[number]): string {
  const parts = [`${p.annotator}: ${p.annotated} of ${p.assigned} assigned rows annotated`];
  if (p.annotatedByOthers) parts.push(`${p.annotatedByOthers} annotated by someone else`);
  if (p.missing.length) parts.push(`not in the collection: ${p.missing.join(', ')}`);
  return parts.join('; ');
}

/** Root causes read by their Appendix A names; other facet values as they are. */
function facetValueText(facet: FacetId, value: string): string {
  if (facet !== 'humanRootCause' && facet !== 'auditRootCause') return value;
  return ROOT_CAUSE_LABELS[value as RootCause] ?? value;
}

function rowDomId(index: number): string {
  return `cv-row-${index}`;
}

export function startCollectionApp(mount: HTMLElement): void {
  new CollectionApp(mount);
}
