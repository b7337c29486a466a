// One SDK call of a batch client through the shared transport layer (retry.ts): a
// per-attempt deadline, retries on 429/5xx/connection errors, a one-line ModelError.

import { scrubSecrets } from '../errors';
import { classifySdkError, runWithRetries, type RetryPolicy } from '../retry';
import type { ProviderName } from '../types';

type SdkErrorClasses = Parameters<typeof classifySdkError>[2];

export interface SdkCallContext {
  provider: ProviderName;
  model: string;
  policy: RetryPolicy;
  apiKey: string;
  sdkErrors: SdkErrorClasses;
}

/**
 * `retry: false` for calls that are not idempotent (creating a batch): a lost answer to a
 * create that the server accepted must not become a second batch.
 */
export async function sdkCall<T>(
  ctx: SdkCallContext,
  call: (signal: AbortSignal) => Promise<T>,
  options: { signal?: AbortSignal; retry?: boolean } = {},
): Promise<T> {
  const policy = options.retry === false ? { ...ctx.policy, maxRetries: 0 } : ctx.policy;
  const { value } = await runWithRetries(
    { provider: ctx.provider, model: ctx.model, policy, signal: options.signal, scrub: (text) => scrubSecrets(text, [ctx.apiKey]) },
    call,
    (error, timedOut) => classifySdkError(error, timedOut, ctx.sdkErrors, policy.timeoutMs),
  );
  return value;
}
