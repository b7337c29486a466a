// Delegation items (seed 000): query, golden answer, documents by group, evidence spans marked in
// the golden documents, distractor audit fields and reasoning steps; and the blind-review mode,
// in which the host sends only the model-visible fields and this view shows the review form.
import { html, nothing, render, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { live } from 'lit/directives/live.js';
import { ref } from 'lit/directives/ref.js';
import { repeat } from 'lit/directives/repeat.js';
import { el } from '../common/dom';
import type {
  DelegationBlindView,
  DelegationFullView,
  DelegationState,
  DistractorAudit,
  EvidenceSpanView,
  FullDistractorDoc,
  FullDoc,
  ItemFileInfo,
  ItemListEntry,
  ItemToWebview,
  ReviewPatch,
  VisibleDoc,
} from '../../../src/shared/itemProtocol';
import type { ItemApp } from './itemApp';
import { chip, debounce, fieldList, flash, highlighted, sectionLabel, visibleText, yesNo } from './common';

type Group = 'golden' | 'irrelevant' | 'distractor';

const GROUP_TITLE: Record<Group, string> = {
  golden: 'Golden documents',
  irrelevant: 'Irrelevant documents',
  distractor: 'Distractor documents',
};
const GROUP_HINT: Record<Group, string> = {
  golden: 'Selected by the pipeline as the evidence that answers the query',
  irrelevant: 'Retrieved alongside, labelled as not supporting the answer',
  distractor: 'Synthesized to look relevant but be invalid under the query’s constraints',
};

const AUDIT_LABELS: [keyof DistractorAudit, string][] = [
  ['target_info_point', 'Target info point'],
  ['target_evidence_text', 'Target evidence text'],
  ['conflict_hint', 'Conflict hint'],
  ['discriminating_constraint', 'Discriminating constraint'],
  ['synthetic_url', 'Synthetic URL'],
  ['pseudo_publish_time', 'Pseudo publish time'],
];

const BLIND_NOTE =
  'Blind review: you see what an evaluated model sees (document text and metadata) and the pipeline’s document groups. The pipeline’s audit fields, evidence spans and reasoning are withheld.';

const STATUS_GLYPH: Record<ItemListEntry['review'], string> = { none: '○', partial: '◐', complete: '●' };
const STATUS_TEXT: Record<ItemListEntry['review'], string> = {
  none: 'not reviewed by you',
  partial: 'partly reviewed by you',
  complete: 'fully reviewed by you',
};

export class DelegationView {
  readonly root: HTMLElement;
  private readonly list: HTMLElement;
  private readonly main: HTMLElement;
  private readonly side: HTMLElement;
  private readonly blindToggle: HTMLButtonElement;
  private state: DelegationState;
  /** The note as typed in the blind review form, until the field loses focus or the item changes. */
  private noteDraft: { itemId: string; text: string } | null = null;
  private readonly saveNote = debounce((itemId: string, text: string) => this.edit(itemId, { notes: text }, 'Edit review note'), 700);

  constructor(
    private readonly app: ItemApp,
    private readonly info: ItemFileInfo,
    state: DelegationState,
  ) {
    this.state = state;
    this.list = el('nav', { className: 'ia-list', attrs: { 'aria-label': 'Items' } });
    this.main = el('main', { className: 'ia-main', attrs: { tabindex: '-1' } });
    this.side = el('aside', { className: 'ia-side' });
    this.root = el('div', { className: 'ia-deleg', children: [this.list, this.main, this.side] });
    this.blindToggle = el('button', {
      className: 'ia-tb ia-switch',
      attrs: { type: 'button', role: 'switch' },
      title: 'Blind review: hide every pipeline-generated field and record your judgments (seed 000 human validation)',
    });
    this.blindToggle.append(
      el('span', { className: 'ia-switch-track', children: [el('span', { className: 'ia-switch-thumb' })] }),
      el('span', { text: 'Blind review' }),
    );
    this.blindToggle.addEventListener('click', () => {
      this.saveNote.flush();
      app.host.post({ type: 'setBlind', blind: !this.state.blind });
    });
    app.toolbar.append(this.blindToggle);
    window.addEventListener('blur', () => this.saveNote.flush());
    this.render(true);
    // A reloaded panel returns to the item it showed.
    const wanted = app.ui.itemId;
    if (wanted && wanted !== state.itemId && state.items.some((i) => i.id === wanted)) app.host.post({ type: 'selectItem', itemId: wanted });
  }

  onMessage(msg: ItemToWebview): void {
    if (msg.type === 'delegation') {
      this.saveNote.flush();
      const sameView = msg.state.itemId === this.state.itemId && msg.state.blind === this.state.blind;
      if (!sameView) this.noteDraft = null;
      this.state = msg.state;
      this.render(!sameView);
    } else if (msg.type === 'review' && msg.itemId === this.state.itemId) {
      this.state = { ...this.state, items: msg.items, myReview: msg.myReview };
      if (!this.state.blind) this.state.reviews = msg.reviews;
      this.renderList();
      this.renderReviewControls();
    } else if (msg.type === 'review') {
      this.state = { ...this.state, items: msg.items };
      this.renderList();
    }
  }

  private edit(itemId: string, patch: ReviewPatch, label: string): void {
    this.app.host.post({ type: 'editReview', itemId, patch, label });
  }

  private render(resetScroll: boolean): void {
    this.root.classList.toggle('is-blind', this.state.blind);
    this.root.classList.toggle('has-list', this.state.items.length > 1);
    this.blindToggle.setAttribute('aria-checked', String(this.state.blind));
    this.blindToggle.classList.toggle('is-on', this.state.blind);
    this.app.saveUi({ itemId: this.state.itemId });
    this.renderList();
    this.renderMain();
    this.renderSide();
    // Lit keeps the column (and its scroll position) across updates; another item starts at its top.
    if (resetScroll) this.main.scrollTop = 0;
  }

  // ── item list ───────────────────────────────────────────────────────────────────────────

  private renderList(): void {
    const items = this.state.items;
    this.list.hidden = items.length <= 1;
    if (items.length <= 1) return;
    const onKey = (ev: KeyboardEvent, index: number) => {
      if (ev.key !== 'ArrowDown' && ev.key !== 'ArrowUp') return;
      ev.preventDefault();
      const next = items[index + (ev.key === 'ArrowDown' ? 1 : -1)];
      if (next) this.select(next.id);
    };
    render(
      html`<div class="ia-list-head"><span>ITEMS</span><span class="muted">${String(items.length)}</span></div>
        <ul class="ia-list-items" role="listbox" aria-label="Items in this file">
          ${repeat(
            items,
            (item) => item.id,
            (item, index) => {
              const selected = item.id === this.state.itemId;
              return html`<li
                class=${selected ? 'ia-list-item is-selected' : 'ia-list-item'}
                role="option"
                aria-selected=${String(selected)}
                tabindex=${selected ? '0' : '-1'}
                data-id=${item.id}
                @click=${() => this.select(item.id)}
                @keydown=${(ev: KeyboardEvent) => onKey(ev, index)}
              >
                <div class="ia-list-top">
                  <span class=${`ia-status ia-status-${item.review}`} title=${STATUS_TEXT[item.review]}>${STATUS_GLYPH[item.review]}</span
                  ><span class="ia-list-id">${item.id}</span>${
                    item.reviews ? html`<span class="ia-list-count">${`${item.reviews} review${item.reviews > 1 ? 's' : ''}`}</span>` : nothing
                  }
                </div>
                <div class="ia-list-label">${item.label}</div>
              </li>`;
            },
          )}
        </ul>`,
      this.list,
    );
    this.list.querySelector<HTMLElement>('.is-selected')?.scrollIntoView({ block: 'nearest' });
  }

  private select(itemId: string): void {
    if (itemId === this.state.itemId) return;
    this.saveNote.flush();
    this.app.host.post({ type: 'selectItem', itemId });
  }

  // ── main column ─────────────────────────────────────────────────────────────────────────

  private renderMain(): void {
    const v = this.state.view;
    render(
      html`<section class="ia-qa">
          <div class="ia-qa-id">
            <span class="ia-item-id">${v.id}</span>${v.mode === 'full' ? v.meta.map((m) => chip(`${m.key}: ${m.value}`, `ia-chip-meta ia-chip-${m.key}`)) : nothing}
          </div>
          ${sectionLabel('QUERY')}
          <div class="ia-query">${visibleText(v.query)}</div>
          ${sectionLabel('GOLDEN ANSWER')}
          <div class="ia-answer">${
            v.goldenAnswer.length === 1 ? visibleText(v.goldenAnswer[0]) : html`<ul>${v.goldenAnswer.map((a) => html`<p>${visibleText(a)}</p>`)}</ul>`
          }</div>
        </section>
        ${
          v.mode === 'blind'
            ? html`<div class="ia-blind-note">
              <span class="ia-blind-icon">◐</span
><span>${BLIND_NOTE}</span>
            </div>`
            : nothing
        }
        ${this.group('golden', v)}${this.group('irrelevant', v)}${this.group('distractor', v)}
        ${
          v.mode === 'full' && v.extra.length
            ? html`<section class="ia-group">
              <h2 class="ia-group-title">Other fields</h2>
              ${fieldList(v.extra)}
            </section>`
            : nothing
        }`,
      this.main,
    );
  }

  private docsOf(group: Group, v: DelegationFullView | DelegationBlindView): (VisibleDoc | FullDoc | FullDistractorDoc)[] {
    return group === 'golden' ? v.golden : group === 'irrelevant' ? v.irrelevant : v.distractors;
  }

  private group(group: Group, v: DelegationFullView | DelegationBlindView): TemplateResult {
    const docs = this.docsOf(group, v);
    return html`<section class=${`ia-group ia-group-${group}`} aria-label=${GROUP_TITLE[group]}>
      <h2 class="ia-group-title" title=${GROUP_HINT[group]}>
        <span class="ia-group-dot"></span><span>${GROUP_TITLE[group]}</span><span class="ia-group-count">${String(docs.length)}</span>
      </h2>
      ${docs.length ? nothing : html`<div class="ia-empty">None</div>`}
      ${repeat(
        docs,
        (doc) => doc.doc_id,
        (doc) => this.docCard(group, doc, v),
      )}
    </section>`;
  }

  private docCard(group: Group, doc: VisibleDoc | FullDoc | FullDistractorDoc, v: DelegationFullView | DelegationBlindView): TemplateResult {
    const full = v.mode === 'full' ? (doc as FullDoc) : undefined;
    const audit = v.mode === 'full' && group === 'distractor' ? (doc as FullDistractorDoc).audit : undefined;
    const metaParts: TemplateResult[] = [];
    if (doc.site_name) metaParts.push(html`<span class="ia-site">${visibleText(doc.site_name)}</span>`);
    if (doc.publish_time) metaParts.push(html`<span class="ia-time">${visibleText(doc.publish_time)}</span>`);
    const uncited = group === 'golden' && v.mode === 'full' && !v.evidence.some((e) => e.foundIn.includes(doc.doc_id));
    return html`<article class=${`ia-doc ia-doc-${group}`} id=${`doc-${doc.doc_id}`} data-doc=${doc.doc_id}>
      <header class="ia-doc-head">
        <span class="ia-docid">${doc.doc_id}</span><span class="ia-doc-title">${visibleText(doc.title ?? '(untitled)')}</span>${
          audit?.distractor_type ? chip(audit.distractor_type.replace(/_/g, ' '), 'ia-chip-dtype', 'distractor_type (pipeline)') : nothing
        }
      </header>
      ${
        metaParts.length || doc.url
          ? html`<div class="ia-doc-meta">
            ${metaParts.map((part, i) => (i ? html`<span class="ia-sep" aria-hidden="true">·</span>${part}` : part))}${
              doc.url
                ? // Shown as text, never as a link: the address is untrusted content too.
                  html`<div class="ia-url" title=${doc.url}>${visibleText(doc.url)}</div>`
                : nothing
            }
          </div>`
          : nothing
      }
      <div class="ia-doc-content">${highlighted(doc.content, full?.highlights ?? [], 'ia-mark', (spans) => spans.map((x) => `Evidence span ${x + 1}`).join(', '))}</div>
      ${audit ? this.auditBox(audit) : nothing} ${full?.extra.length ? fieldList(full.extra, 'ia-doc-extra') : nothing}
      ${uncited ? html`<div class="ia-doc-warn">No evidence span was found in this golden document.</div>` : nothing}
      ${v.mode === 'blind' && group !== 'golden' ? this.docJudgment(group, doc.doc_id) : nothing}
    </article>`;
  }

  private auditBox(audit: DistractorAudit): TemplateResult {
    const source = audit.source_doc_key;
    return html`<div class="ia-audit">
      <div class="ia-audit-head">
        <span>Pipeline audit fields</span>${
          source
            ? html`<button class="ia-link" type="button" title="source_doc_key: the golden document this distractor perturbs" @click=${() => this.reveal(source)}
              >${`source: ${source}`}</button
            >`
            : nothing
        }
      </div>
      <dl class="ia-fields ia-audit-fields">
        ${AUDIT_LABELS.filter(([key]) => audit[key] !== undefined).map(
          ([key, label]) => html`<dt title=${key}>${label}</dt><dd class=${`ia-audit-${key}`}>${visibleText(audit[key]!)}</dd>`,
        )}
      </dl>
    </div>`;
  }

  private reveal(docId: string): void {
    const card = this.main.querySelector<HTMLElement>(`[data-doc="${CSS.escape(docId)}"]`);
    if (!card) return;
    card.scrollIntoView({ behavior: 'smooth', block: 'start' });
    flash(card);
  }

  private revealSpan(span: EvidenceSpanView): void {
    const mark = [...this.main.querySelectorAll<HTMLElement>('mark.ia-mark')].find((m) => (m.dataset.spans ?? '').split(' ').includes(String(span.index)));
    if (mark) {
      mark.scrollIntoView({ behavior: 'smooth', block: 'center' });
      flash(mark);
    } else if (span.docId) this.reveal(span.docId);
  }

  // ── blind review: per-document judgments and the form ───────────────────────────────────

  private docJudgment(group: Group, docId: string): TemplateResult {
    const review = this.state.myReview;
    const value = group === 'irrelevant' ? review?.irrelevant_labels?.[docId] : review?.distractor_validity?.[docId];
    const question =
      group === 'irrelevant'
        ? 'Label correct? This document does not support the golden answer or give a fact needed to derive it.'
        : 'Valid distractor? Plausible and query-relevant, yet rejectable by a query constraint visible in the item.';
    return html`<div class=${typeof value === 'boolean' ? 'ia-judge is-answered' : 'ia-judge'} data-judge=${`${group}:${docId}`}>
      <span class="ia-judge-q">${question}</span>${yesNo({
        label: `${group === 'irrelevant' ? 'Irrelevant label correct' : 'Valid distractor'}: ${docId}`,
        value,
        disabled: !this.canJudge(),
        onChange: (v) => this.judgeDoc(group === 'irrelevant' ? 'irrelevant' : 'distractor', docId, v),
      })}
    </div>`;
  }

  private judgeDoc(group: 'irrelevant' | 'distractor', docId: string, value: boolean | null): void {
    this.edit(
      this.state.itemId,
      group === 'irrelevant' ? { irrelevant: { docId, value } } : { distractor: { docId, value } },
      `${value === null ? 'Clear' : 'Judge'} ${docId}`,
    );
  }

  private canJudge(): boolean {
    return this.state.blind && !!this.state.reviewer && !this.info.readOnlyReason;
  }

  private renderSide(): void {
    render(this.state.blind ? this.form() : this.pipelinePanel(), this.side);
  }

  private renderReviewControls(): void {
    if (this.state.blind) this.renderMain();
    this.renderSide();
  }

  private typeNote(itemId: string, text: string): void {
    this.noteDraft = { itemId, text };
    this.saveNote(itemId, text);
  }

  private form(): TemplateResult {
    const v = this.state.view as DelegationBlindView;
    const review = this.state.myReview;
    const itemId = this.state.itemId;
    const disabled = !this.canJudge();
    const hasJudgment = !!review;
    // The note being typed (not yet echoed by the host) is shown over the saved one; live()
    // leaves the field alone when it already holds that text, so focus and caret stay.
    const note = this.noteDraft?.itemId === itemId ? this.noteDraft.text : (review?.notes ?? '');
    const total = 2 + v.irrelevant.length + v.distractors.length;
    const done =
      (typeof review?.answerability === 'boolean' ? 1 : 0) +
      (typeof review?.shortcut_free === 'boolean' ? 1 : 0) +
      v.irrelevant.filter((d) => typeof review?.irrelevant_labels?.[d.doc_id] === 'boolean').length +
      v.distractors.filter((d) => typeof review?.distractor_validity?.[d.doc_id] === 'boolean').length;
    const percent = `${total ? Math.round((100 * done) / total) : 0}%`;
    const askReviewer = () => this.app.host.post({ type: 'askReviewer' });
    return html`<section class="ia-form" aria-label="Blind review">
      <div class="ia-side-title">BLIND REVIEW</div>
      <div class="ia-reviewer">
        ${
          this.state.reviewer
            ? html`<span class="muted">Reviewing as </span><strong>${this.state.reviewer}</strong
              ><button class="ia-tb ia-link" type="button" title="Change your reviewer name" @click=${askReviewer}>Change</button>`
            : html`<span class="muted">Set your reviewer name to record judgments. </span
              ><button class="ia-tb ia-tb-primary" type="button" title="Your judgments are saved under this name" @click=${askReviewer}>Set name…</button>`
        }
      </div>
      ${question(
        '1',
        'Answerability',
        'Can the query be answered from the golden documents, with the golden answer supported by identifiable evidence and nothing essential missing?',
        yesNo({
          label: 'Answerability',
          value: review?.answerability,
          disabled,
          onChange: (x) => this.edit(itemId, { answerability: x }, 'Judge answerability'),
        }),
        'answerability',
      )}
      ${question(
        '2',
        'Free of shortcut leakage',
        'Is the query free of surface cues that give the answer away (copied answer tokens, unique source identifiers, overly specific values, phrasing lifted from a source)?',
        yesNo({
          label: 'Free of shortcut leakage',
          value: review?.shortcut_free,
          disabled,
          onChange: (x) => this.edit(itemId, { shortcut_free: x }, 'Judge shortcut leakage'),
        }),
        'shortcut_free',
      )}
      ${this.docQuestion('3', 'Irrelevant labels correct', 'irrelevant', v.irrelevant, review?.irrelevant_labels, disabled)}
      ${this.docQuestion('4', 'Distractors valid', 'distractor', v.distractors, review?.distractor_validity, disabled)}
      <div class="ia-q">
        <div class="ia-q-head"><span class="ia-q-title">Note</span><span class="muted small">optional</span></div>
        <textarea
          class="ia-note vsc-textarea"
          rows="3"
          placeholder=${hasJudgment ? 'Optional: why, or what is wrong…' : 'Record a judgment first; the note is saved with it.'}
          aria-label="Note"
          ?disabled=${disabled || !hasJudgment}
          .value=${live(note)}
          @input=${(ev: Event) => this.typeNote(itemId, (ev.currentTarget as HTMLTextAreaElement).value)}
          @blur=${() => {
            this.saveNote.flush();
            this.noteDraft = null;
          }}
        ></textarea>
      </div>
      <div class="ia-progress">
        <div class="ia-progress-bar"><div class="ia-progress-fill" ${ref((fill) => fill && ((fill as HTMLElement).style.width = percent))}></div></div>
        <span class="ia-progress-text">${`${done} of ${total} judgments`}</span>
      </div>
      <div class="ia-save-hint muted small">
        ${`Saved with Save (Ctrl+S) into ${this.state.sidecar}${this.state.reviewer ? ` under “${this.state.reviewer}”` : ''}. Undo works as in any editor.`}
      </div>
    </section>`;
  }

  private docQuestion(
    n: string,
    title: string,
    group: 'irrelevant' | 'distractor',
    docs: VisibleDoc[],
    map: Record<string, boolean> | undefined,
    disabled: boolean,
  ): TemplateResult {
    const answered = docs.filter((d) => typeof map?.[d.doc_id] === 'boolean').length;
    const help =
      group === 'irrelevant'
        ? 'Per document: it does not support the golden answer (judge it in its card, or here).'
        : 'Per document: plausible, query-relevant, and invalid for an observable, query-constrained reason.';
    return html`<div class="ia-q" data-q=${group}>
      <div class="ia-q-head">
        <span class="ia-q-n">${n}</span><span class="ia-q-title">${title}</span
        ><span class="ia-q-count muted">${docs.length ? `${answered}/${docs.length}` : 'no documents'}</span>
      </div>
      <div class="ia-q-help">${help}</div>
      <ul class="ia-docq-list">
        ${repeat(
          docs,
          (d) => d.doc_id,
          (d) =>
            html`<li class="ia-docq" data-docq=${`${group}:${d.doc_id}`}>
              <button class="ia-link ia-docq-id" type="button" title="Show this document" @click=${() => this.reveal(d.doc_id)}>${d.doc_id}</button
              ><span class="ia-docq-title" title=${d.title ?? ''}>${visibleText(d.title ?? '')}</span>${yesNo({
                label: `${title}: ${d.doc_id}`,
                value: map?.[d.doc_id],
                disabled,
                compact: true,
                onChange: (x) => this.judgeDoc(group, d.doc_id, x),
              })}
            </li>`,
        )}
      </ul>
    </div>`;
  }

  // ── full view: the pipeline's evidence, reasoning, and the reviews on file ──────────────

  private pipelinePanel(): TemplateResult {
    const v = this.state.view as DelegationFullView;
    const found = v.evidence.filter((e) => e.status !== 'missing').length;
    return html`<section class="ia-side-sec">
        <div class="ia-side-title"><span>EVIDENCE SPANS</span><span class="muted">${`${found}/${v.evidence.length} located`}</span></div>
        ${v.evidence.length ? nothing : html`<div class="ia-empty">The item has no evidence spans.</div>`}
        <ol class="ia-spans">
          ${v.evidence.map((span) => this.spanItem(span))}
        </ol>
      </section>
      <section class="ia-side-sec">
        <div class="ia-side-title"><span>REASONING STEPS</span><span class="muted">${String(v.reasoning.length)}</span></div>
        ${v.reasoning.length ? nothing : html`<div class="ia-empty">None</div>`}
        <ol class="ia-steps">
          ${v.reasoning.map((s) => html`<li>${visibleText(s)}</li>`)}
        </ol>
      </section>
      <section class="ia-side-sec ia-reviews">${this.reviewsOnFile(v)}</section>`;
  }

  private spanItem(span: EvidenceSpanView): TemplateResult {
    const status =
      span.status === 'exact'
        ? '✓ found'
        : span.status === 'normalized'
          ? '≈ found (whitespace/case differ)'
          : span.status === 'offsets'
            ? '✓ at its offsets'
            : '✗ not found';
    const clickable = span.status !== 'missing';
    return html`<li
      class=${`ia-span ia-span-${span.status}${clickable ? ' is-clickable' : ''}`}
      tabindex=${ifDefined(clickable ? 0 : undefined)}
      title=${ifDefined(clickable ? 'Show this span in its document' : undefined)}
      @click=${clickable ? () => this.revealSpan(span) : nothing}
      @keydown=${clickable ? (e: KeyboardEvent) => e.key === 'Enter' && this.revealSpan(span) : nothing}
    >
      <div class="ia-span-head">
        <span class=${`ia-span-n ia-mark ia-mark-${span.index % 6}`} title=${`Evidence span ${span.index + 1}`}>${String(span.index + 1)}</span
        >${span.docId ? html`<span class="ia-span-doc">${span.docId}</span>` : nothing}<span class=${`ia-span-status is-${span.status}`}>${status}</span>
      </div>
      <div class="ia-span-text">${visibleText(span.text || '(empty)')}</div>
      ${span.note ? html`<div class="ia-span-note">${span.note}</div>` : nothing}
    </li>`;
  }

  private reviewsOnFile(v: DelegationFullView): TemplateResult {
    const reviews = this.state.reviews ?? [];
    const mark = (x: boolean | undefined) =>
      html`<td class=${x === undefined ? 'is-na' : x ? 'is-yes' : 'is-no'}>${x === undefined ? '–' : x ? '✓' : '✗'}</td>`;
    const all = (m: Record<string, boolean> | undefined, ids: string[]) => {
      const judged = ids.filter((id) => typeof m?.[id] === 'boolean');
      return judged.length ? judged.every((id) => m![id]) : undefined;
    };
    const irrelevantIds = v.irrelevant.map((d) => d.doc_id);
    const distractorIds = v.distractors.map((d) => d.doc_id);
    const columns: [string, string][] = [
      ['Reviewer', ''],
      ['Ans.', 'Answerability'],
      ['No leak', 'Free of shortcut leakage'],
      ['Irrel.', 'Irrelevant labels correct (all judged documents)'],
      ['Distr.', 'Distractors valid (all judged documents)'],
    ];
    return html`<div class="ia-side-title"><span>HUMAN VALIDATION</span><span class="muted">${`${reviews.length} review${reviews.length === 1 ? '' : 's'}`}</span></div>
      ${
        reviews.length
          ? html`<table class="ia-rtable">
            <thead>
              <tr>
                ${columns.map(([t, title]) => html`<th title=${title}>${t}</th>`)}
              </tr>
            </thead>
            <tbody>
              ${reviews.map(
                (r) =>
                  html`<tr>
                      <td class="ia-rwho" title=${ifDefined(r.notes ? `Note: ${r.notes}` : undefined)}>${r.annotator}</td>
                      ${mark(r.answerability)}${mark(r.shortcut_free)}${mark(all(r.irrelevant_labels, irrelevantIds))}${mark(all(r.distractor_validity, distractorIds))}
                    </tr>
                    ${
                      r.notes
                        ? html`<tr class="ia-rnote">
                          <td colspan="5">${r.notes}</td>
                        </tr>`
                        : nothing
                    }`,
              )}
            </tbody>
          </table>`
          : html`<div class="ia-empty">No reviews yet.</div>`
      }
      <div class="ia-side-actions">
        <button
          class="ia-tb ia-tb-primary ia-start-review"
          type="button"
          title="Hide the pipeline fields and record your judgments"
          @click=${() => this.app.host.post({ type: 'setBlind', blind: true })}
        >Start blind review</button>
      </div>`;
  }
}

function question(n: string, title: string, help: string, control: TemplateResult, key: string): TemplateResult {
  return html`<div class="ia-q" data-q=${key}>
    <div class="ia-q-head"><span class="ia-q-n">${n}</span><span class="ia-q-title">${title}</span></div>
    <div class="ia-q-help">${help}</div>
    ${control}
  </div>`;
}
