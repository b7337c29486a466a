// `trajaudit study <folder> --methods m1,m2:ablation,… [--sample N --seed S] [--json] [--out DIR]
//                  [--provider … --model … --base-url …] [--price IN,CACHED,OUT] [--concurrency N]`
// Seed 002 §5.3 / Appendix E: each method or ablation audits the same cases; prints the comparison
// table and writes it to DIR/study.md and DIR/study.json (each method's audit run under DIR/<id>/).
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/files/atomicWrite';
import { parseMethodId, type MethodId } from '../../core/audit/methodIds';
import { markdownText } from '../../core/markdown/markdownText';
import { createModelClient } from '../../core/providers/factory';
import { structuredModelFromClient } from '../../core/scoring/judges/providerModel';
import { tidy } from '../../core/scoring/stats';
import { runStudy, type StudyMethodRow, type StudyResult } from '../../core/study/runStudy';
import { CliUsageError, trajectoryFormatFrom, type CliIo } from '../io';
import { JSON_OPTION, PRICE_OPTION, PROVIDER_OPTIONS, TRAJECTORY_FORMAT_OPTION, concurrencyOption, type CliCommand } from '../options';
import { modelSettingsFrom } from './auditWithModel';
import { defaultOut, intFlag, pricingFlag, progressPrinter, seedFlag, withInterrupt } from './harnessCommon';

function methodsFlag(values: Record<string, unknown>): MethodId[] {
  if (typeof values.methods !== 'string' || !values.methods.trim())
    throw new CliUsageError('study needs --methods m1,m2:ablation,… (e.g. searchauditor,searchauditor:vote,all-at-once)');
  const ids: MethodId[] = [];
  for (const part of values.methods.split(',').map((p) => p.trim())) {
    if (!part) continue;
    const parsed = parseMethodId(part);
    if ('error' in parsed) throw new CliUsageError(`--methods: ${parsed.error}`);
    ids.push(parsed);
  }
  return ids;
}

const COLUMNS = ['method', 'n', 'CS-Strict', 'CS-Loose', 'RC-Acc', 'RC-F1', 'Diag', 'Rep@Diag', 'FPS', 'calls', 'in', 'cached', 'out', 'cost $', 'latency s'];
const pct = (x: number) => (100 * x).toFixed(2);
const tokens = (x: number) => Math.round(x).toLocaleString('en-US');

function rowCells(id: string, r: StudyMethodRow): string[] {
  const m = r.metrics;
  return [
    id,
    String(r.n),
    ...[m.cs_strict, m.cs_loose, m.rc_acc, m.rc_f1, m.diag, m.rep_at_diag, m.fps].map(pct),
    r.calls.toFixed(2),
    tokens(r.input_tokens),
    tokens(r.cached_input_tokens),
    tokens(r.output_tokens),
    r.cost_usd === null ? '—' : r.cost_usd.toFixed(4),
    (r.latency_ms / 1000).toFixed(1),
  ];
}

function caption(result: StudyResult): string {
  const { n, of, seed } = result.sample;
  return `${n} case(s)${n < of ? ` sampled from ${of} (seed ${seed})` : ''}; metrics in percent, resources per case (means)`;
}

function textTable(result: StudyResult): string {
  const rows = [COLUMNS, ...Object.entries(result.methods).map(([id, r]) => rowCells(id, r))];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [caption(result), '', ...rows.map(line)].join('\n');
}

function markdownTable(result: StudyResult): string {
  const rows = Object.entries(result.methods).map(([id, r]) => rowCells(id, r).map(markdownText));
  return [
    '# Study',
    '',
    markdownText(caption(result)),
    '',
    `| ${COLUMNS.join(' | ')} |`,
    `| ${COLUMNS.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
  ].join('\n');
}

/** The `study --json` document (docs/cli.md): per method exactly n, metrics and the per-case resource means. */
export function studyJson(result: StudyResult): { methods: Record<string, Omit<StudyMethodRow, 'errors'>> } {
  const methods: Record<string, Omit<StudyMethodRow, 'errors'>> = {};
  for (const [id, { errors: _errors, ...row }] of Object.entries(result.methods)) {
    methods[id] = JSON.parse(JSON.stringify(row, (_k, v: unknown) => (typeof v === 'number' ? tidy(v) : v)));
  }
  return { methods };
}

export async function runStudyCommand(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length !== 1) throw new CliUsageError(positionals.length ? 'study expects exactly one folder' : 'study: missing <folder>');
  const methods = methodsFlag(values);
  const sample = values.sample === undefined ? undefined : intFlag(values, 'sample', 0, 1);
  const needsModel = methods.some((m) => m.method !== 'heuristic');
  const settings = needsModel || values.model !== undefined ? modelSettingsFrom(values) : undefined;
  const client = settings ? createModelClient(settings) : undefined;
  const folder = positionals[0];
  const out = typeof values.out === 'string' ? values.out : defaultOut('study', folder);
  const trajectoryFormat = trajectoryFormatFrom(values);
  const result = await withInterrupt(io, (signal) =>
    runStudy({
      folder,
      methods,
      ...(sample !== undefined ? { sample } : {}),
      seed: seedFlag(values),
      out,
      ...(client ? { client, grader: structuredModelFromClient(client, { maxOutputTokens: settings?.maxOutputTokens }) } : {}),
      callSettings: {
        ...(settings?.maxOutputTokens ? { maxOutputTokens: settings.maxOutputTokens } : {}),
        ...(settings?.temperature !== undefined ? { temperature: settings.temperature } : {}),
        ...(settings?.reasoningEffort ? { reasoningEffort: settings.reasoningEffort } : {}),
      },
      concurrency: intFlag(values, 'concurrency', 4, 1),
      pricing: pricingFlag(values),
      ...(trajectoryFormat ? { format: trajectoryFormat } : {}),
      signal,
      onProgress: progressPrinter(io, 'study'),
    }),
  );
  for (const note of result.notes) io.err(`trajaudit study: note: ${note}`);
  if (result.aborted) {
    io.err('trajaudit study: interrupted; rerun the same command to audit the missing cases');
    return 1;
  }
  writeFileAtomic(join(out, 'study.json'), `${JSON.stringify({ ...studyJson(result), sample: result.sample, notes: result.notes }, null, 2)}\n`);
  writeFileAtomic(join(out, 'study.md'), markdownTable(result));
  if (values.json) io.out(JSON.stringify(studyJson(result), null, 2));
  else io.out(`${textTable(result)}\n\ntable written to ${join(out, 'study.md')}; each method's audit run (trajaudit score) under ${out}/`);
  return 0;
}

export const studyCommand: CliCommand = {
  name: 'study',
  args: '<folder>',
  summary:
    'Seed 002 §5.3 / Appendix E: runs each method or ablation (method:ablation, e.g. searchauditor:vote) over the same gold cases and prints the comparison table: CS-Strict … FPS, calls, tokens, cost and latency per case.',
  options: {
    methods: { type: 'string', value: 'M1,M2:ABLATION,…', help: 'the methods and ablations to compare', required: true },
    sample: { type: 'string', value: 'N', help: 'audit N cases drawn with the seeded RNG (default: every gold case)' },
    seed: { type: 'string', value: 'S', help: 'seed of the sample (default 0)' },
    out: { type: 'string', value: 'DIR', help: 'where the table and each method’s audit run go (default trajaudit-runs/study-<folder name>); rerun to resume' },
    ...concurrencyOption('cases', 4),
    ...PRICE_OPTION,
    ...TRAJECTORY_FORMAT_OPTION,
    ...PROVIDER_OPTIONS,
    ...JSON_OPTION,
  },
  run: runStudyCommand,
};
