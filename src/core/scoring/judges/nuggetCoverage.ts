// Nugget coverage judge (seed 004, Prompt E): labels each golden nugget full / partial / none
// against a candidate answer. Prompt: prompts/judges/nugget-coverage.
import { z } from 'zod';
import type { Judge } from './judge';
import { completeValidated, type StructuredModel } from './llm';
import type { LlmJudgeOptions } from './deepsearchqaGrader';
import { loadPrompt, renderPrompt } from './prompts';

export const COVERAGE_LABELS = ['full', 'partial', 'none'] as const;
export type CoverageLabel = (typeof COVERAGE_LABELS)[number];

export interface NuggetJudgeInput {
  query: string;
  nuggets: { text: string; weight: number }[];
  answer: string;
}

const outputSchema = z.object({
  coverage: z.array(z.object({ nugget: z.number().int(), label: z.enum(COVERAGE_LABELS), reason: z.string().optional() })),
});
type Output = z.infer<typeof outputSchema>;

function check(n: number) {
  return (v: Output): string | undefined => {
    if (v.coverage.length !== n) return `expected ${n} coverage entries (one per nugget), got ${v.coverage.length}`;
    const indices = v.coverage.map((c) => c.nugget).sort((a, b) => a - b);
    if (indices.some((x, i) => x !== i + 1)) return `expected nugget numbers 1..${n}, each once`;
    return undefined;
  };
}

export function nuggetCoverageJudge(model: StructuredModel, options: LlmJudgeOptions = {}): Judge<NuggetJudgeInput, CoverageLabel[]> {
  const template = loadPrompt('nugget-coverage', options.promptVersion ?? 'v1', options.promptsRoot);
  return {
    id: `llm/${template.version}`,
    usesModel: true,
    identity: { ...model.identity, prompt: template.version },
    async judge(input, signal) {
      const { system, user } = renderPrompt(template, {
        query: input.query,
        nuggets: input.nuggets.map((n, i) => `${i + 1}. ${n.text} (weight ${n.weight})`).join('\n'),
        nugget_count: input.nuggets.length,
        answer: input.answer,
      });
      const result = await completeValidated(
        model,
        { system, user, schema: outputSchema, schemaName: 'NuggetCoverage' },
        {
          signal,
          maxAttempts: options.maxAttempts,
          check: check(input.nuggets.length),
        },
      );
      return [...result.value.coverage].sort((a, b) => a.nugget - b.nugget).map((c) => c.label);
    },
  };
}
