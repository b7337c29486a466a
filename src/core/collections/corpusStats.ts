// Corpus statistics of a collection (docs/cli.md, `trajaudit stats --json`; seed 002 Appendix C
// Tables 5–7): counts per format, the distribution of each per-trajectory count, and, over the
// annotated trajectories, root causes, critical positions and tolerance-span lengths.
import { mean, quantileLinear } from '../scoring/stats';
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
export function distribution(values: readonly number[]): Distribution {
  if (values.length === 0) return { mean: null, p50: null, p90: null, max: null };
  return { mean: mean(values), p50: quantileLinear(values, 0.5), p90: quantileLinear(values, 0.9), max: Math.max(...values) };
}

/** The final third of a trajectory begins at 2/3 of the final message index (Appendix C). */
export const FINAL_THIRD = 2 / 3;

interface Row {
  format: string;
  messages: number;
  decisionSteps: number;
  toolCalls: number;
  atomicOps: number;
  tokens: number;
  rootCause?: string;
  criticalPosition?: number;
  spanLength?: number;
  annotated: boolean;
  group: Record<GroupKey, string>;
}

/** The statistics' view of a collection row (the index stores rows, so `stats` reads no trajectory twice). */
function statsRowOf(row: CollectionRow): Row {
  // The reference label: the human annotation in the sidecar, else the gold in the file.
  const label = row.human;
  const position = label?.criticalStep == null ? null : criticalPosition(label.criticalStep, row.messages);
  const span = label?.toleranceSpan;
  return {
    format: row.format,
    messages: row.messages,
    decisionSteps: row.decisionSteps,
    toolCalls: row.toolCalls,
    atomicOps: row.atomicOps,
    tokens: row.tokens,
    annotated: label !== null,
    ...(label?.rootCause ? { rootCause: label.rootCause } : {}),
    ...(position !== null ? { criticalPosition: position } : {}),
    // Span length counts messages from the span's start through its end, inclusively.
    ...(span ? { spanLength: span[1] - span[0] + 1 } : {}),
    group: { format: row.format, model: row.model ?? '(none)', dataset: row.dataset ?? '(none)' },
  };
}

function present<T>(values: (T | undefined)[]): T[] {
  return values.filter((v): v is T => v !== undefined);
}

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of [...values].sort()) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

function statsOfRows(rows: readonly Row[]): CorpusStats {
  const stats: CorpusStats = {
    trajectories: rows.length,
    by_format: countBy(rows.map((r) => r.format)),
    messages: distribution(rows.map((r) => r.messages)),
    decision_steps: distribution(rows.map((r) => r.decisionSteps)),
    tool_calls: distribution(rows.map((r) => r.toolCalls)),
    atomic_ops: distribution(rows.map((r) => r.atomicOps)),
    tokens: distribution(rows.map((r) => r.tokens)),
  };
  const annotated = rows.filter((r) => r.annotated);
  if (annotated.length > 0) {
    const positions = present(annotated.map((r) => r.criticalPosition));
    stats.annotated = annotated.length;
    stats.root_causes = countBy(present(annotated.map((r) => r.rootCause)));
    stats.critical_position = {
      mean: positions.length ? mean(positions) : null,
      p50: quantileLinear(positions, 0.5),
      final_third: positions.length ? positions.filter((p) => p >= FINAL_THIRD).length / positions.length : null,
    };
    stats.span_length = distribution(present(annotated.map((r) => r.spanLength)));
  }
  return stats;
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
  const rows = collectionRows.map(statsRowOf);
  const { trajectories: n, ...rest } = statsOfRows(rows);
  const report: StatsReport = { trajectories: n, unreadable: [...unreadable], ...rest };
  if (options.by) {
    const key = options.by;
    const groups: Record<string, CorpusStats> = {};
    for (const value of [...new Set(rows.map((r) => r.group[key]))].sort()) groups[value] = statsOfRows(rows.filter((r) => r.group[key] === value));
    report.groups = groups;
  }
  return report;
}
