import { createModelClient } from '../../../src/core/providers/factory';
import type { ModelClient, ModelSettings } from '../../../src/core/providers/types';
import { startMockModelServer, type MockModelServer, type MockServerOptions } from '../../mock/mockModelServer';

export const OPENAI_KEY = 'sk-test-OPENAI-0123456789abcdefSECRET';
export const ANTHROPIC_KEY = 'sk-ant-test-ANTHROPIC-0123456789SECRET';

/** Fast retry timing so the suites stay quick. */
export const FAST: Partial<ModelSettings> = { retryBaseDelayMs: 5, retryMaxDelayMs: 20, timeoutMs: 5_000 };

/** A fresh mock server per test; `ctx.server` is set in beforeEach. */
export function useMockServer(options: MockServerOptions = {}): { server: MockModelServer } {
  const ctx = {} as { server: MockModelServer };
  beforeEach(async () => {
    ctx.server = await startMockModelServer(options);
  });
  afterEach(async () => {
    await ctx.server.close();
  });
  return ctx;
}

export function openaiClient(server: MockModelServer, settings: Partial<ModelSettings> = {}): ModelClient {
  return createModelClient({ provider: 'openai', model: 'gpt-mock', baseUrl: server.openaiBaseUrl, apiKey: OPENAI_KEY, ...FAST, ...settings });
}

export function anthropicClient(server: MockModelServer, settings: Partial<ModelSettings> = {}): ModelClient {
  return createModelClient({ provider: 'anthropic', model: 'claude-mock', baseUrl: server.anthropicBaseUrl, apiKey: ANTHROPIC_KEY, ...FAST, ...settings });
}

export const user = (content: string) => ({ role: 'user' as const, content });

/** Resolves with the rejection of `promise` (fails if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, any>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, any>;
  }
  throw new Error('expected the promise to reject');
}
