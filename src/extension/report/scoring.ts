// Scores a run folder for the report: exactly scoreRunFolder / scoreRunFolderSync, plus the
// per-case rows of audit runs. For audit runs the same steps as src/core/scoring/runFolder.ts are
// taken here (detect → plan → resolve judge tasks → finish) so the rubric grader's verdicts can be
// captured per case; the unit tests check the result equals scoreRunFolderSync's.
// Pure Node: no `vscode` import.
import { runTasks, runTasksSync, type JudgeTask, type JudgingSummary } from '../../core/scoring/judges/judge';
import { scoreRunFolder, scoreRunFolderSync, type RunScoreResult, type ScoreOptions } from '../../core/scoring/runFolder';
import { planAudit } from '../../core/scoring/runs/auditRun';
import { detectRun } from '../../core/scoring/runs/detect';
import type { RunDetection, RunPlan } from '../../core/scoring/runs/types';
import { auditCaseRows, type AuditCaseRow } from './auditCases';

export interface ScoredRun {
  result: RunScoreResult;
  /** Audit runs: one row per gold case. */
  cases?: AuditCaseRow[];
}

function captureVerdicts(tasks: JudgeTask<unknown, unknown>[]): Map<string, boolean[]> {
  const judged = new Map<string, boolean[]>();
  for (const task of tasks) {
    const accept = task.accept.bind(task);
    task.accept = (output, source) => {
      if (Array.isArray(output)) judged.set(task.key, output as boolean[]);
      accept(output, source);
    };
  }
  return judged;
}

function finishAudit(detection: RunDetection, options: ScoreOptions, p: RunPlan, judging: JudgingSummary, judged: Map<string, boolean[]>): ScoredRun {
  const { score, notes } = p.finish();
  if (judging.cacheWriteError) notes.push(`could not append to the judgment cache: ${judging.cacheWriteError}`);
  const result: RunScoreResult = { detection, score, judging, notes };
  return { result, cases: casesChecked(result, detection, options, judged) };
}

/** Rows, checked against the scorer's totals (a mismatch is a bug worth saying, not hiding). */
function casesChecked(result: RunScoreResult, detection: RunDetection, options: ScoreOptions, judged: Map<string, boolean[]>): AuditCaseRow[] | undefined {
  if (result.score.kind !== 'audit') return undefined;
  const cases = auditCaseRows(detection, options.method, judged);
  const s = result.score;
  const sound = cases.filter((c) => c.sound).length;
  const passed = cases.filter((c) => c.repair === 'pass').length;
  if (cases.length !== s.n || sound !== s.counts.sound_diagnoses || passed !== s.counts.repairs_passed) {
    result.notes.push(`the per-case table (${cases.length} rows, ${sound} sound, ${passed} passing) disagrees with the totals (${s.n}, ${s.counts.sound_diagnoses}, ${s.counts.repairs_passed}); the totals are the scorer's`);
  }
  return cases;
}

/** Deterministic judges and cached verdicts only (never writes into the folder). */
export function scoreFolderSync(folder: string, options: ScoreOptions = {}): ScoredRun {
  const detection = detectRun(folder);
  if (detection.kind !== 'audit') return { result: scoreRunFolderSync(folder, options) };
  const p = planAudit(detection, options);
  const judged = captureVerdicts(p.tasks);
  return finishAudit(detection, options, p, runTasksSync(p.tasks, p.cache), judged);
}

/** Any judge, LLM judges included; cancellable through `options.signal`. */
export async function scoreFolder(folder: string, options: ScoreOptions = {}): Promise<ScoredRun> {
  const detection = detectRun(folder);
  if (detection.kind !== 'audit') return { result: await scoreRunFolder(folder, options) };
  const p = planAudit(detection, options);
  const judged = captureVerdicts(p.tasks);
  const judging = await runTasks(p.tasks, p.cache, { signal: options.signal, concurrency: options.concurrency });
  return finishAudit(detection, options, p, judging, judged);
}

/**
 * How many verdicts a deterministic pass could not get (they need a model judge), and how many it
 * had to judge afresh with the `exact` answer judge (an LLM judge could do those instead).
 */
export function judgingNeeds(result: RunScoreResult): { needsModel: number; exactJudged: number } {
  const j = result.judging;
  const exactJudged = result.score.kind === 'deepsearchqa' || result.score.kind === 'delegation' ? j.judged - j.modelCalls : 0;
  return { needsModel: j.unavailable, exactJudged };
}
