import type { GoldAnnotation, Message, Trajectory, TrajectoryFormat } from '../model/trajectory';

export interface TrajectoryParts {
  format: TrajectoryFormat;
  id: string;
  messages: Message[];
  query?: string;
  predictedAnswer?: string;
  goldAnswer?: string;
  gold?: GoldAnnotation;
  metadata: Record<string, unknown>;
  /** Which messages are decision steps; default: the assistant messages. */
  isDecision?: (m: Message) => boolean;
  /** Take the final step's text as the predicted answer when the source names none (default true). */
  inferPredictedAnswer?: boolean;
  /**
   * The text the agent wrote in a decision step, where an `<answer>` tag or a `FINAL ANSWER:` line
   * counts (default: its content). Readers that append tool results to a step's content (ATIF
   * observations, smolagents observations, OWL rounds, Gemini CLI results) pass the step's own
   * text: an answer tag quoted by a fetched page is not the agent's answer, and searching the
   * appended text would also copy every joined content once more.
   */
  answerTextOf?: (m: Message) => string;
}

/** The text of a closed `<answer>…</answer>` in a decision step, whatever the format (agents of every kind are prompted to write one). */
function answerTagOf(content: string): string | undefined {
  if (!content.includes('<answer>')) return undefined;
  const answer = /<answer>([\s\S]*?)<\/answer>/.exec(content);
  return answer ? answer[1].trim() : undefined;
}

// GAIA-style agents (Magentic-One, smolagents' GAIA runs) end with a `FINAL ANSWER: …` line; the
// prompt's own template `FINAL ANSWER: [YOUR FINAL ANSWER]` is not an answer.
const FINAL_ANSWER_LINE = /^[ \t]*FINAL ANSWER:[ \t]*(.*?)[ \t]*\r?$/gm;

/** The value of the last `FINAL ANSWER:` line of a message, if any. */
export function finalAnswerLineOf(content: string): string | undefined {
  if (!content.includes('FINAL ANSWER:')) return undefined;
  let last: string | undefined;
  for (const match of content.matchAll(FINAL_ANSWER_LINE)) {
    if (match[1] && !/YOUR FINAL ANSWER/i.test(match[1])) last = match[1];
  }
  return last;
}

/**
 * Derives what every format shares: decision steps, the final-answer step (the one holding
 * <answer>, else the last decision step), and the query / predicted answer when the source
 * does not state them (first user message; the final step's answer, else the last decision step's
 * `FINAL ANSWER:` line when no step holds <answer>, else the final step's text).
 */
export function finishTrajectory(parts: TrajectoryParts): Trajectory {
  const isDecision = parts.isDecision ?? ((m: Message) => m.role === 'assistant');
  const answerTextOf = parts.answerTextOf ?? ((m: Message) => m.content);
  // Sized for every message and cut to the decisions after: growing by push allocates about three times the final list on a long log.
  const decisionSteps = new Array<number>(parts.messages.length);
  let decisions = 0;
  // An indexed loop: a for-of that runs before V8 optimizes it allocates an iterator result per message.
  for (let index = 0; index < parts.messages.length; index++) {
    const message = parts.messages[index];
    if (!isDecision(message)) continue;
    decisionSteps[decisions++] = message.position;
    if (message.answer === undefined) {
      const answer = answerTagOf(answerTextOf(message));
      if (answer !== undefined) message.answer = answer;
    }
  }
  decisionSteps.length = decisions;
  let finalAnswerStep: number | undefined;
  for (let i = decisionSteps.length - 1; i >= 0; i--) {
    if (parts.messages[decisionSteps[i]].answer !== undefined) {
      finalAnswerStep = decisionSteps[i];
      break;
    }
  }
  let finalAnswerLine: string | undefined;
  if (finalAnswerStep === undefined) {
    for (let i = decisionSteps.length - 1; i >= 0 && finalAnswerLine === undefined; i--) {
      finalAnswerLine = finalAnswerLineOf(answerTextOf(parts.messages[decisionSteps[i]]));
      if (finalAnswerLine !== undefined) finalAnswerStep = decisionSteps[i];
    }
  }
  finalAnswerStep ??= decisionSteps.at(-1);
  const firstUser = parts.messages.find((m) => m.role === 'user');
  const finalMessage = finalAnswerStep !== undefined ? parts.messages[finalAnswerStep] : undefined;
  const infer = parts.inferPredictedAnswer !== false;
  const predictedAnswer =
    parts.predictedAnswer ??
    finalMessage?.answer ??
    finalAnswerLine ??
    (infer && finalMessage && finalMessage.toolCalls.length === 0 && finalMessage.content.trim() ? finalMessage.content.trim() : undefined);
  const trajectory: Trajectory = {
    format: parts.format,
    id: parts.id,
    messages: parts.messages,
    decisionSteps,
    finalAnswerStep,
    metadata: parts.metadata,
  };
  const query = parts.query ?? firstUser?.content;
  if (query !== undefined) trajectory.query = query;
  if (predictedAnswer !== undefined) trajectory.predictedAnswer = predictedAnswer;
  if (parts.goldAnswer !== undefined) trajectory.goldAnswer = parts.goldAnswer;
  if (parts.gold) trajectory.gold = parts.gold;
  return trajectory;
}
