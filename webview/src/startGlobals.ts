// What the page's deferred start (deferredStart.ts) leaves on window for the app, and the rule
// both use for keys pressed before the app can act on them.
import { plainKeyAction } from './shortcutKeys';

export interface EarlyKey {
  key: string;
  code: string;
  shiftKey: boolean;
}

/** A click on a row of the static first screen: the app selects that message. */
export interface EarlyRowClick {
  rowClick: number;
}

/** What the user did before the app could act, in order. */
export type EarlyInput = EarlyKey | EarlyRowClick;

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

export interface StartGlobals {
  /** The page's VS Code API, acquired by the deferred start (a page may acquire it only once). */
  __trajauditVsCodeApi?: VsCodeApi;
  /** Stops keeping input and returns the keys pressed and rows clicked before the app started. */
  __trajauditEarlyInput?: () => EarlyInput[];
}

/**
 * The key to keep for replay: one of the editor's plain shortcuts (shortcutKeys.ts), without Ctrl,
 * Alt or Meta. Every other key belongs to VS Code, which has already had it.
 */
export function earlyKeyOf(ev: KeyboardEvent): EarlyKey | undefined {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || !plainKeyAction(ev.key)) return undefined;
  return { key: ev.key, code: ev.code, shiftKey: ev.shiftKey };
}
