import { z } from 'zod';

const idLike = z.union([z.string(), z.number()]).transform(String);
const optionalText = z.union([z.string(), z.number()]).transform(String).nullish();

export const delegationDocSchema = z.looseObject({
  doc_id: idLike,
  title: optionalText,
  url: optionalText,
  site_name: optionalText,
  publish_time: optionalText,
  content: z.string({ message: 'expected the document text as a string' }),
});

export const distractorDocSchema = delegationDocSchema.extend({
  distractor_type: z.string().nullish(),
  source_doc_key: z.unknown().optional(),
  target_info_point: z.unknown().optional(),
  target_evidence_text: z.unknown().optional(),
  synthetic_url: z.string().nullish(),
  pseudo_publish_time: z.string().nullish(),
  discriminating_constraint: z.unknown().optional(),
  conflict_hint: z.unknown().optional(),
});

/** Delegation Intelligence item (seed 000). */
export const delegationItemSchema = z.looseObject({
  id: idLike,
  query: z.string(),
  golden_answer: z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]),
  golden_docs: z.array(delegationDocSchema),
  irrelevant_docs: z.array(delegationDocSchema).default([]),
  distractor_docs: z.array(distractorDocSchema).default([]),
  evidence_spans: z.array(z.unknown()).default([]),
  reasoning_steps: z.array(z.unknown()).default([]),
  mode: z.string().nullish(),
  language: z.string().nullish(),
  domain: z.string().nullish(),
});
export type DelegationItem = z.infer<typeof delegationItemSchema>;
export type DelegationDoc = z.infer<typeof delegationDocSchema>;

const answerType = z
  .string()
  .transform((s) => s.trim().toLowerCase().replace(/[_-]+/g, ' '))
  .pipe(z.enum(['single answer', 'set answer'], { message: 'expected "Single Answer" or "Set Answer"' }))
  .transform((s) => (s === 'single answer' ? 'Single Answer' : 'Set Answer'));

/** DeepSearchQA row (seed 001). */
export const deepSearchQaRowSchema = z.looseObject({
  id: idLike.optional(),
  problem: z.string().min(1, { message: 'expected a non-empty problem' }),
  problem_category: z.string().default(''),
  answer: z.union([z.string(), z.number()]).transform(String),
  answer_type: answerType,
});
export type DeepSearchQaRow = z.infer<typeof deepSearchQaRowSchema> & { id: string };

/** Clarify-Then-Search instance (seed 004). */
export const clarifyInstanceSchema = z.looseObject({
  id: idLike,
  blurred_query: z.string(),
  fused_query: z.string(),
  nuggets: z.array(
    z.looseObject({
      text: z.string(),
      weight: z.union([z.literal(1), z.literal(2), z.literal(3)], { message: 'expected weight 1, 2 or 3' }),
      evidence_ids: z.array(z.union([z.string(), z.number()])).optional(),
    }),
  ),
});
export type ClarifyInstance = z.infer<typeof clarifyInstanceSchema>;

/** The seed-003 scenario set, used as is. Points are a number, or "veto" for a one-vote veto. */
export const scenarioCriterionSchema = z.looseObject({
  id: z.string(),
  track: z.enum(['A', 'B'], { message: 'expected track "A" or "B"' }),
  dim: z.string(),
  text: z.string(),
  check: z.enum(['mechanical', 'human'], { message: 'expected check "mechanical" or "human"' }),
  points: z.union([z.number(), z.literal('veto')], { message: 'expected a number of points or "veto"' }),
});
export const scenarioSetSchema = z.looseObject({
  meta: z.looseObject({ scoring: z.looseObject({}).optional() }),
  registered_sources: z.array(z.looseObject({ id: z.string() })).optional(),
  scenarios: z.array(
    z.looseObject({
      id: z.string(),
      input: z.string().optional(),
      criteria: z.array(scenarioCriterionSchema),
    }),
  ),
});
export type ScenarioSet = z.infer<typeof scenarioSetSchema>;
export type ScenarioCriterion = z.infer<typeof scenarioCriterionSchema>;
