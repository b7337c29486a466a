// Scores repair-guided resumption (seed 002 §5.4, Table 4): per condition, the fix rate over the
// resumed failed runs and the accuracy over every trajectory of the audited folder, each with a
// Wilson 95% interval. Pure: the run kind (scoring/runs/resumeRun.ts) reads the files.
import { ratio, tidy, wilson, type Interval } from '../scoring/stats';

/** One resumed run as scored: `correct` undefined when it was not judged (no gold answer, no verdict). */
export interface ResumeOutcome {
  id: string;
  condition: string;
  correct?: boolean;
  /** The agent run failed: not a resumed run, left out of n. */
  error?: string;
}

/** The audited folder the resumes came from: how many trajectories, how many were already correct. */
export interface ResumeCohort {
  trajectories: number;
  original_correct: number;
}

export interface ResumeConditionScore {
  /** Resumed runs judged against the gold answer. */
  n: number;
  /** Of those, judged correct. */
  fixed: number;
  fix_rate: number;
  ci95: Interval | null;
  /** Agent runs that failed (recorded as errors; rerun to retry them). */
  errors: number;
  /** Runs without a verdict (no gold answer, or no judge for them). */
  unjudged: number;
  /** (original_correct + fixed) / cohort trajectories; null without a cohort. */
  accuracy: number | null;
  accuracy_ci95: Interval | null;
}

export interface ResumeScore {
  kind: 'resume';
  conditions: Record<string, ResumeConditionScore>;
  cohort: ResumeCohort | null;
}

const tidyInterval = (i: Interval | null): Interval | null => (i ? [tidy(i[0]), tidy(i[1])] : null);

export function scoreResume(outcomes: readonly ResumeOutcome[], cohort: ResumeCohort | null, conditionOrder: readonly string[] = []): ResumeScore {
  const names = [...new Set([...conditionOrder.filter((c) => outcomes.some((o) => o.condition === c)), ...outcomes.map((o) => o.condition)])];
  const conditions: Record<string, ResumeConditionScore> = {};
  for (const name of names) {
    const of = outcomes.filter((o) => o.condition === name);
    const judged = of.filter((o) => !o.error && o.correct !== undefined);
    const fixed = judged.filter((o) => o.correct).length;
    const correctOverall = cohort ? cohort.original_correct + fixed : 0;
    conditions[name] = {
      n: judged.length,
      fixed,
      fix_rate: tidy(ratio(fixed, judged.length)),
      ci95: tidyInterval(wilson(fixed, judged.length)),
      errors: of.filter((o) => o.error).length,
      unjudged: of.filter((o) => !o.error && o.correct === undefined).length,
      accuracy: cohort && cohort.trajectories > 0 ? tidy(correctOverall / cohort.trajectories) : null,
      accuracy_ci95: cohort ? tidyInterval(wilson(correctOverall, cohort.trajectories)) : null,
    };
  }
  return { kind: 'resume', conditions, cohort };
}
