// The DeepSearchQA grader's verdict (seed 001, Appendix A): the shape every DeepSearchQA judge
// (the `llm` grader and the deterministic `exact` judge) returns and `judgments.jsonl` caches.
import { z } from 'zod';

export const answerCorrectnessSchema = z.object({
  Explanation: z.string(),
  CorrectnessDetails: z.record(z.string(), z.boolean()),
  ExcessiveAnswers: z.array(z.string()),
});
export type AnswerCorrectness = z.infer<typeof answerCorrectnessSchema>;

/** The grader's output document: `{"AnswerCorrectness": {...}}`. */
export const graderOutputSchema = z.object({ AnswerCorrectness: answerCorrectnessSchema });

export type AnswerType = 'Single Answer' | 'Set Answer';

export interface DeepSearchQaJudgeInput {
  problem: string;
  answer: string;
  answerType: AnswerType;
  response: string;
}
