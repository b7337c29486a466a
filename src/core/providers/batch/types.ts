// Provider-neutral batch interface: the providers' batch engines (OpenAI Batch API,
// Anthropic Message Batches) behind submit / poll / results. Plain Node, no vscode.

import type { ChatRequest, ChatResult, ProviderName } from '../types';

/** One request of a batch. Anthropic requires custom ids matching ^[a-zA-Z0-9_-]{1,64}$; both need them unique. */
export interface BatchItem {
  customId: string;
  request: ChatRequest;
}

export interface BatchCounts {
  total: number;
  succeeded: number;
  /** Errored, expired or canceled items (and every item of a failed batch). */
  failed: number;
  /** Not answered yet. */
  processing: number;
}

export interface BatchPoll {
  /** 'ended': results (if any) can be collected; nothing more will change. */
  phase: 'in_progress' | 'ended';
  /** The provider's own status word (OpenAI validating … cancelled; Anthropic in_progress, canceling, ended). */
  status: string;
  counts: BatchCounts;
  /** Why the batch as a whole failed (OpenAI status failed), one line. */
  error?: string;
}

export interface BatchItemError {
  /** errored: the request got an error answer; expired/canceled: never run; batch_failed: the whole batch failed; missing: the provider returned nothing for it. */
  kind: 'errored' | 'expired' | 'canceled' | 'batch_failed' | 'missing';
  /** One line. */
  message: string;
  /** HTTP status of an errored item, when the provider gives one. */
  status?: number;
  /** Whether sending it again may succeed (false for invalid requests: 400, 401, 403, 404, 413, 422). */
  retryable: boolean;
}

export type BatchItemOutcome = { ok: ChatResult } | { error: BatchItemError };

export interface BatchProvider {
  readonly provider: ProviderName;
  readonly model: string;
  /** Submits one batch; resolves with its id. */
  submit(items: readonly BatchItem[], signal?: AbortSignal): Promise<string>;
  poll(batchId: string, signal?: AbortSignal): Promise<BatchPoll>;
  /** Every item the provider reports for an ended batch, by custom id. */
  results(batchId: string, signal?: AbortSignal): Promise<Map<string, BatchItemOutcome>>;
}

/** Statuses of items that are not worth sending again: the request itself is wrong. */
export function retryableStatus(status: number | undefined): boolean {
  if (status === undefined) return true;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
