// Scenario sets (seed 003): scenarios with their input, trap and expected deliverable, and their
// criteria (track, dimension, check, points or veto), which can be marked hit or missed, with a
// silent-citation count per scenario. Saving writes results.jsonl in the chosen run folder.
import { append, el } from '../common/dom';
import type { CriterionView, ItemFileInfo, ItemToWebview, ScenarioSetView, ScenarioState, ScenarioView as Scenario } from '../../../src/shared/itemProtocol';
import type { ItemApp } from './itemApp';
import { chip, fieldList, plainText, sectionLabel, toolbarButton, yesNo } from './common';

const fmt = (x: number | null | undefined) => (x === null || x === undefined ? '—' : Number.isInteger(x) ? String(x) : x.toFixed(1));

export class ScenarioView {
  readonly root: HTMLElement;
  private readonly list: HTMLElement;
  private readonly main: HTMLElement;
  private readonly runBar: HTMLElement;
  private state: ScenarioState;
  private scenarioId: string;
  private humanOnly: boolean;

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
    this.renderAll(true);
  }

  onMessage(msg: ItemToWebview): void {
    if (msg.type !== 'scenarioState') return;
    this.state = msg.state;
    this.renderAll(false);
  }

  private scenario(): Scenario | undefined {
    return this.set.scenarios.find((s) => s.id === this.scenarioId);
  }

  private renderAll(resetScroll: boolean): void {
    const scroll = this.main.scrollTop;
    this.renderList();
    this.renderRunBar();
    this.renderMain();
    this.main.scrollTop = resetScroll ? 0 : scroll;
  }

  private select(id: string): void {
    if (id === this.scenarioId) return;
    this.scenarioId = id;
    this.app.saveUi({ scenarioId: id });
    this.renderAll(true);
  }

  private marked(s: Scenario, humanOnly: boolean): { done: number; total: number } {
    const r = this.state.results[s.id]?.criteria ?? {};
    const list = s.criteria.filter((c) => !humanOnly || c.check === 'human');
    return { done: list.filter((c) => typeof r[c.id] === 'boolean').length, total: list.length };
  }

  // ── left: the scenarios ─────────────────────────────────────────────────────────────────

  private renderList(): void {
    const head = el('div', {
      className: 'ia-list-head',
      children: [el('span', { text: 'SCENARIOS' }), el('span', { className: 'muted', text: String(this.set.scenarios.length) })],
    });
    const ul = el('ul', { className: 'ia-list-items', attrs: { role: 'listbox', 'aria-label': 'Scenarios' } });
    this.set.scenarios.forEach((s, i) => {
      const selected = s.id === this.scenarioId;
      const li = el('li', {
        className: `ia-list-item${selected ? ' is-selected' : ''}`,
        attrs: { role: 'option', 'aria-selected': String(selected), tabindex: selected ? '0' : '-1', 'data-id': s.id },
      });
      const human = this.marked(s, true);
      const score = this.state.scores[s.id];
      const top = el('div', { className: 'ia-list-top' });
      const status = human.total === 0 ? 'none' : human.done === human.total ? 'complete' : human.done ? 'partial' : 'none';
      top.append(
        el('span', {
          className: `ia-status ia-status-${status}`,
          text: status === 'complete' ? '●' : status === 'partial' ? '◐' : '○',
          title: `${human.done} of ${human.total} human criteria marked`,
        }),
        el('span', { className: 'ia-list-id', text: s.id }),
      );
      if (this.state.changed.includes(s.id)) top.append(el('span', { className: 'ia-dirty', text: '●', title: 'Unsaved marks' }));
      if (s.difficulty) top.append(chip(s.difficulty, 'ia-chip-diff'));
      li.append(top, el('div', { className: 'ia-list-label', text: s.type ?? '' }));
      const scores = el('div', { className: 'ia-list-scores' });
      scores.append(
        el('span', { className: 'ia-score-pill', text: `A ${fmt(score?.a)}`, title: 'Track A score (0–100)' }),
        el('span', {
          className: `ia-score-pill${score?.veto_failed ? ' is-veto' : ''}`,
          text: score?.veto_failed ? 'B 0 · veto' : `B ${fmt(score?.b)}`,
          title: 'Track B score (0–100; a failed veto criterion makes it 0)',
        }),
        el('span', { className: 'muted', text: `human ${human.done}/${human.total}` }),
      );
      li.append(scores);
      li.addEventListener('click', () => this.select(s.id));
      li.addEventListener('keydown', (ev) => {
        if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
          ev.preventDefault();
          const next = this.set.scenarios[i + (ev.key === 'ArrowDown' ? 1 : -1)];
          if (next) {
            this.select(next.id);
            (this.list.querySelector(`[data-id="${CSS.escape(next.id)}"]`) as HTMLElement | null)?.focus();
          }
        }
      });
      ul.append(li);
    });
    const summary = el('div', { className: 'ia-list-foot' });
    const gate = this.state.gate;
    summary.append(
      el('div', { children: [el('span', { className: 'muted', text: 'Track A mean ' }), el('strong', { text: fmt(this.state.aMean) })] }),
      el('div', {
        className: gate.passed ? 'ia-gate is-pass' : 'ia-gate is-fail',
        text: gate.passed ? '✓ gate passed' : '✗ gate not passed',
        title: gate.reasons.join('\n'),
      }),
    );
    this.list.replaceChildren(head, ul, summary);
  }

  // ── top: where results go ───────────────────────────────────────────────────────────────

  private renderRunBar(): void {
    const s = this.state;
    const where = el('div', { className: 'ia-run-where' });
    where.append(el('span', { className: 'ia-label', text: 'RESULTS' }), el('span', { className: 'ia-run-path', text: s.resultsFile, title: s.resultsFile }));
    const badges = el('span', { className: 'ia-run-badges' });
    badges.append(chip(s.resultsExists ? 'existing file: marks merge into it' : 'new file', s.resultsExists ? 'ia-chip-ok' : 'ia-chip-new'));
    badges.append(
      chip(s.manifest === 'present' ? 'trajaudit.run.json ✓' : 'trajaudit.run.json created on save', s.manifest === 'present' ? 'ia-chip-ok' : 'ia-chip-new'),
    );
    if (s.changed.length) badges.append(chip(`${s.changed.length} scenario${s.changed.length > 1 ? 's' : ''} unsaved`, 'ia-chip-dirty'));
    where.append(badges);
    const change = toolbarButton(
      'Change Run Folder…',
      'Choose the run folder (results.jsonl + trajaudit.run.json) for these marks',
      () => this.app.host.post({ type: 'chooseRunFolder' }),
      'ia-tb-secondary',
    );
    const row = el('div', { className: 'ia-run-row', children: [where, change] });
    const parts: HTMLElement[] = [row];
    if (s.problem) parts.push(el('div', { className: 'ia-run-problem', text: `⚠ ${s.problem}` }));
    for (const n of s.notices) parts.push(el('div', { className: 'ia-run-notice', text: `ⓘ ${n}` }));
    this.runBar.replaceChildren(...parts);
  }

  // ── main: the scenario ──────────────────────────────────────────────────────────────────

  private renderMain(): void {
    const s = this.scenario();
    if (!s) {
      this.main.replaceChildren(el('div', { className: 'ia-empty', text: 'This set has no scenarios.' }));
      return;
    }
    const parts: HTMLElement[] = [];
    parts.push(this.setHeader());
    const head = el('section', { className: 'ia-qa' });
    const idLine = el('div', { className: 'ia-qa-id' });
    idLine.append(el('span', { className: 'ia-item-id', text: s.id }));
    if (s.type) idLine.append(chip(s.type, 'ia-chip-meta'));
    if (s.difficulty) idLine.append(chip(`difficulty: ${s.difficulty}`, 'ia-chip-diff'));
    const score = this.state.scores[s.id];
    const scoreBox = el('span', { className: 'ia-scores' });
    scoreBox.append(
      el('span', { className: 'ia-score', children: [el('span', { className: 'muted', text: 'A ' }), el('strong', { text: fmt(score?.a) })] }),
      el('span', {
        className: `ia-score${score?.veto_failed ? ' is-veto' : ''}`,
        children: [el('span', { className: 'muted', text: 'B ' }), el('strong', { text: score?.veto_failed ? '0 (veto)' : fmt(score?.b) })],
      }),
    );
    const line = this.state.results[s.id];
    const unmarked = line ? s.criteria.filter((c) => typeof line.criteria[c.id] !== 'boolean').length : 0;
    if (unmarked)
      scoreBox.prepend(
        el('span', {
          className: 'ia-score-note muted',
          text: `${unmarked} unmarked count as missed`,
          title: 'The scorer counts a criterion without a result as not hit (and a veto criterion without a result as failed).',
        }),
      );
    if (!line) scoreBox.prepend(el('span', { className: 'ia-score-note muted', text: 'no results line yet' }));
    idLine.append(scoreBox);
    head.append(idLine);
    if (s.input) head.append(sectionLabel('INPUT'), plainText('div', 'ia-query', s.input));
    if (s.trap) head.append(sectionLabel('TRAP'), plainText('div', 'ia-trap', s.trap));
    parts.push(head);
    if (s.expected.length) {
      const exp = el('section', { className: 'ia-group' });
      exp.append(el('h2', { className: 'ia-group-title', children: [el('span', { text: 'Expected deliverable' })] }), fieldList(s.expected, 'ia-expected'));
      parts.push(exp);
    }
    parts.push(this.criteria(s));
    if (s.extra.length) {
      const extra = el('section', { className: 'ia-group' });
      extra.append(el('h2', { className: 'ia-group-title', text: 'Other fields' }), fieldList(s.extra));
      parts.push(extra);
    }
    this.main.replaceChildren(...parts);
  }

  private setHeader(): HTMLElement {
    const box = el('details', { className: 'ia-sethead' });
    const summary = el('summary');
    summary.append(
      el('span', { className: 'ia-sethead-name', text: this.set.name ?? 'Scenario set' }),
      el('span', {
        className: 'muted',
        text: ` · ${this.set.scenarios.length} scenarios · ${this.set.scenarios.reduce((n, s) => n + s.criteria.length, 0)} criteria · scoring rules`,
      }),
    );
    box.append(summary);
    if (this.set.scoring.length) box.append(fieldList(this.set.scoring, 'ia-scoring'));
    if (this.set.meta.length) box.append(fieldList(this.set.meta, 'ia-setmeta'));
    if (this.set.sources.length) {
      const src = el('div', { className: 'ia-sources' });
      for (const x of this.set.sources)
        src.append(chip(`${x.id}${x.grade ? ` · ${x.grade}` : ''}`, 'ia-chip-src', [x.url, x.tier].filter(Boolean).join(' — ')));
      box.append(src);
    }
    box.open = false;
    return box;
  }

  private criteria(s: Scenario): HTMLElement {
    const section = el('section', { className: 'ia-group ia-criteria' });
    const title = el('h2', { className: 'ia-group-title' });
    const human = this.marked(s, true);
    const all = this.marked(s, false);
    title.append(
      el('span', { text: 'Criteria' }),
      el('span', { className: 'ia-group-count', text: `${all.done}/${all.total} marked` }),
      el('span', { className: 'muted ia-group-sub', text: `human ${human.done}/${human.total}` }),
    );
    const filter = el('label', { className: 'ia-check' });
    const box = el('input', { attrs: { type: 'checkbox' } }) as HTMLInputElement;
    box.checked = this.humanOnly;
    box.addEventListener('change', () => {
      this.humanOnly = box.checked;
      this.app.saveUi({ humanOnly: this.humanOnly });
      this.renderMain();
    });
    filter.append(box, el('span', { text: 'Human checks only' }));
    const bar = el('div', { className: 'ia-crit-bar', children: [title, filter] });
    section.append(bar);
    const disabled = !!this.state.problem;
    for (const track of ['A', 'B'] as const) {
      const list = s.criteria.filter((c) => c.track === track && (!this.humanOnly || c.check === 'human'));
      if (!list.length) continue;
      const t = el('div', { className: 'ia-track-head' });
      t.append(
        el('span', { className: `ia-track ia-track-${track}`, text: `Track ${track}` }),
        el('span', { className: 'muted', text: track === 'A' ? 'deliverable quality · points' : 'honest trace · points, or veto' }),
      );
      if (track === 'B') t.append(this.silentCitations(s, disabled));
      section.append(t);
      const ul = el('ul', { className: 'ia-crits' });
      for (const c of list) ul.append(this.criterion(s, c, disabled));
      section.append(ul);
    }
    if (!s.criteria.some((c) => c.track === 'B'))
      section.append(
        el('div', {
          className: 'ia-track-head',
          children: [el('span', { className: 'muted', text: 'No track-B criteria.' }), this.silentCitations(s, disabled)],
        }),
      );
    return section;
  }

  private criterion(s: Scenario, c: CriterionView, disabled: boolean): HTMLElement {
    const value = this.state.results[s.id]?.criteria[c.id];
    const li = el('li', {
      className: `ia-crit is-${c.check}${typeof value === 'boolean' ? (value ? ' is-hit' : ' is-miss') : ''}`,
      attrs: { 'data-criterion': c.id },
    });
    const left = el('div', { className: 'ia-crit-main' });
    const top = el('div', { className: 'ia-crit-top' });
    top.append(
      el('span', { className: 'ia-crit-id', text: c.id }),
      chip(c.dim, 'ia-chip-dim'),
      chip(c.check === 'human' ? 'human check' : 'mechanical', c.check === 'human' ? 'ia-chip-human' : 'ia-chip-mech'),
    );
    if (c.evidence) top.append(chip(`evidence ${c.evidence}`, 'ia-chip-ev', 'Evidence grade of the criterion'));
    top.append(
      el('span', {
        className: c.points === 'veto' ? 'ia-points is-veto' : 'ia-points',
        text: c.points === 'veto' ? 'VETO' : `${c.points} pts`,
        title: c.points === 'veto' ? 'One-vote veto: a miss makes the scenario’s track-B score 0' : undefined,
      }),
    );
    left.append(top, plainText('div', 'ia-crit-text', c.text));
    const more: string[] = [];
    if (c.source) more.push(`Source: ${c.source}`);
    if (c.rationale) more.push(`Why: ${c.rationale}`);
    if (more.length) {
      const d = el('details', { className: 'ia-crit-more' });
      d.append(el('summary', { text: 'source and rationale' }));
      for (const m of more) d.append(plainText('div', 'ia-crit-more-line', m));
      left.append(d);
    }
    const control = yesNo({
      label: `${c.id} hit or missed`,
      value,
      yes: 'Hit',
      no: 'Miss',
      disabled,
      onChange: (v) => this.app.host.post({ type: 'markCriterion', scenarioId: s.id, criterionId: c.id, value: v }),
    });
    li.append(left, control);
    return li;
  }

  private silentCitations(s: Scenario, disabled: boolean): HTMLElement {
    const wrap = el('span', {
      className: 'ia-silent',
      title: 'Citations the agent made without a source it actually retrieved. The gate requires zero across the round.',
    });
    const current = this.state.results[s.id]?.silent_citations;
    const field = el('input', {
      className: 'ia-input ia-num',
      attrs: { type: 'number', min: '0', step: '1', 'aria-label': `Silent citations in ${s.id}`, placeholder: '—' },
    }) as HTMLInputElement;
    field.value = current === undefined ? '' : String(current);
    field.disabled = disabled;
    const commit = () => {
      const text = field.value.trim();
      const n = text === '' ? null : Number(text);
      if (n !== null && (!Number.isInteger(n) || n < 0)) {
        field.setCustomValidity('A whole number ≥ 0');
        field.reportValidity();
        return;
      }
      field.setCustomValidity('');
      if ((n ?? undefined) !== current) this.app.host.post({ type: 'setSilentCitations', scenarioId: s.id, value: n });
    };
    field.addEventListener('change', commit);
    field.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') commit();
    });
    append(wrap, el('span', { className: 'ia-silent-label', text: 'Silent citations' }), field);
    if (current !== undefined && current > 0) wrap.append(el('span', { className: 'ia-silent-warn', text: 'fails the gate' }));
    return wrap;
  }

  get fileInfo(): ItemFileInfo {
    return this.info;
  }
}
