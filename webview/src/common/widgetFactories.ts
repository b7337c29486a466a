// Small typed factories for the @vscode-elements components and the toolbar's icon buttons.
// They only create elements: registering the components is widgets.ts's job, so a view can make
// its first screen without evaluating them.
import { el } from './dom';

export interface ValueElement extends HTMLElement {
  value: string;
  disabled: boolean;
  invalid: boolean;
  placeholder?: string;
  readonly?: boolean;
}
export interface CheckedElement extends HTMLElement {
  checked: boolean;
  disabled: boolean;
  label: string;
}
export interface ButtonElement extends HTMLElement {
  disabled: boolean;
  secondary: boolean;
}
export function button(label: string, opts: { secondary?: boolean; title?: string; onClick?: () => void; className?: string } = {}): ButtonElement {
  const b = el('vscode-button', { text: label, className: opts.className, title: opts.title }) as ButtonElement;
  if (opts.secondary) b.setAttribute('secondary', '');
  if (opts.onClick)
    b.addEventListener('click', () => {
      if (!b.disabled) opts.onClick!();
    });
  return b;
}

/** A compact toolbar-style button (unicode glyph or short text) with an accessible label. */
export function iconButton(glyph: string, label: string, onClick: () => void, className = ''): HTMLButtonElement {
  const b = el('button', { className: `icon-btn ${className}`.trim(), text: glyph, title: label, attrs: { type: 'button', 'aria-label': label } });
  b.addEventListener('click', onClick);
  return b;
}

export function textfield(opts: { placeholder?: string; type?: string; label?: string; className?: string; value?: string } = {}): ValueElement {
  const t = el('vscode-textfield', { className: opts.className }) as ValueElement;
  if (opts.placeholder) t.setAttribute('placeholder', opts.placeholder);
  if (opts.type) t.setAttribute('type', opts.type);
  if (opts.label) t.setAttribute('label', opts.label);
  if (opts.value !== undefined) t.value = opts.value;
  return t;
}

export function checkbox(label: string, checked = false, title?: string): CheckedElement {
  const c = el('vscode-checkbox', { title }) as CheckedElement;
  c.setAttribute('label', label);
  c.checked = checked;
  return c;
}
