// The transport layer shared by both providers: per-attempt deadline (covering
// the response body, which the SDKs' own timeout does not), retries with
// exponential back-off + jitter on 408/409/429/5xx, timeouts and connection
// errors, honouring retry-after (capped), and prompt cancellation — also during
// back-off, which the OpenAI SDK's built-in retry sleep does not observe.
//
// The SDK clients are built with maxRetries: 0, so every HTTP attempt goes
// through here and ChatResult.attempts is exact.

import { ModelAbortError, ModelError, type ModelErrorKind } from './errors';
import type { ProviderName } from './types';

export interface RetryPolicy {
  maxRetries: number;
  timeoutMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  retryAfterMaxMs: number;
}

export interface TransportFailure {
  kind: Exclude<ModelErrorKind, 'aborted' | 'invalid_output'>;
  retryable: boolean;
  /** Raw detail; scrubbed and flattened before it reaches an error message. */
  detail: string;
  status?: number;
  /** Server-requested delay (retry-after-ms / retry-after). */
  retryAfterMs?: number;
  requestId?: string;
}

export interface TransportContext {
  provider: ProviderName;
  model: string;
  policy: RetryPolicy;
  signal?: AbortSignal;
  scrub: (text: string) => string;
  /** Test hook: replaces Math.random in the jitter. */
  random?: () => number;
}

/**
 * Runs `attempt` until it succeeds, fails with a non-retryable error, or the
 * retries are used up. `attempt` gets a signal that fires on the caller's abort
 * and on the per-attempt deadline.
 */
export async function runWithRetries<T>(
  ctx: TransportContext,
  attempt: (signal: AbortSignal, attemptNumber: number) => Promise<T>,
  classify: (error: unknown, timedOut: boolean) => TransportFailure,
): Promise<{ value: T; attempts: number }> {
  const { signal, policy } = ctx;
  for (let n = 1; ; n++) {
    if (signal?.aborted) throw new ModelAbortError(ctx.provider, ctx.model, n - 1);
    const controller = new AbortController();
    let timedOut = false;
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const deadline = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no complete response within ${policy.timeoutMs} ms`));
    }, policy.timeoutMs);
    let failure: TransportFailure;
    try {
      const value = await raceAbort(attempt(controller.signal, n), signal);
      return { value, attempts: n };
    } catch (error) {
      controller.abort();
      if (signal?.aborted) throw new ModelAbortError(ctx.provider, ctx.model, n);
      failure = classify(error, timedOut);
    } finally {
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
    }
    if (!failure.retryable || n > policy.maxRetries) {
      throw new ModelError({
        kind: failure.kind,
        provider: ctx.provider,
        model: ctx.model,
        detail: ctx.scrub(failure.detail),
        status: failure.status,
        attempts: n,
        retryable: failure.retryable,
        requestId: failure.requestId,
      });
    }
    await abortableSleep(backoffDelayMs(n, policy, failure.retryAfterMs, ctx.random), signal).catch(() => {
      throw new ModelAbortError(ctx.provider, ctx.model, n);
    });
  }
}

/**
 * Delay before retry number `retry` (1-based): the server's retry-after when
 * given (capped at retryAfterMaxMs), else min(maxDelay, base·2^(retry-1)) with
 * "equal jitter" (a uniform draw from its upper half).
 */
export function backoffDelayMs(
  retry: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'retryAfterMaxMs'>,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs)) return Math.min(Math.max(0, retryAfterMs), policy.retryAfterMaxMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}

function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

// ---- classification of errors thrown by the Stainless-generated SDKs ----------
// Both `openai` and `@anthropic-ai/sdk` export the same error class hierarchy
// (APIError ⊃ APIConnectionError ⊃ APIConnectionTimeoutError, APIUserAbortError).

/** Thrown by a provider when a 2xx body is not what the API promises. */
export class BadResponseError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'BadResponseError';
  }
}

interface HeadersLike {
  get(name: string): string | null;
}

export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

const NETWORK_CODES = /^(ECONNRESET|ECONNREFUSED|ECONNABORTED|EPIPE|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|ENETUNREACH|EHOSTUNREACH|UND_ERR_\w+)$/;

export function classifySdkError(error: unknown, timedOut: boolean, sdk: SdkErrorClasses, timeoutMs: number): TransportFailure {
  if (timedOut || error instanceof sdk.APIConnectionTimeoutError) {
    return { kind: 'timeout', retryable: true, detail: `no complete response within ${timeoutMs} ms` };
  }
  if (error instanceof BadResponseError) {
    return { kind: 'bad_response', retryable: error.retryable, detail: error.message };
  }
  if (error instanceof sdk.APIUserAbortError) {
    // Our own controller, aborted for a reason other than the caller or the deadline.
    return { kind: 'connection', retryable: true, detail: 'request interrupted' };
  }
  if (error instanceof sdk.APIConnectionError) {
    return { kind: 'connection', retryable: true, detail: `connection failed: ${causeChain(error)}` };
  }
  if (error instanceof sdk.APIError) {
    const e = error as Error & { status?: number; headers?: HeadersLike; error?: unknown; requestID?: string | null };
    const status = e.status ?? 0;
    const headers = e.headers;
    const { message, type } = apiErrorBody(e.error);
    const failure = classifyStatus(status);
    const shouldRetry = headers?.get('x-should-retry');
    if (shouldRetry === 'true') failure.retryable = true;
    if (shouldRetry === 'false') failure.retryable = false;
    const hint = status === 404 ? ' (check the model name and the base URL)' : '';
    return {
      ...failure,
      status,
      detail: `HTTP ${status}${type ? ` ${type}` : ''}: ${message ?? stripStatus(e.message)}${hint}`,
      retryAfterMs: retryAfterFromHeaders(headers),
      requestId: e.requestID ?? undefined,
    };
  }
  // Errors while reading the body (the SDKs parse it outside their try/catch).
  const e = error as { name?: string; message?: string; code?: string } | undefined;
  if (e?.name === 'SyntaxError') return { kind: 'bad_response', retryable: true, detail: `response body is not valid JSON (${e.message ?? ''})` };
  if (e?.name === 'AbortError') return { kind: 'connection', retryable: true, detail: 'response interrupted' };
  const chain = causeChain(error);
  if ((e?.name === 'TypeError' && /terminated|fetch failed|socket|other side closed/i.test(chain)) || hasNetworkCode(error)) {
    return { kind: 'connection', retryable: true, detail: `connection broken while reading the response: ${chain}` };
  }
  return { kind: 'bad_response', retryable: false, detail: `unexpected client error: ${chain}` };
}

function classifyStatus(status: number): Pick<TransportFailure, 'kind' | 'retryable'> {
  if (status === 401) return { kind: 'auth', retryable: false };
  if (status === 403) return { kind: 'permission', retryable: false };
  if (status === 404) return { kind: 'not_found', retryable: false };
  if (status === 408) return { kind: 'timeout', retryable: true };
  if (status === 409) return { kind: 'server', retryable: true };
  if (status === 429) return { kind: 'rate_limit', retryable: true };
  if (status >= 500) return { kind: 'server', retryable: true };
  return { kind: 'bad_request', retryable: false };
}

/** OpenAI: `{message, type, code}` (the SDK keeps the inner `error`); Anthropic: `{type: 'error', error: {type, message}}`. */
function apiErrorBody(body: unknown): { message?: string; type?: string } {
  if (typeof body !== 'object' || body === null) return {};
  const b = body as { message?: unknown; type?: unknown; code?: unknown; error?: { message?: unknown; type?: unknown } };
  const inner = typeof b.error === 'object' && b.error !== null ? b.error : undefined;
  const message = inner?.message ?? b.message;
  const type = inner?.type ?? (b.type !== 'error' ? b.type : undefined) ?? b.code;
  return {
    message: typeof message === 'string' ? message : message !== undefined ? JSON.stringify(message) : undefined,
    type: typeof type === 'string' ? type : undefined,
  };
}

function stripStatus(message: string): string {
  return message.replace(/^\d{3}\s+/, '');
}

export function retryAfterFromHeaders(headers: HeadersLike | undefined): number | undefined {
  if (!headers || typeof headers.get !== 'function') return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Number(ms);
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  if (Number.isFinite(Number(after))) return Number(after) * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function causeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { message?: unknown; code?: unknown; cause?: unknown };
    const text = [typeof e.code === 'string' ? e.code : '', typeof e.message === 'string' ? e.message : String(current)].filter(Boolean).join(' ');
    if (text && !parts.includes(text)) parts.push(text);
    current = e.cause;
  }
  return parts.join(': ') || 'unknown error';
}

function hasNetworkCode(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.test(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
