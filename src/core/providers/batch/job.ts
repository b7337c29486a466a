// BatchJob: runs a set of requests through a BatchProvider to completion and keeps
// its state in a JSON file (atomic replace after every change), so a killed process,
// or a rerun of the same command, resumes polling the batches it already has and never
// submits a request twice. Failed items (expired, canceled, retryable errors, items
// of a failed batch) go into the next batch, up to the attempt limit.
// The state file holds ids and statuses only, never requests or model output: results
// are read back from the provider, which keeps them for weeks.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../../files/atomicWrite';
import type { BatchItem, BatchItemError, BatchItemOutcome, BatchProvider } from './types';

const itemStateSchema = z.object({
  /** sha256 of the request JSON: the same custom id must mean the same request on resume. */
  requestHash: z.string(),
  /** Submissions so far. */
  attempts: z.number().int().min(0),
  /** pending: to submit; submitted: in `batchId`, not collected; succeeded: its result is in `batchId`; failed: given up. */
  status: z.enum(['pending', 'submitted', 'succeeded', 'failed']),
  batchId: z.string().optional(),
  lastError: z
    .object({
      kind: z.enum(['errored', 'expired', 'canceled', 'batch_failed', 'missing']),
      message: z.string(),
      status: z.number().int().optional(),
      retryable: z.boolean(),
    })
    .optional(),
});

const batchStateSchema = z.object({
  id: z.string(),
  customIds: z.array(z.string()),
  submittedAt: z.string(),
  /** The provider's last reported status word. */
  status: z.string(),
  phase: z.enum(['in_progress', 'ended']),
  /** Its results have been read and every item's status updated. */
  collected: z.boolean(),
  polls: z.number().int().min(0),
  error: z.string().optional(),
});

export const batchJobStateSchema = z.object({
  version: z.literal(1),
  provider: z.enum(['openai', 'anthropic']),
  model: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  items: z.record(z.string(), itemStateSchema),
  batches: z.array(batchStateSchema),
});

export type BatchJobState = z.infer<typeof batchJobStateSchema>;
export type BatchItemState = z.infer<typeof itemStateSchema>;

/** What one `advance` did: submitted batches, found them still running, or found every item settled. */
export type BatchAdvance =
  | { phase: 'submitted'; batchIds: string[] }
  | { phase: 'in_progress'; batchIds: string[]; waiting: number }
  | { phase: 'done'; outcomes: Map<string, BatchItemOutcome> };

export interface BatchJobOptions {
  /** The state file (e.g. `<run folder>/batch-state.json`); its folder must exist. */
  statePath: string;
  provider: BatchProvider;
  /** Submissions per request, the first included. Default 3. */
  maxAttempts?: number;
  /** Wait between rounds of polls. Default 30 s (batches take minutes to hours). */
  pollIntervalMs?: number;
  /** Most requests per submission. Default 10 000 (OpenAI allows 50 000, Anthropic 100 000). */
  maxBatchSize?: number;
  /** Called after every state change (a submission, a poll, a collection). */
  onProgress?: (state: Readonly<BatchJobState>) => void;
}

export class BatchJob {
  readonly #options: Required<Omit<BatchJobOptions, 'onProgress'>> & Pick<BatchJobOptions, 'onProgress'>;
  #state: BatchJobState;
  /** Results collected by this process, by custom id (a resumed job reads older ones back from the provider). */
  readonly #outcomes = new Map<string, BatchItemOutcome>();

  /** Opens the job of `statePath`, resuming it when the file exists. Throws a one-line Error for a bad or foreign state file. */
  constructor(options: BatchJobOptions) {
    this.#options = { maxAttempts: 3, pollIntervalMs: 30_000, maxBatchSize: 10_000, ...options };
    if (!(Number.isInteger(this.#options.maxAttempts) && this.#options.maxAttempts >= 1)) throw new Error('BatchJob: maxAttempts must be an integer ≥ 1');
    this.#state = existsSync(options.statePath) ? this.#load() : this.#fresh();
  }

  get state(): Readonly<BatchJobState> {
    return this.#state;
  }

  /**
   * Submits what is pending, polls until every batch has ended, collects, resubmits the
   * failed items that may still succeed, and resolves with an outcome for each of `items`.
   * Items already submitted by an earlier process are polled, not submitted again.
   */
  async run(items: readonly BatchItem[], signal?: AbortSignal): Promise<Map<string, BatchItemOutcome>> {
    const byId = this.#register(items);
    for (;;) {
      await this.#submitPending(byId, signal);
      const open = this.#state.batches.filter((b) => !b.collected);
      if (open.length === 0) break;
      let ended = 0;
      for (const batch of open) {
        if (await this.#pollAndCollect(batch, signal)) ended++;
      }
      const stillPending = [...byId.keys()].some((id) => this.#state.items[id].status === 'pending');
      // Wait only when nothing moved this round; a round that ended a batch goes straight on.
      if (ended === 0 && !stillPending) await delay(this.#options.pollIntervalMs, undefined, { signal });
    }
    return this.#finalOutcomes(items, signal);
  }

  /**
   * One step that never waits (a detached run): submits what is pending and returns 'submitted';
   * with nothing to submit, polls each open batch once, collects the ended ones and submits their
   * retryable failures ('submitted' again); 'in_progress' while any of `items` is still out; 'done'
   * with an outcome for each of `items` once every one has succeeded or failed for good.
   */
  async advance(items: readonly BatchItem[], signal?: AbortSignal): Promise<BatchAdvance> {
    const byId = this.#register(items);
    let batchIds = await this.#submitPending(byId, signal);
    if (batchIds.length) return { phase: 'submitted', batchIds };
    for (const batch of this.#state.batches.filter((b) => !b.collected)) await this.#pollAndCollect(batch, signal);
    batchIds = await this.#submitPending(byId, signal);
    if (batchIds.length) return { phase: 'submitted', batchIds };
    const out = [...byId.keys()].filter((id) => this.#state.items[id].status === 'submitted');
    if (out.length) return { phase: 'in_progress', batchIds: [...new Set(out.map((id) => this.#state.items[id].batchId!))], waiting: out.length };
    return { phase: 'done', outcomes: await this.#finalOutcomes(items, signal) };
  }

  /** Registers `items` and submits the pending ones without waiting (for a detached run); resolves with the new batch ids. */
  async submit(items: readonly BatchItem[], signal?: AbortSignal): Promise<string[]> {
    return this.#submitPending(this.#register(items), signal);
  }

  #register(items: readonly BatchItem[]): Map<string, BatchItem> {
    const byId = new Map<string, BatchItem>();
    let added = false;
    for (const item of items) {
      if (byId.has(item.customId)) throw new Error(`BatchJob: custom id "${item.customId}" is given twice`);
      byId.set(item.customId, item);
      const requestHash = createHash('sha256').update(JSON.stringify(item.request)).digest('hex');
      const known = this.#state.items[item.customId];
      if (!known) {
        this.#state.items[item.customId] = { requestHash, attempts: 0, status: 'pending' };
        added = true;
      } else if (known.requestHash !== requestHash) {
        throw new Error(
          `${this.#options.statePath}: items.${item.customId}.requestHash: the request for custom id "${item.customId}" differs from the one this job submitted; use a new state file (or new custom ids) for changed requests`,
        );
      }
    }
    if (added) this.#save();
    return byId;
  }

  async #submitPending(byId: Map<string, BatchItem>, signal?: AbortSignal): Promise<string[]> {
    const pending = [...byId.values()].filter((item) => this.#state.items[item.customId].status === 'pending');
    const ids: string[] = [];
    for (let start = 0; start < pending.length; start += this.#options.maxBatchSize) {
      const chunk = pending.slice(start, start + this.#options.maxBatchSize);
      const batchId = await this.#options.provider.submit(chunk, signal);
      // Saved at once: from here on a rerun polls this batch instead of submitting its items again.
      this.#state.batches.push({
        id: batchId,
        customIds: chunk.map((i) => i.customId),
        submittedAt: new Date().toISOString(),
        status: 'submitted',
        phase: 'in_progress',
        collected: false,
        polls: 0,
      });
      for (const item of chunk) {
        const state = this.#state.items[item.customId];
        state.status = 'submitted';
        state.batchId = batchId;
        state.attempts++;
      }
      this.#save();
      ids.push(batchId);
    }
    return ids;
  }

  /** Polls one batch; when it has ended, collects its results. Resolves true when it was collected. */
  async #pollAndCollect(batch: BatchJobState['batches'][number], signal?: AbortSignal): Promise<boolean> {
    const poll = await this.#options.provider.poll(batch.id, signal);
    batch.polls++;
    batch.status = poll.status;
    batch.phase = poll.phase;
    if (poll.error) batch.error = poll.error;
    if (poll.phase !== 'ended') {
      this.#save();
      return false;
    }
    const results = await this.#options.provider.results(batch.id, signal);
    for (const customId of batch.customIds) {
      const item = this.#state.items[customId];
      if (!item || item.status !== 'submitted' || item.batchId !== batch.id) continue;
      const outcome: BatchItemOutcome = results.get(customId) ?? {
        error: batch.error
          ? { kind: 'batch_failed', message: `batch ${batch.id} failed: ${batch.error}`, retryable: true }
          : { kind: 'missing', message: `batch ${batch.id} (${batch.status}) returned no result for this request`, retryable: true },
      };
      if ('ok' in outcome) {
        item.status = 'succeeded';
        delete item.lastError;
        this.#outcomes.set(customId, outcome);
        continue;
      }
      item.lastError = outcome.error;
      if (outcome.error.retryable && item.attempts < this.#options.maxAttempts) item.status = 'pending';
      else {
        item.status = 'failed';
        this.#outcomes.set(customId, outcome);
      }
    }
    batch.collected = true;
    this.#save();
    return true;
  }

  async #finalOutcomes(items: readonly BatchItem[], signal?: AbortSignal): Promise<Map<string, BatchItemOutcome>> {
    const fetched = new Map<string, Map<string, BatchItemOutcome>>();
    const out = new Map<string, BatchItemOutcome>();
    for (const { customId } of items) {
      const item = this.#state.items[customId];
      let outcome = this.#outcomes.get(customId);
      if (!outcome && item.status === 'succeeded' && item.batchId) {
        // Collected by an earlier process: read it back from the provider.
        let batchResults = fetched.get(item.batchId);
        if (!batchResults) {
          batchResults = await this.#options.provider.results(item.batchId, signal);
          fetched.set(item.batchId, batchResults);
        }
        outcome = batchResults.get(customId);
      }
      if (!outcome && item.status === 'failed' && item.lastError) outcome = { error: item.lastError };
      out.set(customId, outcome ?? { error: missing(`no result for "${customId}" in its batch ${item.batchId ?? '(none)'}`) });
    }
    return out;
  }

  #fresh(): BatchJobState {
    const now = new Date().toISOString();
    return {
      version: 1,
      provider: this.#options.provider.provider,
      model: this.#options.provider.model,
      createdAt: now,
      updatedAt: now,
      items: {},
      batches: [],
    };
  }

  #load(): BatchJobState {
    const path = this.#options.statePath;
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new Error(`${path}: not a readable JSON batch state file (${(error as Error).message.split('\n')[0]})`);
    }
    const parsed = batchJobStateSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = issue.path.length ? issue.path.map(String).join('.') : '(top level)';
      throw new Error(`${path}: ${at}: ${issue.message}; expected a trajaudit batch state file (version 1)`);
    }
    const state = parsed.data;
    const { provider, model } = this.#options.provider;
    if (state.provider !== provider || state.model !== model) {
      throw new Error(
        `${path}: provider/model: the batches were submitted to ${state.provider} ${state.model}, not ${provider} ${model}; resume with the same model or use a new state file`,
      );
    }
    return state;
  }

  #save(): void {
    this.#state.updatedAt = new Date().toISOString();
    writeFileAtomic(this.#options.statePath, `${JSON.stringify(this.#state, null, 2)}\n`);
    this.#options.onProgress?.(this.#state);
  }
}

function missing(message: string): BatchItemError {
  return { kind: 'missing', message, retryable: false };
}
