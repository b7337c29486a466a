// Model judges through the providers' batch engines (`trajaudit score --batch`, issue 17).
//
// The judges are not rewritten for batches: they run as they do synchronously (completeValidated
// over structuredModelFromClient, so the same prompts, schema checks, semantic checks and re-asks),
// against a BatchReplayClient that answers a request from the batch results collected so far and
// otherwise notes it and stops that verdict (BatchReplyPending). Every noted request of a round goes
// into one submission of a BatchJob; once it ends, the judges run again and get their replies; a
// re-ask is a new request, which goes into the next round. A request's custom id is the hash of the
// request, so a rerun of the same scoring rebuilds the same ids and the job's state file polls the
// batches it already has instead of submitting anything twice. Verdicts go through the same
// judgment cache as synchronous ones (cached verdicts are never requested).
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { batchEstimate, batchPricingOf, type BatchCostEstimate } from '../../audit/batch/estimate';
import { costUsd, type HarnessUsage, type Pricing } from '../../harness/wire';
import { BatchJob, type BatchItem, type BatchItemError, type BatchProvider } from '../../providers/batch';
import type { ChatRequest, ChatResult, ModelClient } from '../../providers/types';
import { tokenCount } from '../../stats/tokens';
import type { JudgmentCache } from './cache';
import { AbortedError, isMalformedOutput, recordFailure, recordVerdict, tasksToJudge, type Judge, type JudgeTask, type JudgingSummary } from './judge';

/** Output tokens assumed per judge reply for the estimate: a verdict is a short JSON object. */
export const ASSUMED_OUTPUT_TOKENS_PER_VERDICT = 200;

/** The output limit a request without one is counted with in the upper bound (as the audit estimate does). */
const UNSET_OUTPUT_LIMIT = 8000;

/** Thrown by BatchReplayClient for a request whose reply is not collected yet: the verdict waits for the next round. */
export class BatchReplyPending extends Error {
  constructor(readonly customId: string) {
    super(`the batch reply for ${customId} is not collected yet`);
    this.name = 'BatchReplyPending';
  }
}

/** Thrown by BatchReplayClient for a request the batch gave up on (errored, expired … after its submissions). */
export class BatchItemFailed extends Error {
  constructor(
    readonly customId: string,
    readonly error: BatchItemError,
  ) {
    super(`batch item ${error.kind}${error.status ? ` (${error.status})` : ''}: ${error.message}`);
    this.name = 'BatchItemFailed';
  }
}

/** Stable, unique per request and within the providers' ^[a-zA-Z0-9_-]{1,64}$. */
export function customIdOfRequest(request: ChatRequest): string {
  return `j-${createHash('sha256').update(JSON.stringify(request)).digest('hex').slice(0, 48)}`;
}

/** A ModelClient with the provider, model and structured-output mode of the real one, answering from collected batch results. */
export class BatchReplayClient implements ModelClient {
  readonly provider: ModelClient['provider'];
  readonly model: string;
  readonly structuredOutput?: ModelClient['structuredOutput'];
  readonly #results = new Map<string, ChatResult>();
  readonly #errors = new Map<string, BatchItemError>();
  /** Requests asked for this round and not answered, by custom id. */
  readonly wanted = new Map<string, ChatRequest>();

  constructor(client: Pick<ModelClient, 'provider' | 'model' | 'structuredOutput'>) {
    this.provider = client.provider;
    this.model = client.model;
    if (client.structuredOutput) this.structuredOutput = client.structuredOutput;
  }

  complete(request: ChatRequest): Promise<ChatResult> {
    const id = customIdOfRequest(request);
    const result = this.#results.get(id);
    if (result) return Promise.resolve(result);
    const error = this.#errors.get(id);
    if (error) return Promise.reject(new BatchItemFailed(id, error));
    this.wanted.set(id, request);
    return Promise.reject(new BatchReplyPending(id));
  }

  settle(customId: string, outcome: { ok: ChatResult } | { error: BatchItemError }): void {
    if ('ok' in outcome) this.#results.set(customId, outcome.ok);
    else this.#errors.set(customId, outcome.error);
  }

  /** The real usage of every reply collected (each request once). */
  usage(): HarnessUsage {
    const usage: HarnessUsage = { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
    for (const r of this.#results.values()) {
      usage.calls++;
      usage.inputTokens += r.usage.inputTokens;
      usage.outputTokens += r.usage.outputTokens;
      usage.cachedInputTokens += r.usage.cachedInputTokens;
    }
    return usage;
  }
}

export interface BatchJudgingOptions {
  provider: BatchProvider;
  /** The job's state file (ids and statuses only); its folder is made before the first submission. */
  statePath: string;
  detach?: boolean;
  pollIntervalMs?: number;
  /** List prices (USD per million tokens); costs are at batch prices. */
  pricing?: Pricing;
  signal?: AbortSignal;
  /** Before the first submission of this run: the requests it submits first (re-asks and resubmissions come on top), at batch prices. */
  onEstimate?: (estimate: BatchCostEstimate) => void;
  onSubmitted?: (batchIds: string[], requests: number) => void;
}

export interface BatchJudgingResult {
  summary: JudgingSummary;
  /** waiting: a detached run submitted a batch or found one still running; rerun to collect. */
  status: 'complete' | 'waiting';
  waiting?: { phase: 'submitted' | 'in_progress'; batchIds: string[]; requests: number };
  estimate?: BatchCostEstimate;
  /** Real usage of the replies collected by this run (replies of earlier runs read back included). */
  usage: HarnessUsage;
  /** At batch prices; null without prices. */
  costUsd: number | null;
  /** Batches submitted by this run. */
  submitted: string[];
}

/** Tokens and cost of the first attempts of `requests` at batch prices (no prompt-cache hit assumed). */
export function estimateJudgeBatch(requests: readonly ChatRequest[], listPricing: Pricing | undefined): BatchCostEstimate {
  let inputTokens = 0;
  let outputTokensMax = 0;
  for (const r of requests) {
    inputTokens += tokenCount(r.system) + tokenCount(r.cacheablePrefix) + r.messages.reduce((n, m) => n + tokenCount(m.content), 0);
    if (r.structuredOutput === 'native' && r.json) inputTokens += tokenCount(JSON.stringify(r.json.schema));
    outputTokensMax += r.maxOutputTokens ?? UNSET_OUTPUT_LIMIT;
  }
  return batchEstimate({ requests: requests.length, inputTokens, outputTokensMax }, listPricing, {
    assumption: 'first attempts only, no prompt-cache hits assumed',
    outputTokensPerReply: ASSUMED_OUTPUT_TOKENS_PER_VERDICT,
    reply: 'verdict',
  });
}

/**
 * Resolves tasks whose model judges talk to `replay`: cache first, then rounds of one batch
 * submission each until every verdict is given or failed. Detached, it stops after one submission
 * (or one poll of a running batch) with status 'waiting'. Cancellation and provider errors throw;
 * the state file keeps what was submitted.
 */
export async function runTasksBatched(
  tasks: readonly JudgeTask<unknown, unknown>[],
  cache: JudgmentCache | undefined,
  replay: BatchReplayClient,
  options: BatchJudgingOptions,
): Promise<BatchJudgingResult> {
  const first = tasksToJudge(tasks, cache);
  const summary = first.summary;
  let pending = first.pending;
  let job: BatchJob | undefined;
  let estimate: BatchCostEstimate | undefined;
  const submitted: string[] = [];
  const finish = (status: BatchJudgingResult['status'], waiting?: BatchJudgingResult['waiting']): BatchJudgingResult => {
    const usage = replay.usage();
    return {
      summary,
      status,
      ...(waiting ? { waiting } : {}),
      ...(estimate ? { estimate } : {}),
      usage,
      costUsd: costUsd(usage, batchPricingOf(options.pricing)) ?? null,
      submitted,
    };
  };
  while (pending.length) {
    replay.wanted.clear();
    const waiting: JudgeTask<unknown, unknown>[] = [];
    for (const task of pending) {
      if (options.signal?.aborted) throw new AbortedError();
      const judge = task.judge as Judge<unknown, unknown>;
      let output: unknown;
      try {
        output = await judge.judge(task.input, options.signal);
      } catch (error) {
        if (error instanceof BatchReplyPending) waiting.push(task);
        // A request the batch gave up on loses that verdict only, as malformed output does.
        else if (error instanceof BatchItemFailed) recordFailure(task, error, summary);
        else if (options.signal?.aborted || !isMalformedOutput(error)) throw error;
        else recordFailure(task, error, summary);
        continue;
      }
      recordVerdict(task, judge, output, cache, summary);
    }
    pending = waiting;
    if (!pending.length) break;
    const items: BatchItem[] = [...replay.wanted].map(([customId, request]) => ({ customId, request }));
    const batchJob = (job ??= openJob(options, submitted));
    // What this run is about to submit: requests an earlier run submitted are polled, not paid again.
    const fresh = items.filter((i) => !(i.customId in batchJob.state.items));
    if (!estimate && fresh.length) {
      estimate = estimateJudgeBatch(
        fresh.map((i) => i.request),
        options.pricing,
      );
      options.onEstimate?.(estimate);
    }
    let outcomes;
    if (options.detach) {
      const step = await batchJob.advance(items, options.signal);
      if (step.phase !== 'done')
        return finish('waiting', { phase: step.phase, batchIds: step.batchIds, requests: step.phase === 'in_progress' ? step.waiting : items.length });
      outcomes = step.outcomes;
    } else outcomes = await batchJob.run(items, options.signal);
    for (const [customId, outcome] of outcomes) replay.settle(customId, outcome);
  }
  return finish('complete');
}

function openJob(options: BatchJudgingOptions, submitted: string[]): BatchJob {
  mkdirSync(dirname(options.statePath), { recursive: true });
  let known: number | undefined;
  const job = new BatchJob({
    statePath: options.statePath,
    provider: options.provider,
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
    // Reported as soon as a submission's state is saved (a kill after it leaves it resumable).
    onProgress: (state) => {
      if (known === undefined) return;
      const added = state.batches.slice(known);
      known = state.batches.length;
      if (!added.length) return;
      submitted.push(...added.map((b) => b.id));
      options.onSubmitted?.(
        added.map((b) => b.id),
        added.reduce((n, b) => n + b.customIds.length, 0),
      );
    },
  });
  known = job.state.batches.length;
  return job;
}
