// Search over every message on the host (content, reasoning, tool arguments), with role and
// tool filters and case-sensitive / regex toggles. Shows "i of n"; n / N or Enter / Shift+Enter
// move between matches (revealing collapsed and off-screen rows too).
import type { Role, SearchRequest } from '../../../src/shared/protocol';
import type { HostConnection } from './hostConnection';
import type { SearchState, Store } from './state';
import { el } from '../common/dom';
import { checkbox, iconButton, type CheckedElement } from '../common/widgetFactories';

export interface SearchPrefs {
  text: string;
  caseSensitive: boolean;
  regex: boolean;
  roles: Role[];
  tools: string[];
}

export class SearchBar {
  readonly root: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly status: HTMLElement;
  private readonly caseBtn: HTMLButtonElement;
  private readonly regexBtn: HTMLButtonElement;
  private readonly filterBtn: HTMLButtonElement;
  private readonly filters: HTMLElement;
  private caseSensitive = false;
  private regex = false;
  /** Roles/tools the user turned OFF (so new records show everything by default). */
  private excludedRoles = new Set<Role>();
  private excludedTools = new Set<string>();
  private timer = 0;
  private filtersStale = true;
  private seq = 0;
  private lastKey = '';
  onChange: () => void = () => {};

  constructor(
    private readonly store: Store,
    private readonly host: HostConnection,
    private readonly reveal: (position: number) => void,
  ) {
    this.root = el('div', { className: 'search', attrs: { role: 'search' } });
    const bar = el('div', { className: 'search-bar' });
    // A native input styled like vscode-textfield: the search box is on the first screen, which
    // is drawn before the @vscode-elements components are loaded (panels.ts), and '/' must reach it then.
    this.input = el('input', {
      className: 'vsc-input search-input',
      attrs: { type: 'text', placeholder: 'Search every message  ( / )', 'aria-label': 'Search every message', spellcheck: 'false' },
    });
    this.caseBtn = iconButton('Aa', 'Match case', () => this.toggleOption('case'), 'toggle');
    this.regexBtn = iconButton('.*', 'Use regular expression', () => this.toggleOption('regex'), 'toggle');
    this.filterBtn = iconButton('Filters', 'Filter by role and tool', () => this.toggleFilters(), 'toggle text-toggle');
    this.filterBtn.setAttribute('aria-expanded', 'false');
    this.status = el('span', { className: 'search-status', attrs: { 'aria-live': 'polite' } });
    const prev = iconButton('↑', 'Previous match (Shift+Enter, N)', () => this.next(-1));
    const next = iconButton('↓', 'Next match (Enter, n)', () => this.next(1));
    const close = iconButton('✕', 'Close search (Escape)', () => this.close());
    bar.append(this.input, this.caseBtn, this.regexBtn, this.filterBtn, this.status, prev, next, close);
    this.filters = el('div', { className: 'search-filters', attrs: { role: 'group', 'aria-label': 'Search filters' } });
    this.filters.hidden = true;
    this.root.append(bar, this.filters);

    this.input.addEventListener('input', () => this.schedule());
    this.input.addEventListener('keydown', (ev: KeyboardEvent) => {
      if (ev.key === 'Enter') {
        ev.preventDefault();
        ev.stopPropagation();
        void this.runThenMove(ev.shiftKey ? -1 : 1);
      } else if (ev.key === 'Escape') {
        ev.preventDefault();
        ev.stopPropagation();
        this.close();
      }
    });
    store.on('view', () => {
      this.renderFilters();
      this.lastKey = '';
      if (this.input.value) this.run();
    });
    store.on('search', (s) => this.renderStatus(s));
    this.updateToggles();
  }

  focus(): void {
    this.input.focus();
    this.input.select();
  }

  get active(): boolean {
    return this.store.search.positions.length > 0;
  }

  prefs(): SearchPrefs {
    return {
      text: this.input.value,
      caseSensitive: this.caseSensitive,
      regex: this.regex,
      roles: [...this.excludedRoles],
      tools: [...this.excludedTools],
    };
  }

  restore(p: SearchPrefs): void {
    this.input.value = p.text;
    this.caseSensitive = p.caseSensitive;
    this.regex = p.regex;
    this.excludedRoles = new Set(p.roles);
    this.excludedTools = new Set(p.tools);
    this.updateToggles();
    this.renderFilters();
  }

  /** Clears the search and its marks; focus returns to the caller. */
  close(): void {
    window.clearTimeout(this.timer);
    this.seq++;
    this.input.value = '';
    this.lastKey = '';
    this.filters.hidden = true;
    this.filterBtn.setAttribute('aria-expanded', 'false');
    this.filterBtn.classList.remove('is-on');
    this.store.setSearch({ request: null, positions: [], current: -1, busy: false });
    this.onChange();
    this.onClose();
  }

  onClose: () => void = () => {};

  /** Moves to the next (1) or previous (-1) match relative to the selection, wrapping. */
  next(direction: 1 | -1): void {
    const s = this.store.search;
    if (!s.positions.length) return;
    const sel = this.store.selected;
    let idx: number;
    const curPos = s.positions[s.current];
    if (s.current >= 0 && curPos === sel) idx = (s.current + direction + s.positions.length) % s.positions.length;
    else if (sel === null) idx = direction > 0 ? 0 : s.positions.length - 1;
    else {
      const selIndex = this.store.indexOf(sel);
      const order = s.positions.map((p) => this.store.indexOf(p));
      if (direction > 0) {
        idx = order.findIndex((i) => i > selIndex);
        if (idx < 0) idx = 0;
      } else {
        idx = -1;
        for (let k = order.length - 1; k >= 0; k--)
          if (order[k] < selIndex) {
            idx = k;
            break;
          }
        if (idx < 0) idx = order.length - 1;
      }
    }
    this.store.setSearch({ ...s, current: idx });
    this.reveal(s.positions[idx]);
  }

  private async runThenMove(direction: 1 | -1): Promise<void> {
    if (this.key() !== this.lastKey) await this.run();
    this.next(direction);
  }

  private toggleOption(which: 'case' | 'regex'): void {
    if (which === 'case') this.caseSensitive = !this.caseSensitive;
    else this.regex = !this.regex;
    this.updateToggles();
    this.schedule(0);
  }

  private toggleFilters(): void {
    this.filters.hidden = !this.filters.hidden;
    if (!this.filters.hidden && this.filtersStale) this.renderFilters();
    this.filterBtn.setAttribute('aria-expanded', this.filters.hidden ? 'false' : 'true');
    this.updateToggles();
  }

  private updateToggles(): void {
    this.caseBtn.classList.toggle('is-on', this.caseSensitive);
    this.caseBtn.setAttribute('aria-pressed', String(this.caseSensitive));
    this.regexBtn.classList.toggle('is-on', this.regex);
    this.regexBtn.setAttribute('aria-pressed', String(this.regex));
    const filtered = this.excludedRoles.size + this.excludedTools.size > 0;
    this.filterBtn.classList.toggle('is-on', filtered || !this.filters.hidden);
    this.filterBtn.title = filtered ? 'Filter by role and tool (some excluded)' : 'Filter by role and tool';
  }

  /** The role and tool checkboxes, drawn only while the panel is open (a dozen widgets fewer on opening). */
  private renderFilters(): void {
    this.filtersStale = this.filters.hidden;
    if (this.filtersStale) return;
    const roles = el('div', { className: 'filter-group' });
    roles.append(el('span', { className: 'filter-label', text: 'Roles' }));
    for (const role of this.store.roles) {
      const c = checkbox(role, !this.excludedRoles.has(role));
      c.addEventListener('change', () => {
        if ((c as CheckedElement).checked) this.excludedRoles.delete(role);
        else this.excludedRoles.add(role);
        this.updateToggles();
        this.schedule(0);
      });
      roles.append(c);
    }
    const tools = el('div', { className: 'filter-group' });
    tools.append(el('span', { className: 'filter-label', text: 'Tools' }));
    if (!this.store.toolNames.length) tools.append(el('span', { className: 'muted', text: 'none' }));
    for (const tool of this.store.toolNames) {
      const c = checkbox(tool, !this.excludedTools.has(tool), `Messages calling or returning ${tool}`);
      c.addEventListener('change', () => {
        if ((c as CheckedElement).checked) this.excludedTools.delete(tool);
        else this.excludedTools.add(tool);
        this.updateToggles();
        this.schedule(0);
      });
      tools.append(c);
    }
    const note = el('div', { className: 'filter-note muted', text: 'With a tool unticked, only messages calling or returning a ticked tool are searched.' });
    this.filters.replaceChildren(roles, tools, note);
  }

  private request(): SearchRequest {
    const req: SearchRequest = { text: this.input.value, caseSensitive: this.caseSensitive, regex: this.regex };
    if (this.excludedRoles.size) req.roles = this.store.roles.filter((r) => !this.excludedRoles.has(r));
    if (this.excludedTools.size) req.tools = this.store.toolNames.filter((t) => !this.excludedTools.has(t));
    return req;
  }

  private key(): string {
    return JSON.stringify([this.store.recordId, this.request()]);
  }

  private schedule(delay = 300): void {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.run(), delay);
  }

  private async run(): Promise<void> {
    window.clearTimeout(this.timer);
    const req = this.request();
    const key = this.key();
    this.onChange();
    if (!req.text) {
      this.lastKey = key;
      this.store.setSearch({ request: null, positions: [], current: -1, busy: false });
      return;
    }
    if (req.regex) {
      try {
        new RegExp(req.text);
      } catch (err) {
        this.lastKey = key;
        this.store.setSearch({ request: req, positions: [], current: -1, busy: false, error: `Invalid regular expression: ${(err as Error).message}` });
        return;
      }
    }
    const seq = ++this.seq;
    this.store.setSearch({ ...this.store.search, request: req, busy: true, error: undefined });
    try {
      const body = await this.host.request('search', { recordId: this.store.recordId, query: req });
      if (seq !== this.seq) return;
      this.lastKey = key;
      const positions = [...new Set(body.positions)].filter((p) => this.store.indexOf(p) >= 0).sort((a, b) => this.store.indexOf(a) - this.store.indexOf(b));
      this.store.setSearch({ request: req, positions, current: -1, busy: false });
    } catch (err) {
      if (seq !== this.seq) return;
      this.lastKey = key;
      this.store.setSearch({ request: req, positions: [], current: -1, busy: false, error: (err as Error).message });
    }
  }

  private renderStatus(s: SearchState): void {
    this.status.classList.toggle('is-error', !!s.error);
    this.input.toggleAttribute('aria-invalid', !!s.error);
    if (s.error) this.status.textContent = s.error.length > 60 ? s.error.slice(0, 57) + '…' : s.error;
    else if (s.busy) this.status.textContent = 'Searching…';
    else if (!s.request) this.status.textContent = '';
    else if (!s.positions.length) this.status.textContent = 'No results';
    else if (s.current < 0) this.status.textContent = `${s.positions.length} ${s.positions.length === 1 ? 'match' : 'matches'}`;
    else this.status.textContent = `${s.current + 1} of ${s.positions.length}`;
    this.status.title = s.error ?? '';
  }
}
