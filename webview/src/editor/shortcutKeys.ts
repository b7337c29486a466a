// The plain keys the trajectory editor acts on (keyboard.ts), by action. Start-up
// (editorStart.ts) holds these, and only these, when they are pressed before the first view is
// drawn: any other key, F1 say, has already gone to VS Code, and a replay would send it again
// (the webview forwards every keydown to the workbench's keybindings).
import type { KeyActions } from './keyboard';

type PlainAction = Exclude<keyof KeyActions, 'rootCause' | 'escape'>;

export const KEY_ACTIONS: Readonly<Record<string, PlainAction>> = {
  j: 'next',
  k: 'previous',
  ArrowDown: 'next',
  ArrowUp: 'previous',
  J: 'nextDecision',
  K: 'previousDecision',
  PageDown: 'pageDown',
  PageUp: 'pageUp',
  Home: 'home',
  End: 'end',
  g: 'goto',
  '/': 'search',
  n: 'nextMatch',
  N: 'previousMatch',
  o: 'toggleExpand',
  Enter: 'toggleExpand',
  c: 'markCritical',
  '[': 'spanStart',
  ']': 'spanEnd',
  H: 'previousRecord',
  L: 'nextRecord',
  '?': 'toggleShortcuts',
};

/** The action of a plain key, if any (1–6 pick a root cause). */
export function plainKeyAction(key: string): PlainAction | 'rootCause' | undefined {
  if (/^[1-6]$/.test(key)) return 'rootCause';
  return Object.prototype.hasOwnProperty.call(KEY_ACTIONS, key) ? KEY_ACTIONS[key] : undefined;
}
