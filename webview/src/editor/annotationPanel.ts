// The annotation panel: critical step, tolerance span, root cause (with the Appendix A
// definitions and boundary summary), rationale, repair directive, repair rubrics, annotator.
// Every change sends the complete new annotation (unknown fields preserved) with a short label;
// the host turns it into an undoable edit and echoes the result, which is always re-rendered.
import type { AnnotationData } from '../../../src/shared/protocol';
import type { RootCause } from '../../../src/core/model/rootCauses';
import type { HostConnection } from './hostConnection';
import type { Store } from './state';
import { el } from '../common/dom';
import { formatDate } from './format';
import { BOUNDARY_SUMMARY, LABELING_POLICY, ROOT_CAUSES, rootCauseInfo, rootCauseLabel } from './taxonomy';
import { criticalError, spanError, type SpanCheckContext } from './comparison';
import { collapsible, textarea, textfield, type ValueElement } from '../common/widgets';

const TEXT_IDLE_MS = 1500;

interface TextBinding {
  field: ValueElement;
  read(a: AnnotationData): string;
  patch(value: string): Partial<AnnotationData>;
  label: string;
  timer: number;
  /** The record the pending text was typed in. */
  recordId: string;
}

export class AnnotationPanel {
  readonly root: HTMLElement;
  private readonly critical: ValueElement;
  private readonly criticalUse: HTMLButtonElement;
  private readonly criticalMsg: HTMLElement;
  private readonly spanStart: ValueElement;
  private readonly spanEnd: ValueElement;
  private readonly spanMsg: HTMLElement;
  private readonly spanUseStart: HTMLButtonElement;
  private readonly spanUseEnd: HTMLButtonElement;
  private readonly causeGroup: HTMLElement;
  private readonly causeDef: HTMLElement;
  private readonly rubricCount: HTMLElement;
  private readonly updated: HTMLElement;
  private readonly readOnlyNote: HTMLElement;
  private readonly outdatedNote: HTMLElement;
  private readonly texts: TextBinding[] = [];
  private spanDraft: [string, string] | null = null;
  /** Announces short feedback (e.g. "Message 13 is not a decision step"). */
  notify: (message: string, kind?: 'info' | 'error') => void = () => {};

  constructor(
    private readonly store: Store,
    private readonly host: HostConnection,
  ) {
    this.root = el('section', { className: 'panel-section annotation', attrs: { 'aria-labelledby': 'annotation-heading' } });
    const head = el('div', { className: 'section-head' });
    head.append(el('h2', { text: 'Your annotation', attrs: { id: 'annotation-heading' } }));
    this.updated = el('span', { className: 'section-count' });
    head.append(this.updated);
    this.readOnlyNote = el('div', { className: 'note note-warn', attrs: { role: 'note' } });
    this.readOnlyNote.hidden = true;
    this.outdatedNote = el('div', { className: 'note note-warn', attrs: { role: 'note' } });
    this.outdatedNote.hidden = true;
    this.outdatedNote.textContent =
      'This annotation was made on other content of the trajectory file (its sha256 differs): steps may have moved. Check it; saving it again, or trajaudit validate --accept-content, confirms it.';

    // Critical step
    this.critical = textfield({ type: 'number', placeholder: 'step', className: 'num-field' });
    this.critical.setAttribute('aria-label', 'Critical step (message position)');
    this.critical.addEventListener('change', () => this.commitCritical(this.critical.value));
    this.criticalUse = smallButton('Use selected', 'Mark the selected decision step as critical (c)', () => this.markCritical(this.store.selected));
    this.criticalMsg = el('div', { className: 'field-msg', attrs: { 'aria-live': 'polite' } });
    const criticalRow = field('Critical step', 'c', [this.critical, this.criticalUse], this.criticalMsg);

    // Tolerance span
    this.spanStart = textfield({ type: 'number', placeholder: 'start', className: 'num-field' });
    this.spanStart.setAttribute('aria-label', 'Tolerance span start');
    this.spanEnd = textfield({ type: 'number', placeholder: 'end', className: 'num-field' });
    this.spanEnd.setAttribute('aria-label', 'Tolerance span end');
    for (const f of [this.spanStart, this.spanEnd]) f.addEventListener('change', () => this.commitSpanFields());
    this.spanUseStart = smallButton('[ start', 'Start the span at the selected decision step ([)', () => this.setSpanEdge('start', this.store.selected));
    this.spanUseEnd = smallButton('end ]', 'End the span at the selected decision step (])', () => this.setSpanEdge('end', this.store.selected));
    this.spanMsg = el('div', { className: 'field-msg', attrs: { 'aria-live': 'polite' } });
    const dash = el('span', { className: 'muted', text: '–' });
    const spanFields = el('span', { className: 'ctl-group' });
    spanFields.append(this.spanStart, dash, this.spanEnd);
    const spanButtons = el('span', { className: 'ctl-group' });
    spanButtons.append(this.spanUseStart, this.spanUseEnd);
    const spanRow = field('Tolerance span', '[ ]', [spanFields, spanButtons], this.spanMsg);

    // Root cause
    this.causeGroup = el('div', { className: 'cause-list', attrs: { role: 'radiogroup', 'aria-label': 'Root cause' } });
    ROOT_CAUSES.forEach((rc, i) => {
      const opt = el('button', {
        className: 'cause-opt',
        attrs: { type: 'button', role: 'radio', 'aria-checked': 'false', 'data-id': rc.id, title: rc.definition },
      });
      opt.append(
        el('span', { className: 'cause-key', text: String(i + 1), attrs: { 'aria-hidden': 'true' } }),
        el('span', { className: 'cause-label', text: rc.label }),
      );
      opt.addEventListener('click', () => this.setRootCause(rc.id));
      opt.addEventListener('keydown', (ev) => this.onCauseKey(ev, i));
      this.causeGroup.append(opt);
    });
    this.causeDef = el('div', { className: 'cause-def', attrs: { 'aria-live': 'polite' } });
    const boundary = collapsible('Boundary summary', false);
    boundary.append(el('p', { className: 'boundary', text: BOUNDARY_SUMMARY }));
    const policy = collapsible('Labeling policy', false);
    const ul = el('ul', { className: 'policy' });
    for (const p of LABELING_POLICY) ul.append(el('li', { text: p }));
    policy.append(ul);
    const causeField = el('div', { className: 'field' });
    causeField.append(fieldLabel('Root cause', '1–6'), this.causeGroup, this.causeDef, boundary, policy);

    // Free text
    const rationale = textarea({ placeholder: 'Why this step establishes the failure…', rows: 4 });
    const directive = textarea({ placeholder: 'How the agent should have proceeded from the critical step…', rows: 4 });
    const rubrics = textarea({ placeholder: 'One atomic, process-level requirement per line (3–5)', rows: 5 });
    const annotator = textfield({ placeholder: 'your name' });
    rationale.setAttribute('aria-label', 'Rationale');
    directive.setAttribute('aria-label', 'Repair directive');
    rubrics.setAttribute('aria-label', 'Repair rubrics, one per line');
    annotator.setAttribute('aria-label', 'Annotator');
    this.rubricCount = el('div', { className: 'field-msg', attrs: { 'aria-live': 'polite' } });
    this.bindText(
      rationale,
      (a) => a.rationale ?? '',
      (v) => ({ rationale: v || null }),
      'Edit rationale',
    );
    this.bindText(
      directive,
      (a) => a.repairDirective ?? '',
      (v) => ({ repairDirective: v || null }),
      'Edit repair directive',
    );
    this.bindText(
      rubrics,
      (a) => (a.repairRubrics ?? []).join('\n'),
      (v) => ({ repairRubrics: splitRubrics(v) }),
      'Edit repair rubrics',
    );
    this.bindText(
      annotator,
      (a) => a.annotator ?? '',
      (v) => ({ annotator: v.trim() || null }),
      'Set annotator',
    );
    rubrics.addEventListener('input', () => this.renderRubricCount(splitRubrics(rubrics.value) ?? []));

    this.root.append(
      head,
      this.readOnlyNote,
      this.outdatedNote,
      criticalRow,
      spanRow,
      causeField,
      field('Rationale', '', [rationale]),
      field('Repair directive', '', [directive]),
      field('Repair rubrics', '', [rubrics], this.rubricCount),
      field('Annotator', '', [annotator]),
    );

    store.on('view', () => {
      this.spanDraft = null;
      for (const t of this.texts) {
        window.clearTimeout(t.timer);
        t.timer = 0;
        t.recordId = '';
      }
      this.render(true);
    });
    store.on('annotation', () => this.render(false));
    store.on('records', () => this.renderOutdated());
    store.on('selection', () => this.renderSelectionButtons());
    store.on('readOnly', () => this.render(false));
  }

  // ── actions (also used by keyboard shortcuts) ──────────────────────────────────────────

  markCritical(position: number | null): void {
    if (!this.writable()) return;
    if (position === null) {
      this.notify('Select a decision step first.', 'error');
      return;
    }
    const err = criticalError(position, this.ctx());
    if (err) {
      const row = this.store.rowAt(position);
      const hint = row?.role === 'tool' && row.issuedBy !== undefined ? ` Its call was issued by step ${row.issuedBy}.` : '';
      this.criticalMsg.textContent = err + hint;
      this.criticalMsg.className = 'field-msg is-error';
      this.notify(err + hint, 'error');
      return;
    }
    this.edit({ criticalStep: position }, `Set critical step ${position}`);
  }

  setSpanEdge(edge: 'start' | 'end', position: number | null): void {
    if (!this.writable()) return;
    if (position === null) {
      this.notify('Select a decision step first.', 'error');
      return;
    }
    const a = this.store.annotation;
    const current = a.toleranceSpan ?? null;
    const critical = a.criticalStep ?? null;
    let span: [number, number];
    if (edge === 'start') span = [position, current ? current[1] : Math.max(position, critical ?? position)];
    else span = [current ? current[0] : Math.min(position, critical ?? position), position];
    this.trySpan(span, true);
  }

  setRootCause(id: RootCause | null): void {
    if (!this.writable()) return;
    if ((this.store.annotation.rootCause ?? null) === id) return;
    this.edit({ rootCause: id }, id ? `Set root cause ${rootCauseLabel(id)}` : 'Clear root cause');
  }

  pickRootCause(n: number): void {
    const id = ROOT_CAUSES[n - 1]?.id;
    if (id) this.setRootCause(id);
  }

  /** Sends any pending text edits now (before switching records, say). */
  flush(): void {
    // Only fields typed in: an untouched field may not show the annotation yet (the panel
    // renders after the first rows), and committing it would erase that text.
    for (const t of this.texts) if (t.recordId) this.commitText(t);
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────

  private writable(): boolean {
    if (this.store.readOnlyReason) {
      this.notify(`Read-only: ${this.store.readOnlyReason}`, 'error');
      return false;
    }
    return !!this.store.view;
  }

  private ctx(): SpanCheckContext {
    return {
      exists: (p) => this.store.indexOf(p) >= 0,
      isDecision: (p) => this.store.isDecision(p),
      describe: (p) => {
        const r = this.store.rowAt(p);
        if (!r) return 'missing';
        if (r.role === 'tool') return 'a tool return';
        return `a ${r.role} message`;
      },
    };
  }

  private edit(patch: Partial<AnnotationData>, label: string): void {
    const next: AnnotationData = { ...this.store.annotation, ...patch, updatedAt: new Date().toISOString() };
    this.store.applyLocalEdit(next);
    this.host.post({ type: 'editAnnotation', recordId: this.store.recordId, annotation: next, label });
  }

  private commitCritical(raw: string): void {
    if (!this.writable()) return;
    const text = raw.trim();
    if (!text) {
      if (this.store.annotation.criticalStep !== null && this.store.annotation.criticalStep !== undefined)
        this.edit({ criticalStep: null }, 'Clear critical step');
      return;
    }
    const n = Number(text);
    if (n === this.store.annotation.criticalStep) return;
    const err = criticalError(n, this.ctx());
    if (err) {
      this.critical.invalid = true;
      this.criticalMsg.textContent = err;
      this.criticalMsg.className = 'field-msg is-error';
      return;
    }
    this.edit({ criticalStep: n }, `Set critical step ${n}`);
  }

  private commitSpanFields(): void {
    if (!this.writable()) return;
    const s = this.spanStart.value.trim();
    const e = this.spanEnd.value.trim();
    if (!s && !e) {
      this.spanDraft = null;
      if (this.store.annotation.toleranceSpan) this.edit({ toleranceSpan: null }, 'Clear tolerance span');
      else this.render(false);
      return;
    }
    if (!s || !e) {
      this.spanDraft = [s, e];
      this.showSpanError('Enter both ends of the span.');
      return;
    }
    this.trySpan([Number(s), Number(e)], false);
  }

  private trySpan(span: [number, number], fromKey: boolean): void {
    const current = this.store.annotation.toleranceSpan;
    const err = spanError(span, this.store.annotation.criticalStep, this.ctx());
    if (err) {
      this.spanDraft = [String(span[0]), String(span[1])];
      this.spanStart.value = this.spanDraft[0];
      this.spanEnd.value = this.spanDraft[1];
      this.showSpanError(err + ' Not saved.');
      if (fromKey) this.notify(`Span ${span[0]}–${span[1]} not saved: ${err}`, 'error');
      return;
    }
    this.spanDraft = null;
    if (current && current[0] === span[0] && current[1] === span[1]) {
      this.render(false);
      return;
    }
    this.edit({ toleranceSpan: span }, `Set tolerance span ${span[0]}–${span[1]}`);
  }

  private showSpanError(message: string): void {
    this.spanMsg.textContent = message;
    this.spanMsg.className = 'field-msg is-error';
    this.spanStart.invalid = true;
    this.spanEnd.invalid = true;
  }

  private bindText(field: ValueElement, read: (a: AnnotationData) => string, patch: (v: string) => Partial<AnnotationData>, label: string): void {
    const binding: TextBinding = { field, read, patch, label, timer: 0, recordId: '' };
    this.texts.push(binding);
    field.addEventListener('input', () => {
      binding.recordId = this.store.recordId;
      window.clearTimeout(binding.timer);
      binding.timer = window.setTimeout(() => this.commitText(binding), TEXT_IDLE_MS);
    });
    // Commit at once on change/blur: a click on another record blurs the field before the
    // record switches, so the edit still goes to the record it was typed in.
    field.addEventListener('change', () => this.commitText(binding));
    field.addEventListener('focusout', () => this.commitText(binding));
  }

  private commitText(b: TextBinding): void {
    window.clearTimeout(b.timer);
    b.timer = 0;
    if (!this.store.view || this.store.readOnlyReason) return;
    // Typed in another record (the view switched meanwhile): never apply it to this one.
    if (b.recordId && b.recordId !== this.store.recordId) return;
    const value = b.field.value;
    const current = b.read(this.store.annotation);
    const p = b.patch(value);
    // Compare normalized forms, so trailing blank lines in rubrics do not make an edit.
    if (JSON.stringify(b.patch(current)) === JSON.stringify(p)) return;
    this.edit(p, b.label);
  }

  private renderOutdated(): void {
    this.outdatedNote.hidden = !this.store.records.find((r) => r.id === this.store.recordId)?.annotationOutdated;
  }

  private isEditing(f: HTMLElement): boolean {
    return f.matches(':focus-within') || document.activeElement === f;
  }

  private render(force: boolean): void {
    const a = this.store.annotation;
    const ro = !!this.store.readOnlyReason;
    this.readOnlyNote.hidden = !ro;
    this.readOnlyNote.textContent = ro ? `Read-only: ${this.store.readOnlyReason}` : '';
    this.renderOutdated();
    for (const f of [this.critical, this.spanStart, this.spanEnd, ...this.texts.map((t) => t.field)]) f.disabled = ro;
    for (const b of [this.criticalUse, this.spanUseStart, this.spanUseEnd]) b.disabled = ro;

    const ctx = this.ctx();
    // Critical step
    if (force || !this.isEditing(this.critical)) this.critical.value = a.criticalStep === null || a.criticalStep === undefined ? '' : String(a.criticalStep);
    const cErr = a.criticalStep !== null && a.criticalStep !== undefined ? criticalError(a.criticalStep, ctx) : null;
    this.critical.invalid = !!cErr;
    this.criticalMsg.textContent = cErr ?? (a.criticalStep === null || a.criticalStep === undefined ? 'Select a decision step and press c.' : '');
    this.criticalMsg.className = `field-msg${cErr ? ' is-error' : ''}`;

    // Span (a rejected draft stays visible with its error until the next valid edit)
    if (!this.spanDraft) {
      const span = a.toleranceSpan;
      if (force || !this.isEditing(this.spanStart)) this.spanStart.value = span ? String(span[0]) : '';
      if (force || !this.isEditing(this.spanEnd)) this.spanEnd.value = span ? String(span[1]) : '';
      const sErr = span ? spanError(span, a.criticalStep, ctx) : null;
      this.spanStart.invalid = !!sErr;
      this.spanEnd.invalid = !!sErr;
      this.spanMsg.textContent =
        sErr ?? (span ? `${span[1] - span[0] + 1} messages, ${this.decisionsIn(span)} decision steps` : 'Smallest window of acceptable decision steps.');
      this.spanMsg.className = `field-msg${sErr ? ' is-error' : ''}`;
    }

    // Root cause
    for (const opt of this.causeGroup.children) {
      const on = (opt as HTMLElement).dataset.id === a.rootCause;
      opt.setAttribute('aria-checked', on ? 'true' : 'false');
      opt.classList.toggle('is-on', on);
      (opt as HTMLButtonElement).disabled = ro;
      (opt as HTMLElement).tabIndex = on || (!a.rootCause && opt === this.causeGroup.firstElementChild) ? 0 : -1;
    }
    const info = rootCauseInfo(a.rootCause ?? null);
    this.causeDef.replaceChildren();
    if (info) {
      this.causeDef.append(el('strong', { text: info.label }), el('p', { text: info.definition }));
    } else if (a.rootCause) {
      this.causeDef.append(el('p', { className: 'is-error', text: `Unknown root cause "${a.rootCause}" (kept as is).` }));
    } else {
      this.causeDef.append(el('p', { className: 'muted', text: 'Pick the earliest, most direct mechanism (1–6). Its definition appears here.' }));
    }

    // Text fields: never overwrite what the user is typing.
    for (const t of this.texts) {
      const v = t.read(a);
      if (force || (!this.isEditing(t.field) && !t.timer)) {
        if (t.field.value !== v) t.field.value = v;
      }
    }
    this.renderRubricCount(a.repairRubrics ?? []);
    this.updated.textContent = a.updatedAt ? `saved ${formatDate(a.updatedAt)}${a.annotator ? ' · ' + a.annotator : ''}` : '';
    this.updated.title = a.updatedAt ?? '';
    this.renderSelectionButtons();
  }

  private renderRubricCount(rubrics: string[]): void {
    const n = rubrics.length;
    const ok = n >= 3 && n <= 5;
    this.rubricCount.textContent =
      n === 0 ? 'Three to five atomic rubrics, one per line.' : `${n} rubric${n === 1 ? '' : 's'}${ok ? '' : ' — expected 3 to 5'}`;
    this.rubricCount.className = `field-msg${n && !ok ? ' is-warn' : ''}`;
  }

  private renderSelectionButtons(): void {
    const sel = this.store.selected;
    const ok = sel !== null && this.store.isDecision(sel);
    const suffix = sel === null ? '' : ` ${sel}`;
    this.criticalUse.textContent = `Use selected${ok ? suffix : ''}`;
    this.criticalUse.title = ok ? `Mark step ${sel} as critical (c)` : 'Select a decision step first (c)';
  }

  private decisionsIn(span: [number, number]): number {
    const a = this.store.indexOf(span[0]);
    const b = this.store.indexOf(span[1]);
    if (a < 0 || b < 0) return 0;
    return this.store.decisionIndices.filter((i) => i >= a && i <= b).length;
  }

  private onCauseKey(ev: KeyboardEvent, i: number): void {
    const n = ROOT_CAUSES.length;
    let next = -1;
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowRight') next = (i + 1) % n;
    else if (ev.key === 'ArrowUp' || ev.key === 'ArrowLeft') next = (i - 1 + n) % n;
    if (next < 0) return;
    ev.preventDefault();
    ev.stopPropagation();
    const opt = this.causeGroup.children[next] as HTMLElement;
    opt.focus();
    this.setRootCause(ROOT_CAUSES[next].id);
  }
}

function splitRubrics(text: string): string[] | null {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim())
    .filter(Boolean);
  return lines.length ? lines : null;
}

function smallButton(label: string, title: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', { className: 'text-btn', text: label, title, attrs: { type: 'button' } });
  b.addEventListener('click', onClick);
  return b;
}

function fieldLabel(text: string, key: string): HTMLElement {
  const l = el('div', { className: 'field-label' });
  l.append(el('span', { text }));
  if (key) l.append(el('kbd', { text: key, title: `Shortcut: ${key}` }));
  return l;
}

function field(label: string, key: string, controls: Node[], message?: HTMLElement): HTMLElement {
  const f = el('div', { className: 'field' });
  f.append(fieldLabel(label, key));
  const row = el('div', { className: 'field-row' });
  row.append(...controls);
  f.append(row);
  if (message) f.append(message);
  return f;
}
