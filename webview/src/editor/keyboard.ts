// Global keyboard shortcuts (see SHORTCUTS in the protocol). They apply when focus is not in a
// text field; Escape always closes the topmost overlay or the search.
import { isTextEntryEvent } from '../common/dom';
import { plainKeyAction } from './shortcutKeys';

export interface KeyActions {
  next(): void;
  previous(): void;
  nextDecision(): void;
  previousDecision(): void;
  pageDown(): void;
  pageUp(): void;
  home(): void;
  end(): void;
  goto(): void;
  search(): void;
  nextMatch(): void;
  previousMatch(): void;
  toggleExpand(): void;
  markCritical(): void;
  spanStart(): void;
  spanEnd(): void;
  rootCause(n: number): void;
  previousRecord(): void;
  nextRecord(): void;
  toggleShortcuts(): void;
  /** Returns true when something was closed. */
  escape(): boolean;
}

export function installKeyboard(actions: KeyActions): void {
  document.addEventListener('keydown', (ev) => {
    if (ev.defaultPrevented) return;
    if (ev.key === 'Escape') {
      if (actions.escape()) ev.preventDefault();
      return;
    }
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (isTextEntryEvent(ev)) return;
    // Buttons and radios keep Enter/Space for themselves.
    const target = ev.composedPath()[0] as HTMLElement | undefined;
    const onControl = !!target && (target.tagName === 'BUTTON' || target.getAttribute?.('role') === 'radio' || target.tagName?.startsWith('VSCODE-'));
    if (onControl && (ev.key === 'Enter' || ev.key === ' ' || ev.key.startsWith('Arrow'))) return;
    const action = plainKeyAction(ev.key);
    if (!action) return;
    if (action === 'rootCause') {
      ev.preventDefault();
      actions.rootCause(Number(ev.key));
      return;
    }
    // Arrow/page keys drive the timeline only when it (or nothing in particular) has focus.
    if (/^(Arrow|Page|Home|End)/.test(ev.key) && target && target !== document.body && !target.closest?.('.tl-scroller')) return;
    ev.preventDefault();
    actions[action]();
  });
}
