// Wires the webview together: host messages → store → panels; keyboard shortcuts; persisted
// UI state (never trajectory content or annotations).
import { EMBEDDED_INIT_ID, type ToWebview } from '../../../src/shared/protocol';
import { connectEditorHost } from './hostConnection';
import { assertNever } from '../common/hostLink';
import { Store, type PersistedUi } from './state';
import { Markers } from './markers';
import { Layout } from './layout';
import { Header } from './header';
import { Timeline } from './timeline/timeline';
import { DensityStrip } from './densityStrip';
import { SearchBar } from './search';
import { AnswerTracePanel } from './answerTrace';
import { GotoPrompt, ShortcutsOverlay, Toasts } from './overlays';
import { installKeyboard } from './keyboard';
import { el } from '../common/dom';
import { Gate } from './emitter';
import { afterPaint, beginEditorStart } from './editorStart';
import { iconButton } from '../common/widgetFactories';
import { loadLazyBundle } from '../common/lazyBundle';
// Types only: the module is a bundle of its own, loaded after the first paint (mountPanels).
import type { AnnotationPanel, AuditPanel, NuggetPanel, OutlinePanel, RecordList } from './panels';

type PanelsBundle = typeof import('./panels');

interface SidePanels {
  outline: OutlinePanel;
  records: RecordList;
  annotation: AnnotationPanel;
  audits: AuditPanel;
  nuggets: NuggetPanel;
}

export class App {
  private readonly host = connectEditorHost();
  private readonly store = new Store();
  private readonly markers = new Markers(this.store);
  private readonly persisted: PersistedUi;
  private readonly layout: Layout;
  private readonly header: Header;
  private readonly timeline: Timeline;
  private readonly strip: DensityStrip;
  private readonly search: SearchBar;
  private readonly trace: AnswerTracePanel;
  /** The side panels, built once the first rows are on screen (see mountPanels). */
  private panels: SidePanels | undefined;
  private panelsRequested = false;
  private readonly shortcuts = new ShortcutsOverlay();
  private readonly goto: GotoPrompt;
  private readonly toasts = new Toasts();
  /** Opens once the side panels are mounted: their shortcuts pressed before wait behind it. */
  private readonly panelsGate = new Gate();
  private readonly rightScroll: HTMLElement;
  private readonly banner: HTMLElement;
  private readonly status: HTMLElement;
  private saveTimer = 0;
  private markerQueued = false;
  private pendingReveal: { recordId: string; position: number } | null = null;
  private initialized = false;
  /** The page's first window is on screen and the whole view has not come yet. */
  private firstWindowShown = false;
  private readonly start = beginEditorStart();

  constructor(mount: HTMLElement) {
    performance.mark('trajaudit/app-start');
    const saved = this.host.getState<PersistedUi>();
    this.persisted = saved && saved.v === 1 ? saved : { v: 1 };

    // Markers first, so every panel renders a new view with its markers.
    this.store.on('view', () => this.markers.recompute());
    this.store.on('markers', () => this.queueMarkers());

    this.layout = new Layout(this.persisted);
    this.header = new Header(this.store);
    const reveal = (p: number, keepFocus?: boolean) => this.reveal(p, !keepFocus);
    this.timeline = new Timeline(this.store, this.markers, this.host, reveal);
    this.strip = new DensityStrip(this.store, this.markers, reveal);
    this.search = new SearchBar(this.store, this.host, (p) => this.reveal(p, false));
    this.trace = new AnswerTracePanel(this.store, this.host, reveal);
    this.goto = new GotoPrompt((p) => this.gotoPosition(p));
    this.banner = el('div', { className: 'banner', attrs: { role: 'alert', hidden: true } });
    this.status = el('div', { className: 'statusline', attrs: { 'aria-hidden': 'true' } });

    // Header toolbar
    const outlineBtn = iconButton('◧', 'Toggle the outline panel', () => this.layout.toggle('left'), 'toggle');
    const annotBtn = iconButton('◨', 'Toggle the annotation panel', () => this.layout.toggle('right'), 'toggle');
    const keysBtn = iconButton('?', 'Keyboard shortcuts (?)', () => this.shortcuts.toggle());
    this.header.toolbar.append(this.trace.button, outlineBtn, annotBtn, keysBtn);
    const syncToggles = () => {
      outlineBtn.classList.toggle('is-on', !this.layout.sizes.leftCollapsed);
      outlineBtn.setAttribute('aria-pressed', String(!this.layout.sizes.leftCollapsed));
      annotBtn.classList.toggle('is-on', !this.layout.sizes.rightCollapsed);
      annotBtn.setAttribute('aria-pressed', String(!this.layout.sizes.rightCollapsed));
    };
    syncToggles();
    this.layout.onChange = () => {
      syncToggles();
      this.strip.schedule();
      this.save();
    };
    this.header.setCollapsed(!!this.persisted.headerCollapsed);
    this.header.onToggleCollapsed = () => this.save();

    // Assemble
    this.layout.headerSlot.append(this.header.root, this.banner);
    const timelineWrap = el('div', { className: 'timeline-wrap' });
    timelineWrap.append(this.timeline.root, this.strip.root, this.goto.root);
    const colhead = el('div', { className: 'tl-colhead', attrs: { 'aria-hidden': 'true' } });
    colhead.append(
      el('span', { className: 'tl-gutter', title: 'Your critical step ★, gold G, audit A, branch proposals H/B/F, answer trace ⚑' }),
      el('span', { className: 'tl-twisty' }),
      el('span', { className: 'tl-pos', text: '#' }),
      el('span', { className: 'tl-role', text: 'role' }),
      el('span', { className: 'tl-text', text: 'tool calls · preview' }),
      el('span', { className: 'tl-tokens', text: 'tokens' }),
    );
    this.layout.center.append(this.search.root, this.trace.root, colhead, timelineWrap, this.status);
    this.rightScroll = el('div', { className: 'right-scroll' });
    this.layout.right.append(this.rightScroll);
    mount.replaceChildren(this.layout.root, this.shortcuts.root, this.toasts.root);
    performance.mark('trajaudit/app-mounted');

    // Wiring
    this.timeline.onViewportChange = (first, last) => {
      this.strip.setViewport(first, last);
      if (this.initialized) this.save();
    };
    this.search.onChange = () => this.save();
    this.search.onClose = () => this.timeline.focus();
    this.goto.onClose = () => undefined;
    if (this.persisted.search) this.search.restore(this.persisted.search);
    this.store.on('selection', () => {
      this.renderStatus();
      this.save();
    });
    this.store.on('expanded', () => this.save());
    this.store.on('tokens', () => this.renderStatus());
    this.store.on('view', () => {
      this.banner.hidden = true;
      this.strip.schedule();
      this.renderStatus();
    });

    installKeyboard({
      next: () => this.timeline.moveBy(1),
      previous: () => this.timeline.moveBy(-1),
      nextDecision: () => this.timeline.moveDecision(1),
      previousDecision: () => this.timeline.moveDecision(-1),
      pageDown: () => this.timeline.movePage(1),
      pageUp: () => this.timeline.movePage(-1),
      home: () => this.timeline.moveToEdge(false),
      end: () => this.timeline.moveToEdge(true),
      goto: () => this.goto.open(),
      search: () => this.search.focus(),
      nextMatch: () => this.search.next(1),
      previousMatch: () => this.search.next(-1),
      toggleExpand: () => {
        if (this.store.selected !== null) this.timeline.toggle(this.store.selected);
      },
      markCritical: () => this.afterPanels((selected, p) => p.annotation.markCritical(selected)),
      spanStart: () => this.afterPanels((selected, p) => p.annotation.setSpanEdge('start', selected)),
      spanEnd: () => this.afterPanels((selected, p) => p.annotation.setSpanEdge('end', selected)),
      rootCause: (n) => this.afterPanels((_selected, p) => p.annotation.pickRootCause(n)),
      previousRecord: () => this.afterPanels((_selected, p) => this.switchRecord(p, -1)),
      nextRecord: () => this.afterPanels((_selected, p) => this.switchRecord(p, 1)),
      toggleShortcuts: () => this.shortcuts.toggle(),
      escape: () => {
        if (this.shortcuts.isOpen) {
          this.shortcuts.close();
          return true;
        }
        if (this.goto.isOpen) {
          this.goto.close(true);
          return true;
        }
        if (this.store.search.request || this.store.search.positions.length) {
          this.search.close();
          return true;
        }
        if (this.store.trace) {
          this.store.setTrace(null);
          return true;
        }
        return false;
      },
    });

    this.host.onMessage((msg) => this.onHostMessage(msg));
    window.addEventListener('blur', () => this.panels?.annotation.flush());
    // A fresh panel draws the `init` embedded in its page at once. A restored one (saved UI
    // state: the tab was hidden, or the window reloaded) asks, since its page may be older than
    // the document; so does the host whenever the embedded one went stale.
    // 'ready' goes first: the host must see it before the 'rendered' that drawing posts.
    const embedded = saved ? undefined : this.embeddedInit();
    this.host.post({ type: 'ready', embeddedInit: embedded !== undefined && !embedded.firstWindow });
    if (embedded?.firstWindow) this.drawFirstWindow(embedded);
    else if (embedded) {
      this.onHostMessage(embedded);
      this.save();
    }
  }

  /**
   * The first rows of a view too big to embed whole, drawn at once by the same code; the whole
   * view follows by message and takes over where the user is then (selection, scroll, expanded
   * rows). Until it comes the editor's keys are held (editorStart.ts) and the side panels wait.
   */
  private drawFirstWindow(msg: Extract<ToWebview, { type: 'init' }>): void {
    this.showInit(msg);
    this.firstWindowShown = true;
    performance.mark('trajaudit/first-window');
  }

  private showInit(msg: Extract<ToWebview, { type: 'init' }>): void {
    this.store.file = msg.file;
    this.store.container = msg.container;
    this.store.readOnlyReason = msg.readOnlyReason;
    this.store.records = msg.records;
    performance.mark('trajaudit/init-start');
    this.store.setView(msg.view);
    performance.mark('trajaudit/init-view');
    this.store.setRecords(msg.records);
    this.store.setReadOnly(msg.readOnlyReason);
    this.restoreUi();
  }

  private embeddedInit(): Extract<ToWebview, { type: 'init' }> | undefined {
    const text = document.getElementById(EMBEDDED_INIT_ID)?.textContent;
    if (!text) return undefined;
    try {
      const msg = JSON.parse(text) as ToWebview;
      return msg.type === 'init' ? msg : undefined;
    } catch {
      return undefined;
    }
  }

  private onHostMessage(msg: ToWebview): void {
    switch (msg.type) {
      case 'init': {
        if (this.firstWindowShown) {
          this.firstWindowShown = false;
          const { recordId, selected, expanded } = this.store;
          Object.assign(this.persisted, {
            recordId: recordId || undefined,
            selected: selected ?? undefined,
            scrollTop: this.timeline.scrollTop(),
            expanded: [...expanded],
          });
        }
        this.showInit(msg);
        performance.mark('trajaudit/init-done');
        this.initialized = true;
        this.start.firstViewDrawn(() => this.mountPanels());
        this.postRendered(msg.view.recordId);
        break;
      }
      case 'record': {
        this.store.records = msg.records;
        this.store.setView(msg.view);
        this.store.setRecords(msg.records);
        const pending = this.pendingReveal;
        if (pending && pending.recordId === msg.view.recordId) {
          this.pendingReveal = null;
          this.reveal(pending.position);
        } else if (msg.view.rows.length) {
          this.timeline.select(msg.view.rows[0].position, 'none');
        }
        this.save();
        this.postRendered(msg.view.recordId);
        break;
      }
      case 'tokens':
        if (msg.recordId === this.store.recordId) this.store.applyTokens(msg.tokens, msg.totals);
        break;
      case 'annotation':
        if (msg.recordId === this.store.recordId) this.store.applyHostAnnotation(msg.annotation);
        this.store.setRecords(msg.records);
        break;
      case 'audits':
        if (msg.recordId === this.store.recordId) this.store.setAudits(msg.audits);
        this.store.setRecords(msg.records);
        break;
      case 'reveal':
        if (msg.recordId === this.store.recordId) this.reveal(msg.position);
        else this.pendingReveal = { recordId: msg.recordId, position: msg.position };
        break;
      case 'error':
        this.start.firstViewDrawn(() => this.mountPanels());
        this.showBanner(msg.message);
        break;
      case 'reply': // settled by the host link
        break;
      default:
        assertNever(msg);
    }
  }

  private showBanner(message: string): void {
    this.banner.hidden = false;
    this.banner.replaceChildren(
      el('span', { text: message }),
      iconButton('✕', 'Dismiss', () => (this.banner.hidden = true)),
    );
  }

  /**
   * The outline, record list, annotation and audit panels, and the components they use, are
   * loaded, built, attached and rendered only once the frame that shows the first rows has been
   * presented: evaluating them, their widgets' first render and the layout of a full page would
   * otherwise delay it. Each draws the store as it is then.
   */
  private mountPanels(): void {
    if (this.panelsRequested) return;
    this.panelsRequested = true;
    this.timeline.afterFirstPaint();
    loadLazyBundle<PanelsBundle>('panels', 'trajauditPanels').then(
      (modules) => this.attachPanels(modules),
      (err: unknown) => this.showBanner(`The side panels could not be loaded: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  private attachPanels({ OutlinePanel, RecordList, AnnotationPanel, AuditPanel, NuggetPanel }: PanelsBundle): void {
    const reveal = (p: number, keepFocus?: boolean) => this.reveal(p, !keepFocus);
    const panels: SidePanels = {
      outline: new OutlinePanel(this.store, this.markers, reveal),
      records: new RecordList(this.store, this.host, this.persisted.recordFilter),
      annotation: new AnnotationPanel(this.store, this.host),
      audits: new AuditPanel(this.store, reveal),
      nuggets: new NuggetPanel(this.store, this.host, reveal),
    };
    this.panels = panels;
    panels.annotation.notify = (m, kind) => this.toasts.show(m, kind);
    panels.records.onFilterChange = () => this.save();
    panels.records.beforeSwitch = () => panels.annotation.flush();
    this.layout.left.append(panels.records.root, panels.outline.root);
    this.rightScroll.append(panels.annotation.root, panels.audits.root, panels.nuggets.root);
    this.panelsGate.open();
    performance.mark('trajaudit/panels-mounted');
  }

  /** Runs a shortcut that needs the side panels now, or once they are mounted, with the selection of now. */
  private afterPanels(action: (selected: number | null, panels: SidePanels) => void): void {
    const selected = this.store.selected;
    this.panelsGate.run(() => action(selected, this.panels!));
  }

  /** Tells the host the record is on screen (after the next frame), so it may start counting tokens. */
  private postRendered(recordId: string): void {
    afterPaint(() => this.host.post({ type: 'rendered', recordId }));
  }

  /** Selects and scrolls to the row of `position`; moves focus to the timeline unless told not to. */
  private reveal(position: number, focusTimeline = true): void {
    if (this.store.indexOf(position) < 0) {
      this.toasts.show(`Message ${position} is not in this record.`, 'error');
      return;
    }
    this.timeline.revealPosition(position);
    if (focusTimeline) this.timeline.focus();
  }

  private gotoPosition(position: number): string | null {
    if (this.store.indexOf(position) < 0) {
      const rows = this.store.rows;
      return rows.length ? `No message ${position} (${rows[0].position}–${rows[rows.length - 1].position}).` : 'No messages.';
    }
    this.timeline.revealPosition(position);
    this.timeline.focus();
    return null;
  }

  private switchRecord(panels: SidePanels, direction: 1 | -1): void {
    if (!panels.records.visible) {
      this.toasts.show('This file holds a single record.');
      return;
    }
    panels.records.step(direction);
  }

  private queueMarkers(): void {
    if (this.markerQueued) return;
    this.markerQueued = true;
    queueMicrotask(() => {
      this.markerQueued = false;
      this.markers.recompute();
      this.timeline.refreshMarkers();
      this.panels?.outline.refreshMarkers(); // else it draws the markers when mounted
      this.strip.schedule();
    });
  }

  private restoreUi(): void {
    const p = this.persisted;
    const view = this.store.view;
    if (!view) return;
    if (p.recordId === view.recordId) {
      for (const pos of p.expanded ?? []) if (this.store.indexOf(pos) >= 0) this.store.setExpanded(pos, true);
      if (p.selected !== undefined && this.store.indexOf(p.selected) >= 0) this.timeline.select(p.selected, 'none');
      if (p.scrollTop) this.timeline.restoreScroll(p.scrollTop);
    } else if (view.rows.length) {
      this.timeline.select(view.rows[0].position, 'none');
    }
    this.focusTimelineWithPage();
  }

  /**
   * Focuses the timeline once the first rows are on screen if the page has focus, else once it
   * gets it. Focusing an element inside an unfocused webview pulls focus out of the workbench, and
   * the app starts a moment after its editor appears: a command palette opened meanwhile would
   * close under the user. Not before the first frame: focus() lays out the whole page there and
   * then, and the frame lays out again what the rest of start-up changed. Keys pressed meanwhile
   * reach the document's handler (keyboard.ts) all the same.
   */
  private focusTimelineWithPage(): void {
    if (document.hasFocus()) {
      afterPaint(() => {
        if (!document.activeElement || document.activeElement === document.body) this.timeline.focus();
      });
      return;
    }
    window.addEventListener(
      'focus',
      () => {
        if (!document.activeElement || document.activeElement === document.body) this.timeline.focus();
      },
      { once: true },
    );
  }

  private renderStatus(): void {
    const sel = this.store.selected;
    const rows = this.store.rows;
    if (sel === null || !rows.length) {
      this.status.textContent = `${rows.length} messages · press ? for shortcuts`;
      return;
    }
    const i = this.store.indexOf(sel);
    const row = rows[i];
    const dIndex = this.store.decisionIndices.indexOf(i);
    const parts = [`Message ${sel} (${i + 1} of ${rows.length})`];
    if (dIndex >= 0) parts.push(`decision step ${dIndex + 1} of ${this.store.decisionIndices.length}`);
    else if (row.role === 'tool' && row.issuedBy !== undefined) parts.push(`return for step ${row.issuedBy}`);
    if (row.tokens !== undefined) parts.push(`${row.tokens} tokens`);
    parts.push('? shortcuts');
    this.status.textContent = parts.join(' · ');
  }

  private save(): void {
    window.clearTimeout(this.saveTimer);
    this.saveTimer = window.setTimeout(() => {
      const s = this.layout.sizes;
      const state: PersistedUi = {
        v: 1,
        recordId: this.store.recordId || undefined,
        selected: this.store.selected ?? undefined,
        scrollTop: Math.round(this.timeline.scrollTop()),
        expanded: [...this.store.expanded].slice(0, 200),
        leftWidth: Math.round(s.leftWidth),
        rightWidth: Math.round(s.rightWidth),
        leftCollapsed: s.leftCollapsed,
        rightCollapsed: s.rightCollapsed,
        headerCollapsed: this.header.isCollapsed(),
        search: this.search.prefs(),
        recordFilter: this.panels?.records.filter ?? this.persisted.recordFilter,
      };
      Object.assign(this.persisted, state);
      this.host.setState(state);
    }, 250);
  }
}
