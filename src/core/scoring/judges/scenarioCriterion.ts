// Judge for a mechanical criterion of a seed-003 scenario set: is the criterion hit by the
// deliverable? Human criteria are never sent to a model. Prompt: prompts/judges/scenario-criterion.
import { z } from 'zod';
import type { Judge } from './judge';
import { completeValidated, type StructuredModel } from './llm';
import type { LlmJudgeOptions } from './deepsearchqaGrader';
import { loadPrompt, renderPrompt } from './prompts';

export interface CriterionJudgeInput {
  scenarioId: string;
  scenarioInput: string;
  trap: string;
  criterionId: string;
  criterionText: string;
  deliverable: string;
}

const outputSchema = z.object({ hit: z.boolean(), reason: z.string().optional(), evidence: z.string().optional() });

export function scenarioCriterionJudge(model: StructuredModel, options: LlmJudgeOptions = {}): Judge<CriterionJudgeInput, boolean> {
  const template = loadPrompt('scenario-criterion', options.promptVersion ?? 'v1', options.promptsRoot);
  return {
    id: `llm/${template.version}`,
    usesModel: true,
    identity: { ...model.identity, prompt: template.version },
    async judge(input, signal) {
      const { system, user } = renderPrompt(template, {
        scenario_id: input.scenarioId,
        scenario_input: input.scenarioInput,
        trap: input.trap || '(none stated)',
        criterion_id: input.criterionId,
        criterion_text: input.criterionText,
        deliverable: input.deliverable,
      });
      const result = await completeValidated(
        model,
        { system, user, schema: outputSchema, schemaName: 'CriterionVerdict' },
        {
          signal,
          maxAttempts: options.maxAttempts,
        },
      );
      return result.value.hit;
    },
  };
}
