// Corpus statistics of a collection (docs/cli.md, `trajaudit stats --json`; seed 002 Appendix C
// Tables 5–7): counts per format, the distribution of each per-trajectory count, and, over the
// annotated trajectories, root causes, critical positions and tolerance-span lengths.
import { mean, quantileLinearSorted } from '../scoring/stats';
import { criticalPosition, type ToolNames } from '../stats/statistics';
import type { CollectedTrajectory, Unreadable } from './collect';
import { rowOf, type CollectionRow } from './rows';

export interface Distribution {
  mean: number | null;
  p50: number | null;
  p90: number | null;
  max: number | null;
}

export interface CorpusStats {
  trajectories: number;
  by_format: Record<string, number>;
  messages: Distribution;
  decision_steps: Distribution;
  tool_calls: Distribution;
  atomic_ops: Distribution;
  tokens: Distribution;
  annotated?: number;
  root_causes?: Record<string, number>;
  critical_position?: { mean: number | null; p50: number | null; final_third: number | null };
  span_length?: Distribution;
}

export interface StatsReport extends CorpusStats {
  unreadable: Unreadable[];
  groups?: Record<string, CorpusStats>;
}

export type GroupKey = 'model' | 'dataset' | 'format';
export const GROUP_KEYS: readonly GroupKey[] = ['model', 'dataset', 'format'];

/** Mean, numpy-linear P50 and P90, and max; every field null for no values. */
export function distribution(values: readonly number[] | Float64Array): Distribution {
  if (values.length === 0) return { mean: null, p50: null, p90: null, max: null };
  // One native numeric sort (a typed array's, no comparator) serves both percentiles and the max.
  const sorted = Float64Array.from(values).sort();
  // A plain sum: exact for the whole-number counts this is given (simple-statistics' compensated one costs more).
  let sum = 0;
  for (const v of sorted) sum += v;
  return { mean: sum / sorted.length, p50: quantileLinearSorted(sorted, 0.5), p90: quantileLinearSorted(sorted, 0.9), max: sorted[sorted.length - 1] };
}

/** The final third of a trajectory begins at 2/3 of the final message index (Appendix C). */
export const FINAL_THIRD = 2 / 3;

/** Values per key, keys in sort order (the JSON's key order). */
function countBy(values: readonly string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  const sorted: Record<string, number> = {};
  for (const key of [...counts.keys()].sort()) sorted[key] = counts.get(key) as number;
  return sorted;
}

/**
 * The statistics of rows, read straight from the CollectionRows in one pass per field group
 * (no per-row intermediate objects: `stats` from a warm index is timed against parsing the index).
 */
function statsOfRows(rows: readonly CollectionRow[]): CorpusStats {
  const n = rows.length;
  const messages = new Float64Array(n);
  const decisionSteps = new Float64Array(n);
  const toolCalls = new Float64Array(n);
  const atomicOps = new Float64Array(n);
  const tokens = new Float64Array(n);
  const formats: string[] = new Array<string>(n);
  const rootCauses: string[] = [];
  const positions: number[] = [];
  const spanLengths: number[] = [];
  let annotated = 0;
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    messages[i] = row.messages;
    decisionSteps[i] = row.decisionSteps;
    toolCalls[i] = row.toolCalls;
    atomicOps[i] = row.atomicOps;
    tokens[i] = row.tokens;
    formats[i] = row.format;
    // The reference label: the human annotation in the sidecar, else the gold in the file.
    const label = row.human;
    if (label === null) continue;
    annotated++;
    if (label.rootCause) rootCauses.push(label.rootCause);
    const position = label.criticalStep == null ? null : criticalPosition(label.criticalStep, row.messages);
    if (position !== null) positions.push(position);
    // Span length counts messages from the span's start through its end, inclusively.
    const span = label.toleranceSpan;
    if (span) spanLengths.push(span[1] - span[0] + 1);
  }
  const stats: CorpusStats = {
    trajectories: n,
    by_format: countBy(formats),
    messages: distribution(messages),
    decision_steps: distribution(decisionSteps),
    tool_calls: distribution(toolCalls),
    atomic_ops: distribution(atomicOps),
    tokens: distribution(tokens),
  };
  if (annotated > 0) {
    stats.annotated = annotated;
    stats.root_causes = countBy(rootCauses);
    stats.critical_position = {
      mean: positions.length ? mean(positions) : null,
      p50: quantileLinearSorted(Float64Array.from(positions).sort(), 0.5),
      final_third: positions.length ? positions.filter((p) => p >= FINAL_THIRD).length / positions.length : null,
    };
    stats.span_length = distribution(spanLengths);
  }
  return stats;
}

function groupValue(row: CollectionRow, key: GroupKey): string {
  if (key === 'format') return row.format;
  return (key === 'model' ? row.model : row.dataset) ?? '(none)';
}

export function corpusStats(
  trajectories: readonly CollectedTrajectory[],
  unreadable: readonly Unreadable[],
  options: { by?: GroupKey; names?: ToolNames } = {},
): StatsReport {
  return corpusStatsOfRows(
    trajectories.map((t) => rowOf(t, { names: options.names })),
    unreadable,
    options,
  );
}

/** The statistics of collection rows (read from the collection index or computed by `rowOf`). */
export function corpusStatsOfRows(collectionRows: readonly CollectionRow[], unreadable: readonly Unreadable[], options: { by?: GroupKey } = {}): StatsReport {
  const { trajectories: n, ...rest } = statsOfRows(collectionRows);
  const report: StatsReport = { trajectories: n, unreadable: [...unreadable], ...rest };
  if (options.by) {
    const key = options.by;
    const members = new Map<string, CollectionRow[]>();
    for (const row of collectionRows) {
      const value = groupValue(row, key);
      const group = members.get(value);
      if (group) group.push(row);
      else members.set(value, [row]);
    }
    const groups: Record<string, CorpusStats> = {};
    for (const value of [...members.keys()].sort()) groups[value] = statsOfRows(members.get(value) as CollectionRow[]);
    report.groups = groups;
  }
  return report;
}
