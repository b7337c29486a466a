// The `resume` run kind (seed 002 §5.4): `resumes.jsonl` written by `trajaudit resume`, one line per
// audited trajectory × condition: {id, condition, answer, trajectory, correct?, gold_answer?, query?,
// error?}. A line with `gold_answer` is judged against it by the answer judge (exact by default,
// the model judge through the judgment cache); a line without one keeps the `correct` it carries.
// A failed agent run is a line with `error`; a later line for the same id and condition (the rerun
// that retried it) replaces it.
import { z } from 'zod';
import { InputError } from '../../input/inputError';
import { scoreResume, type ResumeCohort, type ResumeOutcome } from '../../resume/score';
import { JudgmentCache } from '../judges/cache';
import { manifestJudgeOf } from '../judges/judgeIdentity';
import { delegationJudgeFrom, exactDelegationJudge, type DelegationAnswerInput } from '../judges/delegationAnswer';
import { deepSearchQaLlmJudge } from '../judges/deepsearchqaGrader';
import { hashInput, type CacheLine, type Judge, type JudgeTask } from '../judges/judge';
import { readJsonLines, type Line } from '../jsonl';
import type { RunDetection, RunPlan, ScoreOptions } from './types';
import { judgmentsWriteTarget } from './detect';

export const RESUMES_FILE = 'resumes.jsonl';

const idLike = z.union([z.string().min(1), z.number()]).transform(String);
export const resumeLineSchema = z.looseObject({
  id: idLike,
  condition: z.string().min(1),
  answer: z.string().nullable(),
  trajectory: z.string().nullable(),
  correct: z.boolean().nullish(),
  gold_answer: z.string().nullish(),
  query: z.string().nullish(),
  error: z.string().nullish(),
});
export type ResumeLine = z.infer<typeof resumeLineSchema>;
const RESUME_WHAT = 'a resume line {id, condition, answer, trajectory, correct?, gold_answer?, error?}';

const cohortSchema = z.object({ trajectories: z.number().int().nonnegative(), original_correct: z.number().int().nonnegative() });
const cacheLineSchema = z.looseObject({}) as unknown as z.ZodType<CacheLine>;

export const resumeKey = (line: { id: string; condition: string }) => `${line.id}#${line.condition}`;

/** The lines that count: one per id and condition; an error line may be replaced by a later line, nothing else may repeat. */
export function latestResumeLines(lines: readonly Line<ResumeLine>[], displayName: string): Line<ResumeLine>[] {
  const byKey = new Map<string, Line<ResumeLine>>();
  for (const line of lines) {
    const key = resumeKey(line.value);
    const earlier = byKey.get(key);
    if (earlier && !earlier.value.error)
      throw new InputError(displayName, `resume ${line.value.id} / ${line.value.condition} appears twice (first on line ${earlier.line})`, {
        line: line.line,
        column: 1,
      });
    byKey.set(key, line);
  }
  return [...byKey.values()];
}

/** The answer judge: `--judge exact|llm` when given, else the one `trajaudit resume` used (manifest `resume.judge`). */
export function resumeJudgeFor(options: ScoreOptions, recorded?: string): Judge<DelegationAnswerInput, boolean> | undefined {
  if (options.delegationJudge) return options.delegationJudge;
  const wanted = options.judge ?? (recorded === 'llm' ? 'llm' : 'exact');
  if (wanted === 'exact') return exactDelegationJudge;
  if (options.model) return delegationJudgeFrom(deepSearchQaLlmJudge(options.model, { promptsRoot: options.promptsRoot }));
  if (options.judge === 'llm') throw new InputError('score', 'the llm judge needs a model provider; none is configured (use the exact judge)');
  // Recorded as model-judged, no model now: cached verdicts, else the verdict the line records.
  return undefined;
}

export function openResumeCache(path: string, detection: { folder: string; manifest?: Record<string, unknown> }): JudgmentCache {
  return new JudgmentCache(
    path,
    path,
    cacheLineSchema,
    'a judgment line',
    (l) =>
      typeof l.correct === 'boolean' && l.id !== undefined && typeof l.condition === 'string'
        ? resumeKey({ id: String(l.id), condition: l.condition })
        : undefined,
    judgmentsWriteTarget(detection as RunDetection),
    { legacyJudge: manifestJudgeOf(detection), labelsOf: (line) => ({ correct: String(line.correct) }) },
  );
}

/** The judge task of one resumed answer against its gold answer; undefined when the line has no gold answer. */
export function resumeJudgeTask(
  line: ResumeLine,
  judge: Judge<DelegationAnswerInput, boolean> | undefined,
  accept: (correct: boolean) => void,
  unavailable: () => void,
): JudgeTask<DelegationAnswerInput, boolean> | undefined {
  if (line.error || typeof line.gold_answer !== 'string' || !line.gold_answer.trim()) return undefined;
  const input: DelegationAnswerInput = { query: line.query ?? '', goldenAnswer: line.gold_answer, answer: line.answer ?? '' };
  return {
    key: resumeKey(line),
    input,
    inputHash: hashInput(input),
    judge,
    toLine: (correct, judgeId, inputHash) => ({ id: line.id, condition: line.condition, correct, judge: judgeId, input_sha256: inputHash }),
    fromLine: (l) => l.correct as boolean,
    accept,
    unavailable,
  };
}

export function planResume(detection: RunDetection, options: ScoreOptions): RunPlan {
  const notes: string[] = [];
  const path = detection.files.resumes as string;
  const lines = latestResumeLines(readJsonLines(path, path, resumeLineSchema, RESUME_WHAT), path);
  const manifest = detection.manifest as Record<string, unknown> | undefined;
  const recorded = manifest?.resume as { judge?: unknown; conditions?: unknown } | undefined;
  let cohort: ResumeCohort | null = null;
  if (manifest?.cohort !== undefined) {
    const parsed = cohortSchema.safeParse(manifest.cohort);
    if (!parsed.success)
      throw new InputError(`${detection.folder}/trajaudit.run.json`, 'expected "cohort" to be {trajectories, original_correct} (whole numbers)', {
        path: '$.cohort',
      });
    cohort = parsed.data;
  }
  const judge = resumeJudgeFor(options, typeof recorded?.judge === 'string' ? recorded.judge : undefined);
  const cache = openResumeCache(detection.files.judgments as string, detection);
  const outcomes: ResumeOutcome[] = [];
  const tasks: JudgeTask<DelegationAnswerInput, boolean>[] = [];
  let unjudged = 0;
  for (const { value: line } of lines) {
    const outcome: ResumeOutcome = { id: line.id, condition: line.condition, ...(line.error ? { error: line.error } : {}) };
    outcomes.push(outcome);
    const keepRecorded = () => {
      if (typeof line.correct === 'boolean') outcome.correct = line.correct;
      else unjudged++;
    };
    const task = resumeJudgeTask(
      line,
      judge,
      (correct) => {
        outcome.correct = correct;
      },
      keepRecorded,
    );
    if (task) tasks.push(task);
    else if (!line.error) keepRecorded();
  }
  const order = Array.isArray(recorded?.conditions) ? recorded.conditions.filter((c): c is string => typeof c === 'string') : [];
  return {
    tasks,
    cache,
    finish: () => {
      const errors = outcomes.filter((o) => o.error).length;
      if (errors) notes.push(`${errors} agent run(s) failed (lines with "error") and are left out of n; rerun trajaudit resume to retry them`);
      if (unjudged) notes.push(`${unjudged} resumed run(s) have neither a gold answer to judge against nor a recorded verdict: left out of n`);
      if (!cohort) notes.push('the manifest records no cohort (trajectories of the audited folder): accuracy is not computed');
      return { score: scoreResume(outcomes, cohort, order), notes };
    },
  };
}
