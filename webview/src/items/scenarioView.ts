// Scenario sets (seed 003): scenarios with their input, trap and expected deliverable, and their
// criteria (track, dimension, check, points or veto), which can be marked hit or missed, with a
// silent-citation count per scenario. Saving writes results.jsonl in the chosen run folder.
import { html, nothing, render, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import { live } from 'lit/directives/live.js';
import { repeat } from 'lit/directives/repeat.js';
import { el } from '../common/dom';
import type { CriterionView, ItemFileInfo, ItemToWebview, ScenarioSetView, ScenarioState, ScenarioView as Scenario } from '../../../src/shared/itemProtocol';
import type { ItemApp } from './itemApp';
import { chip, fieldList, sectionLabel, visibleText, yesNo } from './common';

const fmt = (x: number | null | undefined) => (x === null || x === undefined ? '—' : Number.isInteger(x) ? String(x) : x.toFixed(1));

export class ScenarioView {
  readonly root: HTMLElement;
  private readonly list: HTMLElement;
  private readonly main: HTMLElement;
  private readonly runBar: HTMLElement;
  private state: ScenarioState;
  private scenarioId: string;
  private humanOnly: boolean;
  /** The silent-citation count as typed, until it is committed (change, Enter) or the scenario changes. */
  private silentDraft: { scenarioId: string; text: string } | null = null;

  constructor(
    private readonly app: ItemApp,
    private readonly info: ItemFileInfo,
    private readonly set: ScenarioSetView,
    state: ScenarioState,
  ) {
    this.state = state;
    const saved = app.ui.scenarioId;
    this.scenarioId = saved && set.scenarios.some((s) => s.id === saved) ? saved : (set.scenarios[0]?.id ?? '');
    this.humanOnly = app.ui.humanOnly ?? false;
    this.list = el('nav', { className: 'ia-list ia-slist', attrs: { 'aria-label': 'Scenarios' } });
    this.runBar = el('div', { className: 'ia-runbar' });
    this.main = el('main', { className: 'ia-main ia-smain', attrs: { tabindex: '-1' } });
    const center = el('div', { className: 'ia-scenter', children: [this.runBar, this.main] });
    this.root = el('div', { className: 'ia-scen has-list', children: [this.list, center] });
    this.renderAll();
  }

  onMessage(msg: ItemToWebview): void {
    if (msg.type !== 'scenarioState') return;
    this.state = msg.state;
    this.renderAll();
  }

  private scenario(): Scenario | undefined {
    return this.set.scenarios.find((s) => s.id === this.scenarioId);
  }

  private renderAll(): void {
    this.renderList();
    this.renderRunBar();
    this.renderMain();
  }

  private select(id: string): void {
    if (id === this.scenarioId) return;
    this.scenarioId = id;
    this.app.saveUi({ scenarioId: id });
    this.silentDraft = null;
    this.renderAll();
    // Another scenario starts at its top (Lit keeps the element, and with it the scroll position).
    this.main.scrollTop = 0;
  }

  private marked(s: Scenario, humanOnly: boolean): { done: number; total: number } {
    const r = this.state.results[s.id]?.criteria ?? {};
    const list = s.criteria.filter((c) => !humanOnly || c.check === 'human');
    return { done: list.filter((c) => typeof r[c.id] === 'boolean').length, total: list.length };
  }

  // ── left: the scenarios ─────────────────────────────────────────────────────────────────

  private renderList(): void {
    const scenarios = this.set.scenarios;
    const gate = this.state.gate;
    const onKey = (ev: KeyboardEvent, index: number) => {
      if (ev.key !== 'ArrowDown' && ev.key !== 'ArrowUp') return;
      ev.preventDefault();
      const next = scenarios[index + (ev.key === 'ArrowDown' ? 1 : -1)];
      if (!next) return;
      this.select(next.id);
      this.list.querySelector<HTMLElement>(`[data-id="${CSS.escape(next.id)}"]`)?.focus();
    };
    render(
      html`<div class="ia-list-head"><span>SCENARIOS</span><span class="muted">${String(scenarios.length)}</span></div>
        <ul class="ia-list-items" role="listbox" aria-label="Scenarios">
          ${repeat(
            scenarios,
            (s) => s.id,
            (s, i) => {
              const selected = s.id === this.scenarioId;
              const human = this.marked(s, true);
              const score = this.state.scores[s.id];
              const status = human.total === 0 ? 'none' : human.done === human.total ? 'complete' : human.done ? 'partial' : 'none';
              return html`<li
                class=${selected ? 'ia-list-item is-selected' : 'ia-list-item'}
                role="option"
                aria-selected=${String(selected)}
                tabindex=${selected ? '0' : '-1'}
                data-id=${s.id}
                @click=${() => this.select(s.id)}
                @keydown=${(ev: KeyboardEvent) => onKey(ev, i)}
              >
                <div class="ia-list-top">
                  <span class=${`ia-status ia-status-${status}`} title=${`${human.done} of ${human.total} human criteria marked`}
                    >${status === 'complete' ? '●' : status === 'partial' ? '◐' : '○'}</span
                  ><span class="ia-list-id">${s.id}</span>${
                    this.state.changed.includes(s.id) ? html`<span class="ia-dirty" title="Unsaved marks">●</span>` : nothing
                  }${s.difficulty ? chip(s.difficulty, 'ia-chip-diff') : nothing}
                </div>
                <div class="ia-list-label">${s.type ?? ''}</div>
                <div class="ia-list-scores">
                  <span class="ia-score-pill" title="Track A score (0–100)">${`A ${fmt(score?.a)}`}</span
                  ><span class=${score?.veto_failed ? 'ia-score-pill is-veto' : 'ia-score-pill'} title="Track B score (0–100; a failed veto criterion makes it 0)"
                    >${score?.veto_failed ? 'B 0 · veto' : `B ${fmt(score?.b)}`}</span
                  ><span class="muted">${`human ${human.done}/${human.total}`}</span>
                </div>
              </li>`;
            },
          )}
        </ul>
        <div class="ia-list-foot">
          <div><span class="muted">Track A mean </span><strong>${fmt(this.state.aMean)}</strong></div>
          <div class=${gate.passed ? 'ia-gate is-pass' : 'ia-gate is-fail'} title=${gate.reasons.join('\n')}>${gate.passed ? '✓ gate passed' : '✗ gate not passed'}</div>
        </div>`,
      this.list,
    );
  }

  // ── top: where results go ───────────────────────────────────────────────────────────────

  private renderRunBar(): void {
    const s = this.state;
    render(
      html`<div class="ia-run-row">
          <div class="ia-run-where">
            <span class="ia-label">RESULTS</span><span class="ia-run-path" title=${s.resultsFile}>${s.resultsFile}</span
            ><span class="ia-run-badges"
              >${chip(s.resultsExists ? 'existing file: marks merge into it' : 'new file', s.resultsExists ? 'ia-chip-ok' : 'ia-chip-new')}${chip(
                s.manifest === 'present' ? 'trajaudit.run.json ✓' : 'trajaudit.run.json created on save',
                s.manifest === 'present' ? 'ia-chip-ok' : 'ia-chip-new',
              )}${s.changed.length ? chip(`${s.changed.length} scenario${s.changed.length > 1 ? 's' : ''} unsaved`, 'ia-chip-dirty') : nothing}</span
            >
          </div>
          <button
            class="ia-tb ia-tb-secondary"
            type="button"
            title="Choose the run folder (results.jsonl + trajaudit.run.json) for these marks"
            @click=${() => this.app.host.post({ type: 'chooseRunFolder' })}
          >Change Run Folder…</button>
        </div>
        ${s.problem ? html`<div class="ia-run-problem">${`⚠ ${s.problem}`}</div>` : nothing}
        ${s.notices.map((n) => html`<div class="ia-run-notice">${`ⓘ ${n}`}</div>`)}`,
      this.runBar,
    );
  }

  // ── main: the scenario ──────────────────────────────────────────────────────────────────

  private renderMain(): void {
    render(this.mainTemplate(), this.main);
  }

  private mainTemplate(): TemplateResult {
    const s = this.scenario();
    if (!s) return html`<div class="ia-empty">This set has no scenarios.</div>`;
    const score = this.state.scores[s.id];
    const line = this.state.results[s.id];
    const unmarked = line ? s.criteria.filter((c) => typeof line.criteria[c.id] !== 'boolean').length : 0;
    return html`${this.setHeader()}
      <section class="ia-qa">
        <div class="ia-qa-id">
          <span class="ia-item-id">${s.id}</span>${s.type ? chip(s.type, 'ia-chip-meta') : nothing}${
            s.difficulty ? chip(`difficulty: ${s.difficulty}`, 'ia-chip-diff') : nothing
          }<span class="ia-scores"
            >${line ? nothing : html`<span class="ia-score-note muted">no results line yet</span>`}${
              unmarked
                ? html`<span
                  class="ia-score-note muted"
                  title="The scorer counts a criterion without a result as not hit (and a veto criterion without a result as failed)."
                  >${`${unmarked} unmarked count as missed`}</span
                >`
                : nothing
            }<span class="ia-score"><span class="muted">A </span><strong>${fmt(score?.a)}</strong></span
            ><span class=${score?.veto_failed ? 'ia-score is-veto' : 'ia-score'}
              ><span class="muted">B </span><strong>${score?.veto_failed ? '0 (veto)' : fmt(score?.b)}</strong></span
            ></span
          >
        </div>
        ${s.input ? html`${sectionLabel('INPUT')}<div class="ia-query">${visibleText(s.input)}</div>` : nothing}
        ${s.trap ? html`${sectionLabel('TRAP')}<div class="ia-trap">${visibleText(s.trap)}</div>` : nothing}
      </section>
      ${
        s.expected.length
          ? html`<section class="ia-group">
            <h2 class="ia-group-title"><span>Expected deliverable</span></h2>
            ${fieldList(s.expected, 'ia-expected')}
          </section>`
          : nothing
      }
      ${this.criteria(s)}
      ${
        s.extra.length
          ? html`<section class="ia-group">
            <h2 class="ia-group-title">Other fields</h2>
            ${fieldList(s.extra)}
          </section>`
          : nothing
      }`;
  }

  private setHeader(): TemplateResult {
    const set = this.set;
    return html`<details class="ia-sethead">
      <summary>
        <span class="ia-sethead-name">${set.name ?? 'Scenario set'}</span
        ><span class="muted">${` · ${set.scenarios.length} scenarios · ${set.scenarios.reduce((n, x) => n + x.criteria.length, 0)} criteria · scoring rules`}</span>
      </summary>
      ${set.scoring.length ? fieldList(set.scoring, 'ia-scoring') : nothing} ${set.meta.length ? fieldList(set.meta, 'ia-setmeta') : nothing}
      ${
        set.sources.length
          ? html`<div class="ia-sources">
            ${set.sources.map((x) => chip(`${x.id}${x.grade ? ` · ${x.grade}` : ''}`, 'ia-chip-src', [x.url, x.tier].filter(Boolean).join(' — ')))}
          </div>`
          : nothing
      }
    </details>`;
  }

  private criteria(s: Scenario): TemplateResult {
    const human = this.marked(s, true);
    const all = this.marked(s, false);
    const disabled = !!this.state.problem;
    const toggleHumanOnly = (ev: Event) => {
      this.humanOnly = (ev.currentTarget as HTMLInputElement).checked;
      this.app.saveUi({ humanOnly: this.humanOnly });
      this.renderMain();
    };
    const tracks = (['A', 'B'] as const).map((track) => {
      const list = s.criteria.filter((c) => c.track === track && (!this.humanOnly || c.check === 'human'));
      if (!list.length) return nothing;
      return html`<div class="ia-track-head">
          <span class=${`ia-track ia-track-${track}`}>${`Track ${track}`}</span
          ><span class="muted">${track === 'A' ? 'deliverable quality · points' : 'honest trace · points, or veto'}</span>${
            track === 'B' ? this.silentCitations(s, disabled) : nothing
          }
        </div>
        <ul class="ia-crits">
          ${repeat(
            list,
            (c) => c.id,
            (c) => this.criterion(s, c, disabled),
          )}
        </ul>`;
    });
    return html`<section class="ia-group ia-criteria">
      <div class="ia-crit-bar">
        <h2 class="ia-group-title">
          <span>Criteria</span><span class="ia-group-count">${`${all.done}/${all.total} marked`}</span
          ><span class="muted ia-group-sub">${`human ${human.done}/${human.total}`}</span>
        </h2>
        <label class="ia-check"><input type="checkbox" .checked=${live(this.humanOnly)} @change=${toggleHumanOnly} /><span>Human checks only</span></label>
      </div>
      ${tracks}
      ${
        s.criteria.some((c) => c.track === 'B')
          ? nothing
          : html`<div class="ia-track-head"><span class="muted">No track-B criteria.</span>${this.silentCitations(s, disabled)}</div>`
      }
    </section>`;
  }

  private criterion(s: Scenario, c: CriterionView, disabled: boolean): TemplateResult {
    const value = this.state.results[s.id]?.criteria[c.id];
    const more: string[] = [];
    if (c.source) more.push(`Source: ${c.source}`);
    if (c.rationale) more.push(`Why: ${c.rationale}`);
    const veto = c.points === 'veto';
    return html`<li class=${`ia-crit is-${c.check}${typeof value === 'boolean' ? (value ? ' is-hit' : ' is-miss') : ''}`} data-criterion=${c.id}>
      <div class="ia-crit-main">
        <div class="ia-crit-top">
          <span class="ia-crit-id">${c.id}</span>${chip(c.dim, 'ia-chip-dim')}${chip(
            c.check === 'human' ? 'human check' : 'mechanical',
            c.check === 'human' ? 'ia-chip-human' : 'ia-chip-mech',
          )}${c.evidence ? chip(`evidence ${c.evidence}`, 'ia-chip-ev', 'Evidence grade of the criterion') : nothing}<span
            class=${veto ? 'ia-points is-veto' : 'ia-points'}
            title=${ifDefined(veto ? 'One-vote veto: a miss makes the scenario’s track-B score 0' : undefined)}
            >${veto ? 'VETO' : `${c.points} pts`}</span
          >
        </div>
        <div class="ia-crit-text">${visibleText(c.text)}</div>
        ${
          more.length
            ? html`<details class="ia-crit-more">
              <summary>source and rationale</summary>
              ${more.map((m) => html`<div class="ia-crit-more-line">${visibleText(m)}</div>`)}
            </details>`
            : nothing
        }
      </div>
      ${yesNo({
        label: `${c.id} hit or missed`,
        value,
        yes: 'Hit',
        no: 'Miss',
        disabled,
        onChange: (v) => this.app.host.post({ type: 'markCriterion', scenarioId: s.id, criterionId: c.id, value: v }),
      })}
    </li>`;
  }

  private silentCitations(s: Scenario, disabled: boolean): TemplateResult {
    const current = this.state.results[s.id]?.silent_citations;
    const commit = (ev: Event) => {
      const field = ev.currentTarget as HTMLInputElement;
      const text = field.value.trim();
      const n = text === '' ? null : Number(text);
      if (n !== null && (!Number.isInteger(n) || n < 0)) {
        field.setCustomValidity('A whole number ≥ 0');
        field.reportValidity();
        return;
      }
      field.setCustomValidity('');
      this.silentDraft = null;
      if ((n ?? undefined) !== current) this.app.host.post({ type: 'setSilentCitations', scenarioId: s.id, value: n });
    };
    // What is typed and not yet committed shows over the saved count, so a state update (a
    // criterion marked, say) never overwrites it; live() leaves an unchanged field (and caret) alone.
    const shown = this.silentDraft?.scenarioId === s.id ? this.silentDraft.text : current === undefined ? '' : String(current);
    return html`<span class="ia-silent" title="Citations the agent made without a source it actually retrieved. The gate requires zero across the round."
      ><span class="ia-silent-label">Silent citations</span
      ><input
        class="ia-input ia-num"
        type="number"
        min="0"
        step="1"
        aria-label=${`Silent citations in ${s.id}`}
        placeholder="—"
        ?disabled=${disabled}
        .value=${live(shown)}
        @input=${(ev: Event) => (this.silentDraft = { scenarioId: s.id, text: (ev.currentTarget as HTMLInputElement).value })}
        @change=${commit}
        @keydown=${(e: KeyboardEvent) => e.key === 'Enter' && commit(e)}
      />${current !== undefined && current > 0 ? html`<span class="ia-silent-warn">fails the gate</span>` : nothing}</span
    >`;
  }

  get fileInfo(): ItemFileInfo {
    return this.info;
  }
}
