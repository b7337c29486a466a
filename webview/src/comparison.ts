// Pure helpers: validating a tolerance span and comparing a predicted diagnosis with a
// reference (your annotation, or the gold labels from the file) the way the benchmark scores it
// (§3.2: strict = exact step, loose = within the tolerance span; root cause must agree).
import { normalizeRootCause } from './taxonomy';

export type StepVerdict = 'exact' | 'within span' | 'outside span' | 'missing';
export type CauseVerdict = 'agree' | 'disagree' | 'missing';

export function stepVerdict(predicted: number | null | undefined, reference: number | null | undefined, span: [number, number] | null | undefined): StepVerdict {
  if (predicted === null || predicted === undefined || reference === null || reference === undefined) return 'missing';
  if (predicted === reference) return 'exact';
  if (span && predicted >= span[0] && predicted <= span[1]) return 'within span';
  return 'outside span';
}

export function causeVerdict(a: string | null | undefined, b: string | null | undefined): CauseVerdict {
  const x = normalizeRootCause(a ?? null);
  const y = normalizeRootCause(b ?? null);
  if (!x || !y) return 'missing';
  return x === y ? 'agree' : 'disagree';
}

export interface SpanCheckContext {
  exists(position: number): boolean;
  isDecision(position: number): boolean;
  describe(position: number): string;
}

/** Why a tolerance span is invalid (contiguous, contains the critical step, both ends decision steps), or null. */
export function spanError(span: [number, number], critical: number | null | undefined, ctx: SpanCheckContext): string | null {
  const [s, e] = span;
  if (!Number.isInteger(s) || !Number.isInteger(e)) return 'Both ends must be message positions.';
  for (const p of [s, e]) if (!ctx.exists(p)) return `There is no message ${p} in this record.`;
  if (s > e) return `The span must run forward: start ${s} comes after end ${e}.`;
  for (const p of [s, e]) if (!ctx.isDecision(p)) return `Both ends must be decision steps; ${p} is ${ctx.describe(p)}.`;
  if (critical !== null && critical !== undefined && (critical < s || critical > e)) return `The span must contain the critical step ${critical}.`;
  return null;
}

/** Why a critical step is invalid (must be a decision step of this record), or null. */
export function criticalError(step: number, ctx: SpanCheckContext): string | null {
  if (!Number.isInteger(step)) return 'The critical step must be a message position.';
  if (!ctx.exists(step)) return `There is no message ${step} in this record.`;
  if (!ctx.isDecision(step)) return `The critical step must be a decision step; ${step} is ${ctx.describe(step)}.`;
  return null;
}
