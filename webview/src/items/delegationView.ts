// Delegation items (seed 000): query, golden answer, documents by group, evidence spans marked in
// the golden documents, distractor audit fields and reasoning steps; and the blind-review mode,
// in which the host sends only the model-visible fields and this view shows the review form.
import { html, nothing, render, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { live } from 'lit/directives/live.js';
import { ref } from 'lit/directives/ref.js';
import { repeat } from 'lit/directives/repeat.js';
import { appendVisibleText, el } from '../common/dom';
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
import { chip, debounce, fieldList, flash, highlightedText, plainText, sectionLabel, visibleText, yesNo } from './common';

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
    const scroll = this.main.scrollTop;
    this.root.classList.toggle('is-blind', this.state.blind);
    this.root.classList.toggle('has-list', this.state.items.length > 1);
    this.blindToggle.setAttribute('aria-checked', String(this.state.blind));
    this.blindToggle.classList.toggle('is-on', this.state.blind);
    this.app.saveUi({ itemId: this.state.itemId });
    this.renderList();
    this.renderMain();
    this.renderSide();
    this.main.scrollTop = resetScroll ? 0 : scroll;
  }

  // ── item list ───────────────────────────────────────────────────────────────────────────

  private renderList(): void {
    const items = this.state.items;
    this.list.hidden = items.length <= 1;
    if (items.length <= 1) return;
    const head = el('div', {
      className: 'ia-list-head',
      children: [el('span', { text: 'ITEMS' }), el('span', { className: 'muted', text: String(items.length) })],
    });
    const ul = el('ul', { className: 'ia-list-items', attrs: { role: 'listbox', 'aria-label': 'Items in this file' } });
    for (const item of items) {
      const selected = item.id === this.state.itemId;
      const li = el('li', {
        className: `ia-list-item${selected ? ' is-selected' : ''}`,
        attrs: { role: 'option', 'aria-selected': String(selected), tabindex: selected ? '0' : '-1', 'data-id': item.id },
      });
      const top = el('div', { className: 'ia-list-top' });
      top.append(
        el('span', { className: `ia-status ia-status-${item.review}`, text: STATUS_GLYPH[item.review], title: STATUS_TEXT[item.review] }),
        el('span', { className: 'ia-list-id', text: item.id }),
      );
      if (item.reviews) top.append(el('span', { className: 'ia-list-count', text: `${item.reviews} review${item.reviews > 1 ? 's' : ''}` }));
      li.append(top, el('div', { className: 'ia-list-label', text: item.label }));
      li.addEventListener('click', () => this.select(item.id));
      li.addEventListener('keydown', (ev) => {
        if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
          ev.preventDefault();
          const i = items.findIndex((x) => x.id === item.id) + (ev.key === 'ArrowDown' ? 1 : -1);
          if (items[i]) this.select(items[i].id);
        }
      });
      ul.append(li);
    }
    this.list.replaceChildren(head, ul);
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
    const parts: HTMLElement[] = [];
    const qa = el('section', { className: 'ia-qa' });
    const idLine = el('div', { className: 'ia-qa-id' });
    idLine.append(el('span', { className: 'ia-item-id', text: v.id }));
    if (v.mode === 'full') for (const m of v.meta) idLine.append(chip(`${m.key}: ${m.value}`, `ia-chip-meta ia-chip-${m.key}`));
    qa.append(idLine, sectionLabel('QUERY'), plainText('div', 'ia-query', v.query), sectionLabel('GOLDEN ANSWER'));
    const answer = el('div', { className: 'ia-answer' });
    if (v.goldenAnswer.length === 1) appendVisibleText(answer, v.goldenAnswer[0]);
    else {
      const ul = el('ul');
      for (const a of v.goldenAnswer) ul.append(plainText('p', '', a));
      answer.append(ul);
    }
    qa.append(answer);
    parts.push(qa);
    if (v.mode === 'blind') {
      parts.push(
        el('div', {
          className: 'ia-blind-note',
          children: [
            el('span', { className: 'ia-blind-icon', text: '◐' }),
            el('span', {
              text: 'Blind review: you see what an evaluated model sees (document text and metadata) and the pipeline’s document groups. The pipeline’s audit fields, evidence spans and reasoning are withheld.',
            }),
          ],
        }),
      );
    }
    parts.push(this.group('golden', v), this.group('irrelevant', v), this.group('distractor', v));
    if (v.mode === 'full' && v.extra.length) {
      const extra = el('section', { className: 'ia-group' });
      extra.append(el('h2', { className: 'ia-group-title', text: 'Other fields' }), fieldList(v.extra));
      parts.push(extra);
    }
    this.main.replaceChildren(...parts);
  }

  private docsOf(group: Group, v: DelegationFullView | DelegationBlindView): (VisibleDoc | FullDoc | FullDistractorDoc)[] {
    return group === 'golden' ? v.golden : group === 'irrelevant' ? v.irrelevant : v.distractors;
  }

  private group(group: Group, v: DelegationFullView | DelegationBlindView): HTMLElement {
    const docs = this.docsOf(group, v);
    const section = el('section', { className: `ia-group ia-group-${group}`, attrs: { 'aria-label': GROUP_TITLE[group] } });
    const title = el('h2', { className: 'ia-group-title', title: GROUP_HINT[group] });
    title.append(
      el('span', { className: 'ia-group-dot' }),
      el('span', { text: GROUP_TITLE[group] }),
      el('span', { className: 'ia-group-count', text: String(docs.length) }),
    );
    section.append(title);
    if (!docs.length) section.append(el('div', { className: 'ia-empty', text: 'None' }));
    for (const doc of docs) section.append(this.docCard(group, doc, v));
    return section;
  }

  private docCard(group: Group, doc: VisibleDoc | FullDoc | FullDistractorDoc, v: DelegationFullView | DelegationBlindView): HTMLElement {
    const card = el('article', { className: `ia-doc ia-doc-${group}`, attrs: { id: `doc-${doc.doc_id}`, 'data-doc': doc.doc_id } });
    const head = el('header', { className: 'ia-doc-head' });
    head.append(el('span', { className: 'ia-docid', text: doc.doc_id }), plainText('span', 'ia-doc-title', doc.title ?? '(untitled)'));
    const full = v.mode === 'full' ? (doc as FullDoc) : undefined;
    const audit = v.mode === 'full' && group === 'distractor' ? (doc as FullDistractorDoc).audit : undefined;
    if (audit?.distractor_type) head.append(chip(audit.distractor_type.replace(/_/g, ' '), 'ia-chip-dtype', 'distractor_type (pipeline)'));
    card.append(head);
    const meta = el('div', { className: 'ia-doc-meta' });
    const metaParts: HTMLElement[] = [];
    if (doc.site_name) metaParts.push(plainText('span', 'ia-site', doc.site_name));
    if (doc.publish_time) metaParts.push(plainText('span', 'ia-time', doc.publish_time));
    metaParts.forEach((p, i) => {
      if (i) meta.append(el('span', { className: 'ia-sep', text: '·', attrs: { 'aria-hidden': 'true' } }));
      meta.append(p);
    });
    if (doc.url) {
      // Shown as text, never as a link: the address is untrusted content too.
      const url = plainText('div', 'ia-url', doc.url);
      url.title = doc.url;
      meta.append(url);
    }
    if (meta.childNodes.length) card.append(meta);
    const ranges = full?.highlights ?? [];
    const evidence = v.mode === 'full' ? v.evidence : [];
    card.append(highlightedText('div', 'ia-doc-content', doc.content, ranges, 'ia-mark', (spans) => spans.map((s) => `Evidence span ${s + 1}`).join(', ')));
    if (audit) card.append(this.auditBox(audit));
    if (full?.extra.length) card.append(fieldList(full.extra, 'ia-doc-extra'));
    if (group === 'golden' && v.mode === 'full') {
      const cited = evidence.filter((e) => e.foundIn.includes(doc.doc_id)).length;
      if (!cited) card.append(el('div', { className: 'ia-doc-warn', text: 'No evidence span was found in this golden document.' }));
    }
    if (v.mode === 'blind' && group !== 'golden') card.append(this.docJudgment(group, doc.doc_id));
    return card;
  }

  private auditBox(audit: DistractorAudit): HTMLElement {
    const box = el('div', { className: 'ia-audit' });
    const head = el('div', { className: 'ia-audit-head' });
    head.append(el('span', { text: 'Pipeline audit fields' }));
    if (audit.source_doc_key) {
      const link = el('button', {
        className: 'ia-link',
        text: `source: ${audit.source_doc_key}`,
        attrs: { type: 'button' },
        title: 'source_doc_key: the golden document this distractor perturbs',
      });
      link.addEventListener('click', () => this.reveal(audit.source_doc_key!));
      head.append(link);
    }
    box.append(head);
    const dl = el('dl', { className: 'ia-fields ia-audit-fields' });
    for (const [key, label] of AUDIT_LABELS) {
      const value = audit[key];
      if (value === undefined) continue;
      dl.append(el('dt', { text: label, title: key }));
      const dd = el('dd', { className: `ia-audit-${key}` });
      appendVisibleText(dd, value);
      dl.append(dd);
    }
    box.append(dl);
    return box;
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

  private docJudgment(group: Group, docId: string): HTMLElement {
    const row = el('div', { className: 'ia-judge', attrs: { 'data-judge': `${group}:${docId}` } });
    this.renderDocJudgment(row, group, docId);
    return row;
  }

  private renderDocJudgment(row: HTMLElement, group: Group, docId: string): void {
    const review = this.state.myReview;
    const value = group === 'irrelevant' ? review?.irrelevant_labels?.[docId] : review?.distractor_validity?.[docId];
    const question =
      group === 'irrelevant'
        ? 'Label correct? This document does not support the golden answer or give a fact needed to derive it.'
        : 'Valid distractor? Plausible and query-relevant, yet rejectable by a query constraint visible in the item.';
    render(
      html`<span class="ia-judge-q">${question}</span>${yesNo({
        label: `${group === 'irrelevant' ? 'Irrelevant label correct' : 'Valid distractor'}: ${docId}`,
        value,
        disabled: !this.canJudge(),
        onChange: (v) => this.judgeDoc(group === 'irrelevant' ? 'irrelevant' : 'distractor', docId, v),
      })}`,
      row,
    );
    row.classList.toggle('is-answered', typeof value === 'boolean');
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
    if (this.state.blind) {
      for (const row of this.main.querySelectorAll<HTMLElement>('.ia-judge')) {
        const [group, ...rest] = (row.dataset.judge ?? '').split(':');
        this.renderDocJudgment(row, group as Group, rest.join(':'));
      }
    }
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
