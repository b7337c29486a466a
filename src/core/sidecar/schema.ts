import { z } from 'zod';
import { idKeyedRecord } from '../input/idKeyed';
import { normalizeRootCause, ROOT_CAUSES } from '../model/rootCauses';
import { inflateTexts } from './sharedTexts';

/**
 * v2 (written): audits may refer to a text stored once in `texts` (`{"$text": "<sha256>"}`), and
 * an annotation keeps `trajectorySha256`, the trajectory it was made against. v1 (still read):
 * the same without either; its annotations are taken as made against `trajectory.sha256`.
 */
export const SIDECAR_SCHEMA = 'trajaudit.audit/v2';
export const READABLE_SIDECAR_SCHEMAS = ['trajaudit.audit/v1', SIDECAR_SCHEMA] as const;

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

export const annotationSchema = z
  .looseObject({
    criticalStep: step.nullish(),
    toleranceSpan: z.tuple([step, step]).nullish(),
    rootCause: rootCauseSchema.nullish(),
    rationale: z.string().nullish(),
    repairDirective: z.string().nullish(),
    repairRubrics: z.array(z.string()).nullish(),
    annotator: z.string().nullish(),
    updatedAt: z.string().nullish(),
    /** sha256 of the trajectory file this annotation was made (or last confirmed) against; audits never change it. */
    trajectorySha256: z.string().nullish(),
  })
  .superRefine((a, ctx) => {
    const span = a.toleranceSpan;
    if (span && span[0] > span[1]) ctx.addIssue({ code: 'custom', path: ['toleranceSpan'], message: 'tolerance span start is after its end' });
    if (span && typeof a.criticalStep === 'number' && (a.criticalStep < span[0] || a.criticalStep > span[1])) {
      ctx.addIssue({
        code: 'custom',
        path: ['toleranceSpan'],
        message: `tolerance span [${span[0]}, ${span[1]}] does not contain the critical step ${a.criticalStep}`,
      });
    }
  });

export const auditSchema = z.looseObject({
  id: z.string(),
  method: z.string(),
  provider: z.string().nullish(),
  model: z.string().nullish(),
  createdAt: z.string().nullish(),
  promptVersion: z.string().nullish(),
  diagnosis: z
    .looseObject({
      criticalStep: step.nullish(),
      rootCause: rootCauseSchema.nullish(),
      rationale: z.string().nullish(),
      citedSteps: z.array(step).nullish(),
    })
    .nullish(),
  repair: z.looseObject({ directives: z.array(z.string()) }).nullish(),
  branches: z
    .array(
      z.looseObject({
        name: z.string(),
        criticalStep: step.nullish(),
        rootCause: rootCauseSchema.nullish(),
        rationale: z.string().nullish(),
        notes: z.string().nullish(),
      }),
    )
    .nullish(),
  adjudication: z.looseObject({ disagreements: z.string().nullish(), clusters: z.array(z.array(step)).nullish() }).nullish(),
  /** The offline auditor's ranked suspect steps (spec §3): score in [0, 1], the signals that fired, quotes with their positions. */
  suspects: z
    .array(
      z.looseObject({
        step,
        score: z.number().min(0).max(1),
        signals: z.array(z.string()),
        evidence: z.array(z.looseObject({ step, quote: z.string() })),
      }),
    )
    .nullish(),
  usage: z.looseObject({}).nullish(),
});

export const sidecarRecordSchema = z.looseObject({
  annotation: annotationSchema.nullish(),
  audits: z.array(auditSchema).nullish(),
});

const sidecarObjectSchema = z.looseObject({
  schema: z.enum(READABLE_SIDECAR_SCHEMAS, { message: `expected "schema": "${SIDECAR_SCHEMA}"` }),
  /** `sha256`: the trajectory file when the sidecar was last written (by an audit or a save). */
  trajectory: z.looseObject({ file: z.string(), sha256: z.string().nullish(), format: z.string().nullish() }),
  records: idKeyedRecord(sidecarRecordSchema),
});

/**
 * A sidecar of either readable version, as v2 in memory: shared texts put back in place (the
 * `texts` table is rebuilt on write), and every annotation carrying the hash it was made against.
 */
export const sidecarSchema = z.preprocess(inflateTexts, sidecarObjectSchema).transform((sidecar) => {
  const { texts: _texts, ...rest } = sidecar as typeof sidecar & { texts?: unknown };
  for (const record of Object.values(rest.records)) {
    if (record.annotation && !record.annotation.trajectorySha256 && rest.trajectory.sha256) record.annotation.trajectorySha256 = rest.trajectory.sha256;
  }
  return { ...rest, schema: SIDECAR_SCHEMA };
});

export type Sidecar = z.infer<typeof sidecarSchema>;
export type SidecarRecord = z.infer<typeof sidecarRecordSchema>;
export type Annotation = z.infer<typeof annotationSchema>;
export type AuditEntry = z.infer<typeof auditSchema>;
