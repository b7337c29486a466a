// The outcome a source records for a run (reward, score, resolved, is_correct, success): readers
// put it in `metadata.outcome` (docs/formats.md §1); `inspect --json` and the editor header read it here.
import type { Trajectory } from './trajectory';

export interface Outcome {
  /** Whether the run succeeded, when the source says (a boolean, or a reward read as one); else null. */
  success: boolean | null;
  /** The source's numeric score or reward; else null. */
  score: number | null;
  /** The source field it came from (`scores.match.value`, `test_result.resolved`); null when there is no outcome. */
  source: string | null;
}

export const NO_OUTCOME: Outcome = { success: null, score: null, source: null };

/** `metadata.outcome` of a trajectory, each field kept only when it has its type. */
export function outcomeOf(trajectory: Trajectory): Outcome {
  const raw = trajectory.metadata.outcome;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ...NO_OUTCOME };
  const { success, score, source } = raw as Record<string, unknown>;
  const outcome: Outcome = {
    success: typeof success === 'boolean' ? success : null,
    score: typeof score === 'number' && Number.isFinite(score) ? score : null,
    source: typeof source === 'string' && source !== '' ? source : null,
  };
  return outcome.success === null && outcome.score === null ? { ...NO_OUTCOME } : outcome;
}

/** The header's text for an outcome: "success (score 1, from reward)". */
export function outcomeText(outcome: Outcome): string | undefined {
  if (outcome.success === null && outcome.score === null) return undefined;
  const verdict = outcome.success === null ? 'score' : outcome.success ? 'success' : 'failure';
  const score = outcome.score === null ? '' : outcome.success === null ? ` ${outcome.score}` : ` (score ${outcome.score})`;
  return `${verdict}${score}`;
}
