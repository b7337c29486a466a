// The report's exports: Markdown (as `trajaudit score --out`), JSON (exactly the `score --json`
// document) and CSV (per-case or per-item rows; trajectory files relative to the run folder).
import { relative } from 'node:path';
import { renderMarkdown, scoreJson } from '../render';
import type { RunScoreResult } from '../scoreRunFolder';
import type { ExportFormat } from '../../../shared/reportProtocol';
import type { AuditCaseRow } from '../audit';

type Value = string | number | boolean | null | undefined;

/** One CSV field (RFC 4180). Text that a spreadsheet would run as a formula gets a leading apostrophe. */
export function csvField(value: Value): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(Number(value.toPrecision(12))) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  let s = value;
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvText(head: string[], rows: Value[][]): string {
  return [head, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

function auditCsv(folder: string, cases: readonly AuditCaseRow[]): string {
  return csvText(
    [
      'case',
      'trajectory_file',
      'record',
      'gold_step',
      'span_start',
      'span_end',
      'gold_root_cause',
      'gold_position',
      'predicted_step',
      'predicted_root_cause',
      'predicted_position',
      'method',
      'cs_strict',
      'cs_loose',
      'rc_correct',
      'sound_diagnosis',
      'repair',
    ],
    cases.map((c) => [
      c.id,
      c.file ? relative(folder, c.file) : undefined,
      c.record,
      c.gold.step,
      c.gold.span[0],
      c.gold.span[1],
      c.gold.rootCause,
      c.gold.position,
      c.predicted?.step,
      c.predicted?.rootCause,
      c.predicted?.position,
      c.predicted?.method,
      c.strict,
      c.loose,
      c.rootCauseCorrect,
      c.sound,
      c.sound ? c.repair : '',
    ]),
  );
}

export function csvFor(result: RunScoreResult): string {
  const s = result.score;
  switch (s.kind) {
    case 'audit':
      return auditCsv(result.detection.folder, result.cases ?? []);
    case 'deepsearchqa':
      return csvText(
        ['id', 'sample', 'found', 'expected', 'submitted', 'precision', 'recall', 'f1', 'category'],
        s.per_item.map((it) => [
          it.id,
          it.sample,
          it.score.found,
          it.score.expected,
          it.score.submitted,
          it.score.precision,
          it.score.recall,
          it.score.f1,
          it.score.category,
        ]),
      );
    case 'nuggets':
      return csvText(
        ['id', 'condition', 'restore_score_100'],
        s.per_instance.map((r) => [r.id, r.condition, r.score]),
      );
    case 'scenarios':
      return csvText(
        ['scenario', 'a', 'b', 'veto_failed', 'unscored', 'missing_criteria'],
        Object.entries(s.scenarios).map(([k, v]) => [k, v.a, v.b, v.veto_failed, s.unscored.includes(k), (s.missing[k] ?? []).join(' ')]),
      );
    case 'resume':
      return csvText(
        ['condition', 'n', 'fixed', 'fix_rate', 'ci95_lo', 'ci95_hi', 'accuracy', 'errors', 'unjudged'],
        Object.entries(s.conditions).map(([k, c]) => [k, c.n, c.fixed, c.fix_rate, c.ci95?.[0] ?? null, c.ci95?.[1] ?? null, c.accuracy, c.errors, c.unjudged]),
      );
    case 'delegation': {
      const head = [
        'group',
        'value',
        'n',
        'golden_citation_recall',
        'distractor_citation_rate',
        'outputs_citing_distractor',
        'irrelevant_citation_rate',
        'withheld_recovery',
        'searches_mean',
        'answer_accuracy',
      ];
      const rows: Value[][] = [];
      const add = (group: string, value: string, g: typeof s.metrics & { n: number }) =>
        rows.push([
          group,
          value,
          g.n,
          g.golden_citation_recall,
          g.distractor_citation_rate,
          g.outputs_citing_distractor,
          g.irrelevant_citation_rate,
          g.withheld_recovery,
          g.searches_mean,
          g.answer_accuracy,
        ]);
      add('all', 'all', { n: s.n, ...s.metrics });
      for (const [k, v] of Object.entries(s.by_setting)) add('setting', k, v);
      for (const [k, v] of Object.entries(s.by_order)) add('order', k, v);
      const typeRows = Object.entries(s.by_distractor_type).map(
        ([k, v]) => ['distractor_type', k, v.documents, null, v.rate, null, null, null, null, null] as Value[],
      );
      return csvText(head, [...rows, ...typeRows]);
    }
  }
}

/** The `score --json` document, as the CLI prints it (2-space indent, one trailing newline). */
export function jsonFor(result: RunScoreResult): string {
  return `${JSON.stringify(scoreJson(result), null, 2)}\n`;
}

export function exportText(format: ExportFormat, result: RunScoreResult): string {
  switch (format) {
    case 'md':
      return renderMarkdown(result);
    case 'json':
      return jsonFor(result);
    case 'csv':
      return csvFor(result);
  }
}

export function defaultExportName(format: ExportFormat, kind: RunScoreResult['score']['kind']): string {
  if (format === 'md') return 'score-report.md';
  if (format === 'json') return 'score.json';
  return kind === 'audit'
    ? 'score-cases.csv'
    : kind === 'deepsearchqa'
      ? 'score-items.csv'
      : kind === 'nuggets'
        ? 'score-instances.csv'
        : kind === 'scenarios'
          ? 'score-scenarios.csv'
          : kind === 'resume'
            ? 'score-conditions.csv'
            : 'score-groups.csv';
}
