// The corpus-statistics report (issue 16 item 3): the statistics of `trajaudit stats` (corpusStats.ts)
// as a report model, shown by the same report page as a score (src/shared/reportProtocol.ts) —
// counts per model, dataset and format; the distribution of the five per-trajectory counts; the
// critical-position histogram with the final-third share; tolerance-span lengths; rubrics per
// repair; root causes (seed 002 Appendix C, Tables 5–7) — and its Markdown and CSV exports.
// Pure: the extension's "Show Corpus Statistics" command builds it from the collection's rows.
import { ROOT_CAUSE_LABELS, normalizeRootCause } from '../model/rootCauses';
import { criticalPosition } from '../stats/statistics';
import { csvText } from '../scoring/report/reportExports';
import { histogram, num, pct } from '../scoring/report/reportModel';
import type { ChartSpec, ExportFormat, ReportCell, ReportModel, ReportSection, ReportTable } from '../../shared/reportProtocol';
import { corpusStatsOfRows, distribution, FINAL_THIRD, GROUP_KEYS, type CorpusStats, type Distribution, type GroupKey, type StatsReport } from './corpusStats';
import type { Unreadable } from './collect';
import type { CollectionRow } from './rows';

export interface CorpusStatsInput {
  rows: readonly CollectionRow[];
  unreadable: readonly Unreadable[];
  /** Number of rubrics of each annotated repair (a sidecar annotation with a repair directive or rubrics). */
  rubricsPerRepair?: readonly number[];
}

export interface CorpusStatsContext {
  folder: string;
  folderLabel: string;
  createdAt?: string;
}

/** The statistics behind the report: `stats --json` overall and `--by` each of model, dataset, format. */
export interface CorpusStatsData {
  overall: StatsReport;
  groups: Record<GroupKey, Record<string, CorpusStats>>;
  /** Critical positions (0 = first message, 1 = last) of the rows whose reference label has a critical step. */
  positions: number[];
  /** Tolerance-span lengths (messages from start through end) of the labelled rows with a span. */
  spanLengths: number[];
  rubricsPerRepair: number[];
}

export const POSITION_BINS = 10;

const QUANTITIES: [string, keyof CorpusStats][] = [
  ['messages', 'messages'],
  ['decision steps', 'decision_steps'],
  ['tool calls', 'tool_calls'],
  ['atomic operations', 'atomic_ops'],
  ['tokens (o200k_base)', 'tokens'],
];

const text = (t: string): ReportCell => ({ text: t });
const count = (n: number): ReportCell => ({ text: String(n), value: n });
const fraction = (x: number | null | undefined): ReportCell => ({ text: pct(x), value: x ?? null });
/** Whole numbers as they are, others with one decimal (as `trajaudit stats` prints them). */
const amount = (x: number | null | undefined): ReportCell => ({
  text: x === null || x === undefined ? '—' : Number.isInteger(x) ? String(x) : num(x, 1),
  value: x ?? null,
});

function table(id: string, caption: string, head: string[], rows: ReportCell[][], numeric: boolean[], note?: string): ReportTable {
  return { id, caption, head, numeric, rows, rowHeaders: true, ...(note ? { note } : {}) };
}

const distributionCells = (d: Distribution): ReportCell[] => [amount(d.mean), amount(d.p50), amount(d.p90), amount(d.max)];

const rootCauseLabel = (id: string): string => {
  const known = normalizeRootCause(id);
  return known ? ROOT_CAUSE_LABELS[known] : id;
};

export function corpusStatsData(input: CorpusStatsInput): CorpusStatsData {
  const overall = corpusStatsOfRows(input.rows, input.unreadable);
  const groups = Object.fromEntries(GROUP_KEYS.map((key) => [key, corpusStatsOfRows(input.rows, [], { by: key }).groups ?? {}])) as CorpusStatsData['groups'];
  // The same reference label and position as corpusStats: the row's human label (annotation, else gold).
  const positions = input.rows
    .map((r) => (r.human?.criticalStep == null ? null : criticalPosition(r.human.criticalStep, r.messages)))
    .filter((p): p is number => p !== null);
  const spanLengths = input.rows.flatMap((r) => (r.human?.toleranceSpan ? [r.human.toleranceSpan[1] - r.human.toleranceSpan[0] + 1] : []));
  return { overall, groups, positions, spanLengths, rubricsPerRepair: [...(input.rubricsPerRepair ?? [])] };
}

const GROUP_TITLES: Record<GroupKey, string> = { model: 'model', dataset: 'dataset', format: 'format' };

function groupSection(key: GroupKey, groups: Record<string, CorpusStats>): ReportSection {
  const values = Object.keys(groups);
  const id = `stats-by-${key}`;
  const rows = values.map((v) => {
    const g = groups[v];
    return [
      text(v),
      count(g.trajectories),
      count(g.annotated ?? 0),
      amount(g.messages.mean),
      amount(g.tokens.mean),
      fraction(g.critical_position?.final_third),
    ];
  });
  const charts: ChartSpec[] = [
    {
      id: `chart-by-${key}`,
      type: 'bar',
      title: `Trajectories per ${GROUP_TITLES[key]}`,
      tableId: id,
      description: `Bars: the number of trajectories of each ${GROUP_TITLES[key]} (${values.length} in all).`,
      labels: values,
      series: [{ label: 'trajectories', values: values.map((v) => groups[v].trajectories), color: 0 }],
      horizontal: true,
      counts: true,
      min: 0,
      valueTitle: 'trajectories',
    },
  ];
  return {
    id: `by-${key}`,
    title: `Per ${GROUP_TITLES[key]} (${values.length})`,
    tables: [
      table(
        id,
        `Trajectories per ${GROUP_TITLES[key]}, with mean counts`,
        [GROUP_TITLES[key], 'trajectories', 'annotated', 'messages', 'tokens', 'final third'],
        rows,
        [false, true, true, true, true, true],
        `${key === 'format' ? '' : `(none): the trajectory's source names no ${GROUP_TITLES[key]}. `}Messages and tokens are means per trajectory.`,
      ),
    ],
    charts,
  };
}

function positionSection(data: CorpusStatsData): ReportSection | undefined {
  const cp = data.overall.critical_position;
  if (!cp) return undefined;
  const labels = Array.from({ length: POSITION_BINS }, (_, i) => `${(i / POSITION_BINS).toFixed(1)}–${((i + 1) / POSITION_BINS).toFixed(1)}`);
  const bins = histogram(data.positions, POSITION_BINS);
  return {
    id: 'positions',
    title: 'Critical positions',
    figures: [
      { label: 'In the final third', text: pct(cp.final_third), value: cp.final_third, hint: `of ${data.positions.length} critical steps (position ≥ 2/3)` },
      { label: 'Median position', text: num(cp.p50, 3), value: cp.p50, hint: '0 = first message, 1 = last' },
    ],
    tables: [
      table(
        'stats-position-histogram',
        'Critical positions per bin (trajectories; the last bin includes 1)',
        ['position', 'critical steps'],
        labels.map((l, i) => [text(l), count(bins[i])]),
        [false, true],
        `Mean ${num(cp.mean, 3)}, median ${num(cp.p50, 3)}; ${pct(cp.final_third)} in the final third (from ${num(FINAL_THIRD, 3)}).`,
      ),
    ],
    charts: [
      {
        id: 'chart-stats-positions',
        type: 'bar',
        title: 'Critical-position histogram',
        tableId: 'stats-position-histogram',
        description: `Histogram of the critical positions of ${data.positions.length} annotated trajectories in ten bins from 0 (first message) to 1 (last); a line marks the start of the final third, which holds ${pct(cp.final_third)}.`,
        labels,
        series: [{ label: 'critical steps', values: bins, color: 0 }],
        counts: true,
        min: 0,
        valueTitle: 'trajectories',
        categoryTitle: 'critical position',
        references: [{ at: FINAL_THIRD * POSITION_BINS - 0.5, axis: 'category', label: 'final third' }],
      },
    ],
  };
}

/** A distribution table and a histogram of whole-number values (one bar per value from the least to the greatest). */
function integerSection(id: string, title: string, quantity: string, unit: string, values: readonly number[]): ReportSection {
  const d = distribution(values);
  const lo = values.length ? Math.min(...values) : 0;
  const hi = values.length ? Math.max(...values) : 0;
  const labels = Array.from({ length: hi - lo + 1 }, (_, i) => String(lo + i));
  const counts = labels.map((l) => values.filter((v) => v === Number(l)).length);
  return {
    id,
    title,
    tables: [
      table(
        `stats-${id}`,
        `${quantity}: distribution over ${values.length} ${unit}`,
        ['', 'n', 'mean', 'p50', 'p90', 'max'],
        [[text(quantity), count(values.length), ...distributionCells(d)]],
        [false, true, true, true, true, true],
      ),
      table(
        `stats-${id}-counts`,
        `${quantity}: ${unit} per value`,
        [quantity, unit],
        labels.map((l, i) => [text(l), count(counts[i])]),
        [false, true],
      ),
    ],
    charts: values.length
      ? [
          {
            id: `chart-stats-${id}`,
            type: 'bar',
            title: `${quantity} histogram`,
            tableId: `stats-${id}-counts`,
            description: `Bars: how many ${unit} have each ${quantity.toLowerCase()} from ${lo} to ${hi}.`,
            labels,
            series: [{ label: unit, values: counts, color: 2 }],
            counts: true,
            min: 0,
            valueTitle: unit,
            categoryTitle: quantity.toLowerCase(),
          },
        ]
      : [],
  };
}

function rootCauseSection(stats: StatsReport): ReportSection | undefined {
  const causes = stats.root_causes;
  if (!causes) return undefined;
  const ids = Object.keys(causes).sort((a, b) => causes[b] - causes[a] || a.localeCompare(b));
  const total = ids.reduce((sum, id) => sum + causes[id], 0);
  return {
    id: 'root-causes',
    title: 'Root causes',
    tables: [
      table(
        'stats-root-causes',
        `Root causes of ${total} labelled trajectories`,
        ['root cause', 'trajectories', 'share'],
        ids.map((id) => [text(rootCauseLabel(id)), count(causes[id]), fraction(total ? causes[id] / total : null)]),
        [false, true, true],
      ),
    ],
    charts: ids.length
      ? [
          {
            id: 'chart-stats-root-causes',
            type: 'bar',
            title: 'Root-cause distribution',
            tableId: 'stats-root-causes',
            description: `Horizontal bars: the share of the ${total} labelled trajectories with each root cause.`,
            labels: ids.map(rootCauseLabel),
            series: [{ label: 'share', values: ids.map((id) => causes[id] / total), color: 1 }],
            horizontal: true,
            percent: true,
            min: 0,
            max: 1,
            valueTitle: 'share of labelled trajectories',
          },
        ]
      : [],
  };
}

export function corpusStatsSections(data: CorpusStatsData): ReportSection[] {
  const s = data.overall;
  const summary: ReportSection = {
    id: 'summary',
    title: `Corpus (${s.trajectories} trajectories)`,
    figures: [
      { label: 'Trajectories', text: String(s.trajectories), value: s.trajectories },
      { label: 'Annotated', text: String(s.annotated ?? 0), value: s.annotated ?? 0, hint: 'a human label in the sidecar or gold in the file' },
      {
        label: 'Final third',
        text: pct(s.critical_position?.final_third),
        value: s.critical_position?.final_third ?? null,
        hint: 'critical steps at position ≥ 2/3',
      },
      { label: 'Unreadable', text: String(s.unreadable.length), value: s.unreadable.length, hint: 'files or records that could not be read' },
    ],
    tables: [
      table(
        'stats-distribution',
        'Per trajectory: mean, P50, P90 and max (percentiles interpolated linearly, as numpy)',
        ['', 'mean', 'p50', 'p90', 'max'],
        QUANTITIES.map(([label, key]) => [text(label), ...distributionCells(s[key] as Distribution)]),
        [false, true, true, true, true],
      ),
    ],
    charts: [],
  };
  const sections: ReportSection[] = [summary, ...GROUP_KEYS.map((key) => groupSection(key, data.groups[key]))];
  const positions = positionSection(data);
  if (positions) sections.push(positions);
  if (data.spanLengths.length) sections.push(integerSection('span-lengths', 'Tolerance-span lengths', 'Span length', 'spans', data.spanLengths));
  if (data.rubricsPerRepair.length) sections.push(integerSection('rubrics', 'Rubrics per repair', 'Rubrics', 'repairs', data.rubricsPerRepair));
  const causes = rootCauseSection(s);
  if (causes) sections.push(causes);
  if (s.unreadable.length) {
    sections.push({
      id: 'unreadable',
      title: `Unreadable (${s.unreadable.length})`,
      tables: [
        table(
          'stats-unreadable',
          'Files or records that could not be read (the rest is counted)',
          ['file', 'problem'],
          s.unreadable.map((u) => [text(u.file), text(u.message)]),
          [false, false],
        ),
      ],
      charts: [],
    });
  }
  return sections;
}

export const CORPUS_STATS_EXPORTS: ReportModel['exports'] = [
  { format: 'md', label: 'Markdown', title: 'Save every table as Markdown' },
  { format: 'csv', label: 'CSV', title: 'Save a CSV: one row per table cell (table, row, column, value)' },
  { format: 'json', label: 'JSON', title: 'Save the trajaudit stats --json document' },
];

export function buildCorpusStatsModel(data: CorpusStatsData, context: CorpusStatsContext): ReportModel {
  const s = data.overall;
  return {
    title: `Corpus statistics: ${context.folderLabel}`,
    heading: 'Corpus statistics',
    recompute: { label: 'Recompute', title: 'Read the folder again and recompute the statistics' },
    folder: context.folder,
    folderLabel: context.folderLabel,
    kind: 'corpus-stats',
    reason: `${s.trajectories} trajectory records read, ${s.unreadable.length} unreadable`,
    judging: 'counted from the trajectories and their sidecars',
    judgeMode: { model: false, text: 'no model calls' },
    notes: [],
    sections: corpusStatsSections(data),
    exports: CORPUS_STATS_EXPORTS,
    createdAt: context.createdAt ?? new Date().toISOString(),
  };
}

// ---------- exports ----------

/** Table cell text made inert in Markdown: pipes and backslashes escaped, HTML and line breaks neutralized. */
function markdownCell(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;')
    .replace(/[\r\n]+/g, ' ');
}

/** Every section and table of a report model as GitHub-flavoured Markdown. */
export function reportModelMarkdown(model: ReportModel): string {
  const lines = [`# ${markdownCell(model.title)}`, '', `${markdownCell(model.reason)}; created ${model.createdAt}.`];
  for (const note of model.notes) lines.push('', `- ${markdownCell(note)}`);
  for (const section of model.sections) {
    lines.push('', `## ${markdownCell(section.title)}`);
    if (section.figures?.length) {
      lines.push('');
      for (const f of section.figures) lines.push(`- ${markdownCell(f.label)}: ${markdownCell(f.text)}${f.hint ? ` (${markdownCell(f.hint)})` : ''}`);
    }
    for (const t of section.tables) {
      lines.push('', `**${markdownCell(t.caption)}**`, '');
      lines.push(`| ${t.head.map((h) => markdownCell(h) || ' ').join(' | ')} |`);
      lines.push(`| ${t.head.map((_, i) => (t.numeric[i] ? '---:' : '---')).join(' | ')} |`);
      for (const row of t.rows) lines.push(`| ${row.map((c) => markdownCell(c.text)).join(' | ')} |`);
      if (t.note) lines.push('', markdownCell(t.note));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Every table cell of a report model, one CSV row each: the table, the row's name, the column, the number and the text shown. */
export function reportModelCsv(model: ReportModel): string {
  const rows: (string | number | null)[][] = [];
  for (const section of model.sections)
    for (const t of section.tables)
      for (const row of t.rows)
        row.forEach((cell, i) => {
          if (i === 0 && t.rowHeaders) return;
          rows.push([t.id, t.rowHeaders ? row[0].text : '', t.head[i], cell.value ?? null, cell.text]);
        });
  return csvText(['table', 'row', 'column', 'value', 'text'], rows);
}

export function corpusStatsExport(format: ExportFormat, model: ReportModel, data: CorpusStatsData): string {
  switch (format) {
    case 'md':
      return reportModelMarkdown(model);
    case 'csv':
      return reportModelCsv(model);
    case 'json':
      // The `trajaudit stats --json` document of the folder.
      return `${JSON.stringify(data.overall, null, 2)}\n`;
  }
}

export function corpusStatsExportName(format: ExportFormat): string {
  return format === 'md' ? 'corpus-stats.md' : format === 'csv' ? 'corpus-stats.csv' : 'corpus-stats.json';
}
