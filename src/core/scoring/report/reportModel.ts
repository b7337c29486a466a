// The report's view model: tables (display text + the numbers behind them), chart specs with the
// same numbers, and the step links of audit cases. Built on the host from a scored run, so the
// webview only draws. Formatting follows src/core/scoring/render.ts (percentages with 2 decimals).
// Pure: the extension's report panel shows it (unit-tested in test/unit/report/).
import { ROOT_CAUSES, ROOT_CAUSE_LABELS, type RootCause } from '../../model/rootCauses';
import type { AuditCaseRow, AuditScore } from '../audit';
import { CATEGORIES, type DsqaAggregate, type DsqaScore } from '../deepsearchqa';
import type { DelegationGroup, DelegationScore } from '../delegation';
import type { NuggetScore } from '../nuggets';
import { detectionLine, judgingLine } from '../render';
import type { RunScoreResult } from '../scoreRunFolder';
import { A_MEAN_GATE, B_GATE, type ScenarioScore } from '../scenarios';
import type { ResumeScore } from '../../resume/score';
import type { BarChartSpec, ChartSpec, ExportFormat, ReportCell, ReportModel, ReportSection, ReportTable } from '../../../shared/reportProtocol';

/** Where a link cell leads: a trajectory step, opened with trajaudit.revealStep(file, record, position). */
export interface LinkTarget {
  file: string;
  record?: string;
  position: number;
  label: string;
}

export interface ReportContext {
  folderLabel: string;
  judgeMode: { model: boolean; text: string };
  createdAt?: string;
}

export interface BuiltReport {
  model: ReportModel;
  links: Map<string, LinkTarget>;
}

// ---------- formatting (as render.ts) ----------

export const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : `${(100 * x).toFixed(2)}%`);
export const num = (x: number | null | undefined, d = 2): string => (x === null || x === undefined ? '—' : x.toFixed(d));
const ci = (c: [number, number] | null | undefined, f: (x: number) => string) => (c ? `[${f(c[0])}, ${f(c[1])}]` : '—');

const text = (t: string): ReportCell => ({ text: t });
const count = (n: number): ReportCell => ({ text: String(n), value: n });
const fraction = (x: number | null | undefined): ReportCell => ({ text: pct(x), value: x ?? null });
const score = (x: number | null | undefined, d = 2): ReportCell => ({ text: num(x, d), value: x ?? null });
const yesNo = (yes: boolean): ReportCell => ({ text: yes ? '✓' : '✗', label: yes ? 'yes' : 'no', tone: yes ? 'good' : 'bad', value: yes ? 1 : 0 });

function table(
  id: string,
  caption: string,
  head: string[],
  rows: ReportCell[][],
  opts: { rowHeaders?: boolean; note?: string; numeric?: boolean[] } = {},
): ReportTable {
  const numeric = opts.numeric ?? head.map((_, i) => i > 0 && rows.length > 0 && rows.every((r) => r[i] && (r[i].value !== undefined || r[i].text === '—')));
  const t: ReportTable = { id, caption, head, numeric, rows, rowHeaders: opts.rowHeaders ?? true };
  if (opts.note) t.note = opts.note;
  return t;
}

const abbreviation = (c: string) =>
  c
    .split('_')
    .map((w) => w[0])
    .join('')
    .toUpperCase();

/** Histogram over [0, 1] in `bins` equal bins (the last one closed). */
export function histogram(values: readonly number[], bins: number, lo = 0, hi = 1): number[] {
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    const i = Math.min(bins - 1, Math.max(0, Math.floor(((v - lo) / (hi - lo)) * bins)));
    counts[i]++;
  }
  return counts;
}

function binLabels(bins: number, lo: number, hi: number, digits: number): string[] {
  const w = (hi - lo) / bins;
  return Array.from({ length: bins }, (_, i) => `${(lo + i * w).toFixed(digits)}–${(lo + (i + 1) * w).toFixed(digits)}`);
}

// ---------- audit ----------

function auditSections(s: AuditScore, cases: readonly AuditCaseRow[] | undefined, links: Map<string, LinkTarget>): ReportSection[] {
  const m = s.metrics;
  const c = s.counts;
  const summary: ReportSection = {
    id: 'summary',
    title: `Audit scores (N = ${s.n})`,
    figures: [
      { label: 'CS-Strict', text: pct(m.cs_strict), value: m.cs_strict, hint: 'k̂ = k*' },
      { label: 'CS-Loose', text: pct(m.cs_loose), value: m.cs_loose, hint: 'k̂ within the tolerance span' },
      { label: 'RC-Acc', text: pct(m.rc_acc), value: m.rc_acc, hint: 'ĉ = c*' },
      { label: 'RC-F1', text: pct(m.rc_f1), value: m.rc_f1, hint: 'macro over the 6 classes' },
      { label: 'Diag', text: pct(m.diag), value: m.diag, hint: 'sound diagnoses: ĉ = c* and k̂ in span' },
      { label: 'Rep@Diag', text: pct(m.rep_at_diag), value: m.rep_at_diag, hint: 'repairs passing every rubric, of sound diagnoses' },
      { label: 'FPS', text: pct(m.fps), value: m.fps, hint: 'Diag × Rep@Diag' },
    ],
    tables: [
      table(
        'audit-counts',
        'Counts',
        ['', 'value'],
        [
          [text('predictions'), { text: `${c.predicted} of ${s.n} (${c.missing_predictions} missing)`, value: c.predicted }],
          [text('sound diagnoses'), count(c.sound_diagnoses)],
          [text('repairs passing every rubric'), count(c.repairs_passed)],
          [text('ungraded repairs (counted as failing)'), count(c.ungraded_repairs)],
          [text('gold cases without a root cause'), count(c.gold_without_root_cause)],
          [
            text('answer in hand at k*'),
            s.answer_in_hand
              ? { text: `${pct(s.answer_in_hand.rate)} of ${s.answer_in_hand.n}`, value: s.answer_in_hand.rate }
              : text('— (needs gold answers and trajectories)'),
          ],
        ],
        { numeric: [false, true] },
      ),
    ],
    charts: [],
  };

  const perClass: ReportSection = {
    id: 'per-class',
    title: 'Root causes per class',
    tables: [
      table(
        'audit-per-class',
        'Per class (precision or recall with a zero denominator is 0)',
        ['root cause', 'precision', 'recall', 'F1', 'support'],
        ROOT_CAUSES.map((k) => [
          text(ROOT_CAUSE_LABELS[k]),
          fraction(s.per_class[k].precision),
          fraction(s.per_class[k].recall),
          fraction(s.per_class[k].f1),
          count(s.per_class[k].support),
        ]),
      ),
    ],
    charts: [
      {
        id: 'chart-per-class-f1',
        type: 'bar',
        title: 'Per-class F1',
        tableId: 'audit-per-class',
        description: `Horizontal bars: F1 of each of the six root-cause classes; RC-F1 (their mean) is ${pct(m.rc_f1)}.`,
        labels: ROOT_CAUSES.map((k) => ROOT_CAUSE_LABELS[k]),
        series: [{ label: 'F1', values: ROOT_CAUSES.map((k) => s.per_class[k].f1), color: 0 }],
        horizontal: true,
        percent: true,
        min: 0,
        max: 1,
        valueTitle: 'F1',
        references: [{ at: m.rc_f1, axis: 'value', label: `RC-F1 ${pct(m.rc_f1)}` }],
      },
    ],
  };

  const columns: (RootCause | 'none')[] = [...ROOT_CAUSES, 'none'];
  const confusion: ReportSection = {
    id: 'confusion',
    title: 'Confusion matrix',
    tables: [
      table(
        'audit-confusion',
        'Confusion (rows: gold, columns: predicted; none = no prediction)',
        ['gold \\ predicted', ...columns.map((k) => (k === 'none' ? 'none' : abbreviation(k)))],
        ROOT_CAUSES.map((g) => [text(ROOT_CAUSE_LABELS[g]), ...columns.map((p) => count(s.confusion[g][p]))]),
        { note: ROOT_CAUSES.map((k) => `${abbreviation(k)} = ${ROOT_CAUSE_LABELS[k]}`).join('; ') },
      ),
    ],
    charts: [
      {
        id: 'chart-confusion',
        type: 'heatmap',
        title: 'Confusion heat map',
        tableId: 'audit-confusion',
        description:
          'Heat map of gold root cause (rows) against predicted root cause (columns); darker cells hold more cases; the diagonal holds the correct ones.',
        xLabels: columns.map((k) => (k === 'none' ? 'none' : abbreviation(k))),
        xLongLabels: columns.map((k) => (k === 'none' ? 'no prediction' : ROOT_CAUSE_LABELS[k])),
        yLabels: ROOT_CAUSES.map((k) => abbreviation(k)),
        yLongLabels: ROOT_CAUSES.map((k) => ROOT_CAUSE_LABELS[k]),
        xTitle: 'predicted',
        yTitle: 'gold',
        values: ROOT_CAUSES.map((g) => columns.map((p) => s.confusion[g][p])),
        diagonal: true,
      },
    ],
  };

  const pos = s.positions;
  const positions: ReportSection = {
    id: 'positions',
    title: 'Critical positions',
    tables: [
      table(
        'audit-positions',
        'Critical positions (0 = first message, 1 = last; final third from 2/3)',
        ['', 'n', 'median', 'final third'],
        [
          [text('gold k*'), count(pos.gold.n), score(pos.gold.median, 3), fraction(pos.gold.final_third_share)],
          [text('predicted k̂'), count(pos.predicted.n), score(pos.predicted.median, 3), fraction(pos.predicted.final_third_share)],
        ],
      ),
    ],
    charts: [],
  };
  const goldPositions = (cases ?? []).map((r) => r.gold.position).filter((p): p is number => p !== undefined);
  const predictedPositions = (cases ?? []).map((r) => r.predicted?.position).filter((p): p is number => p !== undefined);
  if (goldPositions.length + predictedPositions.length > 0) {
    const bins = 10;
    const labels = binLabels(bins, 0, 1, 1);
    const g = histogram(goldPositions, bins);
    const p = histogram(predictedPositions, bins);
    positions.tables.push(
      table(
        'audit-position-histogram',
        'Critical positions per bin (cases)',
        ['position', 'gold k*', 'predicted k̂'],
        labels.map((l, i) => [text(l), count(g[i]), count(p[i])]),
      ),
    );
    positions.charts.push({
      id: 'chart-positions',
      type: 'bar',
      title: 'Critical-position histogram',
      tableId: 'audit-position-histogram',
      description: `Histogram of critical positions in ten bins from 0 (first message) to 1 (last): ${goldPositions.length} gold and ${predictedPositions.length} predicted; a line marks the start of the final third.`,
      labels,
      series: [
        { label: 'gold k*', values: g, color: 0 },
        { label: 'predicted k̂', values: p, color: 1 },
      ],
      counts: true,
      min: 0,
      valueTitle: 'cases',
      categoryTitle: 'critical position',
      references: [{ at: (2 / 3) * bins - 0.5, axis: 'category', label: 'final third' }],
    });
  }

  const sections = [summary, perClass, confusion, positions];
  if (cases?.length) sections.push(auditCaseSection(cases, links));
  return sections;
}

function auditCaseSection(cases: readonly AuditCaseRow[], links: Map<string, LinkTarget>): ReportSection {
  const stepCell = (row: AuditCaseRow, i: number, which: 'g' | 'p', step: number | undefined): ReportCell => {
    if (step === undefined) return text('—');
    const cell: ReportCell = { text: String(step), value: step };
    if (row.file) {
      const id = `${which}${i}`;
      const label = `${which === 'g' ? 'gold critical step' : 'predicted step'} ${step} of ${row.id}`;
      links.set(id, { file: row.file, record: row.record, position: step, label });
      cell.link = id;
      cell.label = `Open ${label}`;
    }
    return cell;
  };
  const rc = (c: RootCause | undefined) => (c ? text(ROOT_CAUSE_LABELS[c]) : text('—'));
  const repair = (r: AuditCaseRow): ReportCell => {
    switch (r.repair) {
      case 'pass':
        return { text: 'pass', tone: 'good' };
      case 'fail':
        return { text: 'fail', tone: 'bad' };
      case 'ungraded':
        return { text: 'ungraded', tone: 'muted', label: 'ungraded (no rubric grader): counted as failing' };
      default:
        return { text: '—', tone: 'muted', label: 'not graded (not a sound diagnosis)' };
    }
  };
  const linked = cases.some((r) => r.file);
  return {
    id: 'cases',
    title: `Cases (${cases.length})`,
    tables: [
      table(
        'audit-cases',
        'Per case',
        ['case', 'gold k*', 'span', 'gold root cause', 'predicted k̂', 'predicted root cause', 'k̂ = k*', 'in span', 'ĉ = c*', 'sound', 'repair'],
        cases.map((r, i) => [
          text(r.id),
          stepCell(r, i, 'g', r.gold.step),
          { text: `[${r.gold.span[0]}, ${r.gold.span[1]}]` },
          rc(r.gold.rootCause),
          r.predicted ? stepCell(r, i, 'p', r.predicted.step) : { text: 'no prediction', tone: 'muted' },
          r.predicted ? rc(r.predicted.rootCause) : text('—'),
          yesNo(r.strict),
          yesNo(r.loose),
          yesNo(r.rootCauseCorrect),
          yesNo(r.sound),
          repair(r),
        ]),
        {
          numeric: [false, true, false, false, true, false, false, false, false, false, false],
          note: linked ? 'Step numbers are links: they open the trajectory at that message.' : undefined,
        },
      ),
    ],
    charts: [],
  };
}

// ---------- DeepSearchQA ----------

const CATEGORY_LABELS: Record<(typeof CATEGORIES)[number], string> = {
  fully_correct: 'fully correct',
  fully_incorrect: 'fully incorrect',
  partially_correct: 'partially correct',
  correct_with_extraneous: 'correct with extraneous',
};

function dsqaRow(name: string, a: DsqaAggregate): ReportCell[] {
  return [
    text(name),
    count(a.n),
    fraction(a.f1),
    fraction(a.precision),
    fraction(a.recall),
    fraction(a.fully_correct),
    fraction(a.fully_incorrect),
    fraction(a.partially_correct),
    fraction(a.correct_with_extraneous),
  ];
}

function dsqaSections(s: DsqaScore): ReportSection[] {
  const head = ['', 'n', 'F1', 'P', 'R', 'fully correct', 'fully incorrect', 'partially', 'w/ extraneous'];
  const metricKeys = ['f1', 'precision', 'recall', ...CATEGORIES] as const;
  const interval = (k: (typeof metricKeys)[number]): ReportCell => ({ text: ci(s.ci95[k], pct) });
  const sections: ReportSection[] = [
    {
      id: 'summary',
      title: `DeepSearchQA (n = ${s.n})`,
      figures: [
        { label: 'F1', text: pct(s.metrics.f1), value: s.metrics.f1, hint: `95% ${ci(s.ci95.f1, pct)}` },
        { label: 'Precision', text: pct(s.metrics.precision), value: s.metrics.precision, hint: `95% ${ci(s.ci95.precision, pct)}` },
        { label: 'Recall', text: pct(s.metrics.recall), value: s.metrics.recall, hint: `95% ${ci(s.ci95.recall, pct)}` },
        { label: 'Fully correct', text: pct(s.metrics.fully_correct), value: s.metrics.fully_correct, hint: `95% ${ci(s.ci95.fully_correct, pct)}` },
      ],
      tables: [
        table(
          'dsqa-intervals',
          '95% intervals (Wilson for shares; mean ± 1.96·s/√n for F1, P, R)',
          ['metric', 'value', 'ci95'],
          metricKeys.map((k) => [text(k), fraction(s.metrics[k]), interval(k)]),
          { numeric: [false, true, true] },
        ),
      ],
      charts: [
        {
          id: 'chart-dsqa-categories',
          type: 'bar',
          title: 'Category shares with 95% intervals',
          tableId: 'dsqa-intervals',
          description: `Bars: the share of items in each of the four answer categories, with Wilson 95% intervals as whiskers (n = ${s.n}).`,
          labels: CATEGORIES.map((k) => CATEGORY_LABELS[k]),
          series: [{ label: 'share of items', values: CATEGORIES.map((k) => s.metrics[k]), intervals: CATEGORIES.map((k) => s.ci95[k]), color: 0 }],
          percent: true,
          min: 0,
          max: 1,
          valueTitle: 'share of items',
        },
        {
          id: 'chart-dsqa-means',
          type: 'bar',
          title: 'F1, precision and recall with 95% intervals',
          tableId: 'dsqa-intervals',
          description: 'Bars: mean F1, precision and recall over the items, with normal 95% intervals as whiskers.',
          labels: ['F1', 'precision', 'recall'],
          series: [
            { label: 'mean', values: [s.metrics.f1, s.metrics.precision, s.metrics.recall], intervals: [s.ci95.f1, s.ci95.precision, s.ci95.recall], color: 2 },
          ],
          percent: true,
          min: 0,
          max: 1,
          valueTitle: 'mean over items',
        },
      ],
    },
    {
      id: 'breakdowns',
      title: 'Breakdowns',
      tables: [
        table(
          'dsqa-by-type',
          'By answer type',
          head,
          Object.entries(s.by_answer_type).map(([k, v]) => dsqaRow(k, v)),
        ),
        table(
          'dsqa-by-category',
          'By problem category',
          head,
          Object.entries(s.by_category).map(([k, v]) => dsqaRow(k, v)),
        ),
      ],
      charts: [],
    },
  ];
  if (s.fully_correct_at_n) {
    sections[1].tables.push(
      table(
        'dsqa-at-n',
        'Fully correct at n samples',
        ['n', 'items', 'fully correct'],
        Object.entries(s.fully_correct_at_n).map(([k, v]) => [text(k), count(v.items), fraction(v.rate)]),
      ),
    );
  }
  sections.push({
    id: 'items',
    title: `Items (${s.per_item.length})`,
    tables: [
      table(
        'dsqa-items',
        'Per item (primary sample)',
        ['item', 'sample', 'found', 'expected', 'submitted', 'P', 'R', 'F1', 'category'],
        s.per_item.map((it) => [
          text(it.id),
          count(it.sample),
          count(it.score.found),
          count(it.score.expected),
          count(it.score.submitted),
          fraction(it.score.precision),
          fraction(it.score.recall),
          fraction(it.score.f1),
          {
            text: CATEGORY_LABELS[it.score.category],
            tone: it.score.category === 'fully_correct' ? 'good' : it.score.category === 'fully_incorrect' ? 'bad' : undefined,
          },
        ]),
      ),
    ],
    charts: [],
  });
  return sections;
}

// ---------- nuggets ----------

function nuggetSections(s: NuggetScore): ReportSection[] {
  const names = Object.keys(s.conditions);
  const sections: ReportSection[] = [
    {
      id: 'summary',
      title: `Nugget restoration (restore_score_100, partial credit ${s.partial_credit})`,
      figures: names.map((k) => ({ label: `${k} mean`, text: num(s.conditions[k].mean), value: s.conditions[k].mean, hint: `n = ${s.conditions[k].n}` })),
      tables: [
        table(
          'nuggets-conditions',
          'Per condition (0..100)',
          ['condition', 'n', 'mean', 'p50', 'p90', 'min', 'max', 'UA unknown', 'all unknown', 'CQ region'],
          names.map((k) => {
            const c = s.conditions[k];
            return [
              text(k),
              count(c.n),
              score(c.mean),
              score(c.p50),
              score(c.p90),
              score(c.min),
              score(c.max),
              fraction(c.ua_unknown_rate),
              fraction(c.all_unknown_rate),
              fraction(c.cq_region_rate),
            ];
          }),
        ),
      ],
      charts: [],
    },
  ];
  const bins = 10;
  const labels = binLabels(bins, 0, 100, 0);
  const perCondition = names.map((k) =>
    histogram(
      s.per_instance.filter((r) => r.condition === k).map((r) => r.score),
      bins,
      0,
      100,
    ),
  );
  sections[0].tables.push(
    table(
      'nuggets-distribution',
      'Restore scores per bin (instances)',
      ['restore score', ...names],
      labels.map((l, i) => [text(l), ...perCondition.map((h) => count(h[i]))]),
    ),
  );
  sections[0].charts.push({
    id: 'chart-nuggets-distribution',
    type: 'bar',
    title: 'Restore-score distribution per condition',
    tableId: 'nuggets-distribution',
    description: `Histogram of restore_score_100 per instance, in ten bins of 10 points, one bar colour per condition (${names.join(', ')}).`,
    labels,
    series: names.map((k, i) => ({ label: k, values: perCondition[i], color: i })),
    counts: true,
    min: 0,
    valueTitle: 'instances',
    categoryTitle: 'restore score (0..100)',
  });
  const improved = Object.keys(s.improvement);
  if (improved.length) {
    sections.push({
      id: 'improvement',
      title: 'Improvement over orig',
      tables: [
        table(
          'nuggets-improvement',
          'Improvement over orig (paired; bootstrap 95% interval, 10,000 resamples, fixed seed)',
          ['condition', 'pairs', 'mean', 'ci95'],
          improved.map((k) => [text(k), count(s.improvement_pairs[k] ?? 0), score(s.improvement[k].mean), { text: ci(s.improvement[k].ci95, (x) => num(x)) }]),
          { numeric: [false, true, true, true] },
        ),
      ],
      charts: [
        {
          id: 'chart-nuggets-improvement',
          type: 'bar',
          title: 'Mean improvement over orig with 95% intervals',
          tableId: 'nuggets-improvement',
          description: 'Bars: mean paired difference in restore score against the orig condition, with bootstrap 95% intervals as whiskers.',
          labels: improved,
          series: [
            { label: 'mean improvement', values: improved.map((k) => s.improvement[k].mean), intervals: improved.map((k) => s.improvement[k].ci95), color: 2 },
          ],
          valueTitle: 'points (0..100 scale)',
          // A "no change" line only helps when something goes below it.
          references: improved.some((k) => (s.improvement[k].ci95?.[0] ?? s.improvement[k].mean ?? 0) < 0)
            ? [{ at: 0, axis: 'value', label: 'no change' }]
            : undefined,
        },
      ],
    });
  }
  const ids = [...new Set(s.per_instance.map((r) => r.id))];
  const lookup = new Map(s.per_instance.map((r) => [`${r.id}\u0000${r.condition}`, r.score]));
  sections.push({
    id: 'instances',
    title: `Instances (${ids.length})`,
    tables: [
      table(
        'nuggets-instances',
        'restore_score_100 per instance and condition',
        ['instance', ...names],
        ids.map((id) => [text(id), ...names.map((k) => score(lookup.get(`${id}\u0000${k}`)))]),
        { numeric: [false, ...names.map(() => true)] },
      ),
    ],
    charts: [],
  });
  return sections;
}

// ---------- scenarios ----------

function scenarioSections(s: ScenarioScore): ReportSection[] {
  const ids = Object.keys(s.scenarios);
  const dims = Object.keys(s.dimensions);
  return [
    {
      id: 'summary',
      title: 'Scenario set (0..100; tracks A and B are never averaged together)',
      figures: [
        { label: 'A mean', text: num(s.a_mean), value: s.a_mean, hint: `gate ≥ ${A_MEAN_GATE}` },
        {
          label: 'A total',
          text: num(s.a_total),
          value: s.a_total,
          hint: s.weights.source === 'file' ? 'weights from the weights file' : 'equal weights over the dimensions present',
        },
        { label: 'Silent citations', text: String(s.silent_citations), value: s.silent_citations, hint: 'gate: 0' },
        {
          label: 'Gate',
          text: s.gate.passed ? 'PASSED' : 'FAILED',
          value: s.gate.passed ? 1 : 0,
          hint: s.gate.passed ? 'every condition holds' : `${s.gate.reasons.length} condition(s) failed`,
        },
      ],
      tables: [
        table(
          'scenarios-gate',
          `Gate (passes only if A mean ≥ ${A_MEAN_GATE}, every scenario B ≥ ${B_GATE} and no silent citations)`,
          ['', 'result'],
          [
            [text('gate'), s.gate.passed ? { text: 'PASSED', tone: 'good' } : { text: 'FAILED', tone: 'bad' }],
            ...s.gate.reasons.map((r) => [text('failed condition'), text(r)]),
          ],
          { numeric: [false, false] },
        ),
      ],
      charts: [],
    },
    {
      id: 'scenarios',
      title: `Scenarios (${ids.length})`,
      tables: [
        table(
          'scenarios-scores',
          'Scenario scores',
          ['scenario', 'A', 'B', 'E4 veto', 'criteria without a result'],
          ids.map((k) => [
            text(k),
            score(s.scenarios[k].a),
            score(s.scenarios[k].b),
            s.scenarios[k].veto_failed ? { text: 'FAILED', tone: 'bad' } : { text: 'ok', tone: 'good' },
            s.unscored.includes(k) ? { text: 'no results line', tone: 'bad' } : text((s.missing[k] ?? []).join(', ') || '—'),
          ]),
          { numeric: [false, true, true, false, false] },
        ),
      ],
      charts: [
        {
          id: 'chart-scenarios',
          type: 'bar',
          title: 'Scenario A and B scores',
          tableId: 'scenarios-scores',
          description: `Grouped bars: each scenario's track A and track B score (0..100); lines mark the B gate (${B_GATE}) and the A-mean gate (${A_MEAN_GATE}).`,
          labels: ids,
          series: [
            { label: 'A', values: ids.map((k) => s.scenarios[k].a), color: 0 },
            { label: 'B', values: ids.map((k) => s.scenarios[k].b), color: 1 },
          ],
          min: 0,
          max: 100,
          valueTitle: 'score (0..100)',
          references: [
            { at: A_MEAN_GATE, axis: 'value', label: `A mean gate ${A_MEAN_GATE}` },
            { at: B_GATE, axis: 'value', label: `B gate ${B_GATE}` },
          ],
        },
      ],
    },
    {
      id: 'dimensions',
      title: 'Dimensions (track A)',
      tables: [
        table(
          'scenarios-dimensions',
          'Dimension scores',
          ['dimension', 'score', 'weight'],
          dims.map((k) => [text(k), score(s.dimensions[k]), score(s.weights.dimensions[k], 4)]),
          { note: s.weights.note },
        ),
      ],
      charts: [
        {
          id: 'chart-dimensions',
          type: 'bar',
          title: 'Dimension scores',
          tableId: 'scenarios-dimensions',
          description: 'Bars: the track-A score of each dimension over all scenarios (0..100).',
          labels: dims,
          series: [{ label: 'score', values: dims.map((k) => s.dimensions[k]), color: 2 }],
          min: 0,
          max: 100,
          valueTitle: 'score (0..100)',
        },
      ],
    },
  ];
}

// ---------- delegation ----------

const DELEGATION_HEAD = ['', 'n', 'golden recall', 'distractor cit.', 'outputs w/ distr.', 'irrelevant cit.', 'withheld recov.', 'searches', 'accuracy'];
function delegationRow(name: string, g: DelegationGroup): ReportCell[] {
  return [
    text(name),
    count(g.n),
    fraction(g.golden_citation_recall),
    fraction(g.distractor_citation_rate),
    fraction(g.outputs_citing_distractor),
    fraction(g.irrelevant_citation_rate),
    fraction(g.withheld_recovery),
    score(g.searches_mean),
    fraction(g.answer_accuracy),
  ];
}

function delegationSections(s: DelegationScore): ReportSection[] {
  const settings = Object.keys(s.by_setting);
  const types = Object.keys(s.by_distractor_type);
  const metric = (label: string, key: keyof Omit<DelegationGroup, 'n'>, color: number) => ({ label, values: settings.map((k) => s.by_setting[k][key]), color });
  const charts: ChartSpec[] = [];
  if (settings.length) {
    charts.push({
      id: 'chart-delegation-settings',
      type: 'bar',
      title: 'Citations and accuracy by setting',
      tableId: 'delegation-by-setting',
      description: 'Grouped bars per setting: golden-citation recall, distractor citation rate and answer accuracy.',
      labels: settings,
      series: [
        metric('golden recall', 'golden_citation_recall', 2),
        metric('distractor citation', 'distractor_citation_rate', 4),
        metric('accuracy', 'answer_accuracy', 0),
      ],
      percent: true,
      min: 0,
      max: 1,
    } satisfies BarChartSpec);
  }
  const sections: ReportSection[] = [
    {
      id: 'summary',
      title: `Delegation (n = ${s.n})`,
      figures: [
        { label: 'Golden recall', text: pct(s.metrics.golden_citation_recall), value: s.metrics.golden_citation_recall },
        { label: 'Distractor citation', text: pct(s.metrics.distractor_citation_rate), value: s.metrics.distractor_citation_rate },
        { label: 'Accuracy', text: pct(s.metrics.answer_accuracy), value: s.metrics.answer_accuracy },
      ],
      tables: [
        table('delegation-all', 'All outputs', DELEGATION_HEAD, [delegationRow('all', { n: s.n, ...s.metrics })]),
        table(
          'delegation-by-setting',
          'By setting',
          DELEGATION_HEAD,
          settings.map((k) => delegationRow(k, s.by_setting[k])),
        ),
        table(
          'delegation-by-order',
          'By document order',
          DELEGATION_HEAD,
          Object.entries(s.by_order).map(([k, v]) => delegationRow(k, v)),
        ),
      ],
      charts,
    },
  ];
  if (types.length) {
    sections.push({
      id: 'distractors',
      title: 'Distractor types',
      tables: [
        table(
          'delegation-distractors',
          'By distractor type',
          ['type', 'documents shown', 'cited', 'rate'],
          types.map((k) => [text(k), count(s.by_distractor_type[k].documents), count(s.by_distractor_type[k].cited), fraction(s.by_distractor_type[k].rate)]),
        ),
      ],
      charts: [
        {
          id: 'chart-delegation-distractors',
          type: 'bar',
          title: 'Citation rate by distractor type',
          tableId: 'delegation-distractors',
          description: 'Bars: share of shown distractor documents of each type that were cited.',
          labels: types,
          series: [{ label: 'cited share', values: types.map((k) => s.by_distractor_type[k].rate), color: 4 }],
          percent: true,
          min: 0,
          max: 1,
          horizontal: true,
        },
      ],
    });
  }
  return sections;
}

// ---------- the model ----------

export const CSV_CONTENT: Record<ReportModel['kind'], string> = {
  audit: 'one row per gold case',
  deepsearchqa: 'one row per item',
  nuggets: 'one row per instance and condition',
  scenarios: 'one row per scenario',
  delegation: 'one row per group (setting, order, distractor type)',
  resume: 'one row per condition',
  'corpus-stats': 'one row per table cell (table, row, column, value)',
};

export function exportChoices(kind: ReportModel['kind']): { format: ExportFormat; label: string; title: string }[] {
  return [
    { format: 'md', label: 'Markdown', title: 'Save the report as Markdown (as trajaudit score --out)' },
    { format: 'json', label: 'JSON', title: 'Save the score --json document' },
    { format: 'csv', label: 'CSV', title: `Save a CSV table: ${CSV_CONTENT[kind]}` },
  ];
}

/** Two or more judges' verdicts on the same units of the run's judgment cache: agreement and Cohen's κ per pair. */
function judgeAgreementSection(result: RunScoreResult): ReportSection | undefined {
  const rows = result.judgeAgreement ?? [];
  if (!rows.length) return undefined;
  return {
    id: 'judge-agreement',
    title: 'Judge agreement',
    tables: [
      table(
        'judge-agreement',
        'Verdicts of two judges on the same units (rubrics, nuggets, answer items, answers) in the judgment cache',
        ['judge A', 'judge B', 'n', 'agreement', "Cohen's κ"],
        rows.map((r) => [text(r.judge_a), text(r.judge_b), count(r.n), fraction(r.agreement), score(r.cohen_kappa, 3)]),
        { rowHeaders: false, numeric: [false, false, true, true, true], note: 'κ is — when both judges gave one and the same label throughout (undefined)' },
      ),
    ],
    charts: [],
  };
}

function resumeSections(s: ResumeScore): ReportSection[] {
  const names = Object.keys(s.conditions);
  return [
    {
      id: 'summary',
      title: 'Repair-guided resumption',
      figures: names.map((k) => ({
        label: `Fix rate: ${k}`,
        text: pct(s.conditions[k].fix_rate),
        value: s.conditions[k].fix_rate,
        hint: `95% ${ci(s.conditions[k].ci95, pct)}`,
      })),
      tables: [
        table(
          'resume-conditions',
          'By condition (Wilson 95% intervals)',
          ['condition', 'n', 'fixed', 'fix rate', '95% CI', 'accuracy', '95% CI', 'errors', 'unjudged'],
          names.map((k) => {
            const c = s.conditions[k];
            return [
              text(k),
              count(c.n),
              count(c.fixed),
              fraction(c.fix_rate),
              text(ci(c.ci95, pct)),
              fraction(c.accuracy),
              text(ci(c.accuracy_ci95, pct)),
              count(c.errors),
              count(c.unjudged),
            ];
          }),
          {
            numeric: [false, true, true, true, false, true, false, true, true],
            ...(s.cohort
              ? {
                  note: `Accuracy counts the ${s.cohort.trajectories} trajectories of the audited folder, ${s.cohort.original_correct} of them correct before resuming.`,
                }
              : {}),
          },
        ),
      ],
      charts: [],
    },
  ];
}

export function buildReportModel(result: RunScoreResult, context: ReportContext): BuiltReport {
  const links = new Map<string, LinkTarget>();
  const s = result.score;
  let sections: ReportSection[];
  switch (s.kind) {
    case 'audit':
      sections = auditSections(s, result.cases, links);
      break;
    case 'deepsearchqa':
      sections = dsqaSections(s);
      break;
    case 'nuggets':
      sections = nuggetSections(s);
      break;
    case 'scenarios':
      sections = scenarioSections(s);
      break;
    case 'delegation':
      sections = delegationSections(s);
      break;
    case 'resume':
      sections = resumeSections(s);
      break;
  }
  const agreement = judgeAgreementSection(result);
  if (agreement) sections.push(agreement);
  const model: ReportModel = {
    title: `Score: ${context.folderLabel}`,
    folder: result.detection.folder,
    folderLabel: context.folderLabel,
    kind: s.kind,
    reason: result.detection.reason,
    judging: judgingLine(result),
    judgeMode: context.judgeMode,
    notes: [...result.notes],
    sections,
    exports: exportChoices(s.kind),
    createdAt: context.createdAt ?? new Date().toISOString(),
  };
  return { model, links };
}

/** One line for logs: "kind audit (no manifest; …)". */
export { detectionLine };
