// Scripted replies for the baseline batch tests, on the corpus of corpus.ts.
import type { MockReply, MockRequest } from '../../../mock/mockModelServer';

/** The corpus' decision steps are messages 2, 4, …, 14; case i's critical step is the (i mod 7)-th. */
export const criticalOf = (i: number) => 2 + 2 * (i % 7);

/** Scripted baseline judge: each case's replies lead to its own critical step, by any of the three procedures. */
export function baselineScript(request: MockRequest): MockReply {
  const text = request.userText;
  const i = Number(/tower number (\d+)/.exec(text)?.[1] ?? 0);
  const target = criticalOf(i);
  const triple = (step: number) => ({
    critical_step: step,
    root_cause: 'candidate_mismanagement',
    rationale: `case ${i}: [${step}]`,
    directives: [`Compare at ${step}.`],
  });
  const halves = /first covers messages (\d+)–(\d+), the second messages (\d+)–(\d+)/.exec(text);
  if (halves) return { text: JSON.stringify({ half: target <= Number(halves[2]) ? 'first' : 'second', rationale: `case ${i}` }) };
  const narrowed = /narrowed the critical error to messages (\d+)–(\d+)/.exec(text);
  if (narrowed) {
    const [start, end] = [Number(narrowed[1]), Number(narrowed[2])];
    return { text: JSON.stringify(triple(target >= start && target <= end ? target : start + (start % 2 ? 1 : 0))) };
  }
  const upTo = /up to decision step (\d+) /.exec(text);
  if (upTo) {
    const decisive = Number(upTo[1]) === target;
    return {
      text: JSON.stringify({
        decisive,
        rationale: `case ${i} at ${upTo[1]}`,
        ...(decisive ? { root_cause: 'constraint_neglect', directives: ['Check the year.'] } : {}),
      }),
    };
  }
  return { text: JSON.stringify(triple(target)) };
}
