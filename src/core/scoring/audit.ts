// Audit scoring (SearchAuditBench, seed 002 §5.1; docs/metrics.md §1). Pure.
import { ROOT_CAUSES, type RootCause } from '../model/rootCauses';
import { quantileLinear, ratio } from './stats';

export interface AuditGold {
  criticalStep: number;
  /** Tolerance span [k_s, k_e]; Who&When-style gold without one uses [k, k]. */
  span: [number, number];
  /** Undefined when the gold names no taxonomy class (e.g. Who&When): such a case never matches ĉ. */
  rootCause?: RootCause;
  rubrics?: string[];
  /** Final message index of the trajectory, for critical positions (messages − 1). */
  finalIndex?: number;
}

export interface AuditPrediction {
  criticalStep?: number;
  rootCause?: RootCause;
  repair?: string;
  repairGrades?: boolean[];
  /** The audit's method (sidecar runs), shown in the report's case table. */
  method?: string;
}

export interface AuditCase {
  id: string;
  gold: AuditGold;
  /** Undefined: no prediction (a miss in every metric). */
  prediction?: AuditPrediction;
  /**
   * Rubric grades of the repair (from `repair_grades` or the rubric grader). Only looked at for
   * sound diagnoses; undefined there means ungraded, which counts as not passing.
   */
  grades?: boolean[];
  /** Gold answer verbatim in a tool return at or before k*; undefined when not determinable. */
  answerInHand?: boolean;
  /** Sidecar runs: the trajectory file (absolute) and record the case comes from, when the file exists. */
  trajectory?: { file: string; record: string };
}

export const NONE_COLUMN = 'none';

export interface ClassScore {
  precision: number;
  recall: number;
  f1: number;
  support: number;
}
export interface PositionStats {
  n: number;
  /** Median critical position (numpy linear), 0 = first message, 1 = last; null when n = 0. */
  median: number | null;
  /** Share of critical positions ≥ 2/3; null when n = 0. */
  final_third_share: number | null;
}

export interface AuditScore {
  kind: 'audit';
  n: number;
  metrics: { cs_strict: number; cs_loose: number; rc_acc: number; rc_f1: number; diag: number; rep_at_diag: number; fps: number };
  per_class: Record<RootCause, ClassScore>;
  /** Rows: gold class; columns: predicted class or "none" (no prediction, or no class predicted). */
  confusion: Record<RootCause, Record<RootCause | typeof NONE_COLUMN, number>>;
  counts: {
    predicted: number;
    missing_predictions: number;
    sound_diagnoses: number;
    repairs_passed: number;
    /** Sound diagnoses with no grades (no `repair_grades`, no grader): counted as not passing. */
    ungraded_repairs: number;
    /** Gold cases without a taxonomy root cause: they are not rows of the confusion matrix. */
    gold_without_root_cause: number;
  };
  positions: { gold: PositionStats; predicted: PositionStats };
  /** Answer-in-hand rate over the cases where it is determinable; null when none is. */
  answer_in_hand: { n: number; rate: number } | null;
}

export function isSoundDiagnosis(c: AuditCase): boolean {
  const p = c.prediction;
  if (!p || p.criticalStep === undefined || p.rootCause === undefined || c.gold.rootCause === undefined) return false;
  return p.rootCause === c.gold.rootCause && p.criticalStep >= c.gold.span[0] && p.criticalStep <= c.gold.span[1];
}

export function repairPasses(grades: readonly boolean[] | undefined): boolean {
  return grades !== undefined && grades.length > 0 && grades.every(Boolean);
}

function positionStats(positions: number[]): PositionStats {
  if (positions.length === 0) return { n: 0, median: null, final_third_share: null };
  return { n: positions.length, median: quantileLinear(positions, 0.5), final_third_share: positions.filter((p) => p >= 2 / 3).length / positions.length };
}

function positionOf(step: number | undefined, finalIndex: number | undefined): number | undefined {
  if (step === undefined || finalIndex === undefined) return undefined;
  if (finalIndex <= 0) return finalIndex === 0 ? 0 : undefined;
  return step / finalIndex;
}

export type RepairStatus = 'pass' | 'fail' | 'ungraded' | 'not graded';

/** One gold case as the report's case table, its step links and the CSV export show it. */
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
  /** The grades behind `repair` (sound diagnoses only): from the prediction or the rubric grader. */
  grades?: boolean[];
}

/** The row of one scored case, by the same rules as scoreAudit (call it after the grades are resolved). */
export function auditCaseRow(c: AuditCase): AuditCaseRow {
  const p = c.prediction;
  const k = p?.criticalStep;
  const sound = isSoundDiagnosis(c);
  const row: AuditCaseRow = {
    id: c.id,
    gold: { step: c.gold.criticalStep, span: c.gold.span, rootCause: c.gold.rootCause, position: positionOf(c.gold.criticalStep, c.gold.finalIndex) },
    strict: k !== undefined && k === c.gold.criticalStep,
    loose: k !== undefined && k >= c.gold.span[0] && k <= c.gold.span[1],
    rootCauseCorrect: c.gold.rootCause !== undefined && p?.rootCause === c.gold.rootCause,
    sound,
    repair: !sound ? 'not graded' : c.grades === undefined ? 'ungraded' : repairPasses(c.grades) ? 'pass' : 'fail',
  };
  if (c.trajectory) {
    row.file = c.trajectory.file;
    row.record = c.trajectory.record;
  }
  if (p) row.predicted = { step: k, rootCause: p.rootCause, position: positionOf(k, c.gold.finalIndex), method: p.method };
  if (sound && c.grades) row.grades = c.grades;
  return row;
}

export function scoreAudit(cases: readonly AuditCase[]): AuditScore {
  const n = cases.length;
  let strict = 0,
    loose = 0,
    rcHits = 0,
    sound = 0,
    passed = 0,
    ungraded = 0,
    predicted = 0,
    noGoldClass = 0;
  const confusion = Object.fromEntries(
    ROOT_CAUSES.map((g) => [g, Object.fromEntries([...ROOT_CAUSES, NONE_COLUMN].map((p) => [p, 0]))]),
  ) as AuditScore['confusion'];
  const goldPositions: number[] = [];
  const predictedPositions: number[] = [];
  let inHandN = 0,
    inHand = 0;
  for (const c of cases) {
    const p = c.prediction;
    if (p) predicted++;
    const k = p?.criticalStep;
    if (k !== undefined && k === c.gold.criticalStep) strict++;
    if (k !== undefined && k >= c.gold.span[0] && k <= c.gold.span[1]) loose++;
    if (c.gold.rootCause !== undefined && p?.rootCause === c.gold.rootCause) rcHits++;
    if (c.gold.rootCause === undefined) noGoldClass++;
    else confusion[c.gold.rootCause][p?.rootCause ?? NONE_COLUMN]++;
    if (isSoundDiagnosis(c)) {
      sound++;
      if (c.grades === undefined) ungraded++;
      if (repairPasses(c.grades)) passed++;
    }
    const gp = positionOf(c.gold.criticalStep, c.gold.finalIndex);
    if (gp !== undefined) goldPositions.push(gp);
    const pp = positionOf(k, c.gold.finalIndex);
    if (pp !== undefined) predictedPositions.push(pp);
    if (c.answerInHand !== undefined) {
      inHandN++;
      if (c.answerInHand) inHand++;
    }
  }
  const perClass = {} as Record<RootCause, ClassScore>;
  for (const cls of ROOT_CAUSES) {
    const tp = confusion[cls][cls];
    const support = ROOT_CAUSES.reduce((s, p) => s + confusion[cls][p], 0) + confusion[cls][NONE_COLUMN];
    const predictedAs = cases.filter((c) => c.prediction?.rootCause === cls).length;
    const precision = ratio(tp, predictedAs);
    const recall = ratio(tp, support);
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    perClass[cls] = { precision, recall, f1, support };
  }
  const rcF1 = ROOT_CAUSES.reduce((s, cls) => s + perClass[cls].f1, 0) / ROOT_CAUSES.length;
  return {
    kind: 'audit',
    n,
    metrics: {
      cs_strict: ratio(strict, n),
      cs_loose: ratio(loose, n),
      rc_acc: ratio(rcHits, n),
      rc_f1: rcF1,
      diag: ratio(sound, n),
      rep_at_diag: ratio(passed, sound),
      fps: ratio(passed, n),
    },
    per_class: perClass,
    confusion,
    counts: {
      predicted,
      missing_predictions: n - predicted,
      sound_diagnoses: sound,
      repairs_passed: passed,
      ungraded_repairs: ungraded,
      gold_without_root_cause: noGoldClass,
    },
    positions: { gold: positionStats(goldPositions), predicted: positionStats(predictedPositions) },
    answer_in_hand: inHandN === 0 ? null : { n: inHandN, rate: inHand / inHandN },
  };
}

/** Gold answer verbatim in a tool return at or before the critical step (NFKC, case and whitespace folded). */
export function answerInHand(goldAnswer: string, toolReturns: readonly { position: number; content: string }[], criticalStep: number): boolean {
  const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  const needle = fold(goldAnswer);
  if (needle === '') return false;
  return toolReturns.some((m) => m.position <= criticalStep && fold(m.content).includes(needle));
}
