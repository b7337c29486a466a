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
}

/** The text of a closed `<answer>…</answer>` in a decision step, whatever the format (agents of every kind are prompted to write one). */
function answerTagOf(content: string): string | undefined {
  if (!content.includes('<answer>')) return undefined;
  const answer = /<answer>([\s\S]*?)<\/answer>/.exec(content);
  return answer ? answer[1].trim() : undefined;
}

/**
 * Derives what every format shares: decision steps, the final-answer step (the one holding
 * <answer>, else the last decision step), and the query / predicted answer when the source
 * does not state them (first user message; the final step's answer or text).
 */
export function finishTrajectory(parts: TrajectoryParts): Trajectory {
  const isDecision = parts.isDecision ?? ((m: Message) => m.role === 'assistant');
  const decisionSteps = parts.messages.filter(isDecision).map((m) => m.position);
  for (const position of decisionSteps) {
    const message = parts.messages[position];
    if (message.answer === undefined) {
      const answer = answerTagOf(message.content);
      if (answer !== undefined) message.answer = answer;
    }
  }
  let finalAnswerStep: number | undefined;
  for (let i = decisionSteps.length - 1; i >= 0; i--) {
    if (parts.messages[decisionSteps[i]].answer !== undefined) {
      finalAnswerStep = decisionSteps[i];
      break;
    }
  }
  finalAnswerStep ??= decisionSteps.at(-1);
  const firstUser = parts.messages.find((m) => m.role === 'user');
  const finalMessage = finalAnswerStep !== undefined ? parts.messages[finalAnswerStep] : undefined;
  const infer = parts.inferPredictedAnswer !== false;
  const predictedAnswer =
    parts.predictedAnswer ??
    finalMessage?.answer ??
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
