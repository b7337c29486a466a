// One stage of a batch audit: every case's structured request of that stage in one submission,
// each reply validated by the same pure step as a synchronous call (acceptStructuredReply), and
// a reply that needs a re-ask sent again in the stage's next submission, up to the same attempt
// limit as completeStructured. The stage's BatchJob keeps its state in one file of the job folder.

import { BatchJob, type BatchItemOutcome, type BatchProvider } from '../../providers/batch';
import { StructuredOutputError } from '../../providers/errors';
import { acceptStructuredReply, startStructured, type StructuredAttempt } from '../../providers/structured';
import { addUsage, emptyUsage, type ChatUsage, type ModelClient } from '../../providers/types';
import type { StructuredAsk } from '../modelCalls';

/** Model-level attempts per request (first ask + re-asks), as completeStructured's default. */
export const STRUCTURED_ATTEMPTS = 3;

export interface StageRequest<T> {
  /** The custom id without its attempt suffix; ^[a-zA-Z0-9_-]{1,60}$. */
  key: string;
  ask: StructuredAsk<T>;
}

export type StageOutcome<T> = { ok: true; value: T; usage: ChatUsage; calls: number } | { ok: false; error: string; usage: ChatUsage; calls: number };

export interface StageRunnerOptions {
  provider: BatchProvider;
  /** Its structured-output mode and identity are those of the batch provider's requests. */
  client: ModelClient;
  statePath: string;
  /** Submissions of one request when its item fails (BatchJob.maxAttempts). */
  maxAttempts?: number;
  pollIntervalMs?: number;
  /** Submit or poll once and stop instead of waiting for the stage to end. */
  detach?: boolean;
  signal?: AbortSignal;
  /** A submission was made (its batch ids), for progress lines. */
  onSubmitted?: (batchIds: string[], requests: number) => void;
}

/** The stage did not end in this run: its batches were just submitted, or are still running (detached runs only). */
export class StageWaiting extends Error {
  constructor(
    readonly phase: 'submitted' | 'in_progress',
    readonly batchIds: string[],
    readonly requests: number,
  ) {
    super(`batches ${phase === 'submitted' ? 'submitted' : 'still running'}: ${batchIds.join(', ')}`);
    this.name = 'StageWaiting';
  }
}

const KEY = /^[a-zA-Z0-9_-]{1,60}$/;

/** Runs one stage to the end (or, detached, one step of it); an outcome per key. */
export async function runStage<T>(requests: readonly StageRequest<T>[], options: StageRunnerOptions): Promise<Map<string, StageOutcome<T>>> {
  let known: number | undefined;
  const job: BatchJob = new BatchJob({
    statePath: options.statePath,
    provider: options.provider,
    // Reports each submission as soon as its state is saved (a kill after it leaves it resumable).
    onProgress: (state) => {
      if (known === undefined) return;
      const added = state.batches.slice(known);
      known = state.batches.length;
      if (added.length)
        options.onSubmitted?.(
          added.map((b) => b.id),
          added.reduce((n, b) => n + b.customIds.length, 0),
        );
    },
    ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
  });
  known = job.state.batches.length;
  const results = new Map<string, StageOutcome<T>>();
  let open = requests.map((r) => {
    if (!KEY.test(r.key)) throw new Error(`batch stage: request key "${r.key}" is not a valid custom id`);
    const attempt = startStructured(r.ask.request, r.ask.schema, { name: r.ask.name, structuredOutput: options.client.structuredOutput });
    return { key: r.key, schema: r.ask.schema, attempt, usage: emptyUsage(), calls: 0 };
  });
  while (open.length) {
    const items = open.map((o) => ({ customId: customIdOf(o.key, o.attempt), request: o.attempt.request }));
    const outcomes = await settle(job, items, options);
    const next: typeof open = [];
    for (const o of open) {
      const outcome = outcomes.get(customIdOf(o.key, o.attempt))!;
      if ('error' in outcome) {
        const e = outcome.error;
        results.set(o.key, { ok: false, error: `batch item ${e.kind}${e.status ? ` (${e.status})` : ''}: ${e.message}`, usage: o.usage, calls: o.calls });
        continue;
      }
      o.usage = addUsage(o.usage, outcome.ok.usage);
      o.calls++;
      const step = acceptStructuredReply(o.attempt, outcome.ok, o.schema);
      if (step.ok) results.set(o.key, { ok: true, value: step.value, usage: o.usage, calls: o.calls });
      else if (o.attempt.attempt >= STRUCTURED_ATTEMPTS) {
        const error = new StructuredOutputError({
          provider: options.client.provider,
          model: options.client.model,
          attempts: o.attempt.attempt,
          schemaName: o.attempt.spec.name,
          usage: o.usage,
          lastOutput: outcome.ok.text,
          lastProblem: step.problem,
        });
        results.set(o.key, { ok: false, error: error.message.split('\n')[0], usage: o.usage, calls: o.calls });
      } else next.push({ ...o, attempt: step.next });
    }
    open = next;
  }
  return results;
}

function customIdOf(key: string, attempt: StructuredAttempt): string {
  return `${key}-a${attempt.attempt}`;
}

async function settle(
  job: BatchJob,
  items: { customId: string; request: StructuredAttempt['request'] }[],
  options: StageRunnerOptions,
): Promise<Map<string, BatchItemOutcome>> {
  if (!options.detach) return job.run(items, options.signal);
  const step = await job.advance(items, options.signal);
  if (step.phase === 'done') return step.outcomes;
  throw new StageWaiting(step.phase, step.batchIds, step.phase === 'in_progress' ? step.waiting : items.length);
}
