import type { Trajectory } from '../model/trajectory';
import type { StepCorrection } from './types';

/**
 * Maps a proposed step onto a decision step (seed 002 §4, rule iii): a tool return goes to the
 * decision step that issued its call; a user/system message to the next decision step; an
 * out-of-range position to the nearest end. Returns the correction when one was needed.
 */
export function toDecisionStep(t: Trajectory, proposed: number, source: string): { step: number; correction?: StepCorrection } {
  const decisions = t.decisionSteps;
  if (decisions.length === 0) return { step: proposed };
  if (decisions.includes(proposed)) return { step: proposed };
  const last = t.messages.length - 1;
  let step: number;
  let reason: string;
  if (!Number.isInteger(proposed) || proposed < 0 || proposed > last) {
    step = proposed < 0 ? decisions[0] : decisions[decisions.length - 1];
    reason = `position ${proposed} is outside the trajectory (0–${last})`;
  } else {
    const message = t.messages[proposed];
    if (message.role === 'tool' && message.issuedBy !== undefined) {
      step = message.issuedBy;
      reason = `message ${proposed} is a tool return; mapped to the decision step that issued the call`;
    } else {
      step = decisions.find((d) => d > proposed) ?? decisions[decisions.length - 1];
      reason = `message ${proposed} is a ${message.role} message, not a decision step; mapped to the next decision step`;
    }
  }
  return { step, correction: { source, proposed, mappedTo: step, reason } };
}
