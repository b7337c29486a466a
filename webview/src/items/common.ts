// Template pieces shared by the item views (Lit). Every piece of item text is untrusted and reaches
// the page only through text bindings (visibleText); highlights split the text into runs first.
import { html, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { el } from '../common/dom';
import { CONTROL_RE, controlName } from '../../../src/shared/rowText';
import type { Field } from '../../../src/shared/itemProtocol';
import { segmentsOf, type HighlightRange } from './segments';

/** Text with highlighted runs as <mark> elements (class `markClass` plus `${markClass}-<span>`). */
export function highlighted(
  text: string,
  ranges: readonly HighlightRange[],
  markClass = 'ia-mark',
  markTitle?: (spans: number[]) => string,
): (string | TemplateResult)[] {
  return segmentsOf(text, ranges).flatMap((seg) =>
    seg.spans.length
      ? [
          html`<mark
            class=${`${markClass} ${markClass}-${seg.spans[0] % 6}${seg.spans.length > 1 ? ` ${markClass}-multi` : ''}`}
            data-spans=${seg.spans.join(' ')}
            title=${ifDefined(markTitle?.(seg.spans))}
            >${visibleText(seg.text)}</mark
          >`,
        ]
      : visibleText(seg.text),
  );
}

export function chip(text: string, className = '', title?: string): TemplateResult {
  return html`<span class=${`ia-chip ${className}`.trim()} title=${ifDefined(title)}>${text}</span>`;
}

export function sectionLabel(text: string): TemplateResult {
  return html`<div class="ia-label"><span>${text}</span></div>`;
}

/** A definition list of fields (keys are ours or the file's; both are rendered as text). */
export function fieldList(fields: readonly Field[], className = ''): TemplateResult {
  return html`<dl class=${`ia-fields ${className}`.trim()}>${fields.map((f) => html`<dt>${f.key || '—'}</dt><dd>${visibleText(f.value)}</dd>`)}</dl>`;
}

export interface YesNoOptions {
  label: string;
  value: boolean | undefined;
  yes?: string;
  no?: string;
  disabled?: boolean;
  /** null clears the judgment (clicking the chosen answer again). */
  onChange(value: boolean | null): void;
  compact?: boolean;
}

/** A two-button Yes/No choice; clicking the chosen answer again clears it. */
export function yesNo(opts: YesNoOptions): TemplateResult {
  const button = (value: boolean) => {
    const chosen = opts.value === value;
    return html`<button
      class=${`ia-yn ${value ? 'ia-yn-yes' : 'ia-yn-no'}${chosen ? ' is-on' : ''}`}
      type="button"
      aria-pressed=${String(chosen)}
      ?disabled=${opts.disabled ?? false}
      data-value=${String(value)}
      title=${ifDefined(chosen ? 'Click again to clear' : undefined)}
      @click=${() => opts.onChange(chosen ? null : value)}
    >${value ? (opts.yes ?? 'Yes') : (opts.no ?? 'No')}</button>`;
  };
  return html`<div class=${`ia-yesno${opts.compact ? ' is-compact' : ''}`} role="group" aria-label=${opts.label}>${button(true)}${button(false)}</div>`;
}

/** Untrusted text for a Lit template: text parts, with invisible/bidi characters as marked escapes (as appendVisibleText). */
export function visibleText(text: string): (string | TemplateResult)[] {
  const parts: (string | TemplateResult)[] = [];
  let last = 0;
  CONTROL_RE.lastIndex = 0;
  for (let m = CONTROL_RE.exec(text); m; m = CONTROL_RE.exec(text)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    const ch = m[0];
    const code = 'U+' + ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    parts.push(html`<span class="ctrl-char" title=${`Invisible or bidi control character ${code}`}>${controlName(ch)}</span>`);
    last = m.index + 1;
  }
  if (last < text.length) parts.push(last === 0 ? text : text.slice(last));
  return parts;
}

/** A native text input styled like VS Code's. */
export function input(placeholder: string, className = '', type = 'text'): HTMLInputElement {
  return el('input', { className: `ia-input ${className}`.trim(), attrs: { type, placeholder, spellcheck: 'false' } });
}

export function select(options: { value: string; label: string }[], className = '', label = ''): HTMLSelectElement {
  const s = el('select', { className: `ia-select ${className}`.trim(), attrs: { 'aria-label': label } });
  for (const o of options) s.append(el('option', { text: o.label, attrs: { value: o.value } }));
  return s;
}

export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): ((...args: A) => void) & { flush(): void } {
  let timer = 0;
  let pending: A | null = null;
  const run = (...args: A) => {
    pending = args;
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      const a = pending;
      pending = null;
      if (a) fn(...a);
    }, ms);
  };
  run.flush = () => {
    window.clearTimeout(timer);
    const a = pending;
    pending = null;
    if (a) fn(...a);
  };
  return run;
}

export function flash(node: HTMLElement): void {
  node.classList.remove('ia-flash');
  void node.offsetWidth;
  node.classList.add('ia-flash');
}
