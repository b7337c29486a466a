// Audit results (view.audits, oldest → newest; the newest open): adjudicated diagnosis with
// cited steps as chips, repair directives, branch proposals, adjudication clusters and
// disagreements; a "you vs audit vs gold" comparison; and the gold labels from the file.
// A Lit template (text bindings only: audit text comes from a model reading hostile pages);
// audits are keyed by id, so an audit the user opened stays open when another arrives.
import { html, nothing, render, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { AuditData, GoldData } from '../../../src/shared/protocol';
import type { Store } from './state';
import { el, visiblePlain } from '../common/dom';
import { formatDate } from './format';
import { causeVerdict, stepVerdict, type CauseVerdict, type StepVerdict } from '../../../src/core/audit/verdicts';
import { rootCauseLabel, rootCauseLabelHyphenated } from './taxonomy';
import '../common/widgets';

const DASH = html`<span class="muted">—</span>`;

export class AuditPanel {
  readonly root: HTMLElement;

  constructor(
    private readonly store: Store,
    private readonly reveal: (position: number) => void,
  ) {
    this.root = el('section', { className: 'panel-section audit', attrs: { 'aria-labelledby': 'audit-heading' } });
    store.on('view', () => this.render());
    store.on('audits', () => this.render());
    store.on('annotation', () => this.render());
    this.render();
  }

  render(): void {
    render(
      html`<div class="section-head"><h2 id="audit-heading">Compare and audits</h2></div>
        <div class="compare">${this.compare()}</div>
        ${this.gold()}
        <div class="audits">${this.audits()}</div>`,
      this.root,
    );
  }

  private chip(p: number | null | undefined, extra = ''): TemplateResult {
    if (p === null || p === undefined) return DASH;
    const reveal = (ev: Event) => {
      ev.stopPropagation();
      this.reveal(p);
    };
    return html`<button class=${extra ? `chip step-chip ${extra}` : 'chip step-chip'} type="button" title=${`Go to message ${p}`} data-position=${p} @click=${reveal}
      >${`#${p}`}</button
    >`;
  }

  private compare(): TemplateResult {
    const a = this.store.annotation;
    const audit = this.store.newestAudit();
    const gold = this.store.view?.gold;
    const d = audit?.diagnosis ?? null;
    const row = (label: string, ...cells: TemplateResult[]) =>
      html`<tr>
        <th scope="row">${label}</th>
        ${cells.map((c) => html`<td>${c}</td>`)}
      </tr>`;
    const cause = (id: string | null | undefined) => html`<span class=${id ? nothing : 'muted'}>${rootCauseLabelHyphenated(id)}</span>`;

    const verdicts: TemplateResult[] = [];
    const verdict = (label: string, step: StepVerdict, rc: CauseVerdict) =>
      verdicts.push(html`<li><span class="verdict-label">${label}</span>${verdictPill(step, label)}${causePill(rc, label)}</li>`);
    if (audit) verdict('Audit vs you', stepVerdict(d?.criticalStep, a.criticalStep, a.toleranceSpan), causeVerdict(d?.rootCause, a.rootCause));
    if (audit && gold)
      verdict('Audit vs gold', stepVerdict(d?.criticalStep, gold.criticalStep, gold.toleranceSpan), causeVerdict(d?.rootCause, gold.rootCause));
    if (gold && ((a.criticalStep !== null && a.criticalStep !== undefined) || a.rootCause))
      verdict('You vs gold', stepVerdict(a.criticalStep, gold.criticalStep, gold.toleranceSpan), causeVerdict(a.rootCause, gold.rootCause));

    const note = audit
      ? `Newest audit: ${audit.method}${audit.model ? ' · ' + audit.model : ''}${audit.createdAt ? ' · ' + formatDate(audit.createdAt) : ''}. Step: exact, within the reference span, or outside it.`
      : 'No audit in this record yet.';
    return html`<table class="cmp-table">
        <caption>${`You vs newest audit${gold ? ' vs gold (from file)' : ''}`}</caption>
        <thead>
          <tr>
            <th scope="col"></th>
            <th scope="col">You</th>
            <th scope="col">Audit</th>
            ${gold ? html`<th scope="col" title="from file">Gold</th>` : nothing}
          </tr>
        </thead>
        <tbody>
          ${row('Step', this.chip(a.criticalStep, 'chip-human'), this.chip(d?.criticalStep, 'chip-audit'), ...(gold ? [this.chip(gold.criticalStep, 'chip-gold')] : []))}
          ${row('Span', spanText(a.toleranceSpan), DASH, ...(gold ? [spanText(gold.toleranceSpan)] : []))}
          ${row('Cause', cause(a.rootCause), cause(d?.rootCause), ...(gold ? [cause(gold.rootCause)] : []))}
        </tbody>
      </table>
      ${verdicts.length ? html`<ul class="verdicts" aria-label="Verdicts">${verdicts}</ul>` : nothing}
      <p class="muted small">${note}</p>`;
  }

  private gold(): TemplateResult {
    const gold = this.store.view?.gold;
    const shown = !!gold && Object.keys(gold).length > 0;
    return html`<div class="gold" ?hidden=${!shown}>
      ${shown ? html`<vscode-collapsible heading="Gold labels" description="from file">${goldBody(gold, (p) => this.chip(p, 'chip-gold'))}</vscode-collapsible>` : nothing}
    </div>`;
  }

  private audits(): TemplateResult | typeof nothing {
    const audits = this.store.sortedAudits();
    if (!audits.length) return nothing;
    // Newest first on screen; a key per audit (ids are unique in a valid sidecar; a repeated one is told apart by its count).
    const seen = new Map<string, number>();
    const keyed = audits.map((audit, i) => {
      const n = (seen.get(audit.id) ?? 0) + 1;
      seen.set(audit.id, n);
      return { audit, newest: i === audits.length - 1, key: `${n}:${audit.id}` };
    });
    keyed.reverse();
    return html`<h3 class="sub-head">${`Audits (${audits.length})`}</h3>
      ${repeat(
        keyed,
        (k) => k.key,
        ({ audit, newest }) =>
          html`<vscode-collapsible
            heading=${`${audit.method}${audit.model ? ' · ' + audit.model : ''}`}
            description=${`${newest ? 'newest · ' : ''}${formatDate(audit.createdAt) || audit.id}`}
            ?open=${newest}
            >${this.auditBody(audit)}</vscode-collapsible
          >`,
      )}`;
  }

  private auditBody(audit: AuditData): TemplateResult {
    const meta = [audit.provider, audit.model, audit.promptVersion && `prompt ${audit.promptVersion}`, audit.id].filter(Boolean).join(' · ');
    const d = audit.diagnosis;
    const adj = audit.adjudication;
    return html`<div class="audit-body">
      <div class="muted small">${meta}</div>
      ${
        d
          ? html`<div class="audit-diag">
            <div class="kv"><span class="k">Diagnosis</span>${this.chip(d.criticalStep, 'chip-audit')}<span class="cause-name">${rootCauseLabel(d.rootCause)}</span></div>
            ${d.rationale ? html`<p class="prose">${visiblePlain(d.rationale)}</p>` : nothing}
            ${d.citedSteps?.length ? html`<div class="kv"><span class="k">Cited</span>${d.citedSteps.map((p) => this.chip(p))}</div>` : nothing}
          </div>`
          : nothing
      }
      ${
        audit.repair?.directives?.length
          ? html`<div class="k block">Repair directives</div>
            <ol class="directives">
              ${audit.repair.directives.map((dir) => html`<li class="prose">${visiblePlain(dir)}</li>`)}
            </ol>`
          : nothing
      }
      ${
        audit.branches?.length
          ? html`<div class="k block">Branch proposals</div>
            <div class="branches">
              ${audit.branches.map(
                (b) =>
                  html`<div class="branch">
                    <div class="kv">
                      <span class="mk mk-branch" aria-hidden="true">${(b.name || '?').charAt(0).toUpperCase()}</span><span class="branch-name">${b.name}</span
                      >${this.chip(b.criticalStep, 'chip-branch')}<span class="cause-name">${rootCauseLabel(b.rootCause)}</span>
                    </div>
                    ${b.rationale ? html`<p class="prose">${visiblePlain(b.rationale)}</p>` : nothing}
                    ${b.notes ? html`<vscode-collapsible heading="Audit notes"><p class="prose">${visiblePlain(b.notes)}</p></vscode-collapsible>` : nothing}
                  </div>`,
              )}
            </div>`
          : nothing
      }
      ${
        adj && (adj.clusters?.length || adj.disagreements)
          ? html`<div class="k block">Adjudication</div>
            ${
              adj.clusters?.length
                ? html`<div class="clusters">
                  ${adj.clusters.map((cluster, i) => html`<div class="kv cluster"><span class="k">${`Cluster ${i + 1}`}</span>${cluster.map((p) => this.chip(p))}</div>`)}
                </div>`
                : nothing
            }
            ${adj.disagreements ? html`<p class="prose">${visiblePlain(adj.disagreements)}</p>` : nothing}`
          : nothing
      }
    </div>`;
  }
}

function spanText(span: [number, number] | null | undefined): TemplateResult {
  return span ? html`<span>${`${span[0]}–${span[1]}`}</span>` : DASH;
}

function verdictPill(v: StepVerdict, what: string): TemplateResult {
  const cls = v === 'exact' ? 'pill-ok' : v === 'within span' ? 'pill-near' : v === 'outside span' ? 'pill-error' : 'pill-muted';
  return html`<span class=${`pill ${cls}`} title=${`${what}, critical step: ${v}`}>${`step ${v === 'missing' ? 'n/a' : v}`}</span>`;
}

function causePill(v: CauseVerdict, what: string): TemplateResult {
  const cls = v === 'agree' ? 'pill-ok' : v === 'disagree' ? 'pill-error' : 'pill-muted';
  const text = `cause ${v === 'missing' ? 'n/a' : v === 'agree' ? 'agrees' : 'differs'}`;
  return html`<span class=${`pill ${cls}`} title=${`${what}, root cause: ${v}`}>${text}</span>`;
}

function goldBody(gold: GoldData, chip: (p: number | undefined) => TemplateResult): TemplateResult {
  const kv = (k: string, v: TemplateResult) => html`<div class="kv"><span class="k">${k}</span>${v}</div>`;
  return html`<div class="gold-body">
    ${gold.criticalStep !== undefined ? kv('Critical step', chip(gold.criticalStep)) : nothing}
    ${gold.toleranceSpan ? kv('Span', spanText(gold.toleranceSpan)) : nothing}
    ${gold.rootCause ? kv('Root cause', html`<span>${rootCauseLabel(gold.rootCause)}</span>`) : nothing}
    ${gold.mistakeAgent ? kv('Mistake agent', html`<span>${visiblePlain(gold.mistakeAgent)}</span>`) : nothing}
    ${gold.rationale ? html`<p class="prose">${visiblePlain(gold.rationale)}</p>` : nothing}
    ${gold.repairDirective ? html`<div class="k block">Repair directive</div><p class="prose">${visiblePlain(gold.repairDirective)}</p>` : nothing}
    ${
      gold.repairRubrics?.length
        ? html`<div class="k block">${`Repair rubrics (${gold.repairRubrics.length})`}</div>
          <ol class="directives">
            ${gold.repairRubrics.map((r) => html`<li class="prose">${visiblePlain(r)}</li>`)}
          </ol>`
        : nothing
    }
  </div>`;
}
