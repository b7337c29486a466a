// The score report UI, started by reportMain.ts (dist/webview-report.js). The host sends the whole view model ('init');
// this draws it: header (kind and why, judging), exports, figures, tables and Chart.js charts,
// and posts link activations and export requests back. All text goes through textContent.
import './report.css';
import type { ChartSpec, ReportCell, ReportFromWebview, ReportModel, ReportSection, ReportTable, ReportToWebview } from '../../../src/shared/reportProtocol';
import { clear, el } from '../common/dom';
import type { ChartHandle } from './charts.mjs' with { 'resolution-mode': 'import' };
import { readTheme, watchTheme } from './theme';
import { HostLink, assertNever } from '../common/hostLink';

const KIND_LABELS: Record<ReportModel['kind'], string> = {
  audit: 'audit (SearchAuditBench)',
  deepsearchqa: 'DeepSearchQA',
  nuggets: 'nugget restoration (Clarify-Then-Search)',
  scenarios: 'scenario set',
  delegation: 'Delegation',
};

const SCROLL_ROWS = 24;
/** Tables with more columns take the full width. */
const WIDE_COLUMNS = 8;

export class ReportApp {
  private readonly host = new HostLink<ReportFromWebview, ReportToWebview>('report');
  private readonly root: HTMLElement;
  private readonly status: HTMLElement;
  private model: ReportModel | undefined;
  private charts: { chart: ChartHandle; spec: ChartSpec; canvas: HTMLCanvasElement }[] = [];
  /** Chart.js is an ES module: loaded with import() (bundled inline by esbuild). */
  private readonly chartsModule = import('./charts.mjs');
  private renderRun = 0;
  private chartErrors: string[] = [];

  constructor(mount: HTMLElement) {
    // Report any Content-Security-Policy violation: there should be none (tests check).
    document.addEventListener('securitypolicyviolation', (e) => {
      this.post({ type: 'cspViolation', directive: e.effectiveDirective || e.violatedDirective, blocked: e.blockedURI, sample: e.sample ?? '' });
    });
    window.addEventListener('error', (e) => this.post({ type: 'log', level: 'error', message: `report: ${e.message}` }));
    this.root = el('div', { className: 'report-view', attrs: { role: 'document' } });
    this.status = el('div', { className: 'rp-status', attrs: { role: 'status', 'aria-live': 'polite' } });
    this.root.append(el('p', { className: 'rp-loading muted', text: 'Loading the score report…' }));
    mount.append(this.root);
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
        this.render(msg.model);
        break;
      case 'status':
        this.showStatus(msg.text, msg.kind);
        break;
      default:
        assertNever(msg);
    }
  }

  private showStatus(text: string, kind: 'info' | 'error'): void {
    this.status.textContent = text;
    this.status.classList.toggle('is-error', kind === 'error');
  }

  // ---------- rendering ----------

  private render(model: ReportModel): void {
    this.model = model;
    this.destroyCharts();
    clear(this.root);
    this.root.append(this.header(model));
    if (model.notes.length) {
      this.root.append(
        el('section', {
          className: 'rp-notes',
          attrs: { 'aria-label': 'Notes' },
          children: [el('h2', { text: 'Notes' }), el('ul', { children: model.notes.map((n) => el('li', { text: n })) })],
        }),
      );
    }
    if (model.sections.length > 1) {
      this.root.append(
        el('nav', {
          className: 'rp-toc',
          attrs: { 'aria-label': 'Sections' },
          children: model.sections.map((s) => el('a', { text: s.title, attrs: { href: `#sec-${s.id}` }, on: { click: (e) => this.jump(e, s.id) } })),
        }),
      );
    }
    const main = el('main', { className: 'rp-main' });
    for (const section of model.sections) main.append(this.section(section));
    this.root.append(main);
    void this.drawCharts(++this.renderRun);
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

  private header(model: ReportModel): HTMLElement {
    const exports = el('div', {
      className: 'rp-actions',
      attrs: { role: 'group', 'aria-label': 'Export' },
      children: [
        el('span', { className: 'rp-actions-label', text: 'Export' }),
        ...model.exports.map((x) =>
          el('button', {
            className: 'rp-button',
            text: x.label,
            title: x.title,
            attrs: { type: 'button', 'data-export': x.format },
            on: { click: () => this.post({ type: 'export', format: x.format }) },
          }),
        ),
        el('button', {
          className: 'rp-button secondary',
          text: 'Rescore',
          title: 'Score the folder again (e.g. after configuring a model)',
          attrs: { type: 'button', 'data-action': 'rescore' },
          on: { click: () => this.post({ type: 'rescore' }) },
        }),
      ],
    });
    return el('header', {
      className: 'rp-header',
      children: [
        el('div', {
          className: 'rp-titlebar',
          children: [
            el('div', {
              className: 'rp-titles',
              children: [
                el('h1', { children: ['Score report ', el('span', { className: 'rp-kind', text: model.kind })] }),
                el('p', { className: 'rp-folder', text: model.folderLabel, title: model.folder }),
              ],
            }),
            exports,
          ],
        }),
        el('dl', {
          className: 'rp-meta',
          children: [
            el('div', {
              children: [el('dt', { text: 'Detected' }), el('dd', { children: [el('strong', { text: KIND_LABELS[model.kind] }), ` — ${model.reason}`] })],
            }),
            el('div', {
              className: model.judgeMode.model ? 'rp-judge is-model' : 'rp-judge is-deterministic',
              children: [
                el('dt', { text: 'Judging' }),
                el('dd', { children: [model.judgeMode.text, el('span', { className: 'rp-judging muted', text: ` (${model.judging})` })] }),
              ],
            }),
          ],
        }),
        this.status,
      ],
    });
  }

  private section(section: ReportSection): HTMLElement {
    const headingId = `sec-${section.id}-title`;
    const node = el('section', { className: 'rp-section', attrs: { id: `sec-${section.id}`, 'aria-labelledby': headingId } });
    node.append(el('h2', { text: section.title, attrs: { id: headingId, tabindex: -1 } }));
    if (section.figures?.length) {
      node.append(
        el('dl', {
          className: 'rp-figures',
          children: section.figures.map((f) =>
            el('div', {
              className: 'rp-figure',
              attrs: { 'data-figure': f.label },
              children: [
                el('dt', { text: f.label }),
                el('dd', { className: 'rp-figure-value', text: f.text }),
                f.hint ? el('dd', { className: 'rp-figure-hint', text: f.hint }) : null,
              ],
            }),
          ),
        }),
      );
    }
    const single = section.charts.length === 0 && section.tables.every((t) => t.head.length <= WIDE_COLUMNS);
    const grid = el('div', { className: `rp-grid${single ? ' is-single' : ''}` });
    for (const t of section.tables) grid.append(this.table(t));
    for (const c of section.charts) grid.append(this.chartFigure(c));
    node.append(grid);
    return node;
  }

  private cell(c: ReportCell, header: boolean, numeric: boolean): HTMLElement {
    const node = el(header ? 'th' : 'td', { attrs: header ? { scope: 'row' } : {} });
    if (numeric) node.classList.add('num');
    if (c.tone) node.classList.add(`tone-${c.tone}`);
    if (c.link) {
      const a = el('a', {
        className: 'rp-step',
        text: c.text,
        attrs: { href: '#', 'data-link': c.link, 'aria-label': c.label ?? c.text, title: c.label ?? c.text },
      });
      a.addEventListener('click', (e) => {
        e.preventDefault();
        this.post({ type: 'openLink', link: c.link as string });
      });
      node.append(a);
    } else if (c.label && c.label !== c.text) {
      node.append(el('span', { text: c.text, attrs: { 'aria-hidden': 'true' }, title: c.label }), el('span', { className: 'sr-only', text: c.label }));
    } else node.textContent = c.text;
    return node;
  }

  private table(t: ReportTable): HTMLElement {
    const table = el('table', { className: 'rp-table', attrs: { id: t.id } });
    table.append(el('caption', { text: t.caption }));
    table.append(
      el('thead', {
        children: [el('tr', { children: t.head.map((h, i) => el('th', { text: h, className: t.numeric[i] ? 'num' : '', attrs: { scope: 'col' } })) })],
      }),
    );
    const body = el('tbody');
    for (const row of t.rows) {
      body.append(el('tr', { children: row.map((c, i) => this.cell(c, t.rowHeaders && i === 0, t.numeric[i])) }));
    }
    table.append(body);
    const wrap = el('div', {
      className: `rp-table-wrap${t.rows.length > SCROLL_ROWS ? ' is-scroll' : ''}${t.head.length > WIDE_COLUMNS ? ' is-wide' : ''}`,
      attrs: t.rows.length > SCROLL_ROWS ? { tabindex: 0, role: 'region', 'aria-label': t.caption } : {},
    });
    wrap.append(table);
    if (t.note) wrap.append(el('p', { className: 'rp-note muted', text: t.note }));
    return wrap;
  }

  private chartFigure(spec: ChartSpec): HTMLElement {
    const canvas = el('canvas', {
      attrs: {
        role: 'img',
        'aria-label': `${spec.title}. ${spec.description} The numbers are in the table “${this.captionOf(spec.tableId)}”.`,
        'aria-describedby': spec.tableId,
        'data-chart': spec.id,
      },
    });
    canvas.textContent = spec.description;
    const box = el('div', { className: 'rp-canvas-box', children: [canvas] });
    // CSSOM, not a style attribute: allowed by the page's CSP.
    box.style.height = `${chartHeight(spec)}px`;
    return el('figure', {
      className: `rp-chart${spec.type === 'heatmap' ? ' is-heatmap' : ''}`,
      attrs: { 'data-chart-id': spec.id },
      children: [el('figcaption', { text: spec.title }), box],
    });
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
        canvas
          .closest('figure')
          ?.append(el('p', { className: 'rp-note is-error', text: `The chart could not be drawn (${message}); the table has the numbers.` }));
      }
    }
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
