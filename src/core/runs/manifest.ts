import { z } from 'zod';

export const RUN_KINDS = ['audit', 'deepsearchqa', 'nuggets', 'scenarios', 'delegation', 'resume'] as const;
export type RunKind = (typeof RUN_KINDS)[number];
export const MANIFEST_FILE = 'trajaudit.run.json';

/** `trajaudit.run.json` (docs/run-folders.md §1): the kind and the files, by the keys of each kind. */
export const runManifestSchema = z.looseObject({
  kind: z.enum(RUN_KINDS, { message: `expected "kind" to be one of ${RUN_KINDS.join(', ')}` }),
  gold: z.string().optional(),
  predictions: z.string().optional(),
  dataset: z.string().optional(),
  responses: z.string().optional(),
  judgments: z.string().optional(),
  answers: z.string().optional(),
  clarifications: z.string().optional(),
  scenarios: z.string().optional(),
  results: z.string().optional(),
  weights: z.string().optional(),
  items: z.string().optional(),
  outputs: z.string().optional(),
  resumes: z.string().optional(),
});
export type RunManifest = z.infer<typeof runManifestSchema>;
