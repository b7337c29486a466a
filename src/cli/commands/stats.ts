// `trajaudit stats <file or folder…> [--json] [--by model|dataset|format] [--format ID]`
//
// Corpus statistics (docs/cli.md): every trajectory record under the paths, seed 002 Appendix C
// Tables 5–7 for any corpus. Reads only; an unreadable file is listed and the rest still counted.
import { corpusStatsOfRows, GROUP_KEYS, type CorpusStats, type Distribution, type GroupKey, type StatsReport } from '../../core/collections/corpusStats';
import { CliUsageError, type CliIo } from '../io';
import { JSON_OPTION, TOOL_NAME_OPTIONS, TRAJECTORY_FORMAT_OPTION, type CliCommand } from '../options';
import { CACHE_OPTION, readCollectionRows } from './collection';

function number(value: number | null, digits = 1): string {
  if (value === null) return '—';
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

function percent(value: number | null): string {
  return value === null ? '—' : `${(value * 100).toFixed(1)}%`;
}

const COUNT_ROWS: [string, keyof CorpusStats][] = [
  ['messages', 'messages'],
  ['decision steps', 'decision_steps'],
  ['tool calls', 'tool_calls'],
  ['atomic ops', 'atomic_ops'],
  ['tokens (o200k)', 'tokens'],
];

function table(stats: CorpusStats, indent: string): string[] {
  const lines = [
    `${indent}trajectories: ${stats.trajectories}   formats: ${
      Object.entries(stats.by_format)
        .map(([id, n]) => `${id} ${n}`)
        .join(', ') || '—'
    }`,
  ];
  lines.push(`${indent}${''.padEnd(16)}${'mean'.padStart(10)}${'p50'.padStart(10)}${'p90'.padStart(10)}${'max'.padStart(10)}`);
  const row = (label: string, d: Distribution) =>
    `${indent}${label.padEnd(16)}${number(d.mean).padStart(10)}${number(d.p50).padStart(10)}${number(d.p90).padStart(10)}${number(d.max).padStart(10)}`;
  for (const [label, key] of COUNT_ROWS) lines.push(row(label, stats[key] as Distribution));
  if (stats.annotated !== undefined) {
    lines.push(
      `${indent}annotated: ${stats.annotated}   root causes: ${
        Object.entries(stats.root_causes ?? {})
          .map(([id, n]) => `${id} ${n}`)
          .join(', ') || '—'
      }`,
    );
    const cp = stats.critical_position;
    lines.push(
      `${indent}critical position: mean ${percent(cp?.mean ?? null)}   p50 ${percent(cp?.p50 ?? null)}   in the final third ${percent(cp?.final_third ?? null)}`,
    );
    if (stats.span_length) lines.push(row('span length', stats.span_length));
  }
  return lines;
}

export function renderStatsText(report: StatsReport): string {
  const lines = table(report, '');
  for (const [value, group] of Object.entries(report.groups ?? {})) lines.push('', `${value}:`, ...table(group, '  '));
  if (report.unreadable.length) lines.push('', `unreadable: ${report.unreadable.length} (listed on stderr)`);
  return lines.join('\n');
}

function groupKeyFrom(values: Record<string, unknown>): GroupKey | undefined {
  const by = values.by;
  if (by === undefined) return undefined;
  if (!(GROUP_KEYS as readonly unknown[]).includes(by))
    throw new CliUsageError(`--by ${JSON.stringify(by)} is not a grouping; expected one of ${GROUP_KEYS.join(', ')}`);
  return by as GroupKey;
}

export async function runStats(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length === 0) throw new CliUsageError('missing <file or folder…>');
  const by = groupKeyFrom(values);
  // Through the collection index: a second run reads one file instead of parsing and tokenizing every trajectory.
  const collection = await readCollectionRows(positionals, values, io);
  const report = corpusStatsOfRows(collection.rows, collection.unreadable, { by });
  io.out(values.json ? JSON.stringify(report, null, 2) : renderStatsText(report));
  for (const u of collection.unreadable) io.err(`${u.file}: ${u.message}`);
  return collection.unreadable.length > 0 ? 1 : 0;
}

export const statsCommand: CliCommand = {
  name: 'stats',
  args: '<file or folder…>',
  summary:
    'Corpus statistics (seed 002 Appendix C): counts per format; mean, p50, p90 and max of messages, decision steps, tool calls, atomic operations and tokens; root causes, critical positions and span lengths where annotated.',
  options: {
    ...JSON_OPTION,
    by: { type: 'string', value: GROUP_KEYS.join('|'), help: 'the same statistics per model, dataset or format, under "groups"' },
    ...TRAJECTORY_FORMAT_OPTION,
    ...TOOL_NAME_OPTIONS,
    ...CACHE_OPTION,
  },
  run: runStats,
};
