// "Audit All Trajectories in Folder" through the provider's batch API (issue 17), SearchAuditor
// stage by stage or a baseline round by round: the estimate before anything is submitted
// (confirmed by the user), then core's prepareFolderBatch / runFolderBatch or
// runFolderBaselineBatch (the CLI's own job) as a background job with progress and cancel. The job folder
// `<folder>/.trajaudit-batch/…` keeps what was submitted, so cancelling only stops polling and
// the same command on the same folder resumes it without submitting anything twice.

import { existsSync, readdirSync } from 'node:fs';
import * as vscode from 'vscode';
import type { BatchCostEstimate } from '../../core/audit/batch/estimate';
import { BATCH_STEPS_PER_ROUND } from '../../core/audit/batch/baselineBatch';
import {
  estimateFolderBatch,
  prepareFolderBatch,
  runFolderBaselineBatch,
  runFolderBatch,
  type FolderBaselineOutcome,
  type FolderBatchOutcome,
  type PreparedFolderBatch,
} from '../../core/audit/batch/folderBatch';
import { BATCH_STAGES, type BatchStage } from '../../core/audit/batch/searchAuditorBatch';
import { BASELINE_METHODS, type BaselineMethod } from '../../core/audit/baselines';
import type { AuditMethod } from '../../core/audit/types';
import type { SearchAuditorOptions } from '../../core/audit/searchAuditor';
import type { Pricing } from '../../core/harness/wire';
import type { ModelSettings } from '../../core/providers/types';
import type { AuditJob, AuditJobManager } from './auditJobs';
import type { AuditSettings } from './auditSettings';

/** The methods a batch folder audit runs: every model method (the heuristic sends no requests). */
export type BatchMethod = 'searchauditor' | BaselineMethod;

export function isBatchMethod(method: AuditMethod): method is BatchMethod {
  return method === 'searchauditor' || (BASELINE_METHODS as readonly string[]).includes(method);
}

/** What the method's submissions are, for the pick and the confirmation (the rounds of baselineBatch.ts). */
export function batchRoundsText(method: BatchMethod): string {
  switch (method) {
    case 'searchauditor':
      return 'three submissions: branches, adjudication, repair';
    case 'all-at-once':
      return 'one submission: one judgment per trajectory';
    case 'binary-search':
      return 'one submission per halving round (about log₂ of the decision steps), then one for the final judgment';
    case 'step-by-step':
      return `one submission per round, each judging the next ${BATCH_STEPS_PER_ROUND} step prefixes of every trajectory not yet decided, until a decisive step`;
  }
}

export interface BatchFolderRequest {
  folder: vscode.Uri;
  label: string;
  method: BatchMethod;
  /** OpenAI or Anthropic, with the key (never logged). */
  modelSettings: ModelSettings;
  options: SearchAuditorOptions;
  settings: AuditSettings;
  rerun?: boolean;
  /** Submit without asking to confirm the estimate (tests, scripts). */
  acceptEstimate?: boolean;
  /** Between polls of a submitted batch (default 30 s, as the CLI). */
  pollIntervalMs?: number;
}

const stageLabel = (stage: BatchStage) => `stage ${BATCH_STAGES.indexOf(stage) + 1} of 3 (${stage})`;
const roundLabel = (round: number, method: BaselineMethod) => `round ${round} (${method})`;

/** The trajaudit.audit.pricing setting, whose zeros mean "no prices" (cost unknown, never guessed). */
export function listPricingOf(settings: AuditSettings): Pricing | undefined {
  const p = settings.pricing;
  return p && (p.input > 0 || p.cachedInput > 0 || p.output > 0) ? { input: p.input, cachedInput: p.cachedInput, output: p.output } : undefined;
}

export function estimateText(e: BatchCostEstimate): string {
  const tokens = `${e.requests} request(s), ≈ ${e.inputTokens.toLocaleString('en-US')} input and ≈ ${e.outputTokens.toLocaleString('en-US')} output tokens (at most ${e.outputTokensMax.toLocaleString('en-US')})`;
  const cost =
    e.costUsd === null ? 'unknown price (set trajaudit.audit.pricing)' : `≈ $${e.costUsd.toFixed(4)} (at most $${e.costUsdMax!.toFixed(4)}) at batch prices`;
  return `${tokens}; ${cost}`;
}

export function usageText(usage: NonNullable<NonNullable<AuditJob['batch']>['usage']>, costUsd: number | null | undefined): string {
  const cost = costUsd === null || costUsd === undefined ? 'unknown price' : `$${costUsd.toFixed(4)} at batch prices`;
  return `${usage.calls} call(s), ${usage.inputTokens.toLocaleString('en-US')} input tokens (${usage.cachedInputTokens.toLocaleString('en-US')} cached), ${usage.outputTokens.toLocaleString('en-US')} output tokens; ${cost}`;
}

/** The last stage whose state file a job folder holds (a resumed job's stage before anything new is submitted). */
function stageInJobFolder(jobDir: string): BatchStage | undefined {
  if (!existsSync(jobDir)) return undefined;
  const files = new Set(readdirSync(jobDir));
  return [...BATCH_STAGES].reverse().find((stage) => files.has(`stage-${BATCH_STAGES.indexOf(stage) + 1}-${stage}.json`));
}

/** The last round whose state file (`round-<n>-<method>.json`, baselineBatch.ts) a baseline's job folder holds. */
function roundInJobFolder(jobDir: string, method: BaselineMethod): number | undefined {
  if (!existsSync(jobDir)) return undefined;
  const rounds = readdirSync(jobDir).flatMap((name) => {
    const match = /^round-(\d+)-(.+)\.json$/.exec(name);
    return match && match[2] === method ? [Number(match[1])] : [];
  });
  return rounds.length ? Math.max(...rounds) : undefined;
}

/**
 * Starts the batch folder audit: resolves once the estimate is confirmed (or declined) with the
 * listed job and `done`, which resolves when the job ends; undefined when there is nothing to audit.
 */
export async function startBatchFolderAudit(
  request: BatchFolderRequest,
  jobs: AuditJobManager,
): Promise<{ job: AuditJob; done: Promise<AuditJob> } | undefined> {
  const folderName = vscode.workspace.asRelativePath(request.folder);
  const log = jobs.log;
  const method = request.method;
  const baseline = method === 'searchauditor' ? undefined : method;
  // Warming the cache with one branch first is a call order, which a batch does not have.
  const { warmCacheFirst: _warm, ...options } = request.options;
  let prepared: PreparedFolderBatch;
  try {
    prepared = prepareFolderBatch({
      target: request.folder.fsPath,
      isFolder: true,
      settings: request.modelSettings,
      method,
      options,
      // The synchronous audit's result-cache key: SearchAuditor's options are part of it, a baseline has none.
      ...(baseline ? {} : { keyOptions: { variant: options.variant ?? 'full', adjudicatorSeesTrajectory: options.adjudicatorSeesTrajectory !== false } }),
      rerun: Boolean(request.rerun),
    });
  } catch (error) {
    void vscode.window.showErrorMessage(`Batch audit of ${folderName}: ${(error as Error).message.split('\n')[0]}`);
    return undefined;
  }
  if (prepared.rows.length === 0) {
    void vscode.window.showInformationMessage(`No trajectory under ${folderName}.`);
    return undefined;
  }
  const files = [...new Set(prepared.rows.map((r) => r.file))];
  const job = jobs.register({ label: `${request.label} (batch)`, method, model: request.modelSettings.model, files });
  const resumed = existsSync(prepared.jobDir);
  const batch = { phase: 'not submitted', jobDir: prepared.jobDir, resumed, batchIds: [] } as NonNullable<AuditJob['batch']>;
  const resumedStage = baseline ? undefined : stageInJobFolder(prepared.jobDir);
  const resumedRound = baseline ? roundInJobFolder(prepared.jobDir, baseline) : undefined;
  if (resumedStage) batch.stage = resumedStage;
  if (resumedRound) batch.round = resumedRound;
  const resumedAt = resumedStage ? stageLabel(resumedStage) : resumedRound && baseline ? roundLabel(resumedRound, baseline) : undefined;
  job.batch = batch;
  job.total = prepared.rows.length + prepared.unreadable.length;
  for (const u of prepared.unreadable) {
    job.errors.push(`${vscode.workspace.asRelativePath(u.file)}: ${u.message}`);
    job.failed++;
  }
  const pricing = listPricingOf(request.settings);
  const end = (status: AuditJob['status'], phase: NonNullable<AuditJob['batch']>['phase']) => {
    job.status = status;
    batch.phase = phase;
    job.endedAt = Date.now();
    jobs.notify(job);
  };

  // A new job is confirmed on its estimate; one with a submitted stage or round was confirmed when it was submitted.
  if (prepared.cases.length && !resumedAt) {
    batch.estimate = estimateFolderBatch(prepared, pricing);
    batch.phase = 'awaiting confirmation';
    jobs.notify(job);
    if (!request.acceptEstimate) {
      const submit = 'Submit Batch';
      const choice = await vscode.window.showWarningMessage(
        `Batch audit (${method}) of ${prepared.cases.length} trajectory record(s) under ${folderName} with ${request.modelSettings.model} (${request.modelSettings.provider}, half price, results in minutes to hours)`,
        {
          modal: true,
          detail: `Estimate: ${estimateText(batch.estimate)}. ${prepared.rows.length - prepared.cases.length} already audited record(s) are reused. ${capitalized(batchRoundsText(method))}.`,
        },
        submit,
      );
      if (choice !== submit) {
        end('cancelled', 'not submitted');
        return { job, done: Promise.resolve(job) };
      }
    }
  }

  const title = `Batch audit: ${folderName}`;
  const done = vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const controller = new AbortController();
    token.onCancellationRequested(() => job.cancel.cancel());
    job.cancel.token.onCancellationRequested(() => controller.abort());
    job.status = 'running';
    batch.phase = prepared.cases.length ? (resumedAt ? 'in progress' : 'submitting') : 'done';
    jobs.notify(job);
    const pollSeconds = (request.pollIntervalMs ?? 30_000) / 1000;
    if (resumed)
      progress.report({
        message: `resuming the job in ${vscode.workspace.asRelativePath(prepared.jobDir)}${resumedAt ? `, ${resumedAt} in progress` : ''}: nothing already submitted is sent again`,
      });
    const submitted = (ids: string[], message: string) => {
      batch.phase = 'in progress';
      batch.batchIds.push(...ids);
      progress.report({ message });
      log.info(`batch audit ${job.id} (${folderName}): ${message}`);
      jobs.notify(job);
    };
    const common = {
      ...(request.pollIntervalMs !== undefined ? { pollIntervalMs: request.pollIntervalMs } : {}),
      ...(pricing ? { pricing } : {}),
      signal: controller.signal,
      onEstimate: (estimate: BatchCostEstimate) => {
        batch.estimate = estimate;
        jobs.notify(job);
      },
    };
    let outcome: FolderBatchOutcome | FolderBaselineOutcome;
    try {
      outcome = baseline
        ? await runFolderBaselineBatch(prepared, {
            ...common,
            onSubmitted: (round, ids, n) => {
              batch.round = round;
              // A round's requests follow from the replies to the round before, so how many rounds there will be is not known.
              submitted(
                ids,
                `${roundLabel(round, baseline)}: submitted ${n} request(s) in batch ${ids.join(', ')}, in progress (checked every ${pollSeconds} s)`,
              );
            },
          })
        : await runFolderBatch(prepared, {
            ...common,
            onSubmitted: (stage, ids, n) => {
              const index = BATCH_STAGES.indexOf(stage);
              batch.stage = stage;
              const done = index > 0 ? `${BATCH_STAGES.slice(0, index).join(', ')} done; ` : '';
              submitted(ids, `${done}${stageLabel(stage)}: submitted ${n} request(s) in batch ${ids.join(', ')}, in progress (checked every ${pollSeconds} s)`);
            },
          });
    } catch (error) {
      const cancelled = controller.signal.aborted;
      const resume = `The submitted batches keep running at the provider; run "Audit All Trajectories in Folder" on ${folderName} again to resume: nothing already submitted is sent again.`;
      const message = cancelled
        ? `Batch audit of ${folderName} stopped. ${resume}`
        : `Batch audit of ${folderName}: ${(error as Error).message.split('\n')[0]}. ${resume}`;
      if (!cancelled) job.errors.push((error as Error).message.split('\n')[0]);
      log.info(message);
      end(cancelled ? 'cancelled' : 'failed', 'stopped');
      if (cancelled) void vscode.window.showInformationMessage(message);
      else void vscode.window.showErrorMessage(message);
      return job;
    }
    for (const row of outcome.rows) {
      if (row.audit) {
        job.completed++;
        if (row.cached) job.cachedHits++;
      } else if (row.error) {
        job.failed++;
        job.errors.push(`${vscode.workspace.asRelativePath(row.file)} record ${row.record}: ${row.error}`);
      }
    }
    if (outcome.usage) {
      const u = outcome.usage;
      batch.usage = { calls: u.calls, inputTokens: u.inputTokens, cachedInputTokens: u.cachedInputTokens, outputTokens: u.outputTokens };
      Object.assign(job, { calls: u.calls, inputTokens: u.inputTokens, cachedInputTokens: u.cachedInputTokens, outputTokens: u.outputTokens });
    }
    batch.costUsd = outcome.costUsd;
    job.costUsd = outcome.costUsd ?? 0;
    batch.jobDir = outcome.jobDir;
    end(job.failed > 0 && job.completed === 0 ? 'failed' : 'done', 'done');
    const reused = job.cachedHits ? ` (${job.cachedHits} already audited, reused)` : '';
    const summary = `Batch audit of ${folderName}: ${outcome.written} audit(s) written${reused}${job.failed ? `, ${job.failed} failed` : ''}${batch.usage ? `; ${usageText(batch.usage, batch.costUsd)}` : ''}.`;
    log.info(summary);
    void (job.failed ? vscode.window.showWarningMessage(summary) : vscode.window.showInformationMessage(summary));
    return job;
  });
  return { job, done: Promise.resolve(done) };
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
