import { z } from 'zod';
import { normalizeRootCause, ROOT_CAUSES } from '../model/rootCauses';

export const SIDECAR_SCHEMA = 'trajaudit.audit/v1';

const step = z.number().int({ message: 'expected a whole message position' }).nonnegative({ message: 'expected a position ≥ 0' });
/** Accepts ids and display names; stores the id. */
export const rootCauseSchema = z.string().transform((value, ctx) => {
  const id = normalizeRootCause(value);
  if (!id) {
    ctx.addIssue({ code: 'custom', message: `unknown root cause ${JSON.stringify(value)}; expected one of ${ROOT_CAUSES.join(', ')}` });
    return z.NEVER;
  }
  return id;
});

export const annotationSchema = z.looseObject({
  criticalStep: step.nullish(),
  toleranceSpan: z.tuple([step, step]).nullish(),
  rootCause: rootCauseSchema.nullish(),
  rationale: z.string().nullish(),
  repairDirective: z.string().nullish(),
  repairRubrics: z.array(z.string()).nullish(),
  annotator: z.string().nullish(),
  updatedAt: z.string().nullish(),
}).superRefine((a, ctx) => {
  const span = a.toleranceSpan;
  if (span && span[0] > span[1]) ctx.addIssue({ code: 'custom', path: ['toleranceSpan'], message: 'tolerance span start is after its end' });
  if (span && typeof a.criticalStep === 'number' && (a.criticalStep < span[0] || a.criticalStep > span[1])) {
    ctx.addIssue({ code: 'custom', path: ['toleranceSpan'], message: `tolerance span [${span[0]}, ${span[1]}] does not contain the critical step ${a.criticalStep}` });
  }
});

export const auditSchema = z.looseObject({
  id: z.string(),
  method: z.string(),
  provider: z.string().nullish(),
  model: z.string().nullish(),
  createdAt: z.string().nullish(),
  promptVersion: z.string().nullish(),
  diagnosis: z.looseObject({
    criticalStep: step.nullish(),
    rootCause: rootCauseSchema.nullish(),
    rationale: z.string().nullish(),
    citedSteps: z.array(step).nullish(),
  }).nullish(),
  repair: z.looseObject({ directives: z.array(z.string()) }).nullish(),
  branches: z.array(z.looseObject({
    name: z.string(), criticalStep: step.nullish(), rootCause: rootCauseSchema.nullish(), rationale: z.string().nullish(), notes: z.string().nullish(),
  })).nullish(),
  adjudication: z.looseObject({ disagreements: z.string().nullish(), clusters: z.array(z.array(step)).nullish() }).nullish(),
  usage: z.looseObject({}).nullish(),
});

export const sidecarRecordSchema = z.looseObject({
  annotation: annotationSchema.nullish(),
  audits: z.array(auditSchema).nullish(),
});

export const sidecarSchema = z.looseObject({
  schema: z.literal(SIDECAR_SCHEMA, { message: `expected "schema": "${SIDECAR_SCHEMA}"` }),
  trajectory: z.looseObject({ file: z.string(), sha256: z.string().nullish(), format: z.string().nullish() }),
  records: z.record(z.string(), sidecarRecordSchema),
});

export type Sidecar = z.infer<typeof sidecarSchema>;
export type SidecarRecord = z.infer<typeof sidecarRecordSchema>;
export type Annotation = z.infer<typeof annotationSchema>;
export type AuditEntry = z.infer<typeof auditSchema>;
