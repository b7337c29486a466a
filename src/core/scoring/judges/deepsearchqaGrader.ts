// The `llm` DeepSearchQA judge: the Appendix A grader prompt (prompts/judges/deepsearchqa-grader),
// output validated with zod and retried on malformed output.
import { graderOutputSchema, type AnswerCorrectness, type DeepSearchQaJudgeInput } from './answerCorrectness';
import type { Judge } from './judge';
import { completeValidated, type StructuredModel } from './llm';
import { loadPrompt, renderPrompt } from './prompts';

export interface LlmJudgeOptions {
  promptVersion?: string;
  maxAttempts?: number;
  /** prompts/ folder override (tests). */
  promptsRoot?: string;
}

export function deepSearchQaLlmJudge(model: StructuredModel, options: LlmJudgeOptions = {}): Judge<DeepSearchQaJudgeInput, AnswerCorrectness> {
  const template = loadPrompt('deepsearchqa-grader', options.promptVersion ?? 'v1', options.promptsRoot);
  return {
    id: `llm/${template.version}`,
    usesModel: true,
    identity: { ...model.identity, prompt: template.version },
    async judge(input, signal) {
      const { system, user } = renderPrompt(template, {
        prompt: input.problem,
        prompt_type: input.answerType,
        answer: input.answer,
        response: input.response,
      });
      const result = await completeValidated(
        model,
        { system, user, schema: graderOutputSchema, schemaName: 'AnswerCorrectness' },
        {
          signal,
          maxAttempts: options.maxAttempts,
          check: (v) =>
            Object.keys(v.AnswerCorrectness.CorrectnessDetails).length === 0 ? 'CorrectnessDetails is empty; give one key per expected answer part' : undefined,
        },
      );
      return result.value.AnswerCorrectness;
    },
  };
}
