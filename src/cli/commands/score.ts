// `trajaudit score <folder> [--json] [--out report.md] [--method M] [--partial X]
//                  [--judge exact|llm] [--provider P --model X --base-url U] [--concurrency N]
//                  [--batch [--detach] [--poll-seconds N] [--price IN,CACHED,OUT]]`
//
// Scores a run folder (docs/run-folders.md). Without --model it runs offline: deterministic judges and
// cached verdicts only. With --model the LLM judges are available (rubric grader, nugget coverage,
// scenario criteria; `--judge llm` for DeepSearchQA/Delegation answers) and their verdicts are
// appended to the run's judgments.jsonl. `--json` prints exactly the docs/cli.md §4 keys of the
// kind on stdout; how the kind was detected, the judge/cache summary and notes go to stderr.
// `--batch` sends the model judges' requests through the provider's batch API
// (core/scoring/scoreRunFolder.ts scoreRunFolderBatch); `--json` then adds a `batch` key.
// Exit 1 when the input is bad or the scenario gate fails.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backboneStability, readStabilityLines, type BackboneStability } from '../../core/scoring/backboneStability';
import { InputError } from '../../core/input/inputError';
import { estimateJson } from '../../core/audit/batch/estimate';
import { createBatchProvider } from '../../core/providers/batch';
import { createModelClient } from '../../core/providers/factory';
import type { BatchJudgingResult } from '../../core/scoring/judges/batchJudge';
import { structuredModelFromClient } from '../../core/scoring/judges/providerModel';
import { detectionLine, judgingLine, renderMarkdown, renderText, scoreJson } from '../../core/scoring/render';
import { scoreRunFolder, scoreRunFolderBatch, scoreRunFolderSync, type RunScoreResult, type ScoreOptions } from '../../core/scoring/scoreRunFolder';
import { CliUsageError, trajectoryFormatFrom, type CliIo } from '../io';
import { BATCH_OPTIONS, JSON_OPTION, PRICE_OPTION, PROVIDER_OPTIONS, TRAJECTORY_FORMAT_OPTION, concurrencyOption, type CliCommand } from '../options';
import { modelSettingsFrom } from './auditWithModel';
import { pricingFlag, withInterrupt } from './harnessCommon';

function optionsFrom(positionals: string[], values: Record<string, unknown>): { folder: string; options: ScoreOptions } {
  if (positionals.length !== 1) throw new CliUsageError(positionals.length ? 'expects exactly one run folder' : 'missing <folder>');
  const options: ScoreOptions = {};
  if (typeof values.method === 'string') {
    if (!values.method.trim()) throw new CliUsageError('--method needs a method name');
    options.method = values.method.trim();
  }
  if (typeof values.partial === 'string') {
    const x = Number(values.partial);
    if (!Number.isFinite(x) || x < 0 || x > 1) throw new CliUsageError(`--partial expects a number between 0 and 1, got "${values.partial}"`);
    options.partialCredit = x;
  }
  if (values.judge !== undefined) {
    if (values.judge !== 'exact' && values.judge !== 'llm') throw new CliUsageError('--judge must be exact or llm');
    if (values.judge === 'llm' && values.model === undefined) throw new CliUsageError('--judge llm needs --model (and --provider / --base-url as for audit)');
    options.judge = values.judge;
  }
  if (values.concurrency !== undefined) {
    const n = Number(values.concurrency);
    if (!Number.isInteger(n) || n < 1) throw new CliUsageError('--concurrency expects a positive whole number');
    options.concurrency = n;
  }
  const format = trajectoryFormatFrom(values);
  if (format) options.format = format;
  return { folder: positionals[0], options };
}

/**
 * `--backbone DIR`: a second clarify run of the same instances with other User Answerer / Rewriter
 * backbones; its clarifications are compared with this run's (seed 004 Table 11).
 */
function backboneFrom(result: RunScoreResult, values: Record<string, unknown>): BackboneStability | undefined {
  if (typeof values.backbone !== 'string') return undefined;
  if (result.score.kind !== 'nuggets') throw new CliUsageError(`--backbone compares two clarify runs (nuggets kind); this run is ${result.score.kind}`);
  const ours = result.detection.files.clarifications ?? join(result.detection.folder, 'clarifications.jsonl');
  return backboneStability(readStabilityLines(ours), readStabilityLines(join(values.backbone, 'clarifications.jsonl')));
}

function report(result: RunScoreResult, values: Record<string, unknown>, io: CliIo, batch?: BatchJudgingResult): number {
  const stability = backboneFrom(result, values);
  if (typeof values.out === 'string') {
    try {
      writeFileSync(values.out, renderMarkdown(result));
    } catch (error) {
      throw new InputError(values.out, `cannot write the report (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  if (values.json) {
    io.err(`trajaudit score: ${detectionLine(result)}; ${judgingLine(result)}`);
    for (const note of result.notes) io.err(`trajaudit score: note: ${note}`);
    io.out(
      JSON.stringify(
        { ...scoreJson(result), ...(stability ? { backbone_stability: stability } : {}), ...(batch ? { batch: batchJson(batch, 'complete') } : {}) },
        null,
        2,
      ),
    );
  } else {
    io.out(renderText(result));
    if (batch) io.err(`trajaudit score --batch: ${usageLine(batch)}`);
    if (stability) io.out(`\nbackbone stability against ${String(values.backbone)}: ${JSON.stringify(stability)}`);
  }
  if (typeof values.out === 'string' && !values.json) io.out(`\nreport written to ${values.out}`);
  if (result.score.kind === 'scenarios' && !result.score.gate.passed) {
    io.err(`trajaudit score: gate failed: ${result.score.gate.reasons.join('; ')}`);
    return 1;
  }
  return 0;
}

function batchJson(b: BatchJudgingResult, status: 'complete' | 'waiting') {
  return {
    status,
    submitted: b.submitted,
    estimate: estimateJson(b.estimate),
    usage: { calls: b.usage.calls, input_tokens: b.usage.inputTokens, cached_input_tokens: b.usage.cachedInputTokens, output_tokens: b.usage.outputTokens },
    cost_usd: b.costUsd,
  };
}

function usageLine(b: BatchJudgingResult): string {
  const u = b.usage;
  const cost = b.costUsd === null ? 'cost unknown (no --price)' : `$${b.costUsd.toFixed(4)} at batch prices`;
  return `usage: ${u.calls} reply(ies) collected, ${u.inputTokens} input tokens (${u.cachedInputTokens} cached), ${u.outputTokens} output tokens; ${cost}`;
}

async function runBatchScore(folder: string, options: ScoreOptions, values: Record<string, unknown>, io: CliIo): Promise<number> {
  const pollSeconds = values['poll-seconds'] === undefined ? 30 : Number(values['poll-seconds']);
  if (!(Number.isFinite(pollSeconds) && pollSeconds >= 0))
    throw new CliUsageError(`--poll-seconds expects a number of seconds ≥ 0, got "${String(values['poll-seconds'])}"`);
  const settings = modelSettingsFrom(values);
  const pricing = pricingFlag(values);
  let outcome: Awaited<ReturnType<typeof scoreRunFolderBatch>>;
  try {
    outcome = await withInterrupt(
      io,
      (signal) =>
        scoreRunFolderBatch(
          folder,
          { ...options, signal },
          {
            client: createModelClient(settings),
            provider: createBatchProvider(settings),
            ...(settings.maxOutputTokens ? { maxOutputTokens: settings.maxOutputTokens } : {}),
            pollIntervalMs: pollSeconds * 1000,
            ...(values.detach ? { detach: true } : {}),
            ...(pricing ? { pricing } : {}),
            onEstimate: (e) =>
              io.err(
                `trajaudit score --batch: estimate: ${e.requests} request(s), ≈ ${e.inputTokens} input tokens, ≈ ${e.outputTokens} output tokens (at most ${e.outputTokensMax}); ${e.costUsd === null ? e.note : `≈ $${e.costUsd.toFixed(4)} (at most $${e.costUsdMax!.toFixed(4)}) ${e.note}`}`,
              ),
            onSubmitted: (ids, n) => io.err(`trajaudit score --batch: submitted ${n} request(s) in batch ${ids.join(', ')}`),
          },
        ),
      'trajaudit score --batch: interrupted — the submitted batches keep running; rerun the same command to collect them',
    );
  } catch (error) {
    if (error instanceof InputError || error instanceof CliUsageError) throw error;
    // Provider errors, a batch state file that does not fit, an interrupt: one line; the state file
    // keeps what was submitted, so the same command resumes once the cause is fixed.
    const message = (error as Error).name === 'AbortError' ? 'interrupted' : (error as Error).message.split('\n')[0];
    io.err(`trajaudit score --batch: ${message} (rerun the same command to resume)`);
    return 1;
  }
  if (outcome.status === 'complete') return report(outcome.result, values, io, outcome.batch);
  const w = outcome.batch.waiting!;
  const message = `${w.requests} judge request(s) ${w.phase === 'submitted' ? 'submitted' : 'still running'} in batch ${w.batchIds.join(', ')}; rerun the same command to collect them (without --detach it waits until every verdict is in)`;
  if (values.json)
    io.out(
      JSON.stringify(
        {
          status: 'waiting',
          phase: w.phase,
          batch_ids: w.batchIds,
          requests: w.requests,
          state: outcome.statePath,
          batch: batchJson(outcome.batch, 'waiting'),
          message,
        },
        null,
        2,
      ),
    );
  else io.out(message);
  return 0;
}

export async function runScore(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  const { folder, options } = optionsFrom(positionals, values);
  if (!values.batch)
    for (const flag of ['detach', 'poll-seconds', 'price']) if (values[flag] !== undefined) throw new CliUsageError(`--${flag} applies to --batch only`);
  if (values.batch) {
    if (values.model === undefined && values.provider === undefined && process.env.TRAJAUDIT_MODEL === undefined)
      throw new CliUsageError('--batch sends the model judges to a provider: it needs --model (and --provider / --base-url as for audit)');
    return runBatchScore(folder, options, values, io);
  }
  if (values.model === undefined && values.provider === undefined) {
    // Offline: deterministic judges and cached verdicts only.
    return report(scoreRunFolderSync(folder, options), values, io);
  }
  const settings = modelSettingsFrom(values);
  const model = structuredModelFromClient(createModelClient(settings), { maxOutputTokens: settings.maxOutputTokens });
  return report(await scoreRunFolder(folder, { ...options, model }), values, io);
}

export const scoreCommand: CliCommand = {
  name: 'score',
  args: '<folder>',
  summary: 'Scores a run folder (kind from trajaudit.run.json or detected). Offline without --model/--provider: deterministic judges and cached verdicts only.',
  options: {
    ...JSON_OPTION,
    out: { type: 'string', value: 'report.md', help: 'also write a Markdown report' },
    method: { type: 'string', value: 'M', help: 'audit runs: the newest audit of method M (default: the newest audit)' },
    partial: { type: 'string', value: 'X', help: 'nuggets: credit of a partial nugget, 0..1 (default 0.5)' },
    judge: { type: 'string', value: 'exact|llm', help: 'answer judge for deepsearchqa/delegation (default exact; llm needs --model)' },
    ...TRAJECTORY_FORMAT_OPTION,
    backbone: {
      type: 'string',
      value: 'DIR',
      help: 'nuggets: another clarify run of the same instances (other --answerer/--rewriter); adds backbone_stability',
    },
    ...PROVIDER_OPTIONS,
    ...concurrencyOption('model judgments', 4),
    ...BATCH_OPTIONS,
    batch: {
      type: 'boolean',
      help: "model judges: every verdict not cached goes to the provider's batch API (half price) in one submission per round of re-asks; rerun the same command to resume",
    },
    detach: { type: 'boolean', help: 'with --batch: submit (or poll once) and exit; rerun to collect the verdicts and score' },
    ...PRICE_OPTION,
  },
  run: runScore,
};
