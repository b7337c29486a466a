// Output of scores: the `score --json` document (exactly the docs/cli.md §4 keys per kind), a
// readable text table, and a Markdown report.
import { markdownText } from '../markdown/markdownText';
import { ROOT_CAUSES } from '../model/rootCauses';
import type { AgreementScore } from './agreement';
import type { AuditScore } from './audit';
import type { DsqaAggregate, DsqaScore } from './deepsearchqa';
import type { DelegationGroup, DelegationScore } from './delegation';
import type { NuggetScore } from './nuggets';
import type { RunScoreResult } from './scoreRunFolder';
import type { KindScore } from './runs/types';
import type { ScenarioScore } from './scenarios';
import type { ResumeScore } from '../resume/score';
import { tidy } from './stats';

/** Rounds every number to 12 decimals (removes float noise) in a JSON-able value. */
export function tidyJson<T>(value: T): T {
  if (typeof value === 'number') return tidy(value) as T;
  if (Array.isArray(value)) return value.map(tidyJson) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tidyJson(v)])) as T;
  return value;
}

/**
 * The `score --json` document: exactly the keys docs/cli.md §4 lists for the kind (the delegation
 * keys are the product's: the seed defines no metrics for its outputs, docs/metrics.md §5).
 */
export function contractJson(score: KindScore): Record<string, unknown> {
  let out: Record<string, unknown>;
  switch (score.kind) {
    case 'audit':
      out = { kind: score.kind, n: score.n, metrics: score.metrics, per_class: score.per_class, confusion: score.confusion };
      break;
    case 'deepsearchqa':
      out = {
        kind: score.kind,
        n: score.n,
        metrics: score.metrics,
        ci95: score.ci95,
        by_answer_type: score.by_answer_type,
        by_category: score.by_category,
        pass_at: score.pass_at,
      };
      break;
    case 'nuggets':
      out = { kind: score.kind, conditions: score.conditions, improvement: score.improvement };
      break;
    case 'scenarios':
      out = {
        kind: score.kind,
        scenarios: score.scenarios,
        dimensions: score.dimensions,
        a_total: score.a_total,
        a_mean: score.a_mean,
        gate: score.gate,
        mechanical: score.mechanical,
      };
      break;
    case 'delegation':
      out = {
        kind: score.kind,
        n: score.n,
        metrics: score.metrics,
        by_setting: score.by_setting,
        by_order: score.by_order,
        by_mode: score.by_mode,
        by_language: score.by_language,
        by_domain: score.by_domain,
        by_distractor_type: score.by_distractor_type,
      };
      break;
    case 'resume':
      out = { kind: score.kind, conditions: score.conditions, cohort: score.cohort };
      break;
  }
  return tidyJson(out);
}

/** The whole `score --json` document: the kind's keys, plus `judge_agreement` when the cache holds verdicts of two or more judges. */
export function scoreJson(result: RunScoreResult): Record<string, unknown> {
  const agreement = result.judgeAgreement ?? [];
  return agreement.length ? { ...contractJson(result.score), judge_agreement: tidyJson(agreement) } : contractJson(result.score);
}

// ---------- formatting helpers ----------

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${(100 * x).toFixed(2)}%`);
const num = (x: number | null | undefined, d = 2) => (x === null || x === undefined ? '—' : x.toFixed(d));
const ci = (c: [number, number] | null | undefined, f: (x: number) => string) => (c ? `[${f(c[0])}, ${f(c[1])}]` : '—');

type Table = { head: string[]; rows: string[][]; title?: string };

function textTable(t: Table): string {
  const widths = t.head.map((h, i) => Math.max(h.length, ...t.rows.map((r) => (r[i] ?? '').length)));
  // Numbers (and —) right-aligned, text left-aligned.
  const numeric = (c: string) => /^(?:[-+]?[\d.]+%?|—|\[.*\])$/.test(c);
  const numericColumn = t.head.map((_, i) => i > 0 && t.rows.length > 0 && t.rows.every((r) => numeric(r[i] ?? '')));
  const line = (cells: string[], header = false) =>
    cells
      .map((c, i) => ((header ? numericColumn[i] : i > 0 && numeric(c)) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [line(t.head, true), widths.map((w) => '-'.repeat(w)).join('  '), ...t.rows.map((r) => line(r))];
  return (t.title ? `${t.title}\n` : '') + out.join('\n');
}

function mdTable(t: Table): string {
  const out = [
    `| ${t.head.map(markdownText).join(' | ')} |`,
    `| ${t.head.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...t.rows.map((r) => `| ${r.map(markdownText).join(' | ')} |`),
  ];
  return (t.title ? `### ${markdownText(t.title)}\n\n` : '') + out.join('\n');
}

// ---------- per-kind tables ----------

function auditTables(s: AuditScore): Table[] {
  const m = s.metrics;
  const tables: Table[] = [
    {
      title: `Audit scores (N = ${s.n})`,
      head: ['metric', 'value'],
      rows: [
        ['CS-Strict', pct(m.cs_strict)],
        ['CS-Loose', pct(m.cs_loose)],
        ['RC-Acc', pct(m.rc_acc)],
        ['RC-F1 (macro, 6 classes)', pct(m.rc_f1)],
        ['Diag', pct(m.diag)],
        ['Rep@Diag', pct(m.rep_at_diag)],
        ['FPS', pct(m.fps)],
      ],
    },
    {
      title: 'Per class',
      head: ['root cause', 'precision', 'recall', 'F1', 'support'],
      rows: ROOT_CAUSES.map((c) => [c, pct(s.per_class[c].precision), pct(s.per_class[c].recall), pct(s.per_class[c].f1), String(s.per_class[c].support)]),
    },
    {
      title: 'Confusion (rows: gold, columns: predicted; none = no prediction)',
      head: [
        'gold \\ predicted',
        ...ROOT_CAUSES.map((c) =>
          c
            .split('_')
            .map((w) => w[0])
            .join('')
            .toUpperCase(),
        ),
        'none',
      ],
      rows: ROOT_CAUSES.map((g) => [g, ...ROOT_CAUSES.map((p) => String(s.confusion[g][p])), String(s.confusion[g].none)]),
    },
  ];
  const pos = s.positions;
  tables.push({
    title: 'Critical positions (0 = first message, 1 = last)',
    head: ['', 'n', 'median', 'final third'],
    rows: [
      ['gold k*', String(pos.gold.n), num(pos.gold.median, 3), pct(pos.gold.final_third_share)],
      ['predicted k̂', String(pos.predicted.n), num(pos.predicted.median, 3), pct(pos.predicted.final_third_share)],
    ],
  });
  const c = s.counts;
  tables.push({
    title: 'Counts',
    head: ['', 'value'],
    rows: [
      ['predictions', `${c.predicted} of ${s.n} (${c.missing_predictions} missing)`],
      ['sound diagnoses', String(c.sound_diagnoses)],
      ['repairs passing every rubric', String(c.repairs_passed)],
      ['ungraded repairs (counted as failing)', String(c.ungraded_repairs)],
      ['gold cases without a root cause', String(c.gold_without_root_cause)],
      ['answer in hand at k*', s.answer_in_hand ? `${pct(s.answer_in_hand.rate)} of ${s.answer_in_hand.n}` : '— (needs gold answers and trajectories)'],
    ],
  });
  return tables;
}

function dsqaRow(name: string, a: DsqaAggregate): string[] {
  return [
    name,
    String(a.n),
    pct(a.f1),
    pct(a.precision),
    pct(a.recall),
    pct(a.fully_correct),
    pct(a.fully_incorrect),
    pct(a.partially_correct),
    pct(a.correct_with_extraneous),
  ];
}

function dsqaTables(s: DsqaScore): Table[] {
  const head = ['', 'n', 'F1', 'P', 'R', 'fully correct', 'fully incorrect', 'partially', 'w/ extraneous'];
  const metrics = ['f1', 'precision', 'recall', 'fully_correct', 'fully_incorrect', 'partially_correct', 'correct_with_extraneous'] as const;
  const tables: Table[] = [
    { title: `DeepSearchQA (n = ${s.n})`, head, rows: [dsqaRow('all', { n: s.n, ...s.metrics })] },
    {
      title: '95% intervals (Wilson for shares; mean ± 1.96·s/√n for F1, P, R)',
      head: ['metric', 'value', 'ci95'],
      rows: metrics.map((k) => [k, pct(s.metrics[k]), ci(s.ci95[k], pct)]),
    },
    { title: 'By answer type', head, rows: Object.entries(s.by_answer_type).map(([k, v]) => dsqaRow(k, v)) },
    { title: 'By category', head, rows: Object.entries(s.by_category).map(([k, v]) => dsqaRow(k, v)) },
  ];
  if (s.fully_correct_at_n) {
    tables.push({
      title: 'Fully correct at n samples',
      head: ['n', 'items', 'fully correct'],
      rows: Object.entries(s.fully_correct_at_n).map(([k, v]) => [k, String(v.items), pct(v.rate)]),
    });
    tables.push({
      title: 'pass@k (unbiased estimator over all samples, averaged over the items with ≥ k samples)',
      head: ['k', 'pass@k'],
      rows: Object.entries(s.pass_at).map(([k, v]) => [k, pct(v)]),
    });
  }
  return tables;
}

function nuggetTables(s: NuggetScore): Table[] {
  const tables: Table[] = [
    {
      title: `Nugget restoration (restore_score_100, partial credit ${s.partial_credit})`,
      head: ['condition', 'n', 'mean', 'p50', 'p90', 'min', 'max', 'UA unknown', 'all unknown', 'CQ region'],
      rows: Object.entries(s.conditions).map(([k, c]) => [
        k,
        String(c.n),
        num(c.mean),
        num(c.p50),
        num(c.p90),
        num(c.min),
        num(c.max),
        pct(c.ua_unknown_rate),
        pct(c.all_unknown_rate),
        pct(c.cq_region_rate),
      ]),
    },
  ];
  if (Object.keys(s.improvement).length) {
    tables.push({
      title: 'Improvement over orig (paired; bootstrap 95% interval, 10,000 resamples, fixed seed)',
      head: ['condition', 'pairs', 'mean', 'ci95'],
      rows: Object.entries(s.improvement).map(([k, v]) => [k, String(s.improvement_pairs[k] ?? 0), num(v.mean), ci(v.ci95, (x) => num(x))]),
    });
  }
  return tables;
}

function scenarioTables(s: ScenarioScore): Table[] {
  return [
    {
      title: 'Scenarios (0..100; tracks A and B are never averaged together)',
      head: ['scenario', 'A', 'B', 'E4 veto'],
      rows: Object.entries(s.scenarios).map(([k, v]) => [k, num(v.a), num(v.b), v.veto_failed ? 'FAILED' : 'ok']),
    },
    {
      title: 'Dimensions (track A)',
      head: ['dimension', 'score', 'weight'],
      rows: Object.entries(s.dimensions).map(([k, v]) => [k, num(v), num(s.weights.dimensions[k], 4)]),
    },
    {
      title: 'Totals',
      head: ['', 'value'],
      rows: [
        ['a_total', num(s.a_total)],
        ['a_mean', num(s.a_mean)],
        ['silent citations', String(s.silent_citations)],
        ['gate', s.gate.passed ? 'PASSED' : 'FAILED'],
        ...s.gate.reasons.map((r) => ['  reason', r]),
      ],
    },
  ];
}

function delegationRow(name: string, g: DelegationGroup): string[] {
  return [
    name,
    String(g.n),
    pct(g.golden_citation_recall),
    pct(g.distractor_citation_rate),
    pct(g.outputs_citing_distractor),
    pct(g.irrelevant_citation_rate),
    pct(g.withheld_recovery),
    num(g.searches_mean),
    pct(g.answer_accuracy),
  ];
}

function delegationTables(s: DelegationScore): Table[] {
  const head = ['', 'n', 'golden recall', 'distractor cit.', 'outputs w/ distr.', 'irrelevant cit.', 'withheld recov.', 'searches', 'accuracy'];
  return [
    { title: `Delegation (n = ${s.n})`, head, rows: [delegationRow('all', { n: s.n, ...s.metrics })] },
    { title: 'By setting', head, rows: Object.entries(s.by_setting).map(([k, v]) => delegationRow(k, v)) },
    { title: 'By document order', head, rows: Object.entries(s.by_order).map(([k, v]) => delegationRow(k, v)) },
    { title: 'By mode', head, rows: Object.entries(s.by_mode).map(([k, v]) => delegationRow(k, v)) },
    { title: 'By language', head, rows: Object.entries(s.by_language).map(([k, v]) => delegationRow(k, v)) },
    { title: 'By domain', head, rows: Object.entries(s.by_domain).map(([k, v]) => delegationRow(k, v)) },
    {
      title: 'By distractor type',
      head: ['type', 'documents shown', 'cited', 'rate'],
      rows: Object.entries(s.by_distractor_type).map(([k, v]) => [k, String(v.documents), String(v.cited), pct(v.rate)]),
    },
  ];
}

function resumeTables(s: ResumeScore): Table[] {
  const cohort = s.cohort
    ? `; accuracy over the ${s.cohort.trajectories} trajectories of the audited folder, ${s.cohort.original_correct} correct before resuming`
    : '';
  return [
    {
      title: `Repair-guided resumption (fix rate over the judged resumed runs${cohort}; Wilson 95% intervals)`,
      head: ['condition', 'n', 'fixed', 'fix rate', '95% CI', 'accuracy', '95% CI', 'errors', 'unjudged'],
      rows: Object.entries(s.conditions).map(([k, c]) => [
        k,
        String(c.n),
        String(c.fixed),
        pct(c.fix_rate),
        ci(c.ci95, pct),
        pct(c.accuracy),
        ci(c.accuracy_ci95, pct),
        String(c.errors),
        String(c.unjudged),
      ]),
    },
  ];
}

/** The two-judge agreement (docs/metrics.md, "Judge agreement"); no table with fewer than two judges. */
function judgeAgreementTables(result: RunScoreResult): Table[] {
  const rows = result.judgeAgreement ?? [];
  if (!rows.length) return [];
  return [
    {
      title: 'Judge agreement (verdicts of two judges on the same units in the judgment cache)',
      head: ['judge A', 'judge B', 'n', 'agreement', "Cohen's κ"],
      rows: rows.map((r) => [r.judge_a, r.judge_b, String(r.n), pct(r.agreement), num(r.cohen_kappa, 3)]),
    },
  ];
}

function tablesOf(score: KindScore): Table[] {
  switch (score.kind) {
    case 'audit':
      return auditTables(score);
    case 'deepsearchqa':
      return dsqaTables(score);
    case 'nuggets':
      return nuggetTables(score);
    case 'scenarios':
      return scenarioTables(score);
    case 'delegation':
      return delegationTables(score);
    case 'resume':
      return resumeTables(score);
  }
}

export function judgingLine(result: RunScoreResult): string {
  const j = result.judging;
  if (j.tasks === 0) return 'judge: nothing to judge';
  const parts = [`${j.cached} cached (${j.cached} judge call(s) saved)`, `${j.judged} judged${j.judges.length ? ` by ${j.judges.join(', ')}` : ''}`];
  if (j.modelCalls) parts.push(`${j.modelCalls} model call(s)`);
  if (j.unavailable) parts.push(`${j.unavailable} without a judge`);
  if (j.failed) parts.push(`${j.failed} failed`);
  return `judge: ${parts.join(', ')}`;
}

export function detectionLine(result: RunScoreResult): string {
  return `kind ${result.detection.kind} (${result.detection.reason})`;
}

export function renderText(result: RunScoreResult): string {
  const blocks = [
    `${result.detection.folder}: ${detectionLine(result)}`,
    ...tablesOf(result.score).map(textTable),
    ...judgeAgreementTables(result).map(textTable),
    judgingLine(result),
  ];
  if (result.notes.length) blocks.push(result.notes.map((n) => `note: ${n}`).join('\n'));
  return blocks.join('\n\n');
}

export function renderMarkdown(result: RunScoreResult): string {
  const blocks = [
    // Folder names, reasons, notes and table cells carry data (dataset categories, ids, model replies): inert text.
    `# Score report: ${markdownText(result.detection.folder)}`,
    `- kind: **${markdownText(result.detection.kind)}** — ${markdownText(result.detection.reason)}\n- ${markdownText(judgingLine(result))}`,
    ...tablesOf(result.score).map(mdTable),
    ...judgeAgreementTables(result).map(mdTable),
  ];
  if (result.notes.length) blocks.push(`## Notes\n\n${result.notes.map((n) => `- ${markdownText(n)}`).join('\n')}`);
  blocks.push('Fractions are shown as percentages; scenario and nugget scores are on their own 0..100 scales.');
  return `${blocks.join('\n\n')}\n`;
}

// ---------- agreement ----------

function agreementTable(s: AgreementScore): Table {
  return {
    title: `Human validation: ${s.items} item(s), ${s.annotators.length} annotator(s) (majority label; tie = not confirmed)`,
    head: ['dimension', 'items', 'confirmed', 'confirmation', 'ci95 (exact)', 'residual defects', 'ci95 (exact)', 'raw agreement'],
    rows: Object.entries(s.dimensions).map(([k, d]) => [
      k,
      String(d.n),
      String(d.confirmed),
      pct(d.confirmation_rate),
      ci(d.confirmation_ci95, pct),
      pct(d.residual_defect_rate),
      ci(d.residual_defect_ci95, pct),
      num(d.raw_agreement, 3),
    ]),
  };
}

export function renderAgreementText(s: AgreementScore): string {
  const defects = Object.entries(s.dimensions)
    .filter(([, d]) => d.defect_items.length)
    .map(([k, d]) => `${k}: majority-negative items ${d.defect_items.join(', ')}`);
  return [textTable(agreementTable(s)), `note: ${s.note}`, ...defects].join('\n\n');
}

export function renderAgreementMarkdown(s: AgreementScore): string {
  return `# Human validation agreement\n\n${mdTable(agreementTable(s))}\n\n${markdownText(s.note)}.\n`;
}
