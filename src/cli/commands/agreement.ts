// `trajaudit agreement <annotation files…> [--json] [--out report.md]`
// `trajaudit agreement <folder or trajectory files…> [--json] [--format ID]`
//
// Given trajectories (a folder, or files read as trajectories): agreement between the raters of a
// collection — sidecar annotations per annotator, the gold in the file, each method's newest audit
// (src/core/collections/agreement.ts). Given annotation files:
// Multi-annotator human validation (seed 000): majority labels, confirmation and residual defect
// rates with exact (Clopper–Pearson) 95% intervals, raw agreement (not chance-corrected). The
// annotation file shape is documented in src/core/scoring/agreementInputs.ts and docs/metrics.md §6.
import { statSync, writeFileSync } from 'node:fs';
import { collectionAgreement, ratedCases, type AgreementReport } from '../../core/collections/agreement';
import { collectTrajectories } from '../../core/collections/collect';
import { loadFile } from '../../core/load/loadFile';
import { TRAJECTORY_FORMATS } from '../../core/model/trajectory';
import { InputError } from '../../core/input/inputError';
import { scoreAgreement } from '../../core/scoring/agreement';
import { readAnnotationFiles } from '../../core/scoring/agreementInputs';
import { renderAgreementMarkdown, renderAgreementText, tidyJson } from '../../core/scoring/render';
import { CliUsageError, trajectoryFormatFrom, type CliIo } from '../io';
import { JSON_OPTION, TRAJECTORY_FORMAT_OPTION, type CliCommand } from '../options';

/** A folder, or a file read as trajectories: the collection reading of `agreement`. */
function isTrajectoryInput(path: string, values: Record<string, unknown>): boolean {
  try {
    if (statSync(path).isDirectory()) return true;
    return (TRAJECTORY_FORMATS as readonly string[]).includes(loadFile(path, { format: trajectoryFormatFrom(values) }).detection.kind);
  } catch {
    return false; // the reading that follows names the problem
  }
}

const fraction = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(1)}%`);

function renderCollectionAgreement(report: AgreementReport): string {
  const lines = [`${report.cases} rated case(s); raters: ${report.raters.join(', ') || '—'}`];
  if (report.pairs.length === 0) lines.push('no pair of raters (one rater or none): nothing to compare');
  const apart = report.pairs.filter((pair) => pair.n === 0);
  if (apart.length) lines.push(`${apart.length} pair(s) of raters share no case: ${apart.map((pair) => `${pair.a} / ${pair.b}`).join(', ')}`);
  for (const pair of report.pairs.filter((p) => p.n > 0)) {
    const cs = pair.critical_step;
    const rc = pair.root_cause;
    lines.push(
      '',
      `${pair.a} vs ${pair.b}: ${pair.n} case(s)`,
      `  critical step: same ${fraction(cs.same)} of ${cs.n}   within each other's span ${fraction(cs.within_span)} of ${cs.within_span_n}`,
      `  root cause: agreement ${fraction(rc.agreement)} of ${rc.n}   Cohen's κ ${rc.cohen_kappa === null ? `— (${rc.kappa_reason})` : rc.cohen_kappa.toFixed(3)}`,
    );
    for (const [a, row] of Object.entries(rc.confusion))
      lines.push(
        `    ${a} → ${Object.entries(row)
          .map(([b, n]) => `${b} ${n}`)
          .join(', ')}`,
      );
    for (const c of pair.cases) {
      const side = (s: { critical_step: number | null; root_cause: string | null }) => `${s.critical_step ?? '—'} ${s.root_cause ?? '—'}`;
      lines.push(`    ${c.case}: ${side(c.a)} | ${side(c.b)}`);
    }
  }
  const f = report.fleiss;
  if (f) lines.push('', `Fleiss' κ (${f.raters.length} raters, ${f.n} case(s) rated by all): ${f.kappa === null ? `— (${f.reason})` : f.kappa.toFixed(3)}`);
  return lines.join('\n');
}

function runCollectionAgreement(positionals: string[], values: Record<string, unknown>, io: CliIo): number {
  if (values.out !== undefined) throw new CliUsageError('--out writes the report of annotation files; for trajectories use --json');
  const collection = collectTrajectories(positionals, { format: trajectoryFormatFrom(values) });
  const report = collectionAgreement(ratedCases(collection.trajectories));
  io.out(values.json ? JSON.stringify({ ...report, unreadable: collection.unreadable }, null, 2) : renderCollectionAgreement(report));
  for (const u of collection.unreadable) io.err(`${u.file}: ${u.message}`);
  return collection.unreadable.length > 0 ? 1 : 0;
}

export function runAgreement(positionals: string[], values: Record<string, unknown>, io: CliIo): number {
  if (positionals.length === 0) throw new CliUsageError('missing <annotation file…> or <folder or trajectory file…>');
  if (positionals.some((p) => isTrajectoryInput(p, values))) return runCollectionAgreement(positionals, values, io);
  const score = scoreAgreement(readAnnotationFiles(positionals));
  if (typeof values.out === 'string') {
    try {
      writeFileSync(values.out, renderAgreementMarkdown(score));
    } catch (error) {
      throw new InputError(values.out, `cannot write the report (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  if (values.json) io.out(JSON.stringify(tidyJson(score), null, 2));
  else io.out(renderAgreementText(score));
  return 0;
}

export const agreementCommand: CliCommand = {
  name: 'agreement',
  args: '<annotation files…> | <folder or trajectory files…>',
  summary:
    "Multi-annotator agreement. Annotation files (human validation): majority labels, confirmation and residual defect rates with exact 95% intervals. Trajectories: per pair of raters (annotators, gold, each method's newest audit) the per-case table, critical-step agreement, root-cause confusion and Cohen's κ; Fleiss' κ for more than two.",
  options: {
    ...JSON_OPTION,
    out: { type: 'string', value: 'FILE', help: 'also write a Markdown report (annotation files)' },
    ...TRAJECTORY_FORMAT_OPTION,
  },
  run: runAgreement,
};
