// The score report UI, started by reportMain.ts (dist/webview-report.js). The host sends the whole view model ('init');
// this draws it as a Lit template (text bindings only): header (kind and why, judging), exports, figures, tables and
// Chart.js charts, and posts link activations and export requests back. The charts stay imperative: the template
// draws their canvases, and the charts are attached to those canvases after the render.
import './report.css';
import { html, nothing, render, type TemplateResult } from 'lit';
import { ref } from 'lit/directives/ref.js';
import type { ChartSpec, ReportCell, ReportFromWebview, ReportModel, ReportSection, ReportTable, ReportToWebview } from '../../../src/shared/reportProtocol';
import type { ChartHandle } from './charts.mjs' with { 'resolution-mode': 'import' };
import { readTheme, watchTheme } from './theme';
import { HostLink, assertNever } from '../common/hostLink';

const KIND_LABELS: Record<ReportModel['kind'], string> = {
  audit: 'audit (SearchAuditBench)',
  deepsearchqa: 'DeepSearchQA',
  nuggets: 'nugget restoration (Clarify-Then-Search)',
  scenarios: 'scenario set',
  delegation: 'Delegation',
  resume: 'repair-guided resumption',
  'corpus-stats': 'corpus statistics',
};

const SCROLL_ROWS = 24;
/** Tables with more columns take the full width. */
const WIDE_COLUMNS = 8;

export class ReportApp {
  private readonly host = new HostLink<ReportFromWebview, ReportToWebview>('report');
  private readonly root: HTMLElement;
  private model: ReportModel | undefined;
  private status: { text: string; kind: 'info' | 'error' } = { text: '', kind: 'info' };
  private charts: { chart: ChartHandle; spec: ChartSpec; canvas: HTMLCanvasElement }[] = [];
  /** Chart.js is an ES module: loaded with import() (bundled inline by esbuild). */
  private readonly chartsModule = import('./charts.mjs');
  private renderRun = 0;
  private chartErrors: string[] = [];
  /** Charts that could not be drawn, by chart id: the message shown under the chart. */
  private chartFailures = new Map<string, string>();

  constructor(mount: HTMLElement) {
    // Report any Content-Security-Policy violation: there should be none (tests check).
    document.addEventListener('securitypolicyviolation', (e) => {
      this.post({ type: 'cspViolation', directive: e.effectiveDirective || e.violatedDirective, blocked: e.blockedURI, sample: e.sample ?? '' });
    });
    window.addEventListener('error', (e) => this.post({ type: 'log', level: 'error', message: `report: ${e.message}` }));
    this.root = document.createElement('div');
    this.root.className = 'report-view';
    this.root.setAttribute('role', 'document');
    mount.append(this.root);
    this.update();
    this.host.onMessage((msg) => this.onMessage(msg));
    watchTheme(() => this.recolor());
    this.post({ type: 'ready' });
  }

  private post(message: ReportFromWebview): void {
    this.host.post(message);
  }

  private onMessage(msg: ReportToWebview): void {
    switch (msg.type) {
      case 'init':
        this.show(msg.model);
        break;
      case 'status':
        this.status = { text: msg.text, kind: msg.kind };
        this.update();
        break;
      default:
        assertNever(msg);
    }
  }

  // ---------- rendering ----------

  private show(model: ReportModel): void {
    this.model = model;
    this.destroyCharts();
    this.chartFailures = new Map();
    this.update();
    void this.drawCharts(++this.renderRun);
  }

  private update(): void {
    render(this.model ? this.page(this.model) : html`<p class="rp-loading muted">Loading the score report…</p>`, this.root);
  }

  private page(model: ReportModel): TemplateResult {
    return html`${this.header(model)}
      ${
        model.notes.length
          ? html`<section class="rp-notes" aria-label="Notes">
            <h2>Notes</h2>
            <ul>
              ${model.notes.map((n) => html`<li>${n}</li>`)}
            </ul>
          </section>`
          : nothing
      }
      ${
        model.sections.length > 1
          ? html`<nav class="rp-toc" aria-label="Sections">
            ${model.sections.map((s) => html`<a href=${`#sec-${s.id}`} @click=${(e: Event) => this.jump(e, s.id)}>${s.title}</a>`)}
          </nav>`
          : nothing
      }
      <main class="rp-main">${model.sections.map((s) => this.section(s))}</main>`;
  }

  /** After the charts are drawn: tell the host what the page shows (tests, diagnostics). */
  private reportRendered(model: ReportModel): void {
    const figures: Record<string, string> = {};
    for (const s of model.sections) for (const f of s.figures ?? []) figures[f.label] = f.text;
    this.post({
      type: 'rendered',
      charts: this.charts.length,
      tables: this.root.querySelectorAll('table').length,
      links: this.root.querySelectorAll('a.rp-step').length,
      figures,
      chartErrors: this.chartErrors,
    });
  }

  private jump(e: Event, id: string): void {
    e.preventDefault();
    const target = document.getElementById(`sec-${id}`);
    target?.scrollIntoView({ block: 'start' });
    target?.querySelector<HTMLElement>('h2')?.focus();
  }

  private header(model: ReportModel): TemplateResult {
    return html`<header class="rp-header">
      <div class="rp-titlebar">
        <div class="rp-titles">
          <h1>${model.heading ?? 'Score report'} <span class="rp-kind">${model.kind}</span></h1>
          <p class="rp-folder" title=${model.folder}>${model.folderLabel}</p>
        </div>
        <div class="rp-actions" role="group" aria-label="Export">
          <span class="rp-actions-label">Export</span>
          ${model.exports.map(
            (x) =>
              html`<button class="rp-button" type="button" title=${x.title} data-export=${x.format} @click=${() => this.post({ type: 'export', format: x.format })}>${x.label}</button>`,
          )}
          <button
            class="rp-button secondary"
            type="button"
            title=${model.recompute?.title ?? 'Score the folder again (e.g. after configuring a model)'}
            data-action="rescore"
            @click=${() => this.post({ type: 'rescore' })}
          >${model.recompute?.label ?? 'Rescore'}</button>
        </div>
      </div>
      <dl class="rp-meta">
        <div>
          <dt>Detected</dt>
          <dd><strong>${KIND_LABELS[model.kind]}</strong>${` — ${model.reason}`}</dd>
        </div>
        <div class=${model.judgeMode.model ? 'rp-judge is-model' : 'rp-judge is-deterministic'}>
          <dt>Judging</dt>
          <dd>${model.judgeMode.text}<span class="rp-judging muted">${` (${model.judging})`}</span></dd>
        </div>
      </dl>
      <div class=${this.status.kind === 'error' ? 'rp-status is-error' : 'rp-status'} role="status" aria-live="polite">${this.status.text}</div>
    </header>`;
  }

  private section(section: ReportSection): TemplateResult {
    const headingId = `sec-${section.id}-title`;
    const single = section.charts.length === 0 && section.tables.every((t) => t.head.length <= WIDE_COLUMNS);
    return html`<section class="rp-section" id=${`sec-${section.id}`} aria-labelledby=${headingId}>
      <h2 id=${headingId} tabindex="-1">${section.title}</h2>
      ${
        section.figures?.length
          ? html`<dl class="rp-figures">
            ${section.figures.map(
              (f) =>
                html`<div class="rp-figure" data-figure=${f.label}>
                  <dt>${f.label}</dt>
                  <dd class="rp-figure-value">${f.text}</dd>
                  ${f.hint ? html`<dd class="rp-figure-hint">${f.hint}</dd>` : nothing}
                </div>`,
            )}
          </dl>`
          : nothing
      }
      <div class=${single ? 'rp-grid is-single' : 'rp-grid'}>
        ${section.tables.map((t) => this.table(t))} ${section.charts.map((c) => this.chartFigure(c))}
      </div>
    </section>`;
  }

  private cell(c: ReportCell, header: boolean, numeric: boolean): TemplateResult {
    const className = [numeric ? 'num' : '', c.tone ? `tone-${c.tone}` : ''].filter(Boolean).join(' ') || nothing;
    const content = c.link
      ? html`<a
          class="rp-step"
          href="#"
          data-link=${c.link}
          aria-label=${c.label ?? c.text}
          title=${c.label ?? c.text}
          @click=${(e: Event) => this.openLink(e, c.link as string)}
        >${c.text}</a>`
      : c.label && c.label !== c.text
        ? html`<span aria-hidden="true" title=${c.label}>${c.text}</span><span class="sr-only">${c.label}</span>`
        : c.text;
    return header ? html`<th class=${className} scope="row">${content}</th>` : html`<td class=${className}>${content}</td>`;
  }

  private openLink(e: Event, link: string): void {
    e.preventDefault();
    this.post({ type: 'openLink', link });
  }

  private table(t: ReportTable): TemplateResult {
    const scroll = t.rows.length > SCROLL_ROWS;
    const wrapClass = `rp-table-wrap${scroll ? ' is-scroll' : ''}${t.head.length > WIDE_COLUMNS ? ' is-wide' : ''}`;
    return html`<div
      class=${wrapClass}
      tabindex=${scroll ? 0 : nothing}
      role=${scroll ? 'region' : nothing}
      aria-label=${scroll ? t.caption : nothing}
    >
      <table class="rp-table" id=${t.id}>
        <caption>${t.caption}</caption>
        <thead>
          <tr>
            ${t.head.map((h, i) => html`<th class=${t.numeric[i] ? 'num' : nothing} scope="col">${h}</th>`)}
          </tr>
        </thead>
        <tbody>
          ${t.rows.map((row) => html`<tr>${row.map((c, i) => this.cell(c, t.rowHeaders && i === 0, t.numeric[i] ?? false))}</tr>`)}
        </tbody>
      </table>
      ${t.note ? html`<p class="rp-note muted">${t.note}</p>` : nothing}
    </div>`;
  }

  private chartFigure(spec: ChartSpec): TemplateResult {
    const failure = this.chartFailures.get(spec.id);
    // The box's height goes through the CSSOM, not a style attribute: the page's CSP allows only the former.
    const sizeBox = (box: Element | undefined): void => {
      if (box instanceof HTMLElement) box.style.height = `${chartHeight(spec)}px`;
    };
    return html`<figure class=${spec.type === 'heatmap' ? 'rp-chart is-heatmap' : 'rp-chart'} data-chart-id=${spec.id}>
      <figcaption>${spec.title}</figcaption>
      <div class="rp-canvas-box" ${ref(sizeBox)}>
        <canvas
          role="img"
          aria-label=${`${spec.title}. ${spec.description} The numbers are in the table “${this.captionOf(spec.tableId)}”.`}
          aria-describedby=${spec.tableId}
          data-chart=${spec.id}
        >${spec.description}</canvas>
      </div>
      ${failure ? html`<p class="rp-note is-error">${`The chart could not be drawn (${failure}); the table has the numbers.`}</p>` : nothing}
    </figure>`;
  }

  private captionOf(tableId: string): string {
    for (const s of this.model?.sections ?? []) for (const t of s.tables) if (t.id === tableId) return t.caption;
    return tableId;
  }

  private async drawCharts(run: number): Promise<void> {
    const model = this.model as ReportModel;
    this.chartErrors = [];
    let charts: typeof import('./charts.mjs', { with: { 'resolution-mode': 'import' } });
    try {
      charts = await this.chartsModule;
    } catch (error) {
      this.chartErrors.push(`Chart.js did not load: ${(error as Error)?.message ?? String(error)}`);
      this.reportRendered(model);
      return;
    }
    if (run !== this.renderRun) return; // a newer model arrived meanwhile
    const theme = readTheme();
    for (const canvas of this.root.querySelectorAll<HTMLCanvasElement>('canvas[data-chart]')) {
      const spec = model.sections.flatMap((s) => s.charts).find((c) => c.id === canvas.dataset.chart);
      if (!spec) continue;
      try {
        this.charts.push({ chart: charts.createChart(canvas, spec, theme), spec, canvas });
      } catch (error) {
        const message = `${spec.id}: ${(error as Error)?.message ?? String(error)}`;
        this.chartErrors.push(message);
        this.chartFailures.set(spec.id, message);
      }
    }
    if (this.chartFailures.size) this.update();
    this.reportRendered(model);
  }

  private destroyCharts(): void {
    for (const c of this.charts) c.chart.destroy();
    this.charts = [];
  }

  /** Theme switched: redraw the charts with the new colours. */
  private recolor(): void {
    if (!this.model || this.charts.length === 0) return;
    void this.chartsModule.then((charts) => {
      const theme = readTheme();
      const old = this.charts;
      this.charts = [];
      for (const c of old) {
        c.chart.destroy();
        try {
          this.charts.push({ chart: charts.createChart(c.canvas, c.spec, theme), spec: c.spec, canvas: c.canvas });
        } catch (error) {
          this.post({ type: 'log', level: 'error', message: `report: redrawing ${c.spec.id}: ${(error as Error)?.message}` });
        }
      }
    });
  }
}

/** Height of a chart's box in pixels (set through the CSSOM, which the CSP allows). */
export function chartHeight(spec: ChartSpec): number {
  if (spec.type === 'heatmap') return Math.max(220, 40 * spec.yLabels.length + 70);
  if (spec.horizontal) return Math.max(160, 34 * spec.labels.length + 60);
  return 280;
}

export function startReportApp(mount: HTMLElement): ReportApp {
  return new ReportApp(mount);
}
