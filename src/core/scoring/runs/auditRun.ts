// The `audit` run kind: gold.jsonl + predictions.jsonl, or a folder of trajectories whose
// `*.audit.json` sidecars hold the human annotation (gold) and the audits (prediction = newest
// audit, or the newest of `--method`).
import { newestAudit } from '../../audit/newest';
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { z } from 'zod';
import { InputError } from '../../input/inputError';
import { loadFile } from '../../load/loadFile';
import { isTrajectoryRecord } from '../../load/loadRecord';
import type { RootCause } from '../../model/rootCauses';
import type { Trajectory } from '../../model/trajectory';
import { readSidecar } from '../../sidecar/sidecarFile';
import { rootCauseSchema, type AuditEntry, type SidecarRecord } from '../../sidecar/schema';
import { answerInHand, auditCaseRow, isSoundDiagnosis, scoreAudit, type AuditCase } from '../audit';
import { JudgmentCache } from '../judges/cache';
import { manifestJudgeOf } from '../judges/judgeIdentity';
import { hashInput, type CacheLine, type JudgeTask } from '../judges/judge';
import { repairRubricJudge, type RepairJudgeInput } from '../judges/repairRubric';
import { readJsonLines, rejectDuplicates } from '../jsonl';
import type { RunDetection, RunPlan, ScoreOptions } from './types';
import { judgmentsWriteTarget } from './detect';

const step = z.number().int({ message: 'expected a whole message position' }).nonnegative({ message: 'expected a position ≥ 0' });
const idLike = z.union([z.string().min(1), z.number()]).transform(String);

/** Gold line: {id, critical_step, tolerance_span:[s,e], root_cause, repair_rubrics?}; optional messages / final_index for positions, query / predicted_answer for the grader. */
const goldLineSchema = z
  .looseObject({
    id: idLike,
    critical_step: step,
    tolerance_span: z.tuple([step, step]).nullish(),
    root_cause: rootCauseSchema.nullish(),
    repair_rubrics: z.array(z.string()).nullish(),
    messages: z.number().int().positive().nullish(),
    final_index: step.nullish(),
    query: z.string().nullish(),
    predicted_answer: z.string().nullish(),
  })
  .superRefine((g, ctx) => {
    const span = g.tolerance_span;
    if (span && span[0] > span[1]) ctx.addIssue({ code: 'custom', path: ['tolerance_span'], message: 'tolerance span start is after its end' });
    else if (span && (g.critical_step < span[0] || g.critical_step > span[1]))
      ctx.addIssue({
        code: 'custom',
        path: ['tolerance_span'],
        message: `tolerance span [${span[0]}, ${span[1]}] does not contain the critical step ${g.critical_step}`,
      });
  });
const GOLD_WHAT = 'a gold line {id, critical_step, tolerance_span: [s, e], root_cause, repair_rubrics?}';

/** Prediction line: {id, critical_step, root_cause, repair_directive?, repair_grades?: [bool per rubric]}. */
const predictionLineSchema = z.looseObject({
  id: idLike,
  critical_step: step.nullish(),
  root_cause: rootCauseSchema.nullish(),
  repair_directive: z.union([z.string(), z.array(z.string())]).nullish(),
  repair_grades: z.array(z.boolean()).nullish(),
});
const PREDICTION_WHAT = 'a prediction line {id, critical_step, root_cause, repair_directive?, repair_grades?}';

const cacheLineSchema = z.looseObject({ id: idLike.optional() }) as unknown as z.ZodType<CacheLine>;

interface Draft {
  c: AuditCase;
  query?: string;
  predictedAnswer?: string;
}

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

function fromGoldFiles(detection: RunDetection, notes: string[]): Draft[] {
  const goldPath = detection.files.gold as string;
  const predPath = detection.files.predictions as string;
  const gold = readJsonLines(goldPath, goldPath, goldLineSchema, GOLD_WHAT);
  rejectDuplicates(
    gold,
    (g) => g.id,
    goldPath,
    (id) => `gold id "${id}"`,
  );
  const preds = readJsonLines(predPath, predPath, predictionLineSchema, PREDICTION_WHAT);
  rejectDuplicates(
    preds,
    (p) => p.id,
    predPath,
    (id) => `prediction id "${id}"`,
  );
  const byId = new Map(preds.map((p) => [p.value.id, p]));
  const goldIds = new Set(gold.map((g) => g.value.id));
  const orphans = preds.filter((p) => !goldIds.has(p.value.id));
  if (orphans.length)
    notes.push(`${orphans.length} prediction(s) have no gold case and are ignored (first: "${orphans[0].value.id}", ${predPath}:${orphans[0].line})`);
  return gold.map(({ value: g }) => {
    const found = byId.get(g.id);
    const p = found?.value;
    const rubrics = opt(g.repair_rubrics);
    if (p?.repair_grades && rubrics && p.repair_grades.length !== rubrics.length) {
      throw new InputError(predPath, `repair_grades has ${p.repair_grades.length} entries but gold case "${g.id}" has ${rubrics.length} rubrics`, {
        line: found?.line,
        column: 1,
      });
    }
    const finalIndex = opt(g.final_index) ?? (g.messages ? g.messages - 1 : undefined);
    const c: AuditCase = {
      id: g.id,
      gold: {
        criticalStep: g.critical_step,
        span: g.tolerance_span ?? [g.critical_step, g.critical_step],
        rootCause: opt(g.root_cause) as RootCause | undefined,
        rubrics,
        finalIndex,
      },
      prediction: p
        ? {
            criticalStep: opt(p.critical_step),
            rootCause: opt(p.root_cause) as RootCause | undefined,
            repair: Array.isArray(p.repair_directive) ? p.repair_directive.join('\n') : opt(p.repair_directive),
            repairGrades: opt(p.repair_grades),
          }
        : undefined,
      grades: opt(p?.repair_grades),
    };
    return { c, query: opt(g.query), predictedAnswer: opt(g.predicted_answer) };
  });
}

/** The newest audit (latest createdAt, ties and missing dates: the later in the list), of a method when given. */
export function chooseAudit(audits: readonly AuditEntry[] | null | undefined, method?: string): AuditEntry | undefined {
  return newestAudit(audits, method);
}

function gradesOf(audit: AuditEntry): boolean[] | undefined {
  const a = audit as AuditEntry & { repairGrades?: unknown; repair?: { grades?: unknown } | null };
  const g = a.repairGrades ?? a.repair?.grades;
  return Array.isArray(g) && g.every((x) => typeof x === 'boolean') ? (g as boolean[]) : undefined;
}

function fromSidecars(detection: RunDetection, options: ScoreOptions, notes: string[]): Draft[] {
  const drafts: Draft[] = [];
  let withoutGold = 0;
  let methodMissing = 0;
  for (const sidecarPath of detection.sidecars ?? []) {
    const trajectoryPath = sidecarPath.slice(0, -'.audit.json'.length);
    const name = relative(detection.folder, trajectoryPath) || trajectoryPath;
    const sidecar = readSidecar(sidecarPath);
    if (!sidecar) continue;
    const trajectories = new Map<string, Trajectory>();
    if (existsSync(trajectoryPath)) {
      const loaded = loadFile(trajectoryPath, { format: options.format });
      for (const r of loaded.records) if (isTrajectoryRecord(r)) trajectories.set(r.id, r.trajectory);
      if (loaded.problems.length) notes.push(`${name}: ${loaded.problems.length} record(s) could not be loaded`);
    } else notes.push(`${name}: trajectory file not found beside its sidecar; scored from the sidecar alone (no critical positions)`);
    const ids = [...new Set([...Object.keys(sidecar.records), ...trajectories.keys()])];
    for (const id of ids) {
      const record: SidecarRecord | undefined = sidecar.records[id];
      const t = trajectories.get(id);
      const ann = record?.annotation;
      const embedded = t?.gold;
      const k = ann?.criticalStep ?? embedded?.criticalStep;
      if (k === undefined || k === null) {
        withoutGold++;
        continue;
      }
      const fromAnnotation = ann?.criticalStep !== undefined && ann?.criticalStep !== null;
      const span = (fromAnnotation ? ann?.toleranceSpan : embedded?.toleranceSpan) ?? [k, k];
      const rootCause = (fromAnnotation ? ann?.rootCause : embedded?.rootCause) ?? undefined;
      const rubrics = opt(ann?.repairRubrics) ?? embedded?.repairRubrics;
      const audit = chooseAudit(record?.audits, options.method);
      if (options.method && !audit && record?.audits?.length) methodMissing++;
      const diagnosis = audit?.diagnosis;
      const grades = audit ? gradesOf(audit) : undefined;
      const c: AuditCase = {
        id: `${name}#${id}`,
        gold: {
          criticalStep: k,
          span: [span[0], span[1]],
          rootCause: rootCause as RootCause | undefined,
          rubrics,
          finalIndex: t ? t.messages.length - 1 : undefined,
        },
        prediction: audit
          ? {
              criticalStep: opt(diagnosis?.criticalStep),
              rootCause: opt(diagnosis?.rootCause) as RootCause | undefined,
              repair: audit.repair?.directives?.length ? audit.repair.directives.join('\n') : undefined,
              repairGrades: grades,
              method: audit.method,
            }
          : undefined,
        grades,
      };
      if (t) c.trajectory = { file: trajectoryPath, record: id };
      if (t?.goldAnswer) {
        const toolReturns = t.messages.filter((m) => m.role === 'tool');
        c.answerInHand = answerInHand(t.goldAnswer, toolReturns, k);
      }
      drafts.push({ c, query: t?.query, predictedAnswer: t?.predictedAnswer });
    }
  }
  if (withoutGold) notes.push(`${withoutGold} record(s) have no gold critical step (no annotation, no embedded gold) and are not gold cases`);
  if (methodMissing) notes.push(`${methodMissing} record(s) have audits but none by method "${options.method}": counted as missing predictions`);
  return drafts;
}

export function planAudit(detection: RunDetection, options: ScoreOptions): RunPlan {
  const notes: string[] = [];
  const drafts = detection.files.gold && detection.files.predictions ? fromGoldFiles(detection, notes) : fromSidecars(detection, options, notes);
  const cachePath = detection.files.judgments as string;
  const cache = new JudgmentCache(
    cachePath,
    cachePath,
    cacheLineSchema,
    'a judgment line',
    (line) => (Array.isArray(line.repair_grades) && line.id !== undefined ? `repair#${String(line.id)}` : undefined),
    judgmentsWriteTarget(detection),
    {
      legacyJudge: manifestJudgeOf(detection),
      labelsOf: (line) => Object.fromEntries((line.repair_grades as boolean[]).map((pass, i) => [`rubric ${i + 1}`, pass ? 'pass' : 'fail'])),
    },
  );
  const judge = options.model ? repairRubricJudge(options.model, { promptsRoot: options.promptsRoot }) : undefined;
  const tasks: JudgeTask<RepairJudgeInput, boolean[]>[] = [];
  let noRubrics = 0,
    noRepair = 0,
    ungraded = 0;
  for (const d of drafts) {
    const c = d.c;
    // Diagnosis-gated: only sound diagnoses have their repair graded.
    if (!isSoundDiagnosis(c) || c.grades !== undefined) continue;
    if (!c.prediction?.repair) {
      noRepair++;
      c.grades = [false];
      continue;
    }
    if (!c.gold.rubrics?.length) {
      noRubrics++;
      continue;
    }
    const input: RepairJudgeInput = { query: d.query, predictedAnswer: d.predictedAnswer, repair: c.prediction.repair, rubrics: c.gold.rubrics };
    tasks.push({
      key: `repair#${c.id}`,
      input,
      inputHash: hashInput(input),
      judge,
      toLine: (grades, judgeId, inputHash) => ({ id: c.id, repair_grades: grades, judge: judgeId, input_sha256: inputHash }),
      fromLine: (line) => line.repair_grades as boolean[],
      accept: (grades) => {
        c.grades = grades;
      },
      unavailable: () => {
        ungraded++;
      },
    });
  }
  return {
    tasks,
    cache,
    finish: () => {
      if (noRepair) notes.push(`${noRepair} sound diagnosis(es) have no repair directive: their repair fails`);
      if (noRubrics) notes.push(`${noRubrics} sound diagnosis(es) have a repair but the gold case has no rubrics: ungraded, counted as not passing`);
      if (ungraded) notes.push(`${ungraded} repair(s) need the rubric grader (an LLM judge) but no model is configured: ungraded, counted as not passing`);
      const cases = drafts.map((d) => d.c);
      return { score: scoreAudit(cases), notes, auditCases: cases.map(auditCaseRow) };
    },
  };
}
