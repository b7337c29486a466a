// Agreement between raters over a collection (docs/cli.md, `trajaudit agreement` on trajectories):
// the human annotation in each sidecar (per annotator), the gold in the file and each audit
// method's newest audit are raters; per pair of raters the per-case table, critical-step agreement,
// the root-cause confusion matrix and Cohen's κ; Fleiss' κ when more than two raters rate the same
// cases. Pure: the caller reads the files.
import { newestAudit } from '../audit/newest';
import { cohenKappa as cohenKappaOfPairs } from '../scoring/agreement';
import { labelOfAnnotation, labelOfGold, type CaseLabel, type CollectedTrajectory } from './collect';

/** A κ, or null with the reason it is undefined. */
export interface Kappa {
  kappa: number | null;
  reason?: string;
}

const ONE_CLASS = 'every rating is the same single class, so chance agreement is 1 and κ is undefined';

/** Cohen's κ of two raters' labels of the same cases (the one rule in scoring/agreement.ts), with the reason when undefined. */
export function cohenKappa(a: readonly string[], b: readonly string[]): Kappa {
  if (a.length !== b.length) throw new RangeError(`Cohen's κ needs the same cases from both raters (${a.length} and ${b.length} labels)`);
  if (a.length === 0) return { kappa: null, reason: 'no case rated by both raters' };
  const kappa = cohenKappaOfPairs(a.map((label, i) => [label, b[i]] as const));
  return kappa === null ? { kappa: null, reason: ONE_CLASS } : { kappa };
}

/** Fleiss' κ: each case's labels from the same number (≥ 2) of raters. */
export function fleissKappa(cases: readonly (readonly string[])[]): Kappa {
  if (cases.length === 0) return { kappa: null, reason: 'no case rated by every rater' };
  const raters = cases[0].length;
  if (raters < 2 || cases.some((c) => c.length !== raters)) throw new RangeError("Fleiss' κ needs the same number (≥ 2) of ratings per case");
  const totals = new Map<string, number>();
  let agreementSum = 0;
  for (const labels of cases) {
    const counts = new Map<string, number>();
    for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
    let pairs = 0;
    for (const [label, k] of counts) {
      pairs += k * (k - 1);
      totals.set(label, (totals.get(label) ?? 0) + k);
    }
    agreementSum += pairs / (raters * (raters - 1));
  }
  const observed = agreementSum / cases.length;
  let expected = 0;
  for (const k of totals.values()) expected += (k / (cases.length * raters)) ** 2;
  if (expected === 1) return { kappa: null, reason: ONE_CLASS };
  return { kappa: (observed - expected) / (1 - expected) };
}

export interface RatedCase {
  /** `file#record` */
  id: string;
  labels: Record<string, CaseLabel>;
}

/** The raters of one trajectory: `human:<annotator>` (or `human`), `gold`, `audit:<method>` (its newest audit). */
export function ratersOf(t: CollectedTrajectory): Record<string, CaseLabel> {
  const labels: Record<string, CaseLabel> = {};
  const annotation = t.sidecarRecord?.annotation;
  const human = labelOfAnnotation(annotation);
  if (human) labels[annotation?.annotator ? `human:${annotation.annotator}` : 'human'] = human;
  const gold = labelOfGold(t.trajectory.gold);
  if (gold) labels.gold = gold;
  const audits = t.sidecarRecord?.audits ?? [];
  for (const method of [...new Set(audits.map((a) => a.method))].sort()) {
    const diagnosis = newestAudit(audits, method)?.diagnosis;
    const label: CaseLabel = {
      ...(typeof diagnosis?.criticalStep === 'number' ? { criticalStep: diagnosis.criticalStep } : {}),
      ...(diagnosis?.rootCause ? { rootCause: diagnosis.rootCause } : {}),
    };
    if (label.criticalStep !== undefined || label.rootCause !== undefined) labels[`audit:${method}`] = label;
  }
  return labels;
}

export interface PairCase {
  case: string;
  a: { critical_step: number | null; root_cause: string | null };
  b: { critical_step: number | null; root_cause: string | null };
  same_step: boolean | null;
  within_span: boolean | null;
  same_root_cause: boolean | null;
}

export interface PairAgreement {
  a: string;
  b: string;
  n: number;
  cases: PairCase[];
  critical_step: { n: number; same: number | null; within_span: number | null; within_span_n: number };
  root_cause: { n: number; agreement: number | null; confusion: Record<string, Record<string, number>>; cohen_kappa: number | null; kappa_reason?: string };
}

export interface AgreementReport {
  cases: number;
  raters: string[];
  pairs: PairAgreement[];
  fleiss: { raters: string[]; n: number; kappa: number | null; reason?: string } | null;
}

function inSpan(step: number, span: [number, number] | undefined): boolean {
  return span !== undefined && step >= span[0] && step <= span[1];
}

/**
 * Within each other's tolerance span: the same step, or, where a side has a span, the other's step
 * lies in it (every side that has one); null when neither side has a span.
 */
function withinSpans(a: CaseLabel, b: CaseLabel): boolean | null {
  if (a.criticalStep === undefined || b.criticalStep === undefined) return null;
  if (!a.toleranceSpan && !b.toleranceSpan) return null;
  return (!b.toleranceSpan || inSpan(a.criticalStep, b.toleranceSpan)) && (!a.toleranceSpan || inSpan(b.criticalStep, a.toleranceSpan));
}

const share = (k: number, n: number) => (n === 0 ? null : k / n);

function pairAgreement(cases: readonly RatedCase[], a: string, b: string): PairAgreement {
  const rows: PairCase[] = [];
  for (const c of cases) {
    const la = c.labels[a];
    const lb = c.labels[b];
    if (!la || !lb) continue;
    const steps = la.criticalStep !== undefined && lb.criticalStep !== undefined;
    const causes = la.rootCause !== undefined && lb.rootCause !== undefined;
    rows.push({
      case: c.id,
      a: { critical_step: la.criticalStep ?? null, root_cause: la.rootCause ?? null },
      b: { critical_step: lb.criticalStep ?? null, root_cause: lb.rootCause ?? null },
      same_step: steps ? la.criticalStep === lb.criticalStep : null,
      within_span: withinSpans(la, lb),
      same_root_cause: causes ? la.rootCause === lb.rootCause : null,
    });
  }
  const stepRows = rows.filter((r) => r.same_step !== null);
  const spanRows = rows.filter((r) => r.within_span !== null);
  const causeRows = rows.filter((r) => r.same_root_cause !== null);
  const confusion: Record<string, Record<string, number>> = {};
  for (const r of causeRows) {
    const row = (confusion[r.a.root_cause as string] ??= {});
    row[r.b.root_cause as string] = (row[r.b.root_cause as string] ?? 0) + 1;
  }
  const kappa = cohenKappa(
    causeRows.map((r) => r.a.root_cause as string),
    causeRows.map((r) => r.b.root_cause as string),
  );
  return {
    a,
    b,
    n: rows.length,
    cases: rows,
    critical_step: {
      n: stepRows.length,
      same: share(stepRows.filter((r) => r.same_step).length, stepRows.length),
      within_span: share(spanRows.filter((r) => r.within_span).length, spanRows.length),
      within_span_n: spanRows.length,
    },
    root_cause: {
      n: causeRows.length,
      agreement: share(causeRows.filter((r) => r.same_root_cause).length, causeRows.length),
      confusion,
      cohen_kappa: kappa.kappa,
      ...(kappa.reason ? { kappa_reason: kappa.reason } : {}),
    },
  };
}

export function collectionAgreement(cases: readonly RatedCase[]): AgreementReport {
  const raters = [...new Set(cases.flatMap((c) => Object.keys(c.labels)))].sort();
  const pairs: PairAgreement[] = [];
  for (let i = 0; i < raters.length; i++) for (let j = i + 1; j < raters.length; j++) pairs.push(pairAgreement(cases, raters[i], raters[j]));
  let fleiss: AgreementReport['fleiss'] = null;
  if (raters.length > 2) {
    // Fleiss' κ over the cases every rater gave a root cause.
    const complete = cases.filter((c) => raters.every((r) => c.labels[r]?.rootCause !== undefined));
    const kappa = fleissKappa(complete.map((c) => raters.map((r) => c.labels[r].rootCause as string)));
    fleiss = { raters, n: complete.length, kappa: kappa.kappa, ...(kappa.reason ? { reason: kappa.reason } : {}) };
  }
  return { cases: cases.length, raters, pairs, fleiss };
}

export function ratedCases(trajectories: readonly CollectedTrajectory[]): RatedCase[] {
  return trajectories.map((t) => ({ id: `${t.file}#${t.record}`, labels: ratersOf(t) })).filter((c) => Object.keys(c.labels).length > 0);
}
