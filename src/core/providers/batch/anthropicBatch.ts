// Anthropic Message Batches through the official SDK: one create with
// {custom_id, params} per request, retrieve for processing_status, and the results
// JSONL of {custom_id, result: succeeded | errored | canceled | expired}.

import Anthropic from '@anthropic-ai/sdk';
import type { MessageBatch, MessageBatchIndividualResponse } from '@anthropic-ai/sdk/resources/messages/batches';
import { oneLine } from '../errors';
import { AnthropicMessagesClient, messageToResult } from '../anthropic';
import type { ResolvedModelSettings } from '../factory';
import { sdkCall, type SdkCallContext } from './sdkCall';
import { retryableStatus, type BatchItem, type BatchItemOutcome, type BatchPoll, type BatchProvider } from './types';

/** Anthropic error types of requests that are wrong in themselves (sending them again cannot help). */
const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

export class AnthropicBatchProvider implements BatchProvider {
  readonly provider = 'anthropic' as const;
  readonly model: string;
  readonly #sdk: Anthropic;
  readonly #chat: AnthropicMessagesClient;
  readonly #ctx: SdkCallContext;

  /** `chat` builds each request's params exactly as the synchronous client would send them. */
  constructor(resolved: ResolvedModelSettings, chat: AnthropicMessagesClient) {
    this.model = resolved.model;
    this.#chat = chat;
    this.#sdk = new Anthropic({
      apiKey: resolved.apiKey,
      // Explicit null: the SDK would otherwise read ANTHROPIC_AUTH_TOKEN / ANTHROPIC_WEBHOOK_SIGNING_KEY.
      authToken: null,
      webhookKey: null,
      baseURL: resolved.baseUrl,
      maxRetries: 0, // retries are ours (retry.ts)
      timeout: resolved.policy.timeoutMs,
      logLevel: 'off',
    });
    this.#ctx = { provider: 'anthropic', model: resolved.model, policy: resolved.policy, apiKey: resolved.apiKey, sdkErrors: Anthropic };
  }

  async submit(items: readonly BatchItem[], signal?: AbortSignal): Promise<string> {
    const requests = items.map((item) => ({ custom_id: item.customId, params: this.#chat.buildBody(item.request) }));
    const batch = await sdkCall(this.#ctx, (s) => this.#sdk.messages.batches.create({ requests }, { signal: s }), { signal, retry: false });
    return batch.id;
  }

  async poll(batchId: string, signal?: AbortSignal): Promise<BatchPoll> {
    const batch = await this.#retrieve(batchId, signal);
    const c = batch.request_counts;
    const failed = c.errored + c.expired + c.canceled;
    return {
      phase: batch.processing_status === 'ended' ? 'ended' : 'in_progress',
      status: batch.processing_status,
      counts: { total: c.processing + c.succeeded + failed, succeeded: c.succeeded, failed, processing: c.processing },
    };
  }

  async results(batchId: string, signal?: AbortSignal): Promise<Map<string, BatchItemOutcome>> {
    const lines = await sdkCall(
      this.#ctx,
      async (s) => {
        const collected: MessageBatchIndividualResponse[] = [];
        for await (const line of await this.#sdk.messages.batches.results(batchId, {}, { signal: s })) collected.push(line);
        return collected;
      },
      { signal },
    );
    const out = new Map<string, BatchItemOutcome>();
    for (const line of lines) out.set(line.custom_id, this.#outcome(line));
    return out;
  }

  #retrieve(batchId: string, signal?: AbortSignal): Promise<MessageBatch> {
    return sdkCall(this.#ctx, (s) => this.#sdk.messages.batches.retrieve(batchId, {}, { signal: s }), { signal });
  }

  #outcome(line: MessageBatchIndividualResponse): BatchItemOutcome {
    const result = line.result;
    switch (result.type) {
      case 'succeeded':
        return { ok: messageToResult(result.message, { model: this.model, latencyMs: 0, attempts: 1, secrets: [this.#ctx.apiKey] }) };
      case 'errored': {
        const type = result.error?.error?.type ?? 'api_error';
        const status = ERROR_STATUS[type];
        return { error: { kind: 'errored', status, message: oneLine(`${type}: ${result.error?.error?.message ?? ''}`), retryable: retryableStatus(status) } };
      }
      case 'expired':
        return { error: { kind: 'expired', message: 'the batch ended before this request was processed', retryable: true } };
      case 'canceled':
        return { error: { kind: 'canceled', message: 'the batch was canceled before this request was processed', retryable: true } };
    }
  }
}
