// OpenAI Batch API through the official SDK: the requests go up as a JSONL file
// (purpose "batch") of {custom_id, method, url, body}, a batch runs them against
// /v1/chat/completions, and the output and error files come back as JSONL.

import OpenAI, { toFile } from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Batch } from 'openai/resources/batches';
import { ModelError, oneLine } from '../errors';
import { completionToResult, OpenAIChatClient } from '../openai';
import type { ResolvedModelSettings } from '../factory';
import { sdkCall, type SdkCallContext } from './sdkCall';
import { retryableStatus, type BatchItem, type BatchItemOutcome, type BatchPoll, type BatchProvider } from './types';

const ENDPOINT = '/v1/chat/completions';
const ENDED = new Set(['completed', 'failed', 'expired', 'cancelled']);

export class OpenAIBatchProvider implements BatchProvider {
  readonly provider = 'openai' as const;
  readonly model: string;
  readonly #sdk: OpenAI;
  readonly #chat: OpenAIChatClient;
  readonly #ctx: SdkCallContext;

  /** `chat` builds each request body exactly as the synchronous client would send it. */
  constructor(resolved: ResolvedModelSettings, chat: OpenAIChatClient) {
    this.model = resolved.model;
    this.#chat = chat;
    this.#sdk = new OpenAI({
      apiKey: resolved.apiKey,
      baseURL: resolved.baseUrl,
      // Explicit nulls: the SDK would otherwise read OPENAI_ORG_ID, OPENAI_PROJECT_ID, … from the environment.
      adminAPIKey: null,
      organization: null,
      project: null,
      webhookSecret: null,
      maxRetries: 0, // retries are ours (retry.ts)
      timeout: resolved.policy.timeoutMs,
      logLevel: 'off',
    });
    this.#ctx = { provider: 'openai', model: resolved.model, policy: resolved.policy, apiKey: resolved.apiKey, sdkErrors: OpenAI };
  }

  async submit(items: readonly BatchItem[], signal?: AbortSignal): Promise<string> {
    const jsonl =
      items.map((item) => JSON.stringify({ custom_id: item.customId, method: 'POST', url: ENDPOINT, body: this.#chat.buildBody(item.request) })).join('\n') +
      '\n';
    // An upload retried after a lost answer leaves at most an unused file behind.
    const file = await sdkCall(
      this.#ctx,
      async (s) =>
        this.#sdk.files.create(
          { file: await toFile(Buffer.from(jsonl, 'utf8'), 'batch.jsonl', { type: 'application/jsonl' }), purpose: 'batch' },
          { signal: s },
        ),
      { signal },
    );
    const batch = await sdkCall(
      this.#ctx,
      (s) => this.#sdk.batches.create({ input_file_id: file.id, endpoint: ENDPOINT, completion_window: '24h' }, { signal: s }),
      { signal, retry: false },
    );
    return batch.id;
  }

  async poll(batchId: string, signal?: AbortSignal): Promise<BatchPoll> {
    const batch = await this.#retrieve(batchId, signal);
    const total = batch.request_counts?.total ?? 0;
    const succeeded = batch.request_counts?.completed ?? 0;
    const failed = batch.request_counts?.failed ?? 0;
    const poll: BatchPoll = {
      phase: ENDED.has(batch.status) ? 'ended' : 'in_progress',
      status: batch.status,
      counts: { total, succeeded, failed, processing: Math.max(0, total - succeeded - failed) },
    };
    if (batch.status === 'failed') {
      const errors = batch.errors?.data ?? [];
      poll.error = oneLine(
        errors.length ? errors.map((e) => `${e.code ?? 'error'}: ${e.message ?? ''}${e.line ? ` (input line ${e.line})` : ''}`).join('; ') : 'the batch failed',
      );
    }
    return poll;
  }

  async results(batchId: string, signal?: AbortSignal): Promise<Map<string, BatchItemOutcome>> {
    const batch = await this.#retrieve(batchId, signal);
    const out = new Map<string, BatchItemOutcome>();
    for (const [fileId, which] of [
      [batch.output_file_id, 'output'],
      [batch.error_file_id, 'error'],
    ] as const) {
      if (!fileId) continue;
      const text = await sdkCall(this.#ctx, async (s) => (await this.#sdk.files.content(fileId, { signal: s })).text(), { signal });
      text.split('\n').forEach((line, index) => {
        if (!line.trim()) return;
        const where = `batch ${batchId} ${which} file ${fileId} line ${index + 1}`;
        const { customId, outcome } = this.#parseLine(line, where);
        out.set(customId, outcome);
      });
    }
    return out;
  }

  #retrieve(batchId: string, signal?: AbortSignal): Promise<Batch> {
    return sdkCall(this.#ctx, (s) => this.#sdk.batches.retrieve(batchId, { signal: s }), { signal });
  }

  #parseLine(line: string, where: string): { customId: string; outcome: BatchItemOutcome } {
    const bad = (detail: string): never => {
      throw new ModelError({ kind: 'bad_response', provider: 'openai', model: this.model, detail: oneLine(`${where}: ${detail}`) });
    };
    let value: {
      custom_id?: unknown;
      response?: { status_code?: number; request_id?: string; body?: unknown } | null;
      error?: { code?: string | null; message?: string | null } | null;
    };
    try {
      value = JSON.parse(line) as typeof value;
    } catch {
      return bad(`not JSON (${JSON.stringify(line.slice(0, 60))})`);
    }
    if (!value || typeof value !== 'object' || typeof value.custom_id !== 'string') return bad('expected an object with a string custom_id');
    const customId = value.custom_id;
    const response = value.response;
    if (response && response.status_code === 200) {
      const body = response.body as Partial<ChatCompletion> | undefined;
      if (!body || !Array.isArray(body.choices) || body.choices.length === 0) return bad('response.body has no choices; expected a chat completion');
      const result = completionToResult(body as ChatCompletion, { model: this.model, latencyMs: 0, attempts: 1, secrets: [this.#ctx.apiKey] });
      if (response.request_id) result.requestId = response.request_id;
      return { customId, outcome: { ok: result } };
    }
    if (response && typeof response.status_code === 'number') {
      const message = (response.body as { error?: { message?: string } } | undefined)?.error?.message ?? `HTTP ${response.status_code}`;
      const status = response.status_code;
      return { customId, outcome: { error: { kind: 'errored', status, message: oneLine(`${status}: ${message}`), retryable: retryableStatus(status) } } };
    }
    const code = value.error?.code ?? '';
    const message = oneLine(`${code || 'error'}: ${value.error?.message ?? 'no response'}`);
    if (code === 'batch_expired') return { customId, outcome: { error: { kind: 'expired', message, retryable: true } } };
    if (code === 'batch_cancelled') return { customId, outcome: { error: { kind: 'canceled', message, retryable: true } } };
    return { customId, outcome: { error: { kind: 'errored', message, retryable: true } } };
  }
}
