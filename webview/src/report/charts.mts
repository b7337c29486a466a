// Chart.js charts of the score report (an ES module, so chart.js's ESM types and tree-shaking apply;
// reportApp.ts loads it with import()): bars (with 95% whiskers and reference lines) and a heat map,
// coloured from the theme. Only the pieces used are registered (tree-shaken bundle). Chart.js draws
// on canvas and sizes the canvas through element.style (CSSOM), which the webview's CSP allows;
// it injects no <style> elements, so no 'unsafe-inline' is needed.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  PointElement,
  ScatterController,
  Tooltip,
  type ChartConfiguration,
  type ChartType,
  type Plugin,
  type Scale,
  type TooltipItem,
} from 'chart.js';
import type { BarChartSpec, ChartSpec, HeatmapSpec, ReferenceLine } from '../../../src/shared/reportProtocol.js';
import { luminance, parseColor, solid, withAlpha, type ChartTheme } from './theme.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, PointElement, ScatterController, Tooltip, Legend);

type Interval = [number, number] | null;

interface ErrorBarOptions {
  intervals: (Interval[] | undefined)[];
  color: string;
}
interface ReferenceOptions {
  lines: ReferenceLine[];
  color: string;
  background: string;
  horizontal: boolean;
}
interface HeatmapOptions {
  spec: HeatmapSpec;
  theme: ChartTheme;
}

declare module 'chart.js' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface PluginOptionsByType<TType extends ChartType> {
    rpErrorBars?: ErrorBarOptions | false;
    rpReferences?: ReferenceOptions | false;
    rpHeatmap?: HeatmapOptions | false;
  }
}

export const pct = (x: number | null | undefined): string => (x === null || x === undefined || !Number.isFinite(x) ? '—' : `${(100 * x).toFixed(2)}%`);

function formatValue(spec: BarChartSpec, v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  if (spec.percent) return pct(v);
  if (spec.counts) return String(Math.round(v));
  return v.toFixed(2);
}

// ---------- plugins ----------

/** 95% whiskers over bars: per dataset, one [lo, hi] (or null) per bar. */
const errorBars: Plugin<'bar'> = {
  id: 'rpErrorBars',
  afterDatasetsDraw(chart, _args, opts) {
    const options = opts as unknown as ErrorBarOptions | false;
    if (!options || !options.intervals) return;
    const { ctx } = chart;
    const horizontal = chart.options.indexAxis === 'y';
    const area = chart.chartArea;
    ctx.save();
    // Whiskers beyond the axis (a normal interval can pass 100%) are cut at the chart area and
    // lose their cap there, which shows that they go on.
    ctx.beginPath();
    ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
    ctx.clip();
    ctx.strokeStyle = options.color;
    ctx.lineWidth = 1.5;
    options.intervals.forEach((intervals, di) => {
      const meta = chart.getDatasetMeta(di);
      if (!intervals || meta.hidden || !chart.isDatasetVisible(di)) return;
      const scale = meta.vScale as Scale | undefined;
      if (!scale) return;
      meta.data.forEach((bar, i) => {
        const iv = intervals[i];
        if (!iv) return;
        const lo = scale.getPixelForValue(iv[0]);
        const hi = scale.getPixelForValue(iv[1]);
        const props = bar.getProps(['x', 'y', 'width', 'height'], true) as { x: number; y: number; width: number; height: number };
        const cap = Math.max(3, Math.min(8, (horizontal ? props.height : props.width) / 4));
        ctx.beginPath();
        if (horizontal) {
          ctx.moveTo(lo, props.y);
          ctx.lineTo(hi, props.y);
          ctx.moveTo(lo, props.y - cap);
          ctx.lineTo(lo, props.y + cap);
          ctx.moveTo(hi, props.y - cap);
          ctx.lineTo(hi, props.y + cap);
        } else {
          ctx.moveTo(props.x, lo);
          ctx.lineTo(props.x, hi);
          ctx.moveTo(props.x - cap, lo);
          ctx.lineTo(props.x + cap, lo);
          ctx.moveTo(props.x - cap, hi);
          ctx.lineTo(props.x + cap, hi);
        }
        ctx.stroke();
      });
    });
    ctx.restore();
  },
};

/** Dashed reference lines: on the value axis (gates, means) or between categories (final third). */
const referenceLines: Plugin<'bar'> = {
  id: 'rpReferences',
  afterDatasetsDraw(chart, _args, opts) {
    const options = opts as unknown as ReferenceOptions | false;
    if (!options || !options.lines?.length) return;
    const { ctx, chartArea: area } = chart;
    const valueScale = (options.horizontal ? chart.scales.x : chart.scales.y) as Scale;
    const categoryScale = (options.horizontal ? chart.scales.y : chart.scales.x) as Scale;
    ctx.save();
    ctx.strokeStyle = options.color;
    ctx.fillStyle = options.color;
    ctx.lineWidth = 1;
    ctx.setLineDash([5, 4]);
    ctx.font = `11px ${Chart.defaults.font.family ?? 'sans-serif'}`;
    const label = (text: string, x: number, y: number, below: boolean) => {
      const width = ctx.measureText(text).width;
      const top = below ? y + 2 : y - 15;
      ctx.save();
      ctx.setLineDash([]);
      ctx.fillStyle = options.background;
      ctx.fillRect(x - 2, top, width + 4, 14);
      ctx.restore();
      ctx.textBaseline = 'top';
      ctx.fillText(text, x, top + 1);
    };
    options.lines.forEach((line, index) => {
      let pixel: number;
      if (line.axis === 'value') pixel = valueScale.getPixelForValue(line.at);
      else {
        const n = (categoryScale as Scale & { getLabels(): string[] }).getLabels().length;
        const i = Math.max(0, Math.min(n - 1, Math.floor(line.at)));
        const here = categoryScale.getPixelForValue(i);
        const next = i + 1 < n ? categoryScale.getPixelForValue(i + 1) : here + (here - categoryScale.getPixelForValue(Math.max(0, i - 1)));
        pixel = here + (line.at - i) * (next - here);
      }
      if (!Number.isFinite(pixel)) return;
      const vertical = (line.axis === 'value') === options.horizontal;
      ctx.beginPath();
      if (vertical) {
        ctx.moveTo(pixel, area.top);
        ctx.lineTo(pixel, area.bottom);
      } else {
        ctx.moveTo(area.left, pixel);
        ctx.lineTo(area.right, pixel);
      }
      ctx.stroke();
      const width = ctx.measureText(line.label).width;
      if (vertical) label(line.label, pixel + 4 + width > area.right ? pixel - 6 - width : pixel + 4, area.top + 16, false);
      // Neighbouring horizontal lines: labels alternate above and below their line.
      else label(line.label, area.right - width - 4, pixel, index % 2 === 1);
    });
    ctx.restore();
  },
};

/** Heat-map cells under invisible scatter points (which carry the tooltips). */
const heatmapCells: Plugin<'scatter'> = {
  id: 'rpHeatmap',
  beforeDatasetsDraw(chart, _args, opts) {
    const options = opts as unknown as HeatmapOptions | false;
    if (!options) return;
    const { spec, theme } = options;
    const { ctx } = chart;
    const x = chart.scales.x as Scale;
    const y = chart.scales.y as Scale;
    const w = (x.right - x.left) / spec.xLabels.length;
    const h = (y.bottom - y.top) / spec.yLabels.length;
    const max = Math.max(1, ...spec.values.flat());
    const base = solid(theme.palette[0]);
    const bg = parseColor(theme.background) ?? [255, 255, 255, 1];
    const baseRgb = parseColor(base) ?? [55, 148, 255, 1];
    ctx.save();
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.font = `${theme.fontSize + 1}px ${theme.font}`;
    spec.values.forEach((row, yi) => {
      row.forEach((v, xi) => {
        const cx = x.getPixelForValue(xi);
        const cy = y.getPixelForValue(yi);
        const alpha = v === 0 ? 0.06 : 0.2 + 0.8 * (v / max);
        const left = cx - w / 2 + 1;
        const top = cy - h / 2 + 1;
        ctx.fillStyle = withAlpha(base, alpha);
        ctx.fillRect(left, top, w - 2, h - 2);
        if (spec.diagonal && xi === yi) {
          ctx.strokeStyle = theme.foreground;
          ctx.lineWidth = 1.5;
          ctx.setLineDash([3, 2]);
          ctx.strokeRect(left + 0.75, top + 0.75, w - 3.5, h - 3.5);
          ctx.setLineDash([]);
        }
        // Text colour with the better contrast against the blended cell colour.
        const mix = baseRgb.slice(0, 3).map((c, i) => c * alpha + bg[i] * (1 - alpha)) as number[];
        const cellLum = luminance([mix[0], mix[1], mix[2], 1]);
        const fg = parseColor(theme.foreground) ?? [0, 0, 0, 1];
        const fgLum = luminance(fg);
        const bgLum = luminance(bg);
        const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        ctx.fillStyle = contrast(cellLum, fgLum) >= contrast(cellLum, bgLum) ? theme.foreground : theme.background;
        if (v === 0) ctx.fillStyle = theme.muted;
        ctx.fillText(String(v), cx, cy);
      });
    });
    ctx.restore();
  },
};

// ---------- configurations ----------

function axisCommon(theme: ChartTheme, title?: string) {
  return {
    ticks: { color: theme.foreground, font: { family: theme.font, size: theme.fontSize } },
    grid: { color: theme.grid },
    border: { color: theme.grid },
    title: { display: Boolean(title), text: title ?? '', color: theme.muted, font: { family: theme.font, size: theme.fontSize } },
  };
}

function tooltipCommon(theme: ChartTheme) {
  return {
    backgroundColor: theme.hoverBackground,
    titleColor: theme.hoverForeground,
    bodyColor: theme.hoverForeground,
    borderColor: theme.hoverBorder,
    borderWidth: 1,
    titleFont: { family: theme.font, size: theme.fontSize, weight: 'bold' as const },
    bodyFont: { family: theme.font, size: theme.fontSize },
    displayColors: true,
  };
}

function barConfig(spec: BarChartSpec, theme: ChartTheme): ChartConfiguration<'bar'> {
  const hc = theme.kind.startsWith('hc');
  const valueAxis = spec.horizontal ? 'x' : 'y';
  const categoryAxis = spec.horizontal ? 'y' : 'x';
  const valueScale = {
    ...axisCommon(theme, spec.valueTitle),
    type: 'linear' as const,
    min: spec.min,
    max: spec.max,
    beginAtZero: true,
  };
  // Leave room for the whiskers on open-ended axes (fixed axes clip them instead).
  const ends = spec.series.flatMap((s) => (s.intervals ?? []).flatMap((iv) => (iv ? iv : [])));
  if (ends.length && spec.max === undefined) Object.assign(valueScale, { suggestedMax: Math.max(...ends) });
  if (ends.length && spec.min === undefined) Object.assign(valueScale, { suggestedMin: Math.min(0, ...ends) });
  valueScale.ticks = {
    ...valueScale.ticks,
    ...(spec.percent ? { callback: (v: string | number) => `${Math.round(Number(v) * 100)}%` } : {}),
    ...(spec.counts ? { precision: 0 } : {}),
  } as typeof valueScale.ticks;
  const categoryScale = { ...axisCommon(theme, spec.categoryTitle), type: 'category' as const, grid: { display: false } };
  return {
    type: 'bar',
    data: {
      labels: spec.labels,
      datasets: spec.series.map((s) => {
        // Some themes give the chart colours an alpha of their own: use them opaque.
        const color = solid(theme.palette[s.color % theme.palette.length]);
        return {
          label: s.label,
          data: s.values,
          backgroundColor: hc ? color : solid(color, 0.82),
          hoverBackgroundColor: color,
          borderColor: hc ? theme.foreground : color,
          borderWidth: 1,
          borderRadius: 2,
          maxBarThickness: 48,
        };
      }),
    },
    options: {
      indexAxis: spec.horizontal ? 'y' : 'x',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: { [valueAxis]: valueScale, [categoryAxis]: categoryScale },
      plugins: {
        legend: { display: spec.series.length > 1, labels: { color: theme.foreground, font: { family: theme.font, size: theme.fontSize }, boxWidth: 14 } },
        tooltip: {
          ...tooltipCommon(theme),
          callbacks: {
            title: (items: TooltipItem<'bar'>[]) => (items[0] ? (spec.longLabels?.[items[0].dataIndex] ?? spec.labels[items[0].dataIndex]) : ''),
            label: (item: TooltipItem<'bar'>) => `${item.dataset.label}: ${formatValue(spec, item.raw as number | null)}`,
            afterLabel: (item: TooltipItem<'bar'>) => {
              const iv = spec.series[item.datasetIndex]?.intervals?.[item.dataIndex];
              return iv ? `95% interval: [${formatValue(spec, iv[0])}, ${formatValue(spec, iv[1])}]` : '';
            },
          },
        },
        rpErrorBars: spec.series.some((s) => s.intervals) ? { intervals: spec.series.map((s) => s.intervals), color: theme.foreground } : false,
        rpReferences: spec.references?.length
          ? { lines: spec.references, color: theme.muted, background: solid(theme.background, 0.85), horizontal: Boolean(spec.horizontal) }
          : false,
      },
    },
    plugins: [errorBars, referenceLines],
  };
}

function heatmapConfig(spec: HeatmapSpec, theme: ChartTheme): ChartConfiguration<'scatter'> {
  const points = spec.values.flatMap((row, yi) => row.map((v, xi) => ({ x: xi, y: yi, v })));
  const cellHalf = (chart: Chart) => {
    const a = chart.chartArea;
    return a ? Math.min((a.right - a.left) / spec.xLabels.length, (a.bottom - a.top) / spec.yLabels.length) / 2 : 10;
  };
  const category = (labels: string[], title: string, reverse: boolean) => ({
    ...axisCommon(theme, title),
    type: 'linear' as const,
    min: -0.5,
    max: labels.length - 0.5,
    reverse,
    grid: { display: false },
    // One tick per cell centre (a linear axis from -0.5 would put them between cells).
    afterBuildTicks: (scale: Scale) => {
      scale.ticks = labels.map((_, i) => ({ value: i }));
    },
    ticks: {
      color: theme.foreground,
      font: { family: theme.font, size: theme.fontSize },
      stepSize: 1,
      autoSkip: false,
      callback: (v: string | number) => (Number.isInteger(Number(v)) ? (labels[Number(v)] ?? '') : ''),
    },
  });
  return {
    type: 'scatter',
    data: {
      datasets: [
        {
          label: 'cases',
          data: points,
          pointRadius: 0,
          pointHoverRadius: 0,
          pointHitRadius: (ctx) => cellHalf(ctx.chart),
          backgroundColor: theme.palette[0],
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'nearest', intersect: true },
      scales: {
        x: { ...category(spec.xLabels, spec.xTitle, false), position: 'top' },
        y: category(spec.yLabels, spec.yTitle, true),
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          ...tooltipCommon(theme),
          displayColors: false,
          callbacks: {
            title: (items: TooltipItem<'scatter'>[]) => {
              const p = items[0]?.raw as { x: number; y: number } | undefined;
              if (!p) return '';
              return `${spec.yTitle}: ${spec.yLongLabels?.[p.y] ?? spec.yLabels[p.y]}\n${spec.xTitle}: ${spec.xLongLabels?.[p.x] ?? spec.xLabels[p.x]}`;
            },
            label: (item: TooltipItem<'scatter'>) => {
              const v = (item.raw as { v: number }).v;
              return `${v} case${v === 1 ? '' : 's'}`;
            },
          },
        },
        rpHeatmap: { spec, theme },
      },
    },
    plugins: [heatmapCells],
  };
}

/** Sets the global Chart.js defaults from the theme (fonts and text colour). */
export function applyChartDefaults(theme: ChartTheme): void {
  Chart.defaults.font.family = theme.font;
  Chart.defaults.font.size = theme.fontSize;
  Chart.defaults.color = theme.foreground;
  Chart.defaults.borderColor = theme.grid;
}

export type ChartHandle = Chart;

export function createChart(canvas: HTMLCanvasElement, spec: ChartSpec, theme: ChartTheme): Chart {
  applyChartDefaults(theme);
  return spec.type === 'heatmap'
    ? new Chart(canvas, heatmapConfig(spec, theme) as ChartConfiguration)
    : new Chart(canvas, barConfig(spec, theme) as unknown as ChartConfiguration);
}
