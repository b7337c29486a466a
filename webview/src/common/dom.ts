// Safe DOM helpers. Every piece of trajectory text is untrusted: it only ever reaches the page
// through textContent / createTextNode. Nothing in the webview parses HTML from content.
import { CONTROL_RE, controlName } from '../../../src/shared/rowText';

export interface ElOptions {
  className?: string;
  text?: string;
  attrs?: Record<string, string | number | boolean | null | undefined>;
  title?: string;
  children?: (Node | string | null | undefined | false)[];
  on?: { [K in keyof HTMLElementEventMap]?: (ev: HTMLElementEventMap[K]) => void };
}

/** Creates an element; `text` and string children become text nodes, never markup. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, opts?: ElOptions): HTMLElementTagNameMap[K];
export function el(tag: string, opts?: ElOptions): HTMLElement;
export function el(tag: string, opts: ElOptions = {}): HTMLElement {
  const node = document.createElement(tag);
  if (opts.className) node.className = opts.className;
  if (opts.text !== undefined) node.textContent = opts.text;
  if (opts.title !== undefined) node.title = opts.title;
  if (opts.attrs) {
    for (const [name, value] of Object.entries(opts.attrs)) {
      if (value === null || value === undefined || value === false) continue;
      // Attribute names are ours (never from content); values are plain strings.
      node.setAttribute(name, value === true ? '' : String(value));
    }
  }
  if (opts.children) append(node, ...opts.children);
  if (opts.on) {
    for (const [type, handler] of Object.entries(opts.on)) node.addEventListener(type, handler as EventListener);
  }
  return node;
}

export function append(parent: Node, ...children: (Node | string | null | undefined | false)[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

export { controlName, visiblePlain } from '../../../src/shared/rowText';

/**
 * Appends `text` to `parent` as text nodes, with invisible/bidi characters shown as marked
 * escape spans. Returns how many such characters were found.
 */
export function appendVisibleText(parent: Node, text: string): number {
  let last = 0;
  let count = 0;
  CONTROL_RE.lastIndex = 0;
  for (let m = CONTROL_RE.exec(text); m; m = CONTROL_RE.exec(text)) {
    if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
    const ch = m[0];
    const code = 'U+' + ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    parent.appendChild(el('span', { className: 'ctrl-char', text: controlName(ch), title: `Invisible or bidi control character ${code}` }));
    last = m.index + 1;
    count++;
  }
  if (last < text.length) parent.appendChild(document.createTextNode(last === 0 ? text : text.slice(last)));
  return count;
}

/** True when a keyboard event comes from a text-entry control (also inside shadow roots). */
export function isTextEntryEvent(ev: Event): boolean {
  const path = ev.composedPath();
  for (const node of path) {
    if (!(node instanceof HTMLElement)) continue;
    const tag = node.tagName;
    if (tag === 'INPUT') {
      const type = (node as HTMLInputElement).type;
      if (type !== 'checkbox' && type !== 'radio' && type !== 'button') return true;
    }
    if (tag === 'TEXTAREA' || tag === 'SELECT' || node.isContentEditable) return true;
    if (tag === 'VSCODE-TEXTFIELD' || tag === 'VSCODE-TEXTAREA' || tag === 'VSCODE-SINGLE-SELECT') return true;
  }
  return false;
}
