// scoreRunFolder: detect the run kind (manifest, else files), read and validate its files, resolve
// judge verdicts through the judgment cache, and score. The async form runs any judge (LLM judges
// included, cancellable); the sync form runs deterministic judges only (the offline CLI path).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BatchProvider } from '../providers/batch';
import type { ModelClient } from '../providers/types';
import { BatchReplayClient, runTasksBatched, type BatchJudgingOptions, type BatchJudgingResult } from './judges/batchJudge';
import { runTasks, runTasksSync, type JudgingSummary } from './judges/judge';
import { structuredModelFromClient } from './judges/providerModel';
import { judgeAgreement, type JudgeAgreementRow } from './judges/judgeAgreement';
import { planAudit } from './runs/auditRun';
import { detectRun } from './runs/detect';
import { planDeepSearchQa } from './runs/dsqaRun';
import { planDelegation } from './runs/delegationRun';
import { planNuggets } from './runs/nuggetsRun';
import { planScenarios } from './runs/scenariosRun';
import { planResume } from './runs/resumeRun';
import type { AuditCaseRow } from './audit';
import type { KindScore, RunDetection, RunPlan, ScoreOptions } from './runs/types';

export type { KindScore, RunDetection, ScoreOptions } from './runs/types';

export interface RunScoreResult {
  detection: RunDetection;
  score: KindScore;
  /** Cache hits (calls saved), fresh judge calls, unavailable verdicts. */
  judging: JudgingSummary;
  /** Things the user should know (left-out lines, defaults applied); not errors. */
  notes: string[];
  /** Audit runs: one row per gold case, by the rules that made `score` (the report's case table and CSV). */
  cases?: AuditCaseRow[];
  /** Pairs of judges with verdicts on the same items in the run's judgment cache (empty with fewer than two judges). */
  judgeAgreement?: JudgeAgreementRow[];
}

function plan(detection: RunDetection, options: ScoreOptions): RunPlan {
  switch (detection.kind) {
    case 'audit':
      return planAudit(detection, options);
    case 'deepsearchqa':
      return planDeepSearchQa(detection, options);
    case 'nuggets':
      return planNuggets(detection, options);
    case 'scenarios':
      return planScenarios(detection, options);
    case 'delegation':
      return planDelegation(detection, options);
    case 'resume':
      return planResume(detection, options);
  }
}

function finish(detection: RunDetection, p: RunPlan, judging: JudgingSummary): RunScoreResult {
  const { score, notes, auditCases } = p.finish();
  if (judging.failed) {
    const more = judging.failed > judging.failures.length ? '; …' : '';
    notes.push(
      `${judging.failed} judgment(s) failed (malformed judge output after its retries; not cached, judged again next time) and are left out of the score: ${judging.failures.join('; ')}${more}`,
    );
  }
  if (judging.cacheWriteError) notes.push(`could not append to the judgment cache: ${judging.cacheWriteError}`);
  const agreement = p.cache ? judgeAgreement(p.cache) : [];
  return {
    detection,
    score,
    judging,
    notes,
    ...(auditCases ? { cases: auditCases } : {}),
    ...(agreement.length ? { judgeAgreement: agreement } : {}),
  };
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

export async function scoreRunFolder(folder: string, options: ScoreOptions = {}): Promise<RunScoreResult> {
  const detection = detectRun(folder);
  const p = plan(detection, options);
  const judging = await runTasks(p.tasks, p.cache, { signal: options.signal, concurrency: options.concurrency });
  return finish(detection, p, judging);
}

export function scoreRunFolderSync(folder: string, options: ScoreOptions = {}): RunScoreResult {
  const detection = detectRun(folder);
  const p = plan(detection, options);
  return finish(detection, p, runTasksSync(p.tasks, p.cache));
}

/** The folder, beside the judgment cache, of the batch jobs of `score --batch`. */
export const SCORE_BATCH_DIR = '.trajaudit-batch';

export interface ScoreBatchOptions extends Omit<BatchJudgingOptions, 'provider' | 'statePath'> {
  /** The synchronous client of the judge model: its provider, model and structured-output mode shape every request. */
  client: ModelClient;
  provider: BatchProvider;
  maxOutputTokens?: number;
}

export type BatchScoreOutcome =
  | { status: 'complete'; result: RunScoreResult; batch: BatchJudgingResult; statePath: string }
  | { status: 'waiting'; detection: RunDetection; batch: BatchJudgingResult; statePath: string };

/**
 * scoreRunFolder with the model judges' requests sent through the provider's batch API. The job's
 * state file is `.trajaudit-batch/score-<provider>-<hash>.json` beside the judgment cache: a rerun
 * (after a kill, or a detached run) polls its batches and submits nothing twice. Once every verdict
 * is in, the state file moves to `.trajaudit-batch/done/`, so that verdicts that failed are asked
 * afresh next time, as in a synchronous run, rather than read back from the old batch.
 */
export async function scoreRunFolderBatch(folder: string, options: ScoreOptions, batch: ScoreBatchOptions): Promise<BatchScoreOutcome> {
  const detection = detectRun(folder);
  const replay = new BatchReplayClient(batch.client);
  const model = structuredModelFromClient(replay, batch.maxOutputTokens ? { maxOutputTokens: batch.maxOutputTokens } : {});
  const p = plan(detection, { ...options, model });
  const stateDir = join(p.cache ? dirname(p.cache.file) : detection.folder, SCORE_BATCH_DIR);
  const jobName = `score-${batch.client.provider}-${createHash('sha256').update(`${batch.client.provider}\u0000${batch.client.model}`).digest('hex').slice(0, 12)}`;
  const statePath = join(stateDir, `${jobName}.json`);
  // Refused before anything is written when verdicts would land outside the run folder.
  if (p.tasks.some((t) => t.judge?.usesModel)) p.cache?.checkWritable();
  const judged = await runTasksBatched(p.tasks, p.cache, replay, {
    ...batch,
    statePath,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (judged.status === 'waiting') return { status: 'waiting', detection, batch: judged, statePath };
  if (existsSync(statePath)) {
    const done = join(stateDir, 'done');
    mkdirSync(done, { recursive: true });
    renameSync(statePath, join(done, `${jobName}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`));
  }
  return { status: 'complete', result: finish(detection, p, judged.summary), batch: judged, statePath };
}
