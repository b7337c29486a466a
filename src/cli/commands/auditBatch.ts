// `trajaudit audit <folder or file> --method searchauditor --batch [--detach]`: every trajectory
// under the target through the provider's batch API, stage by stage (core/audit/batch). The job
// folder `.trajaudit-batch/<method>-<configuration hash>/` beside the trajectories holds one batch
// state file per stage and `job.json`; rerunning the same command resumes it. Results go into the
// sidecars exactly as a synchronous audit writes them, and the job folder is then moved under
// `.trajaudit-batch/done/`, so a later audit of the same configuration starts a new job.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { estimateSearchAuditorBatch, batchCostUsd, type BatchCostEstimate } from '../../core/audit/batch/estimate';
import { BATCH_STAGES, runSearchAuditorBatch, type BatchCase, type SearchAuditorBatchResult } from '../../core/audit/batch/searchAuditorBatch';
import { promptVersionOf } from '../../core/audit/runAudit';
import { appendAudits, auditKey, cachedAudit, recordContentSha256 } from '../../core/audit/sidecarAudits';
import type { AuditMethod, AuditResult } from '../../core/audit/types';
import { collectTrajectories } from '../../core/collections/collect';
import { writeFileAtomic } from '../../core/files/atomicWrite';
import { loadFile } from '../../core/load/loadFile';
import { ROOT_CAUSE_LABELS } from '../../core/model/rootCauses';
import { createBatchProvider } from '../../core/providers/batch';
import { createModelClient } from '../../core/providers/factory';
import type { Sidecar } from '../../core/sidecar/schema';
import { readSidecar, sha256Of, sidecarPathFor } from '../../core/sidecar/sidecarFile';
import { CliUsageError, trajectoryFormatFrom, type CliIo } from '../io';
import { auditOptionsFrom, modelSettingsFrom } from './auditWithModel';
import { pricingFlag } from './harnessCommon';

export const BATCH_JOBS_DIR = '.trajaudit-batch';

interface CaseRow {
  file: string;
  record: string;
  /** The batch case of a record that is audited (not reused). */
  caseId?: string;
  audit?: AuditResult;
  cached?: boolean;
  error?: string;
  stage?: string;
}

export async function runBatchAudit(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length !== 1) throw new CliUsageError(positionals.length ? 'expects exactly one file or folder' : 'missing <file or folder>');
  const target = positionals[0];
  const method = values.method as AuditMethod;
  if (method !== 'searchauditor') throw new CliUsageError(`--batch supports --method searchauditor (got ${method})`);
  if (values['warm-cache']) throw new CliUsageError('--warm-cache does not apply to --batch: a batch runs its requests in no set order');
  let isFolder: boolean;
  try {
    isFolder = statSync(target).isDirectory();
  } catch (error) {
    throw new CliUsageError(`${target}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`);
  }
  const pollSeconds = values['poll-seconds'] === undefined ? 30 : Number(values['poll-seconds']);
  if (!(Number.isFinite(pollSeconds) && pollSeconds >= 0)) throw new CliUsageError(`--poll-seconds expects a number of seconds ≥ 0, got "${String(values['poll-seconds'])}"`);
  const settings = modelSettingsFrom(values);
  const client = createModelClient(settings);
  const { options, keyOptions } = auditOptionsFrom(method, values, settings, client);
  const pricing = pricingFlag(values);

  const collection = collectTrajectories([target], { format: trajectoryFormatFrom(values) });
  for (const u of collection.unreadable) io.err(`${u.file}: ${u.message}`);
  const found = collection.trajectories.filter((c) => values.record === undefined || c.record === String(values.record));
  if (found.length === 0) throw new CliUsageError(`${target}: no trajectory${values.record !== undefined ? ` with record id ${String(values.record)}` : ''} found`);

  // The result cache of a synchronous audit: an unchanged record audited the same way is reused.
  const keyParts = { method, model: settings.model, promptVersion: promptVersionOf(method), ...(keyOptions ? { options: keyOptions } : {}) };
  const sidecars = new Map<string, Sidecar | undefined>();
  const fileSha = new Map<string, string>();
  const rows: CaseRow[] = [];
  const cases: BatchCase[] = [];
  const root = isFolder ? target : dirname(target);
  for (const c of found) {
    if (!fileSha.has(c.file)) fileSha.set(c.file, sha256Of(readFileSync(c.file)));
    if (!sidecars.has(c.file)) sidecars.set(c.file, readSidecar(sidecarPathFor(c.file)));
    const row: CaseRow = { file: c.file, record: c.record };
    rows.push(row);
    const reused = values.rerun ? undefined : cachedAudit(sidecars.get(c.file), c.record, auditKey({ contentSha256: recordContentSha256(c.trajectory), ...keyParts }));
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
    contextLimit: options.contextLimit,
    maxOutputTokens: options.maxOutputTokens ?? null,
    temperature: options.temperature ?? null,
    reasoningEffort: options.reasoningEffort ?? null,
  };
  const jobName = `${method}-${createHash('sha256').update(JSON.stringify(configuration)).digest('hex').slice(0, 12)}`;
  const jobDir = join(root, BATCH_JOBS_DIR, jobName);

  let estimate: BatchCostEstimate | undefined;
  let result: SearchAuditorBatchResult | undefined;
  if (cases.length) {
    const resumed = existsSync(jobDir);
    mkdirSync(jobDir, { recursive: true });
    const manifestPath = join(jobDir, 'job.json');
    if (!existsSync(manifestPath)) writeFileAtomic(manifestPath, `${JSON.stringify({ version: 1, configuration, createdAt: new Date().toISOString() }, null, 2)}\n`);
    io.err(`trajaudit audit --batch: ${cases.length} case(s) to audit, ${rows.length - cases.length} reused; job ${jobDir}${resumed ? ' (resumed)' : ''}`);
    const run = withSigint(io, (signal) =>
      runSearchAuditorBatch(cases, {
        search: options,
        provider: createBatchProvider(settings),
        jobDir,
        pollIntervalMs: pollSeconds * 1000,
        ...(values.detach ? { detach: true } : {}),
        signal,
        onPlanned: (plans) => {
          estimate = estimateSearchAuditorBatch(plans, client, pricing);
          io.err(`estimate: ${estimateLine(estimate)}`);
        },
        onSubmitted: (stage, ids, n) =>
          io.err(`stage ${BATCH_STAGES.indexOf(stage) + 1} (${stage}): submitted ${n} request(s) in batch ${ids.join(', ')}`),
      }),
    );
    try {
      result = await run;
    } catch (error) {
      // Provider errors (ModelError), a state file that does not fit, an interrupt: one line; the
      // job folder keeps what was submitted, so the same command resumes once the cause is fixed.
      const message = (error as Error).name === 'AbortError' ? 'interrupted' : (error as Error).message.split('\n')[0];
      io.err(`trajaudit audit --batch: ${message} (job ${jobDir}; rerun the same command to resume)`);
      return 1;
    }
    const byCase = new Map(cases.map((c) => [c.caseId, c]));
    for (const row of rows) {
      if (row.cached) continue;
      const outcome = row.caseId ? result.cases.get(row.caseId) : undefined;
      if (!outcome) continue;
      if ('audit' in outcome) row.audit = { ...outcome.audit, contentSha256: recordContentSha256(byCase.get(row.caseId!)!.trajectory) };
      else Object.assign(row, { error: outcome.error, stage: outcome.stage });
    }
  }

  const usage = result?.usage;
  const cost = usage ? batchCostUsd(usage, pricing) : null;
  if (result?.status === 'waiting') {
    const w = result.waiting!;
    const stageNumber = BATCH_STAGES.indexOf(w.stage) + 1;
    const line = `stage ${stageNumber} of 3 (${w.stage}) ${w.phase === 'submitted' ? 'submitted' : 'still running'}: ${w.requests} request(s) in batch ${w.batchIds.join(', ')}. Collect and continue: rerun the same command (without --detach it waits until all three stages are done).`;
    if (values.json) {
      io.out(
        JSON.stringify(
          { status: 'waiting', stage: w.stage, stage_number: stageNumber, phase: w.phase, batch_ids: w.batchIds, job: jobDir, estimate: estimateJson(estimate), message: line },
          null,
          2,
        ),
      );
    } else io.out(line);
    return 0;
  }

  // Complete: store the new audits exactly as a synchronous audit does, then close the job.
  let written = 0;
  const byFile = new Map<string, { recordId: string; audit: AuditResult }[]>();
  for (const row of rows) if (row.audit && !row.cached) byFile.set(row.file, [...(byFile.get(row.file) ?? []), { recordId: row.record, audit: row.audit }]);
  for (const [file, entries] of byFile) {
    const kind = loadFile(file, { format: trajectoryFormatFrom(values) }).detection.kind;
    written += (await appendAudits(file, kind, entries, { rerun: Boolean(values.rerun) })).written;
  }
  const errors = rows.filter((r) => r.error);
  if (existsSync(jobDir)) {
    const manifestPath = join(jobDir, 'job.json');
    const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : { version: 1, configuration };
    const completedAt = new Date().toISOString();
    writeFileAtomic(
      manifestPath,
      `${JSON.stringify({ ...manifest, completedAt, audited: rows.filter((r) => r.audit && !r.cached).length, errors: errors.map((r) => ({ file: r.file, record: r.record, stage: r.stage, error: r.error })), usage: usage ?? null, cost_usd: cost }, null, 2)}\n`,
    );
    const done = join(root, BATCH_JOBS_DIR, 'done');
    mkdirSync(done, { recursive: true });
    renameSync(jobDir, join(done, `${jobName}-${completedAt.replace(/[:.]/g, '-')}`));
  }

  if (values.json) {
    io.out(
      JSON.stringify(
        {
          status: 'complete',
          job: jobDir,
          estimate: estimateJson(estimate),
          usage: usage ? usageJson(usage) : null,
          cost_usd: cost,
          results: rows.map((r) => ({
            file: r.file,
            record: r.record,
            ...(r.audit ? { audit: r.audit, cached: Boolean(r.cached) } : { error: r.error ?? 'no result', stage: r.stage ?? null }),
          })),
        },
        null,
        2,
      ),
    );
  } else {
    for (const r of rows) {
      if (!r.audit) {
        io.out(`${r.file} record ${r.record}: failed — ${r.error}`);
        continue;
      }
      const d = r.audit.diagnosis;
      io.out(`${r.file} record ${r.record}: ${r.audit.method}${r.cached ? ' (cached)' : ''} → step ${d.criticalStep}, ${ROOT_CAUSE_LABELS[d.rootCause]}`);
    }
    if (usage) io.err(`usage: ${usage.calls} call(s), ${usage.inputTokens} input tokens (${usage.cachedInputTokens} cached), ${usage.outputTokens} output tokens; ${cost === null ? 'cost unknown (no --price)' : `$${cost.toFixed(4)} at batch prices`}`);
    io.err(`${written} audit(s) written to the sidecars${rows.some((r) => r.cached) ? ` (${rows.filter((r) => r.cached).length} unchanged, reused)` : ''}${errors.length ? `; ${errors.length} failed` : ''}`);
  }
  return errors.length || collection.unreadable.length ? 1 : 0;
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

function estimateLine(e: BatchCostEstimate): string {
  const cost = e.costUsd === null ? e.note : `≈ $${e.costUsd.toFixed(4)} (at most $${e.costUsdMax!.toFixed(4)}) ${e.note}`;
  return `${e.requests} request(s), ≈ ${e.inputTokens} input tokens, ≈ ${e.outputTokens} output tokens (at most ${e.outputTokensMax}); ${cost}`;
}

function estimateJson(e: BatchCostEstimate | undefined) {
  if (!e) return null;
  return {
    requests: e.requests,
    input_tokens: e.inputTokens,
    output_tokens: e.outputTokens,
    output_tokens_max: e.outputTokensMax,
    cost_usd: e.costUsd,
    cost_usd_max: e.costUsdMax,
    batch_pricing: e.batchPricing,
    note: e.note,
  };
}

function usageJson(u: NonNullable<SearchAuditorBatchResult['usage']>) {
  return { calls: u.calls, input_tokens: u.inputTokens, cached_input_tokens: u.cachedInputTokens, output_tokens: u.outputTokens };
}

/** Ctrl-C stops waiting; the batches keep running at the provider and a rerun collects them. */
async function withSigint<T>(io: CliIo, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = () => {
    io.err('trajaudit audit --batch: interrupted — the submitted batches keep running; rerun the same command to collect them');
    controller.abort();
  };
  process.once('SIGINT', onSigint);
  try {
    return await run(controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}
