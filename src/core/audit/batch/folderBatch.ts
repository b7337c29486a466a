// A batch audit of every trajectory under a folder (or in one file), shared by the CLI
// (`trajaudit audit <folder> --batch`) and any other front end: the records to audit (the
// synchronous audit's result cache decides which), the job folder
// `.trajaudit-batch/<method>-<configuration hash>/` beside them, the staged batch run, and, once
// every case has an audit or an error, the sidecar writes and the closing of the job folder into
// `.trajaudit-batch/done/`, so a later audit of the same configuration starts a new job.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { collectTrajectories, type Unreadable } from '../../collections/collect';
import { writeFileAtomic } from '../../files/atomicWrite';
import type { Pricing } from '../../harness/wire';
import { loadFile } from '../../load/loadFile';
import type { TrajectoryFormat } from '../../model/trajectory';
import { createBatchProvider } from '../../providers/batch';
import type { ChatUsage, ModelSettings } from '../../providers/types';
import type { Sidecar } from '../../sidecar/schema';
import { readSidecar, sha256Of, sidecarPathFor } from '../../sidecar/sidecarFile';
import { promptVersionOf } from '../runAudit';
import { planSearchAuditor, type SearchAuditorOptions, type SearchAuditorPlan } from '../searchAuditor';
import { appendAudits, auditKey, cachedAudit, recordContentSha256 } from '../sidecarAudits';
import type { AuditResult } from '../types';
import type { BaselineMethod } from '../baselines';
import { planBaselineCases, runBaselineBatch, type BaselineBatchResult } from './baselineBatch';
import { batchCostUsd, estimateBaselineBatch, estimateSearchAuditorBatch, type BatchCostEstimate } from './estimate';
import { runSearchAuditorBatch, type BatchCase, type BatchStage, type SearchAuditorBatchResult } from './searchAuditorBatch';

export const BATCH_JOBS_DIR = '.trajaudit-batch';

export interface FolderBatchRow {
  file: string;
  record: string;
  /** The batch case of a record that is audited (not reused). */
  caseId?: string;
  audit?: AuditResult;
  cached?: boolean;
  error?: string;
  /** Where a SearchAuditor case failed. */
  stage?: BatchStage;
  /** Where a baseline case failed (1-based). */
  round?: number;
}

export interface FolderBatchRequest {
  target: string;
  isFolder: boolean;
  settings: ModelSettings;
  /** Default searchauditor; a baseline runs round by round (baselineBatch.ts). */
  method?: 'searchauditor' | BaselineMethod;
  /** SearchAuditor's options (client included) and the options part of the result-cache key. */
  options: SearchAuditorOptions;
  keyOptions?: Record<string, unknown>;
  format?: TrajectoryFormat;
  /** Only the records with this id. */
  record?: string;
  /** Audit again records whose stored audit would be reused. */
  rerun?: boolean;
}

export interface PreparedFolderBatch {
  request: FolderBatchRequest;
  rows: FolderBatchRow[];
  cases: BatchCase[];
  unreadable: Unreadable[];
  root: string;
  jobName: string;
  jobDir: string;
  configuration: Record<string, unknown>;
}

export interface FolderBatchRunOptions {
  detach?: boolean;
  pollIntervalMs?: number;
  /** List prices (USD per million tokens); the cost is at batch prices. */
  pricing?: Pricing;
  signal?: AbortSignal;
  onEstimate?: (estimate: BatchCostEstimate) => void;
  onSubmitted?: (stage: BatchStage, batchIds: string[], requests: number) => void;
}

export interface FolderBatchOutcome {
  status: 'complete' | 'waiting';
  rows: FolderBatchRow[];
  waiting?: SearchAuditorBatchResult['waiting'];
  estimate?: BatchCostEstimate;
  usage?: SearchAuditorBatchResult['usage'];
  costUsd: number | null;
  /** Audits appended to sidecars (complete runs). */
  written: number;
  /** The job folder this run used (moved under done/ once complete). */
  jobDir: string;
  resumed: boolean;
}

/**
 * Stable across runs and unique per record: the path below the audited folder, the record id and
 * the file's hash. A file edited between runs gets new custom ids (its requests changed: they
 * carry its hash as the cache key), so its records are sent anew instead of clashing with the
 * requests submitted for the old content.
 */
export function caseIdOf(root: string, file: string, record: string, fileSha256: string): string {
  const relative = file.startsWith(root) ? file.slice(root.length).replace(/^[\\/]+/, '') : file;
  return JSON.stringify([relative, record, fileSha256]);
}

/** Reads the target and decides what to audit; nothing is written or sent. */
export function prepareFolderBatch(request: FolderBatchRequest): PreparedFolderBatch {
  const { target, isFolder, settings, options, keyOptions } = request;
  const method = request.method ?? 'searchauditor';
  const collection = collectTrajectories([target], request.format ? { format: request.format } : {});
  const found = collection.trajectories.filter((c) => request.record === undefined || c.record === request.record);
  // The result cache of a synchronous audit: an unchanged record audited the same way is reused.
  const keyParts = {
    method,
    model: settings.model,
    promptVersion: promptVersionOf(method),
    ...(keyOptions ? { options: keyOptions } : {}),
  };
  const sidecars = new Map<string, Sidecar | undefined>();
  const fileSha = new Map<string, string>();
  const rows: FolderBatchRow[] = [];
  const cases: BatchCase[] = [];
  const root = isFolder ? target : dirname(target);
  for (const c of found) {
    if (!fileSha.has(c.file)) fileSha.set(c.file, sha256Of(readFileSync(c.file)));
    if (!sidecars.has(c.file)) sidecars.set(c.file, readSidecar(sidecarPathFor(c.file)));
    const row: FolderBatchRow = { file: c.file, record: c.record };
    rows.push(row);
    const reused = request.rerun
      ? undefined
      : cachedAudit(sidecars.get(c.file), c.record, auditKey({ contentSha256: recordContentSha256(c.trajectory), ...keyParts }));
    if (reused) Object.assign(row, { audit: reused, cached: true });
    else {
      row.caseId = caseIdOf(root, c.file, c.record, fileSha.get(c.file)!);
      cases.push({ caseId: row.caseId, trajectory: c.trajectory, trajectorySha256: fileSha.get(c.file)! });
    }
  }
  const configuration = {
    method,
    provider: settings.provider,
    model: settings.model,
    target: isFolder ? '.' : basename(target),
    keyOptions: keyOptions ?? null,
    contextLimit: options.contextLimit ?? null,
    maxOutputTokens: options.maxOutputTokens ?? null,
    temperature: options.temperature ?? null,
    reasoningEffort: options.reasoningEffort ?? null,
  };
  const jobName = `${method}-${createHash('sha256').update(JSON.stringify(configuration)).digest('hex').slice(0, 12)}`;
  return { request, rows, cases, unreadable: collection.unreadable, root, jobName, jobDir: join(root, BATCH_JOBS_DIR, jobName), configuration };
}

/**
 * The estimate runFolderBatch reports through onEstimate, made before it is run (nothing is sent),
 * so a front end can ask for confirmation first. A case that cannot be planned is left out, as
 * the batch run records it as an error without a request.
 */
export function estimateFolderBatch(prepared: PreparedFolderBatch, pricing?: Pricing): BatchCostEstimate {
  const method = prepared.request.method ?? 'searchauditor';
  if (method !== 'searchauditor') {
    const { planned } = planBaselineCases(prepared.cases, method, prepared.request.options);
    const audits = [...planned.values()].map((p) => p.audit);
    return estimateBaselineBatch(audits, prepared.request.options, prepared.request.options.client, pricing);
  }
  const plans: SearchAuditorPlan[] = [];
  for (const c of prepared.cases) {
    try {
      plans.push(planSearchAuditor(c.trajectory, prepared.request.options, c.trajectorySha256));
    } catch {
      // Reported per case by runFolderBatch.
    }
  }
  return estimateSearchAuditorBatch(plans, prepared.request.options.client, pricing);
}

/**
 * Runs (or, detached, advances) the job. Provider errors, a state file that does not fit and an
 * abort are thrown; the job folder keeps what was submitted, so the same request resumes.
 */
export async function runFolderBatch(prepared: PreparedFolderBatch, run: FolderBatchRunOptions = {}): Promise<FolderBatchOutcome> {
  const { request, cases, jobDir, configuration } = prepared;
  if ((request.method ?? 'searchauditor') !== 'searchauditor')
    throw new Error('runFolderBatch runs SearchAuditor; a baseline runs with runFolderBaselineBatch');
  const client = request.options.client;
  let estimate: BatchCostEstimate | undefined;
  let result: SearchAuditorBatchResult | undefined;
  const resumed = existsSync(jobDir);
  if (cases.length) {
    openJob(jobDir, configuration);
    result = await runSearchAuditorBatch(cases, {
      search: request.options,
      provider: createBatchProvider(request.settings),
      jobDir,
      ...(run.pollIntervalMs !== undefined ? { pollIntervalMs: run.pollIntervalMs } : {}),
      ...(run.detach ? { detach: true } : {}),
      ...(run.signal ? { signal: run.signal } : {}),
      onPlanned: (plans) => {
        estimate = estimateSearchAuditorBatch(plans, client, run.pricing);
        run.onEstimate?.(estimate);
      },
      ...(run.onSubmitted ? { onSubmitted: run.onSubmitted } : {}),
    });
    putOutcomesOnRows(prepared, result.cases);
  }
  return finishRun(prepared, result, estimate, resumed, run.pricing);
}

function openJob(jobDir: string, configuration: Record<string, unknown>): void {
  mkdirSync(jobDir, { recursive: true });
  const manifestPath = join(jobDir, 'job.json');
  if (!existsSync(manifestPath))
    writeFileAtomic(manifestPath, `${JSON.stringify({ version: 1, configuration, createdAt: new Date().toISOString() }, null, 2)}\n`);
}

/** A complete job: the new audits stored exactly as a synchronous audit stores them, the job folder moved under done/. */
async function completeJob(prepared: PreparedFolderBatch, usage: (ChatUsage & { calls: number }) | undefined, costUsd: number | null): Promise<number> {
  const { request, rows, jobDir, root, jobName, configuration } = prepared;
  let written = 0;
  const byFile = new Map<string, { recordId: string; audit: AuditResult }[]>();
  for (const row of rows) if (row.audit && !row.cached) byFile.set(row.file, [...(byFile.get(row.file) ?? []), { recordId: row.record, audit: row.audit }]);
  for (const [file, entries] of byFile) {
    const kind = loadFile(file, request.format ? { format: request.format } : {}).detection.kind;
    written += (await appendAudits(file, kind, entries, { rerun: Boolean(request.rerun) })).written;
  }
  if (existsSync(jobDir)) {
    const manifestPath = join(jobDir, 'job.json');
    const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : { version: 1, configuration };
    const completedAt = new Date().toISOString();
    const errors = rows
      .filter((r) => r.error)
      .map((r) => ({ file: r.file, record: r.record, ...(r.round !== undefined ? { round: r.round } : { stage: r.stage }), error: r.error }));
    const audited = rows.filter((r) => r.audit && !r.cached).length;
    writeFileAtomic(manifestPath, `${JSON.stringify({ ...manifest, completedAt, audited, errors, usage: usage ?? null, cost_usd: costUsd }, null, 2)}\n`);
    const done = join(root, BATCH_JOBS_DIR, 'done');
    mkdirSync(done, { recursive: true });
    renameSync(jobDir, join(done, `${jobName}-${completedAt.replace(/[:.]/g, '-')}`));
  }
  return written;
}

export interface FolderBaselineRunOptions extends Omit<FolderBatchRunOptions, 'onSubmitted'> {
  stepsPerRound?: number;
  onSubmitted?: (round: number, batchIds: string[], requests: number) => void;
}

export interface FolderBaselineOutcome extends Omit<FolderBatchOutcome, 'waiting'> {
  waiting?: BaselineBatchResult['waiting'];
}

/** runFolderBatch for a baseline (prepared with its method): round by round, the same job folder, cache and sidecar writes. */
export async function runFolderBaselineBatch(prepared: PreparedFolderBatch, run: FolderBaselineRunOptions = {}): Promise<FolderBaselineOutcome> {
  const { request, cases, jobDir, configuration } = prepared;
  const method = request.method;
  if (method === undefined || method === 'searchauditor') throw new Error('runFolderBaselineBatch runs a baseline; SearchAuditor runs with runFolderBatch');
  let estimate: BatchCostEstimate | undefined;
  let result: BaselineBatchResult | undefined;
  const resumed = existsSync(jobDir);
  if (cases.length) {
    estimate = estimateFolderBatch(prepared, run.pricing);
    run.onEstimate?.(estimate);
    openJob(jobDir, configuration);
    result = await runBaselineBatch(cases, {
      method,
      search: request.options,
      provider: createBatchProvider(request.settings),
      jobDir,
      ...(run.stepsPerRound ? { stepsPerRound: run.stepsPerRound } : {}),
      ...(run.pollIntervalMs !== undefined ? { pollIntervalMs: run.pollIntervalMs } : {}),
      ...(run.detach ? { detach: true } : {}),
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.onSubmitted ? { onSubmitted: run.onSubmitted } : {}),
    });
    putOutcomesOnRows(prepared, result.cases);
  }
  return finishRun(prepared, result, estimate, resumed, run.pricing);
}

/** Each case's audit (stamped with its record's content hash) or its error, and where it failed, on its row. */
function putOutcomesOnRows(
  prepared: PreparedFolderBatch,
  outcomes: ReadonlyMap<string, { audit: AuditResult } | { error: string; stage: string } | { error: string; round: number }>,
): void {
  const byCase = new Map(prepared.cases.map((c) => [c.caseId, c]));
  for (const row of prepared.rows) {
    const outcome = row.caseId ? outcomes.get(row.caseId) : undefined;
    if (!outcome) continue;
    if ('audit' in outcome) row.audit = { ...outcome.audit, contentSha256: recordContentSha256(byCase.get(row.caseId!)!.trajectory) };
    else Object.assign(row, outcome);
  }
}

/** The run's outcome: waiting (nothing written), or complete with the new audits stored and the job folder moved. */
async function finishRun<W>(
  prepared: PreparedFolderBatch,
  result: { status: 'complete' | 'waiting'; waiting?: W; usage: ChatUsage & { calls: number } } | undefined,
  estimate: BatchCostEstimate | undefined,
  resumed: boolean,
  pricing: Pricing | undefined,
) {
  const usage = result?.usage;
  const costUsd = usage ? batchCostUsd(usage, pricing) : null;
  const base = { rows: prepared.rows, ...(estimate ? { estimate } : {}), ...(usage ? { usage } : {}), costUsd, jobDir: prepared.jobDir, resumed };
  if (result?.status === 'waiting') return { ...base, status: 'waiting' as const, waiting: result.waiting!, written: 0 };
  return { ...base, status: 'complete' as const, written: await completeJob(prepared, usage, costUsd) };
}
