// The typed message protocol between the score report panel's host (src/extension/report) and
// its webview (webview/src/report). Types only, plus a few constants: it bundles into both sides
// without pulling Node or VS Code in.
//
// The host builds the whole view model (tables with display text and numbers, chart specs
// with their data); the webview only draws it. Links never carry file paths: a cell names a
// link id, the webview posts that id back, and the host looks the target up.

/** The scored run kinds, and 'corpus-stats': the statistics of a folder of trajectories (no score). */
export type ReportRunKind = 'audit' | 'deepsearchqa' | 'nuggets' | 'scenarios' | 'delegation' | 'resume' | 'corpus-stats';
export type ExportFormat = 'md' | 'json' | 'csv';

export interface ReportCell {
  /** What the cell shows. */
  text: string;
  /** The number behind the text (for sorting and tests); null/absent for text cells. */
  value?: number | null;
  /** A link id: activating the cell asks the host to follow it (e.g. reveal a trajectory step). */
  link?: string;
  /** Accessible name of the link or of a symbol-only cell ("yes", "no"). */
  label?: string;
  /** Visual tone of a symbol cell. */
  tone?: 'good' | 'bad' | 'muted';
}

export interface ReportTable {
  /** Unique in the model; charts name the table that carries their data (aria-describedby). */
  id: string;
  caption: string;
  head: string[];
  /** Right-align these columns (numbers). */
  numeric: boolean[];
  rows: ReportCell[][];
  /** The first column names the row (rendered as <th scope="row">). */
  rowHeaders: boolean;
  note?: string;
}

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  /** 95% interval per value, drawn as whiskers. */
  intervals?: ([number, number] | null)[];
  /** Index into the theme's chart palette (blue, orange, green, purple, red, yellow). */
  color: number;
}

/** A horizontal or vertical reference line, e.g. a gate threshold or the start of the final third. */
export interface ReferenceLine {
  /** On the value axis for bars; on the category axis (as a fractional index) for histograms. */
  at: number;
  axis: 'value' | 'category';
  label: string;
}

export interface BarChartSpec {
  id: string;
  type: 'bar';
  title: string;
  /** Short text alternative: what the chart shows (the table has the numbers). */
  description: string;
  /** The table with the same numbers. */
  tableId: string;
  labels: string[];
  /** Full names for tooltips when the labels are abbreviated. */
  longLabels?: string[];
  series: ChartSeries[];
  horizontal?: boolean;
  /** Value axis: fractions shown as percentages (0..1), or plain numbers. */
  percent?: boolean;
  min?: number;
  max?: number;
  valueTitle?: string;
  categoryTitle?: string;
  references?: ReferenceLine[];
  /** Integer counts (histograms): whole-number ticks. */
  counts?: boolean;
}

export interface HeatmapSpec {
  id: string;
  type: 'heatmap';
  title: string;
  description: string;
  tableId: string;
  xLabels: string[];
  yLabels: string[];
  xLongLabels?: string[];
  yLongLabels?: string[];
  xTitle: string;
  yTitle: string;
  /** values[y][x] */
  values: number[][];
  /** Cells on the diagonal (x index = y index) are the correct ones: outlined. */
  diagonal?: boolean;
}

export type ChartSpec = BarChartSpec | HeatmapSpec;

export interface ReportSection {
  id: string;
  title: string;
  /** Key numbers shown as large figures above the tables. */
  figures?: { label: string; text: string; value: number | null; hint?: string }[];
  tables: ReportTable[];
  charts: ChartSpec[];
}

export interface ReportModel {
  title: string;
  /** The page's heading; default "Score report". */
  heading?: string;
  /** The button that computes the report again; default Rescore (score the folder again). */
  recompute?: { label: string; title: string };
  folder: string;
  /** The folder relative to the workspace, for display. */
  folderLabel: string;
  kind: ReportRunKind;
  /** Why this kind ("no manifest; found gold.jsonl and predictions.jsonl"). */
  reason: string;
  /** How verdicts were obtained (cache hits, judge calls). */
  judging: string;
  /** Model or deterministic judging, said plainly. */
  judgeMode: { model: boolean; text: string };
  notes: string[];
  sections: ReportSection[];
  /** The export formats offered and what the CSV holds. */
  exports: { format: ExportFormat; label: string; title: string }[];
  createdAt: string;
}

/** Webview → host. */
export type ReportFromWebview =
  | { type: 'ready' }
  | { type: 'openLink'; link: string }
  | { type: 'export'; format: ExportFormat }
  | { type: 'rescore' }
  /** Sent once the model is drawn: what the page shows (tests, diagnostics). */
  | { type: 'rendered'; charts: number; tables: number; links: number; figures: Record<string, string>; chartErrors: string[] }
  /** A Content-Security-Policy violation seen by the page (there should be none). */
  | { type: 'cspViolation'; directive: string; blocked: string; sample: string }
  | { type: 'log'; level: 'info' | 'error'; message: string };

/** Host → webview. */
export type ReportToWebview = { type: 'init'; model: ReportModel } | { type: 'status'; text: string; kind: 'info' | 'error' };
