// Pure helpers: validating a tolerance span and a critical step as the annotation panel edits
// them. Comparing a diagnosis with a reference is the core's rule (src/core/audit/verdicts.ts).

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
