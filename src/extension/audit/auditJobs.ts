import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { BatchCostEstimate } from '../../core/audit/batch/estimate';
import type { BatchStage } from '../../core/audit/batch/searchAuditorBatch';
import { auditKey, appendAudits, cachedAudit, recordContentSha256 } from '../../core/audit/sidecarAudits';
import { heuristicOptions, mapWithConcurrency, promptVersionOf, runHeuristicAudit, runModelAudit } from '../../core/audit/runAudit';
import type { SearchAuditorOptions } from '../../core/audit/searchAuditor';
import type { AuditMethod, AuditResult } from '../../core/audit/types';
import { loadFile } from '../../core/load/loadFile';
import { isTrajectoryRecord } from '../../core/load/loadRecord';
import { readSidecar, sha256Of, sidecarPathFor } from '../../core/sidecar/sidecarFile';
import { toolNames } from '../activeFile';
import type { Log } from '../log';
import type { AuditSettings } from './auditSettings';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** What a batch folder audit (batchFolderJob.ts) is doing, for the jobs view. */
export interface BatchJobInfo {
  /** The stage submitted last (or found in the job folder of a resumed job). */
  stage?: BatchStage;
  /** A baseline's round submitted last (1-based; or found in the job folder of a resumed job). */
  round?: number;
  phase: 'awaiting confirmation' | 'not submitted' | 'submitting' | 'in progress' | 'done' | 'stopped';
  /** Before submitting: tokens and cost at batch prices (cost null without prices). */
  estimate?: BatchCostEstimate;
  /** After: the real usage read back from the results, and its cost at batch prices. */
  usage?: { calls: number; inputTokens: number; cachedInputTokens: number; outputTokens: number };
  costUsd?: number | null;
  jobDir: string;
  resumed: boolean;
  batchIds: string[];
}

export interface AuditJob {
  id: number;
  label: string;
  method: AuditMethod;
  model: string;
  files: string[];
  status: JobStatus;
  total: number;
  completed: number;
  failed: number;
  cachedHits: number;
  calls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  costUsd: number;
  latencyMs: number;
  startedAt: number;
  endedAt?: number;
  errors: string[];
  cancel: vscode.CancellationTokenSource;
  batch?: BatchJobInfo;
}

export interface JobRequest {
  files: vscode.Uri[];
  method: AuditMethod;
  /** Absent for the heuristic. */
  model?: SearchAuditorOptions;
  rerun?: boolean;
  settings: AuditSettings;
  label: string;
}

/**
 * Background audits: each job audits the records of one or more files under a concurrency
 * limit, reuses earlier results with the same (trajectory hash, method, model, prompt version),
 * and writes results into the sidecars, where the editor picks them up.
 */
export class AuditJobManager implements vscode.Disposable {
  private readonly jobs: AuditJob[] = [];
  private nextId = 1;
  private readonly changed = new vscode.EventEmitter<AuditJob | undefined>();
  readonly onDidChange = this.changed.event;

  constructor(readonly log: Log) {}

  get all(): readonly AuditJob[] {
    return this.jobs;
  }

  get running(): AuditJob[] {
    return this.jobs.filter((j) => j.status === 'running' || j.status === 'queued');
  }

  cancel(id: number): void {
    this.jobs.find((j) => j.id === id)?.cancel.cancel();
  }

  /** Lists a job that another runner drives (the batch folder audit): the view, status bar and cancel see it. */
  register(fields: Pick<AuditJob, 'label' | 'method' | 'model' | 'files'>): AuditJob {
    const job = this.newJob(fields);
    this.jobs.unshift(job);
    this.changed.fire(job);
    return job;
  }

  /** The job changed (for runners outside this class). */
  notify(job: AuditJob): void {
    this.changed.fire(job);
  }

  private newJob(fields: Pick<AuditJob, 'label' | 'method' | 'model' | 'files'>): AuditJob {
    return {
      ...fields,
      id: this.nextId++,
      status: 'queued',
      total: 0,
      completed: 0,
      failed: 0,
      cachedHits: 0,
      calls: 0,
      inputTokens: 0,
      cachedInputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      latencyMs: 0,
      startedAt: Date.now(),
      errors: [],
      cancel: new vscode.CancellationTokenSource(),
    };
  }

  /** Starts a job with a cancellable progress notification; resolves when it ends. */
  start(request: JobRequest): { job: AuditJob; done: Promise<AuditJob> } {
    const job = this.newJob({
      label: request.label,
      method: request.method,
      model: request.model?.client.model ?? 'heuristic',
      files: request.files.map((f) => f.fsPath),
    });
    this.jobs.unshift(job);
    this.changed.fire(job);
    const done = Promise.resolve(
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Auditing: ${request.label}`, cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => job.cancel.cancel());
          await this.run(job, request, (message) => progress.report({ message, increment: job.total ? 100 / job.total : 0 }));
          return job;
        },
      ),
    );
    return { job, done };
  }

  private async run(job: AuditJob, request: JobRequest, report: (message: string) => void): Promise<void> {
    job.status = 'running';
    const controller = new AbortController();
    job.cancel.token.onCancellationRequested(() => controller.abort());
    const names = toolNames();
    const tasks: { file: string; sha: string; contentSha256: string; format: string; recordId: string; run: () => Promise<AuditResult> }[] = [];
    for (const uri of request.files) {
      try {
        const loaded = loadFile(uri.fsPath, { displayName: vscode.workspace.asRelativePath(uri) });
        const sha = sha256Of(readFileSync(uri.fsPath));
        for (const record of loaded.records.filter(isTrajectoryRecord)) {
          const options = request.model ? { ...request.model, signal: controller.signal } : undefined;
          tasks.push({
            file: uri.fsPath,
            sha,
            contentSha256: recordContentSha256(record.trajectory),
            format: loaded.detection.kind,
            recordId: record.id,
            run: () =>
              options ? runModelAudit(record.trajectory, request.method, options, sha) : Promise.resolve(runHeuristicAudit(record.trajectory, names, sha)),
          });
        }
      } catch (error) {
        job.errors.push((error as Error).message);
        job.failed++;
      }
    }
    job.total = tasks.length + job.failed;
    this.changed.fire(job);
    const keyOptions =
      request.method === 'searchauditor' && request.model
        ? { variant: request.model.variant ?? 'full', adjudicatorSeesTrajectory: request.model.adjudicatorSeesTrajectory !== false }
        : request.model
          ? undefined
          : heuristicOptions(names);
    await mapWithConcurrency(tasks, request.model ? request.settings.concurrency : 8, async (task) => {
      if (job.cancel.token.isCancellationRequested) return;
      const key = auditKey({
        contentSha256: task.contentSha256,
        method: request.method,
        model: job.model,
        promptVersion: promptVersionOf(request.method),
        ...(keyOptions ? { options: keyOptions } : {}),
      });
      const cached = request.rerun ? undefined : cachedAudit(readSidecar(sidecarPathFor(task.file)), task.recordId, key);
      try {
        if (cached) {
          job.cachedHits++;
        } else {
          const audit = await task.run();
          await appendAudits(task.file, task.format, [{ recordId: task.recordId, audit }], { rerun: Boolean(request.rerun) });
          this.account(job, audit, request.settings);
        }
        job.completed++;
        report(`${job.completed + job.failed}/${job.total} ${vscode.workspace.asRelativePath(task.file)} record ${task.recordId}`);
      } catch (error) {
        if (job.cancel.token.isCancellationRequested) return;
        job.failed++;
        const message = `${vscode.workspace.asRelativePath(task.file)} record ${task.recordId}: ${(error as Error).message.split('\n')[0]}`;
        job.errors.push(message);
        this.log.error(message);
      }
      this.changed.fire(job);
    });
    job.status = job.cancel.token.isCancellationRequested ? 'cancelled' : job.failed > 0 && job.completed === 0 ? 'failed' : 'done';
    job.endedAt = Date.now();
    this.log.info(
      `audit job ${job.id} (${job.label}) ${job.status}: ${job.completed} done (${job.cachedHits} cached), ${job.failed} failed, ${job.calls} calls, ${job.inputTokens} input tokens (${job.cachedInputTokens} cached)`,
    );
    this.changed.fire(job);
  }

  private account(job: AuditJob, audit: AuditResult, settings: AuditSettings): void {
    const u = audit.usage;
    job.calls += u.calls;
    job.inputTokens += u.inputTokens;
    job.cachedInputTokens += u.cachedInputTokens;
    job.outputTokens += u.outputTokens;
    job.latencyMs += u.latencyMs;
    const p = settings.pricing;
    job.costUsd += ((u.inputTokens - u.cachedInputTokens) * p.input + u.cachedInputTokens * p.cachedInput + u.outputTokens * p.output) / 1e6;
  }

  dispose(): void {
    for (const job of this.jobs) job.cancel.cancel();
    this.changed.dispose();
  }
}
