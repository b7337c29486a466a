// Overlays: the shortcuts sheet (?), the go-to-position prompt (g) and short status toasts.
import { SHORTCUTS } from '../../../src/shared/protocol';
import { el } from '../common/dom';
import { STRIP_LEGEND } from './densityStrip';
import { iconButton } from '../common/widgetFactories';

export class ShortcutsOverlay {
  readonly root: HTMLElement;
  private returnFocus: HTMLElement | null = null;

  constructor() {
    this.root = el('div', { className: 'overlay-backdrop', attrs: { hidden: true } });
    this.root.addEventListener('click', (ev) => {
      if (ev.target === this.root) this.close();
    });
  }

  /** The sheet is built when first opened: its hundred-odd elements are not on the first screen. */
  private dialog(): HTMLElement {
    const built = this.root.firstElementChild as HTMLElement | null;
    if (built) return built;
    const dialog = el('div', { className: 'overlay', attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'shortcuts-title', tabindex: -1 } });
    const head = el('div', { className: 'overlay-head' });
    head.append(
      el('h2', { text: 'Keyboard shortcuts', attrs: { id: 'shortcuts-title' } }),
      iconButton('✕', 'Close (Escape)', () => this.close()),
    );
    const table = el('table', { className: 'keys-table' });
    const tbody = el('tbody');
    for (const s of SHORTCUTS) {
      const tr = el('tr');
      const keys = el('td', { className: 'keys' });
      s.keys.split(/\s+\/\s+|\s+/).forEach((k, i) => {
        if (i) keys.append(' ');
        keys.append(el('kbd', { text: k }));
      });
      tr.append(keys, el('td', { text: s.does }));
      tbody.append(tr);
    }
    const extra: [string, string][] = [
      ['Esc', 'close overlays and the search'],
      ['↑ ↓  PgUp PgDn  Home End', 'move in the timeline'],
    ];
    for (const [k, d] of extra) {
      const tr = el('tr');
      const keys = el('td', { className: 'keys' });
      k.split(/\s+/)
        .filter(Boolean)
        .forEach((x, i) => {
          if (i) keys.append(' ');
          keys.append(el('kbd', { text: x }));
        });
      tr.append(keys, el('td', { text: d }));
      tbody.append(tr);
    }
    table.append(tbody);
    const legend = el('div', { className: 'legend' });
    legend.append(el('h3', { text: 'Density strip and gutter marks' }));
    const ul = el('ul');
    for (const item of STRIP_LEGEND) {
      const li = el('li');
      li.append(el('span', { className: `swatch sw-${item.key}`, attrs: { 'aria-hidden': 'true' } }), item.label);
      ul.append(li);
    }
    const badges: [string, string, string][] = [
      ['★', 'critical', 'your critical step'],
      ['G', 'gold', 'gold critical step (from file)'],
      ['A', 'audit', 'newest audit diagnosis'],
      ['H B F', 'branch', 'holistic / backward / forward branch proposals'],
      ['⚑', 'answer-pred', 'first occurrence of the predicted answer'],
    ];
    for (const [b, kind, text] of badges) {
      const li = el('li');
      li.append(el('span', { className: `mk mk-${kind}`, text: b, attrs: { 'aria-hidden': 'true' } }), ' ', text);
      ul.append(li);
    }
    legend.append(ul);
    const body = el('div', { className: 'overlay-body' });
    body.append(table, legend);
    dialog.append(head, body);
    this.root.append(dialog);
    dialog.addEventListener('keydown', (ev) => {
      if (ev.key === 'Tab') {
        // Keep focus inside the dialog.
        ev.preventDefault();
        dialog.focus();
      }
    });
    return dialog;
  }

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  toggle(): void {
    if (this.isOpen) this.close();
    else this.open();
  }

  open(): void {
    this.returnFocus = document.activeElement as HTMLElement | null;
    const dialog = this.dialog();
    this.root.hidden = false;
    dialog.focus();
  }

  close(): void {
    if (!this.isOpen) return;
    this.root.hidden = true;
    this.returnFocus?.focus?.({ preventScroll: true });
  }
}

/** A small inline prompt for a message position (g). */
export class GotoPrompt {
  readonly root: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly msg: HTMLElement;
  private returnFocus: HTMLElement | null = null;

  constructor(private readonly go: (position: number) => string | null) {
    this.root = el('div', { className: 'goto', attrs: { role: 'dialog', 'aria-label': 'Go to message', hidden: true } });
    const label = el('label', { text: 'Go to message', attrs: { for: 'goto-input' } });
    this.input = el('input', {
      className: 'goto-input',
      attrs: { id: 'goto-input', type: 'text', inputmode: 'numeric', autocomplete: 'off', spellcheck: 'false', placeholder: 'position' },
    });
    this.msg = el('span', { className: 'goto-msg', attrs: { 'aria-live': 'polite' } });
    this.root.append(label, this.input, this.msg);
    this.input.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') {
        ev.preventDefault();
        ev.stopPropagation();
        const n = Number(this.input.value.trim());
        const err = this.input.value.trim() && Number.isInteger(n) ? this.go(n) : 'Type a message position.';
        if (err) this.msg.textContent = err;
        else this.close(false);
      } else if (ev.key === 'Escape') {
        ev.preventDefault();
        ev.stopPropagation();
        this.close(true);
      }
    });
    this.input.addEventListener('blur', () => setTimeout(() => this.close(false), 0));
  }

  get isOpen(): boolean {
    return !this.root.hidden;
  }

  open(): void {
    this.returnFocus = document.activeElement as HTMLElement | null;
    this.root.hidden = false;
    this.input.value = '';
    this.msg.textContent = '';
    this.input.focus();
  }

  close(restoreFocus: boolean): void {
    if (!this.isOpen) return;
    this.root.hidden = true;
    if (restoreFocus) this.returnFocus?.focus?.({ preventScroll: true });
    this.onClose();
  }

  onClose: () => void = () => {};
}

/** Short status messages, announced politely to screen readers. */
export class Toasts {
  readonly root: HTMLElement;
  private timer = 0;

  constructor() {
    this.root = el('div', { className: 'toast', attrs: { role: 'status', 'aria-live': 'polite', hidden: true } });
  }

  show(message: string, kind: 'info' | 'error' = 'info', ms = 4000): void {
    this.root.textContent = message;
    this.root.className = `toast toast-${kind}`;
    this.root.hidden = false;
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => (this.root.hidden = true), ms);
  }
}
