// The annotation panel: critical step, tolerance span, root cause (with the Appendix A
// definitions and boundary summary), rationale, repair directive, repair rubrics, annotator.
// Every change sends the complete new annotation (unknown fields preserved) with a short label;
// the host turns it into an undoable edit and echoes the result, which is always re-rendered.
// A Lit template: what the user has typed and not yet committed is a draft, and a field shows
// its draft over the annotation, so a host update never overwrites typing; live() compares with
// the element's current value, so an unchanged value is never written back (the caret stays).
import { html, nothing, render, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { AnnotationData } from '../../../src/shared/protocol';
import type { RootCause } from '../../../src/core/model/rootCauses';
import type { HostConnection } from './hostConnection';
import type { Store } from './state';
import { el } from '../common/dom';
import { formatDate } from './format';
import { BOUNDARY_SUMMARY, LABELING_POLICY, ROOT_CAUSES, rootCauseInfo, rootCauseLabel } from './taxonomy';
import { criticalError, spanError, type SpanCheckContext } from './comparison';
import '../common/widgets';

const TEXT_IDLE_MS = 1500;
const OUTDATED_NOTE =
  'This annotation was made on other content of the trajectory file (its sha256 differs): steps may have moved. Check it; saving it again, or trajaudit validate --accept-content, confirms it.';

type TextKey = 'rationale' | 'directive' | 'rubrics' | 'annotator';

interface TextField {
  read(a: AnnotationData): string;
  patch(value: string): Partial<AnnotationData>;
  label: string;
}

const TEXT_FIELDS: Record<TextKey, TextField> = {
  rationale: { read: (a) => a.rationale ?? '', patch: (v) => ({ rationale: v || null }), label: 'Edit rationale' },
  directive: { read: (a) => a.repairDirective ?? '', patch: (v) => ({ repairDirective: v || null }), label: 'Edit repair directive' },
  rubrics: { read: (a) => (a.repairRubrics ?? []).join('\n'), patch: (v) => ({ repairRubrics: splitRubrics(v) }), label: 'Edit repair rubrics' },
  annotator: { read: (a) => a.annotator ?? '', patch: (v) => ({ annotator: v.trim() || null }), label: 'Set annotator' },
};

/** Text typed and not yet committed: its value, the record it was typed in, its idle timer. */
interface TextDraft {
  value: string;
  recordId: string;
  timer: number;
}

interface ValueTarget extends EventTarget {
  value: string;
}

const valueOf = (ev: Event): string => (ev.currentTarget as ValueTarget).value;

export class AnnotationPanel {
  readonly root: HTMLElement;
  private readonly textDrafts = new Map<TextKey, TextDraft>();
  /** The critical-step field as typed; `note` is the error of its last commit or of `c`. */
  private critical: { draft: string | null; note: string | null } = { draft: null, note: null };
  /** The span fields as typed. */
  private spanTyped: { start: string | null; end: string | null } = { start: null, end: null };
  /** A rejected span stays in the fields with its error until the next valid span edit. */
  private spanRejected: { start: string; end: string; message: string } | null = null;
  /** Announces short feedback (e.g. "Message 13 is not a decision step"). */
  notify: (message: string, kind?: 'info' | 'error') => void = () => {};

  constructor(
    private readonly store: Store,
    private readonly host: HostConnection,
  ) {
    this.root = el('section', { className: 'panel-section annotation', attrs: { 'aria-labelledby': 'annotation-heading' } });
    store.on('view', () => {
      for (const d of this.textDrafts.values()) window.clearTimeout(d.timer);
      this.textDrafts.clear();
      this.critical = { draft: null, note: null };
      this.spanTyped = { start: null, end: null };
      this.spanRejected = null;
      this.render();
    });
    store.on('annotation', () => {
      // A rejected critical step shows until the annotation changes; text being typed stays.
      if (this.critical.note !== null) this.critical = { draft: null, note: null };
      this.render();
    });
    store.on('records', () => this.render());
    store.on('selection', () => this.render());
    store.on('readOnly', () => this.render());
    this.render();
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
      this.critical = { draft: this.critical.draft, note: err + hint };
      this.render();
      this.notify(err + hint, 'error');
      return;
    }
    this.critical = { draft: null, note: null };
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
    for (const key of [...this.textDrafts.keys()]) this.commitText(key);
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
      this.critical = { draft: null, note: null };
      if (this.store.annotation.criticalStep !== null && this.store.annotation.criticalStep !== undefined)
        this.edit({ criticalStep: null }, 'Clear critical step');
      else this.render();
      return;
    }
    const n = Number(text);
    if (n === this.store.annotation.criticalStep) {
      this.critical = { draft: null, note: null };
      this.render();
      return;
    }
    const err = criticalError(n, this.ctx());
    if (err) {
      this.critical = { draft: raw, note: err };
      this.render();
      return;
    }
    this.critical = { draft: null, note: null };
    this.edit({ criticalStep: n }, `Set critical step ${n}`);
  }

  private typeSpan(edge: 'start' | 'end', value: string): void {
    this.spanTyped = { ...this.spanTyped, [edge]: value };
  }

  private commitSpanFields(): void {
    if (!this.writable()) return;
    const span = this.store.annotation.toleranceSpan;
    const s = (this.spanTyped.start ?? this.spanRejected?.start ?? (span ? String(span[0]) : '')).trim();
    const e = (this.spanTyped.end ?? this.spanRejected?.end ?? (span ? String(span[1]) : '')).trim();
    this.spanTyped = { start: null, end: null };
    if (!s && !e) {
      this.spanRejected = null;
      if (span) this.edit({ toleranceSpan: null }, 'Clear tolerance span');
      else this.render();
      return;
    }
    if (!s || !e) {
      this.spanRejected = { start: s, end: e, message: 'Enter both ends of the span.' };
      this.render();
      return;
    }
    this.trySpan([Number(s), Number(e)], false);
  }

  private trySpan(span: [number, number], fromKey: boolean): void {
    const current = this.store.annotation.toleranceSpan;
    const err = spanError(span, this.store.annotation.criticalStep, this.ctx());
    this.spanTyped = { start: null, end: null };
    if (err) {
      this.spanRejected = { start: String(span[0]), end: String(span[1]), message: err + ' Not saved.' };
      this.render();
      if (fromKey) this.notify(`Span ${span[0]}–${span[1]} not saved: ${err}`, 'error');
      return;
    }
    this.spanRejected = null;
    if (current && current[0] === span[0] && current[1] === span[1]) {
      this.render();
      return;
    }
    this.edit({ toleranceSpan: span }, `Set tolerance span ${span[0]}–${span[1]}`);
  }

  private typeText(key: TextKey, value: string): void {
    const draft = this.textDrafts.get(key);
    if (draft) window.clearTimeout(draft.timer);
    const recordId = draft?.recordId ?? this.store.recordId;
    this.textDrafts.set(key, { value, recordId, timer: window.setTimeout(() => this.commitText(key), TEXT_IDLE_MS) });
    if (key === 'rubrics') this.render();
  }

  private commitText(key: TextKey): void {
    const draft = this.textDrafts.get(key);
    if (!draft) return;
    window.clearTimeout(draft.timer);
    this.textDrafts.delete(key);
    if (!this.store.view || this.store.readOnlyReason) return;
    // Typed in another record (the view switched meanwhile): never apply it to this one.
    if (draft.recordId !== this.store.recordId) return;
    const field = TEXT_FIELDS[key];
    const p = field.patch(draft.value);
    // Compare normalized forms, so trailing blank lines in rubrics do not make an edit.
    if (JSON.stringify(field.patch(field.read(this.store.annotation))) === JSON.stringify(p)) return;
    this.edit(p, field.label);
  }

  private textValue(key: TextKey): string {
    return this.textDrafts.get(key)?.value ?? TEXT_FIELDS[key].read(this.store.annotation);
  }

  private render(): void {
    render(this.template(), this.root);
  }

  private template(): TemplateResult {
    const a = this.store.annotation;
    const readOnly = this.store.readOnlyReason;
    const ro = !!readOnly;
    const outdated = !!this.store.records.find((r) => r.id === this.store.recordId)?.annotationOutdated;
    const ctx = this.ctx();

    const hasCritical = a.criticalStep !== null && a.criticalStep !== undefined;
    const cErr = hasCritical ? criticalError(a.criticalStep!, ctx) : null;
    const criticalMsg = this.critical.note ?? cErr ?? (hasCritical ? '' : 'Select a decision step and press c.');
    const criticalInvalid = !!cErr || (this.critical.note !== null && this.critical.draft !== null);

    const span = a.toleranceSpan;
    const rejected = this.spanRejected;
    const sErr = !rejected && span ? spanError(span, a.criticalStep, ctx) : null;
    const spanMsg =
      rejected?.message ??
      sErr ??
      (span ? `${span[1] - span[0] + 1} messages, ${this.decisionsIn(span)} decision steps` : 'Smallest window of acceptable decision steps.');
    const spanInvalid = !!rejected || !!sErr;
    const spanStart = this.spanTyped.start ?? rejected?.start ?? (span ? String(span[0]) : '');
    const spanEnd = this.spanTyped.end ?? rejected?.end ?? (span ? String(span[1]) : '');

    const sel = this.store.selected;
    const selOk = sel !== null && this.store.isDecision(sel);

    const rubricsValue = this.textValue('rubrics');
    const rubricCount = this.textDrafts.has('rubrics') ? (splitRubrics(rubricsValue) ?? []).length : (a.repairRubrics ?? []).length;
    const rubricsOk = rubricCount >= 3 && rubricCount <= 5;

    // A native textarea styled like VS Code's: vscode-textarea's stylesheet uses a data: image for
    // its resize cursor, which the webview CSP `img-src ${cspSource}` blocks.
    const textarea = (key: TextKey, label: string, placeholder: string, rows: number) =>
      html`<textarea
        class="vsc-textarea"
        aria-label=${label}
        placeholder=${placeholder}
        rows=${rows}
        spellcheck="true"
        ?disabled=${ro}
        .value=${live(this.textValue(key))}
        @input=${(ev: Event) => this.typeText(key, valueOf(ev))}
        @change=${() => this.commitText(key)}
        @focusout=${() => this.commitText(key)}
      ></textarea>`;
    // Commit at once on change/blur: a click on another record blurs the field before the
    // record switches, so the edit still goes to the record it was typed in.

    return html`
      <div class="section-head">
        <h2 id="annotation-heading">Your annotation</h2>
        <span class="section-count" title=${a.updatedAt ?? ''}
          >${a.updatedAt ? `saved ${formatDate(a.updatedAt)}${a.annotator ? ' · ' + a.annotator : ''}` : ''}</span
        >
      </div>
      <div class="note note-warn" role="note" ?hidden=${!ro}>${ro ? `Read-only: ${readOnly}` : ''}</div>
      <div class="note note-warn" role="note" ?hidden=${!outdated}>${OUTDATED_NOTE}</div>
      ${field(
        'Critical step',
        'c',
        html`<vscode-textfield
            class="num-field"
            type="number"
            placeholder="step"
            aria-label="Critical step (message position)"
            ?disabled=${ro}
            .invalid=${criticalInvalid}
            .value=${live(this.critical.draft ?? (hasCritical ? String(a.criticalStep) : ''))}
            @input=${(ev: Event) => (this.critical = { draft: valueOf(ev), note: null })}
            @change=${(ev: Event) => this.commitCritical(valueOf(ev))}
          ></vscode-textfield
          ><button
            class="text-btn"
            type="button"
            title=${selOk ? `Mark step ${sel} as critical (c)` : 'Select a decision step first (c)'}
            ?disabled=${ro}
            @click=${() => this.markCritical(this.store.selected)}
          >${`Use selected${selOk ? ` ${sel}` : ''}`}</button>`,
        message(criticalMsg, this.critical.note !== null || cErr ? 'is-error' : ''),
      )}
      ${field(
        'Tolerance span',
        '[ ]',
        html`<span class="ctl-group"
            ><vscode-textfield
              class="num-field"
              type="number"
              placeholder="start"
              aria-label="Tolerance span start"
              ?disabled=${ro}
              .invalid=${spanInvalid}
              .value=${live(spanStart)}
              @input=${(ev: Event) => this.typeSpan('start', valueOf(ev))}
              @change=${(ev: Event) => (this.typeSpan('start', valueOf(ev)), this.commitSpanFields())}
            ></vscode-textfield
            ><span class="muted">–</span
            ><vscode-textfield
              class="num-field"
              type="number"
              placeholder="end"
              aria-label="Tolerance span end"
              ?disabled=${ro}
              .invalid=${spanInvalid}
              .value=${live(spanEnd)}
              @input=${(ev: Event) => this.typeSpan('end', valueOf(ev))}
              @change=${(ev: Event) => (this.typeSpan('end', valueOf(ev)), this.commitSpanFields())}
            ></vscode-textfield></span
          ><span class="ctl-group"
            ><button
              class="text-btn"
              type="button"
              title="Start the span at the selected decision step ([)"
              ?disabled=${ro}
              @click=${() => this.setSpanEdge('start', this.store.selected)}
            >[ start</button
            ><button
              class="text-btn"
              type="button"
              title="End the span at the selected decision step (])"
              ?disabled=${ro}
              @click=${() => this.setSpanEdge('end', this.store.selected)}
            >end ]</button></span
          >`,
        message(spanMsg, spanInvalid ? 'is-error' : ''),
      )}
      <div class="field">
        ${fieldLabel('Root cause', '1–6')}
        <div class="cause-list" role="radiogroup" aria-label="Root cause">
          ${ROOT_CAUSES.map((rc, i) => {
            const on = rc.id === a.rootCause;
            return html`<button
              class=${on ? 'cause-opt is-on' : 'cause-opt'}
              type="button"
              role="radio"
              aria-checked=${on ? 'true' : 'false'}
              data-id=${rc.id}
              title=${rc.definition}
              tabindex=${on || (!a.rootCause && i === 0) ? 0 : -1}
              ?disabled=${ro}
              @click=${() => this.setRootCause(rc.id)}
              @keydown=${(ev: KeyboardEvent) => this.onCauseKey(ev, i)}
            ><span class="cause-key" aria-hidden="true">${i + 1}</span><span class="cause-label">${rc.label}</span></button>`;
          })}
        </div>
        <div class="cause-def" aria-live="polite">${this.causeDefinition(a.rootCause ?? null)}</div>
        <vscode-collapsible heading="Boundary summary"><p class="boundary">${BOUNDARY_SUMMARY}</p></vscode-collapsible>
        <vscode-collapsible heading="Labeling policy"
          ><ul class="policy">
            ${LABELING_POLICY.map((p) => html`<li>${p}</li>`)}
          </ul></vscode-collapsible
        >
      </div>
      ${field('Rationale', '', textarea('rationale', 'Rationale', 'Why this step establishes the failure…', 4))}
      ${field('Repair directive', '', textarea('directive', 'Repair directive', 'How the agent should have proceeded from the critical step…', 4))}
      ${field(
        'Repair rubrics',
        '',
        textarea('rubrics', 'Repair rubrics, one per line', 'One atomic, process-level requirement per line (3–5)', 5),
        message(
          rubricCount === 0
            ? 'Three to five atomic rubrics, one per line.'
            : `${rubricCount} rubric${rubricCount === 1 ? '' : 's'}${rubricsOk ? '' : ' — expected 3 to 5'}`,
          rubricCount && !rubricsOk ? 'is-warn' : '',
        ),
      )}
      ${field(
        'Annotator',
        '',
        html`<vscode-textfield
          placeholder="your name"
          aria-label="Annotator"
          ?disabled=${ro}
          .value=${live(this.textValue('annotator'))}
          @input=${(ev: Event) => this.typeText('annotator', valueOf(ev))}
          @change=${() => this.commitText('annotator')}
          @focusout=${() => this.commitText('annotator')}
        ></vscode-textfield>`,
      )}
    `;
  }

  private causeDefinition(id: string | null): TemplateResult {
    const info = rootCauseInfo(id);
    if (info) return html`<strong>${info.label}</strong><p>${info.definition}</p>`;
    if (id) return html`<p class="is-error">${`Unknown root cause "${id}" (kept as is).`}</p>`;
    return html`<p class="muted">Pick the earliest, most direct mechanism (1–6). Its definition appears here.</p>`;
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
    this.root.querySelectorAll<HTMLElement>('.cause-opt')[next]?.focus();
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

function fieldLabel(text: string, key: string): TemplateResult {
  return html`<div class="field-label"><span>${text}</span>${key ? html`<kbd title=${`Shortcut: ${key}`}>${key}</kbd>` : nothing}</div>`;
}

function message(text: string, kind: '' | 'is-error' | 'is-warn'): TemplateResult {
  return html`<div class=${kind ? `field-msg ${kind}` : 'field-msg'} aria-live="polite">${text}</div>`;
}

function field(label: string, key: string, controls: TemplateResult, msg?: TemplateResult): TemplateResult {
  return html`<div class="field">${fieldLabel(label, key)}<div class="field-row">${controls}</div>${msg ?? nothing}</div>`;
}
