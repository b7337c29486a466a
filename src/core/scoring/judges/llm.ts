// The model seam of the LLM judges. The model providers (src/core/providers, another issue) adapt
// OpenAI / Anthropic / compatible endpoints to StructuredModel; the judges depend only on this.
import type { z } from 'zod';

export interface ModelUsage {
  inputTokens?: number;
  outputTokens?: number;
  cachedInputTokens?: number;
  latencyMs?: number;
}

export interface StructuredRequest<T> {
  system: string;
  user: string;
  /** The output schema; providers use it for structured output and validate with it. */
  schema: z.ZodType<T>;
  /** A short name for the schema (structured-output APIs require one). */
  schemaName: string;
}

/** A model that answers with a JSON value of a given schema. */
export interface StructuredModel {
  /** Which model answers (the judges' identity in the judgment cache); absent when unknown. */
  readonly identity?: { provider: string; model: string };
  complete<T>(request: StructuredRequest<T>, signal?: AbortSignal): Promise<{ value: T; usage?: ModelUsage }>;
}

/** The model with `onCall` after every answered call (progress counters); keeps its identity, which keys the judgment cache. */
export function countingModel(model: StructuredModel, onCall: () => void): StructuredModel {
  return {
    ...(model.identity ? { identity: model.identity } : {}),
    async complete(request, signal) {
      const reply = await model.complete(request, signal);
      onCall();
      return reply;
    },
  };
}

/**
 * Thrown by a provider (or by a judge's own checks) when the model's output is not valid for the
 * schema: not JSON, wrong shape, or semantically inconsistent (e.g. one label per nugget expected).
 * Only this kind of failure is retried by the judges; transport errors are the provider's concern.
 */
export class MalformedOutputError extends Error {
  constructor(
    message: string,
    readonly raw?: unknown,
  ) {
    super(message);
    this.name = 'MalformedOutputError';
  }
}

export const DEFAULT_MAX_ATTEMPTS = 3;

export interface CompleteOptions<T> {
  signal?: AbortSignal;
  /** Attempts in all (first call included); default 3. */
  maxAttempts?: number;
  /** Extra checks beyond the schema; return a message to reject the output and retry. */
  check?: (value: T) => string | undefined;
}

export interface CompleteResult<T> {
  value: T;
  attempts: number;
  usage: ModelUsage[];
}

function isMalformed(error: unknown): boolean {
  if (error instanceof MalformedOutputError || error instanceof SyntaxError) return true;
  const name = (error as { name?: string } | null)?.name;
  // StructuredOutputError: the provider layer's "output never validated" (src/core/providers/errors.ts).
  return name === 'ZodError' || name === 'MalformedOutputError' || name === 'StructuredOutputError';
}

/**
 * Asks the model for a structured value, validates it again with zod (the provider may be lax)
 * and with `check`, and retries on malformed output up to `maxAttempts` attempts in all; each
 * retry tells the model what was wrong. Other errors and cancellation propagate at once.
 */
export async function completeValidated<T>(
  model: StructuredModel,
  request: StructuredRequest<T>,
  options: CompleteOptions<T> = {},
): Promise<CompleteResult<T>> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const usage: ModelUsage[] = [];
  let lastProblem = '';
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    if (options.signal?.aborted) throw abortReason(options.signal);
    const user =
      attempt === 1
        ? request.user
        : `${request.user}\n\nYour previous output was rejected: ${lastProblem}. Reply again with one JSON value that follows the required format exactly.`;
    let raw: unknown;
    try {
      const reply = await model.complete({ ...request, user }, options.signal);
      if (reply.usage) usage.push(reply.usage);
      raw = reply.value;
    } catch (error) {
      if (options.signal?.aborted) throw abortReason(options.signal);
      if (!isMalformed(error)) throw error;
      lastProblem = (error as Error).message.split('\n')[0];
      continue;
    }
    const parsed = request.schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      lastProblem = `${issue.message}${issue.path.length ? ` at ${issue.path.join('.')}` : ''}`;
      continue;
    }
    const problem = options.check?.(parsed.data);
    if (problem) {
      lastProblem = problem;
      continue;
    }
    return { value: parsed.data, attempts: attempt, usage };
  }
  throw new MalformedOutputError(`${request.schemaName}: the model returned malformed output ${maxAttempts} times (last: ${lastProblem})`);
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error('the judge call was cancelled');
  error.name = 'AbortError';
  return error;
}
