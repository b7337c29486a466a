// Batch clients: the providers' batch engines behind one interface, and a job that persists its state.

import { AnthropicMessagesClient } from '../anthropic';
import { createModelClient, resolveModelSettings } from '../factory';
import { OpenAIChatClient } from '../openai';
import type { ModelSettings } from '../types';
import { AnthropicBatchProvider } from './anthropicBatch';
import { OpenAIBatchProvider } from './openaiBatch';
import type { BatchProvider } from './types';

export * from './types';
export { BatchJob, batchJobStateSchema, type BatchAdvance, type BatchJobOptions, type BatchJobState, type BatchItemState } from './job';
export { OpenAIBatchProvider } from './openaiBatch';
export { AnthropicBatchProvider } from './anthropicBatch';

/**
 * A batch client for the same settings as createModelClient: each request body is built by the
 * synchronous client, so a batched request is byte-identical to the one an audit sends directly
 * (cacheable prefix included). Throws ModelError kind 'config' for bad settings.
 */
export function createBatchProvider(settings: ModelSettings): BatchProvider {
  const resolved = resolveModelSettings(settings);
  const chat = createModelClient(settings);
  if (chat instanceof OpenAIChatClient) return new OpenAIBatchProvider(resolved, chat);
  if (chat instanceof AnthropicMessagesClient) return new AnthropicBatchProvider(resolved, chat);
  throw new Error(`createBatchProvider: no batch client for provider ${String(settings.provider)}`);
}
