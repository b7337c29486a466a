// Repair-rubric grader (seed 002, §5.1, Appendix D): one pass/fail per expert rubric; the audit
// scorer passes a repair only if every rubric passes. Prompt: prompts/judges/repair-rubric.
import { z } from 'zod';
import type { Judge } from './judge';
import { completeValidated, type StructuredModel } from './llm';
import type { LlmJudgeOptions } from './deepsearchqaGrader';
import { loadPrompt, renderPrompt } from './prompts';

export interface RepairJudgeInput {
  query?: string;
  predictedAnswer?: string;
  repair: string;
  rubrics: string[];
}

const outputSchema = z.object({
  grades: z.array(z.object({ rubric: z.number().int(), pass: z.boolean(), reason: z.string().optional() })),
});
type Output = z.infer<typeof outputSchema>;

export function repairRubricJudge(model: StructuredModel, options: LlmJudgeOptions = {}): Judge<RepairJudgeInput, boolean[]> {
  const template = loadPrompt('repair-rubric', options.promptVersion ?? 'v1', options.promptsRoot);
  return {
    id: `llm/${template.version}`,
    usesModel: true,
    identity: { ...model.identity, prompt: template.version },
    async judge(input, signal) {
      const n = input.rubrics.length;
      const { system, user } = renderPrompt(template, {
        query: input.query ?? '(not available)',
        predicted_answer: input.predictedAnswer ?? '(not available)',
        repair: input.repair,
        rubrics: input.rubrics.map((r, i) => `${i + 1}. ${r}`).join('\n'),
        rubric_count: n,
      });
      const result = await completeValidated(
        model,
        { system, user, schema: outputSchema, schemaName: 'RubricGrades' },
        {
          signal,
          maxAttempts: options.maxAttempts,
          check: (v: Output) => {
            if (v.grades.length !== n) return `expected ${n} grades (one per rubric), got ${v.grades.length}`;
            const idx = v.grades.map((g) => g.rubric).sort((a, b) => a - b);
            return idx.some((x, i) => x !== i + 1) ? `expected rubric numbers 1..${n}, each once` : undefined;
          },
        },
      );
      return [...result.value.grades].sort((a, b) => a.rubric - b.rubric).map((g) => g.pass);
    },
  };
}
