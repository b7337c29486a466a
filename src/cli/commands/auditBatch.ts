// `trajaudit audit <folder or file> --method searchauditor|all-at-once|binary-search|step-by-step --batch [--detach]`: flags in, lines
// out; the job itself (records, job folder, stages, sidecar writes) is core/audit/batch/folderBatch.ts.

import { existsSync, statSync } from 'node:fs';
import { estimateJson, type BatchCostEstimate } from '../../core/audit/batch/estimate';
import {
  prepareFolderBatch,
  runFolderBaselineBatch,
  runFolderBatch,
  type FolderBaselineOutcome,
  type FolderBatchOutcome,
} from '../../core/audit/batch/folderBatch';
import { BASELINE_METHODS } from '../../core/audit/baselines';
import { BATCH_STAGES, type SearchAuditorBatchResult } from '../../core/audit/batch/searchAuditorBatch';
import type { AuditMethod } from '../../core/audit/types';
import { ROOT_CAUSE_LABELS } from '../../core/model/rootCauses';
import { createModelClient } from '../../core/providers/factory';
import { CliUsageError, trajectoryFormatFrom, type CliIo } from '../io';
import { auditOptionsFrom, modelSettingsFrom } from './auditWithModel';
import { pricingFlag, withInterrupt } from './harnessCommon';

export async function runBatchAudit(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  if (positionals.length !== 1) throw new CliUsageError(positionals.length ? 'expects exactly one file or folder' : 'missing <file or folder>');
  const target = positionals[0];
  const method = values.method as AuditMethod;
  if (method === 'heuristic')
    throw new CliUsageError(`--batch sends model requests; heuristic makes none (use --method searchauditor, ${BASELINE_METHODS.join(', ')})`);
  const baseline = method !== 'searchauditor';
  if (values['warm-cache']) throw new CliUsageError('--warm-cache does not apply to --batch: a batch runs its requests in no set order');
  let isFolder: boolean;
  try {
    isFolder = statSync(target).isDirectory();
  } catch (error) {
    throw new CliUsageError(`${target}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`);
  }
  const pollSeconds = values['poll-seconds'] === undefined ? 30 : Number(values['poll-seconds']);
  if (!(Number.isFinite(pollSeconds) && pollSeconds >= 0))
    throw new CliUsageError(`--poll-seconds expects a number of seconds ≥ 0, got "${String(values['poll-seconds'])}"`);
  const settings = modelSettingsFrom(values);
  const { options, keyOptions } = auditOptionsFrom(method, values, settings, createModelClient(settings));
  const pricing = pricingFlag(values);
  const format = trajectoryFormatFrom(values);

  const prepared = prepareFolderBatch({
    target,
    isFolder,
    settings,
    method,
    options,
    ...(keyOptions ? { keyOptions } : {}),
    ...(format ? { format } : {}),
    ...(values.record !== undefined ? { record: String(values.record) } : {}),
    rerun: Boolean(values.rerun),
  });
  for (const u of prepared.unreadable) io.err(`${u.file}: ${u.message}`);
  if (prepared.rows.length === 0)
    throw new CliUsageError(`${target}: no trajectory${values.record !== undefined ? ` with record id ${String(values.record)}` : ''} found`);
  const jobDir = prepared.jobDir;
  if (prepared.cases.length)
    io.err(
      `trajaudit audit --batch: ${prepared.cases.length} case(s) to audit, ${prepared.rows.length - prepared.cases.length} reused; job ${jobDir}${existsSync(jobDir) ? ' (resumed)' : ''}`,
    );
  let outcome: FolderBatchOutcome | FolderBaselineOutcome;
  try {
    const common = {
      pollIntervalMs: pollSeconds * 1000,
      ...(values.detach ? { detach: true } : {}),
      ...(pricing ? { pricing } : {}),
      onEstimate: (estimate: BatchCostEstimate) => io.err(`estimate: ${estimateLine(estimate)}`),
    };
    // Ctrl-C stops waiting; the batches keep running at the provider and a rerun collects them.
    outcome = await withInterrupt<FolderBatchOutcome | FolderBaselineOutcome>(
      io,
      (signal) =>
        baseline
          ? runFolderBaselineBatch(prepared, {
              ...common,
              signal,
              onSubmitted: (round, ids, n) => io.err(`round ${round}: submitted ${n} request(s) in batch ${ids.join(', ')}`),
            })
          : runFolderBatch(prepared, {
              ...common,
              signal,
              onSubmitted: (stage, ids, n) =>
                io.err(`stage ${BATCH_STAGES.indexOf(stage) + 1} (${stage}): submitted ${n} request(s) in batch ${ids.join(', ')}`),
            }),
      'trajaudit audit --batch: interrupted — the submitted batches keep running; rerun the same command to collect them',
    );
  } catch (error) {
    // Provider errors (ModelError), a state file that does not fit, an interrupt: one line; the
    // job folder keeps what was submitted, so the same command resumes once the cause is fixed.
    const message = (error as Error).name === 'AbortError' ? 'interrupted' : (error as Error).message.split('\n')[0];
    io.err(`trajaudit audit --batch: ${message} (job ${jobDir}; rerun the same command to resume)`);
    return 1;
  }

  const { rows, usage, costUsd: cost, estimate } = outcome;
  if (outcome.status === 'waiting' && baseline) {
    const w = (outcome as FolderBaselineOutcome).waiting!;
    const line = `round ${w.round} (${method}) ${w.phase === 'submitted' ? 'submitted' : 'still running'}: ${w.requests} request(s) in batch ${w.batchIds.join(', ')}. Collect and continue: rerun the same command (without --detach it waits until every round is done; each round's requests depend on the replies of the one before).`;
    if (values.json)
      io.out(
        JSON.stringify(
          { status: 'waiting', round: w.round, phase: w.phase, batch_ids: w.batchIds, job: jobDir, estimate: estimateJson(estimate), message: line },
          null,
          2,
        ),
      );
    else io.out(line);
    return 0;
  }
  if (outcome.status === 'waiting') {
    const w = (outcome as FolderBatchOutcome).waiting!;
    const stageNumber = BATCH_STAGES.indexOf(w.stage) + 1;
    const line = `stage ${stageNumber} of 3 (${w.stage}) ${w.phase === 'submitted' ? 'submitted' : 'still running'}: ${w.requests} request(s) in batch ${w.batchIds.join(', ')}. Collect and continue: rerun the same command (without --detach it waits until all three stages are done).`;
    if (values.json) {
      io.out(
        JSON.stringify(
          {
            status: 'waiting',
            stage: w.stage,
            stage_number: stageNumber,
            phase: w.phase,
            batch_ids: w.batchIds,
            job: jobDir,
            estimate: estimateJson(estimate),
            message: line,
          },
          null,
          2,
        ),
      );
    } else io.out(line);
    return 0;
  }

  const errors = rows.filter((r) => r.error);
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
            ...(r.audit
              ? { audit: r.audit, cached: Boolean(r.cached) }
              : { error: r.error ?? 'no result', ...(baseline ? { round: r.round ?? null } : { stage: r.stage ?? null }) }),
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
    if (usage)
      io.err(
        `usage: ${usage.calls} call(s), ${usage.inputTokens} input tokens (${usage.cachedInputTokens} cached), ${usage.outputTokens} output tokens; ${cost === null ? 'cost unknown (no --price)' : `$${cost.toFixed(4)} at batch prices`}`,
      );
    io.err(
      `${outcome.written} audit(s) written to the sidecars${rows.some((r) => r.cached) ? ` (${rows.filter((r) => r.cached).length} unchanged, reused)` : ''}${errors.length ? `; ${errors.length} failed` : ''}`,
    );
  }
  return errors.length || prepared.unreadable.length ? 1 : 0;
}

function estimateLine(e: BatchCostEstimate): string {
  const cost = e.costUsd === null ? e.note : `≈ $${e.costUsd.toFixed(4)} (at most $${e.costUsdMax!.toFixed(4)}) ${e.note}`;
  return `${e.requests} request(s), ≈ ${e.inputTokens} input tokens, ≈ ${e.outputTokens} output tokens (at most ${e.outputTokensMax}); ${cost}`;
}

function usageJson(u: NonNullable<SearchAuditorBatchResult['usage']>) {
  return { calls: u.calls, input_tokens: u.inputTokens, cached_input_tokens: u.cachedInputTokens, output_tokens: u.outputTokens };
}
