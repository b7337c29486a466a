// How a predicted diagnosis compares with a reference (a human annotation, or the gold labels of
// a file), the way the benchmark scores it (seed 002 §3.2: strict = the exact step, loose =
// within the tolerance span; the root cause must agree). One rule for the record list's
// "disagreeing" flag (src/core/view/recordView.ts) and the webview's verdicts.
import { normalizeRootCause } from '../model/rootCauses';

export type StepVerdict = 'exact' | 'within span' | 'outside span' | 'missing';
export type CauseVerdict = 'agree' | 'disagree' | 'missing';

export function stepVerdict(
  predicted: number | null | undefined,
  reference: number | null | undefined,
  span: readonly [number, number] | null | undefined,
): StepVerdict {
  if (predicted === null || predicted === undefined || reference === null || reference === undefined) return 'missing';
  if (predicted === reference) return 'exact';
  if (span && predicted >= span[0] && predicted <= span[1]) return 'within span';
  return 'outside span';
}

/** Ids and display names compare as their id; a value outside the taxonomy compares as given. */
export function causeVerdict(a: string | null | undefined, b: string | null | undefined): CauseVerdict {
  const x = a ? (normalizeRootCause(a) ?? a) : null;
  const y = b ? (normalizeRootCause(b) ?? b) : null;
  if (!x || !y) return 'missing';
  return x === y ? 'agree' : 'disagree';
}
