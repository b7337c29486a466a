// Audit results (view.audits, oldest → newest; the newest open): adjudicated diagnosis with
// cited steps as chips, repair directives, branch proposals, adjudication clusters and
// disagreements; a "you vs audit vs gold" comparison; and the gold labels from the file.
import type { AuditData, GoldData } from '../../../src/shared/protocol';
import type { Store } from './state';
import { el, visiblePlain } from '../common/dom';
import { formatDate } from './format';
import { causeVerdict, stepVerdict, type CauseVerdict, type StepVerdict } from '../../../src/core/audit/verdicts';
import { rootCauseLabel, rootCauseLabelHyphenated } from './taxonomy';
import { stepChip } from './timeline/messageBody';
import { collapsible } from '../common/widgets';

export class AuditPanel {
  readonly root: HTMLElement;
  private readonly compare: HTMLElement;
  private readonly gold: HTMLElement;
  private readonly audits: HTMLElement;

  constructor(
    private readonly store: Store,
    private readonly reveal: (position: number) => void,
  ) {
    this.root = el('section', { className: 'panel-section audit', attrs: { 'aria-labelledby': 'audit-heading' } });
    const head = el('div', { className: 'section-head' });
    head.append(el('h2', { text: 'Compare and audits', attrs: { id: 'audit-heading' } }));
    this.compare = el('div', { className: 'compare' });
    this.gold = el('div', { className: 'gold' });
    this.audits = el('div', { className: 'audits' });
    this.root.append(head, this.compare, this.gold, this.audits);
    store.on('view', () => this.render());
    store.on('audits', () => this.render());
    store.on('annotation', () => this.renderCompare());
  }

  render(): void {
    this.renderCompare();
    this.renderGold();
    this.renderAudits();
  }

  private chip(p: number | null | undefined, extra = ''): Node {
    if (p === null || p === undefined) return el('span', { className: 'muted', text: '—' });
    return stepChip(p, this.reveal, `#${p}`, extra);
  }

  private renderCompare(): void {
    const a = this.store.annotation;
    const audit = this.store.newestAudit();
    const gold = this.store.view?.gold;
    const d = audit?.diagnosis ?? null;
    const table = el('table', { className: 'cmp-table' });
    table.append(el('caption', { text: `You vs newest audit${gold ? ' vs gold (from file)' : ''}` }));
    const thead = el('thead');
    const hr = el('tr');
    hr.append(el('th', { attrs: { scope: 'col' } }), el('th', { text: 'You', attrs: { scope: 'col' } }), el('th', { text: 'Audit', attrs: { scope: 'col' } }));
    if (gold) hr.append(el('th', { text: 'Gold', attrs: { scope: 'col', title: 'from file' } }));
    thead.append(hr);
    const tbody = el('tbody');
    const row = (label: string, ...cells: Node[]) => {
      const tr = el('tr');
      tr.append(el('th', { text: label, attrs: { scope: 'row' } }), ...cells.map((c) => cell(c)));
      tbody.append(tr);
    };
    const cause = (id: string | null | undefined) => el('span', { className: id ? '' : 'muted', text: rootCauseLabelHyphenated(id) });
    row(
      'Step',
      this.chip(a.criticalStep, 'chip-human'),
      this.chip(d?.criticalStep, 'chip-audit'),
      ...(gold ? [this.chip(gold.criticalStep, 'chip-gold')] : []),
    );
    row('Span', spanText(a.toleranceSpan), el('span', { className: 'muted', text: '—' }), ...(gold ? [spanText(gold.toleranceSpan)] : []));
    row('Cause', cause(a.rootCause), cause(d?.rootCause), ...(gold ? [cause(gold.rootCause)] : []));
    table.append(thead, tbody);

    const verdicts = el('ul', { className: 'verdicts', attrs: { 'aria-label': 'Verdicts' } });
    const verdict = (label: string, step: StepVerdict, rc: CauseVerdict) => {
      const li = el('li');
      li.append(el('span', { className: 'verdict-label', text: label }), verdictPill(step, label), causePill(rc, label));
      verdicts.append(li);
    };
    if (audit) verdict('Audit vs you', stepVerdict(d?.criticalStep, a.criticalStep, a.toleranceSpan), causeVerdict(d?.rootCause, a.rootCause));
    if (audit && gold)
      verdict('Audit vs gold', stepVerdict(d?.criticalStep, gold.criticalStep, gold.toleranceSpan), causeVerdict(d?.rootCause, gold.rootCause));
    if (gold && ((a.criticalStep !== null && a.criticalStep !== undefined) || a.rootCause))
      verdict('You vs gold', stepVerdict(a.criticalStep, gold.criticalStep, gold.toleranceSpan), causeVerdict(a.rootCause, gold.rootCause));
    const nodes: Node[] = [table];
    if (verdicts.childElementCount) nodes.push(verdicts);
    if (!audit) nodes.push(el('p', { className: 'muted small', text: 'No audit in this record yet.' }));
    else
      nodes.push(
        el('p', {
          className: 'muted small',
          text: `Newest audit: ${audit.method}${audit.model ? ' · ' + audit.model : ''}${audit.createdAt ? ' · ' + formatDate(audit.createdAt) : ''}. Step: exact, within the reference span, or outside it.`,
        }),
      );
    this.compare.replaceChildren(...nodes);
  }

  private renderGold(): void {
    const gold = this.store.view?.gold;
    if (!gold || !Object.keys(gold).length) {
      this.gold.replaceChildren();
      this.gold.hidden = true;
      return;
    }
    this.gold.hidden = false;
    const c = collapsible('Gold labels', false, 'from file');
    c.append(goldBody(gold, (p) => this.chip(p, 'chip-gold')));
    this.gold.replaceChildren(c);
  }

  private renderAudits(): void {
    const audits = this.store.sortedAudits();
    if (!audits.length) {
      this.audits.replaceChildren();
      return;
    }
    const nodes = audits.map((audit, i) => {
      const newest = i === audits.length - 1;
      const title = `${audit.method}${audit.model ? ' · ' + audit.model : ''}`;
      const c = collapsible(title, newest, `${newest ? 'newest · ' : ''}${formatDate(audit.createdAt) || audit.id}`);
      c.append(this.auditBody(audit));
      return c;
    });
    nodes.reverse(); // newest first on screen
    this.audits.replaceChildren(el('h3', { className: 'sub-head', text: `Audits (${audits.length})` }), ...nodes);
  }

  private auditBody(audit: AuditData): HTMLElement {
    const body = el('div', { className: 'audit-body' });
    const meta = [audit.provider, audit.model, audit.promptVersion && `prompt ${audit.promptVersion}`, audit.id].filter(Boolean).join(' · ');
    body.append(el('div', { className: 'muted small', text: meta }));

    const d = audit.diagnosis;
    if (d) {
      const box = el('div', { className: 'audit-diag' });
      const line = el('div', { className: 'kv' });
      line.append(
        el('span', { className: 'k', text: 'Diagnosis' }),
        this.chip(d.criticalStep, 'chip-audit'),
        el('span', { className: 'cause-name', text: rootCauseLabel(d.rootCause) }),
      );
      box.append(line);
      if (d.rationale) box.append(el('p', { className: 'prose', text: visiblePlain(d.rationale) }));
      if (d.citedSteps?.length) {
        const cited = el('div', { className: 'kv' });
        cited.append(el('span', { className: 'k', text: 'Cited' }));
        for (const p of d.citedSteps) cited.append(this.chip(p));
        box.append(cited);
      }
      body.append(box);
    }

    if (audit.repair?.directives?.length) {
      body.append(el('div', { className: 'k block', text: 'Repair directives' }));
      const ol = el('ol', { className: 'directives' });
      for (const dir of audit.repair.directives) ol.append(el('li', { className: 'prose', text: visiblePlain(dir) }));
      body.append(ol);
    }

    if (audit.branches?.length) {
      body.append(el('div', { className: 'k block', text: 'Branch proposals' }));
      const list = el('div', { className: 'branches' });
      for (const b of audit.branches) {
        const item = el('div', { className: 'branch' });
        const top = el('div', { className: 'kv' });
        top.append(
          el('span', { className: 'mk mk-branch', text: (b.name || '?').charAt(0).toUpperCase(), attrs: { 'aria-hidden': 'true' } }),
          el('span', { className: 'branch-name', text: b.name }),
          this.chip(b.criticalStep, 'chip-branch'),
          el('span', { className: 'cause-name', text: rootCauseLabel(b.rootCause) }),
        );
        item.append(top);
        if (b.rationale) item.append(el('p', { className: 'prose', text: visiblePlain(b.rationale) }));
        if (b.notes) {
          const notes = collapsible('Audit notes', false);
          notes.append(el('p', { className: 'prose', text: visiblePlain(b.notes) }));
          item.append(notes);
        }
        list.append(item);
      }
      body.append(list);
    }

    const adj = audit.adjudication;
    if (adj && (adj.clusters?.length || adj.disagreements)) {
      body.append(el('div', { className: 'k block', text: 'Adjudication' }));
      if (adj.clusters?.length) {
        const cl = el('div', { className: 'clusters' });
        adj.clusters.forEach((cluster, i) => {
          const g = el('div', { className: 'kv cluster' });
          g.append(el('span', { className: 'k', text: `Cluster ${i + 1}` }));
          for (const p of cluster) g.append(this.chip(p));
          cl.append(g);
        });
        body.append(cl);
      }
      if (adj.disagreements) body.append(el('p', { className: 'prose', text: visiblePlain(adj.disagreements) }));
    }
    return body;
  }
}

function cell(...children: Node[]): HTMLTableCellElement {
  const td = el('td');
  td.append(...children);
  return td;
}

function spanText(span: [number, number] | null | undefined): HTMLElement {
  return el('span', { className: span ? '' : 'muted', text: span ? `${span[0]}–${span[1]}` : '—' });
}

function verdictPill(v: StepVerdict, what: string): HTMLElement {
  const cls = v === 'exact' ? 'pill-ok' : v === 'within span' ? 'pill-near' : v === 'outside span' ? 'pill-error' : 'pill-muted';
  return el('span', { className: `pill ${cls}`, text: `step ${v === 'missing' ? 'n/a' : v}`, title: `${what}, critical step: ${v}` });
}

function causePill(v: CauseVerdict, what: string): HTMLElement {
  const cls = v === 'agree' ? 'pill-ok' : v === 'disagree' ? 'pill-error' : 'pill-muted';
  return el('span', {
    className: `pill ${cls}`,
    text: `cause ${v === 'missing' ? 'n/a' : v === 'agree' ? 'agrees' : 'differs'}`,
    title: `${what}, root cause: ${v}`,
  });
}

function goldBody(gold: GoldData, chip: (p: number | undefined) => Node): HTMLElement {
  const body = el('div', { className: 'gold-body' });
  const kv = (k: string, ...v: Node[]) => {
    const line = el('div', { className: 'kv' });
    line.append(el('span', { className: 'k', text: k }), ...v);
    body.append(line);
  };
  if (gold.criticalStep !== undefined) kv('Critical step', chip(gold.criticalStep));
  if (gold.toleranceSpan) kv('Span', spanText(gold.toleranceSpan));
  if (gold.rootCause) kv('Root cause', el('span', { text: rootCauseLabel(gold.rootCause) }));
  if (gold.mistakeAgent) kv('Mistake agent', el('span', { text: visiblePlain(gold.mistakeAgent) }));
  if (gold.rationale) body.append(el('p', { className: 'prose', text: visiblePlain(gold.rationale) }));
  if (gold.repairDirective) {
    body.append(el('div', { className: 'k block', text: 'Repair directive' }));
    body.append(el('p', { className: 'prose', text: visiblePlain(gold.repairDirective) }));
  }
  if (gold.repairRubrics?.length) {
    body.append(el('div', { className: 'k block', text: `Repair rubrics (${gold.repairRubrics.length})` }));
    const ol = el('ol', { className: 'directives' });
    for (const r of gold.repairRubrics) ol.append(el('li', { className: 'prose', text: visiblePlain(r) }));
    body.append(ol);
  }
  return body;
}
