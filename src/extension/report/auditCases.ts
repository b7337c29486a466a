// Per-case rows of an audit run, for the report's case table, its step links and the CSV export.
// The audit scorer returns aggregates only, so the rows are rebuilt here from the same files with
// the same rules (docs/run-folders.md §3; src/core/scoring/runs/auditRun.ts): gold = annotation (or the
// trajectory's embedded gold), prediction = newest audit (or the newest of `method`). Repair
// verdicts that came from the rubric grader are captured from the judge tasks (see scoring.ts).
// Pure Node: no `vscode` import, so unit tests run it directly.
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { z } from 'zod';
import { loadFile } from '../../core/load/loadFile';
import { isTrajectoryRecord } from '../../core/load/loadRecord';
import { normalizeRootCause, type RootCause } from '../../core/model/rootCauses';
import type { Trajectory } from '../../core/model/trajectory';
import { readJsonLines } from '../../core/scoring/jsonl';
import { chooseAudit } from '../../core/scoring/runs/auditRun';
import type { RunDetection } from '../../core/scoring/runs/types';
import type { AuditEntry } from '../../core/sidecar/schema';
import { readSidecar } from '../../core/sidecar/sidecarFile';

export type RepairStatus = 'pass' | 'fail' | 'ungraded' | 'not graded';

export interface AuditCaseRow {
  /** The scorer's case id: the gold id, or `<trajectory file relative to the folder>#<record id>`. */
  id: string;
  /** Trajectory file (absolute) and record id, when the case comes from a sidecar and the file exists. */
  file?: string;
  record?: string;
  gold: { step: number; span: [number, number]; rootCause?: RootCause; position?: number };
  /** Absent: no prediction (a miss in every metric). */
  predicted?: { step?: number; rootCause?: RootCause; position?: number; method?: string };
  strict: boolean;
  loose: boolean;
  rootCauseCorrect: boolean;
  /** ĉ = c* and k_s ≤ k̂ ≤ k_e. */
  sound: boolean;
  /** Repairs are graded only for sound diagnoses (diagnosis-gated); `not graded` otherwise. */
  repair: RepairStatus;
  /** Explicit grades from the prediction, or captured from the rubric grader. */
  grades?: boolean[];
}

const idLike = z.union([z.string().min(1), z.number()]).transform(String);
const looseGold = z.looseObject({ id: idLike, critical_step: z.number(), tolerance_span: z.tuple([z.number(), z.number()]).nullish(), root_cause: z.unknown().optional(), messages: z.number().nullish(), final_index: z.number().nullish(), repair_rubrics: z.array(z.string()).nullish() });
const loosePrediction = z.looseObject({ id: idLike, critical_step: z.number().nullish(), root_cause: z.unknown().optional(), repair_directive: z.unknown().optional(), repair_grades: z.array(z.boolean()).nullish() });

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

function positionOf(step: number | undefined, finalIndex: number | undefined): number | undefined {
  if (step === undefined || finalIndex === undefined) return undefined;
  if (finalIndex <= 0) return finalIndex === 0 ? 0 : undefined;
  return step / finalIndex;
}

function explicitGrades(audit: AuditEntry): boolean[] | undefined {
  const a = audit as AuditEntry & { repairGrades?: unknown; repair?: { grades?: unknown } | null };
  const g = a.repairGrades ?? a.repair?.grades;
  return Array.isArray(g) && g.every((x) => typeof x === 'boolean') ? (g as boolean[]) : undefined;
}

interface Draft {
  id: string;
  file?: string;
  record?: string;
  step: number;
  span: [number, number];
  rootCause?: RootCause;
  finalIndex?: number;
  hasRubrics: boolean;
  predicted?: { step?: number; rootCause?: RootCause; method?: string; hasRepair: boolean; grades?: boolean[] };
}

function fromGoldFiles(detection: RunDetection): Draft[] {
  const goldPath = detection.files.gold as string;
  const predPath = detection.files.predictions as string;
  const gold = readJsonLines(goldPath, goldPath, looseGold, 'a gold line');
  const preds = new Map(readJsonLines(predPath, predPath, loosePrediction, 'a prediction line').map((l) => [l.value.id, l.value]));
  return gold.map(({ value: g }) => {
    const p = preds.get(g.id);
    const directive = p?.repair_directive;
    return {
      id: g.id,
      step: g.critical_step,
      span: opt(g.tolerance_span) ?? [g.critical_step, g.critical_step],
      rootCause: normalizeRootCause(g.root_cause),
      finalIndex: opt(g.final_index) ?? (g.messages ? g.messages - 1 : undefined),
      hasRubrics: (g.repair_rubrics?.length ?? 0) > 0,
      predicted: p ? {
        step: opt(p.critical_step),
        rootCause: normalizeRootCause(p.root_cause),
        hasRepair: Array.isArray(directive) ? directive.length > 0 : typeof directive === 'string' && directive.length > 0,
        grades: opt(p.repair_grades),
      } : undefined,
    };
  });
}

function fromSidecars(detection: RunDetection, method: string | undefined): Draft[] {
  const drafts: Draft[] = [];
  for (const sidecarPath of detection.sidecars ?? []) {
    const trajectoryPath = sidecarPath.slice(0, -'.audit.json'.length);
    const name = relative(detection.folder, trajectoryPath) || trajectoryPath;
    const sidecar = readSidecar(sidecarPath);
    if (!sidecar) continue;
    const trajectories = new Map<string, Trajectory>();
    const exists = existsSync(trajectoryPath);
    if (exists) {
      for (const r of loadFile(trajectoryPath).records) if (isTrajectoryRecord(r)) trajectories.set(r.id, r.trajectory);
    }
    const ids = [...new Set([...Object.keys(sidecar.records), ...trajectories.keys()])];
    for (const id of ids) {
      const record = sidecar.records[id];
      const t = trajectories.get(id);
      const ann = record?.annotation;
      const embedded = t?.gold;
      const k = ann?.criticalStep ?? embedded?.criticalStep;
      if (k === undefined || k === null) continue;
      const fromAnnotation = ann?.criticalStep !== undefined && ann?.criticalStep !== null;
      const span = (fromAnnotation ? ann?.toleranceSpan : embedded?.toleranceSpan) ?? [k, k];
      const rootCause = (fromAnnotation ? ann?.rootCause : embedded?.rootCause) ?? undefined;
      const rubrics = opt(ann?.repairRubrics) ?? embedded?.repairRubrics;
      const audit = chooseAudit(record?.audits, method);
      drafts.push({
        id: `${name}#${id}`,
        ...(exists && t ? { file: trajectoryPath, record: id } : {}),
        step: k,
        span: [span[0], span[1]],
        rootCause: normalizeRootCause(rootCause),
        finalIndex: t ? t.messages.length - 1 : undefined,
        hasRubrics: (rubrics?.length ?? 0) > 0,
        predicted: audit ? {
          step: opt(audit.diagnosis?.criticalStep),
          rootCause: normalizeRootCause(audit.diagnosis?.rootCause),
          method: audit.method,
          hasRepair: (audit.repair?.directives?.length ?? 0) > 0,
          grades: explicitGrades(audit),
        } : undefined,
      });
    }
  }
  return drafts;
}

/**
 * The rows of an audit run. `judged` holds rubric-grader verdicts by judge-task key
 * (`repair#<case id>`), captured while scoring.
 */
export function auditCaseRows(detection: RunDetection, method: string | undefined, judged: ReadonlyMap<string, boolean[]> = new Map()): AuditCaseRow[] {
  const drafts = detection.files.gold && detection.files.predictions ? fromGoldFiles(detection) : fromSidecars(detection, method);
  return drafts.map((d) => {
    const p = d.predicted;
    const k = p?.step;
    const strict = k !== undefined && k === d.step;
    const loose = k !== undefined && k >= d.span[0] && k <= d.span[1];
    const rootCauseCorrect = d.rootCause !== undefined && p?.rootCause === d.rootCause;
    const sound = loose && rootCauseCorrect && p?.rootCause !== undefined;
    let grades: boolean[] | undefined;
    let repair: RepairStatus = 'not graded';
    if (sound) {
      grades = p?.grades ?? judged.get(`repair#${d.id}`) ?? (p?.hasRepair ? undefined : [false]);
      repair = grades === undefined ? 'ungraded' : grades.length > 0 && grades.every(Boolean) ? 'pass' : 'fail';
    }
    const row: AuditCaseRow = {
      id: d.id,
      gold: { step: d.step, span: d.span, rootCause: d.rootCause, position: positionOf(d.step, d.finalIndex) },
      strict, loose, rootCauseCorrect, sound, repair,
    };
    if (d.file) {
      row.file = d.file;
      row.record = d.record;
    }
    if (p) row.predicted = { step: k, rootCause: p.rootCause, position: positionOf(k, d.finalIndex), method: p.method };
    if (grades) row.grades = grades;
    return row;
  });
}
