// Errors of the model clients: one line, provider-neutral, and never carrying an
// API key (every message goes through scrubSecrets; SDK errors are not kept as
// `cause`, since they hold response headers and bodies).

import { redactSecrets } from '../secrets/redact';
import type { ChatUsage, ProviderName } from './types';

export type ModelErrorKind =
  | 'config' // bad settings (missing key for the hosted API, bad base URL, …)
  | 'auth' // 401
  | 'permission' // 403
  | 'not_found' // 404 (wrong model name or base URL)
  | 'bad_request' // other 4xx that retrying cannot fix
  | 'rate_limit' // 429 after the retries
  | 'server' // 5xx / 408 / 409 after the retries
  | 'timeout' // no complete response within timeoutMs, after the retries
  | 'connection' // refused, reset, DNS, … after the retries
  | 'bad_response' // a body that is not the expected JSON, after the retries
  | 'aborted' // the caller's AbortSignal fired
  | 'invalid_output'; // completeStructured: the model's output never validated

export interface ModelErrorInit {
  kind: ModelErrorKind;
  provider: ProviderName;
  model: string;
  /** Already one line and scrubbed. */
  detail: string;
  status?: number;
  attempts?: number;
  retryable?: boolean;
  requestId?: string;
}

export class ModelError extends Error {
  readonly kind: ModelErrorKind;
  readonly provider: ProviderName;
  readonly model: string;
  readonly status?: number;
  /** HTTP attempts (transport errors) or model-level attempts (invalid_output). */
  readonly attempts: number;
  /** Whether the failure was of a retryable kind (the retries were then used up). */
  readonly retryable: boolean;
  readonly requestId?: string;

  constructor(init: ModelErrorInit) {
    const attempts = init.attempts ?? 1;
    const suffix = attempts > 1 && init.kind !== 'invalid_output' ? ` (after ${attempts} attempts)` : '';
    super(oneLine(`${init.provider} ${init.model}: ${init.detail}${suffix}`, 600));
    this.name = 'ModelError';
    this.kind = init.kind;
    this.provider = init.provider;
    this.model = init.model;
    if (init.status !== undefined) this.status = init.status;
    this.attempts = attempts;
    this.retryable = init.retryable ?? false;
    if (init.requestId) this.requestId = init.requestId;
  }
}

/** The caller aborted. `name` is 'AbortError', like a DOMException from fetch. */
export class ModelAbortError extends ModelError {
  constructor(provider: ProviderName, model: string, attempts: number) {
    super({ kind: 'aborted', provider, model, detail: 'request aborted', attempts });
    this.name = 'AbortError';
  }
}

/** completeStructured gave up: the output did not parse or validate in any attempt. */
export class StructuredOutputError extends ModelError {
  /** Usage summed over all attempts. */
  readonly usage: ChatUsage;
  /** The last raw model output (may be long; not part of the message). */
  readonly lastOutput: string;
  /** Why the last output was rejected (one line). */
  readonly lastProblem: string;

  constructor(init: {
    provider: ProviderName;
    model: string;
    attempts: number;
    schemaName: string;
    usage: ChatUsage;
    lastOutput: string;
    lastProblem: string;
  }) {
    super({
      kind: 'invalid_output',
      provider: init.provider,
      model: init.model,
      attempts: init.attempts,
      detail: `output for "${init.schemaName}" was invalid after ${init.attempts} attempt${init.attempts === 1 ? '' : 's'}; last problem: ${init.lastProblem}`,
    });
    this.name = 'StructuredOutputError';
    this.usage = init.usage;
    this.lastOutput = init.lastOutput;
    this.lastProblem = init.lastProblem;
  }
}

export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/** Collapses whitespace to single spaces and truncates with an ellipsis. */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const KEY_PATTERNS: RegExp[] = [
  /\bsk-[A-Za-z0-9_*.-]{6,}/gi, // OpenAI / Anthropic style keys, also partly masked echoes
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=*-]{6,}/gi,
  /\b(x-api-key|api-key|authorization)(["']?\s*[:=]\s*["']?)(?!Bearer\b|Basic\b)[^\s"',;]{6,}/gi,
];

/**
 * Removes every form of the given and the registered secrets (redactSecrets: any case, base64,
 * URL-encoded, …) and anything that looks like an API key.
 */
export function scrubSecrets(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 6) out = out.split(secret).join('[redacted]');
  }
  out = redactSecrets(out, secrets);
  out = out.replace(KEY_PATTERNS[0], '[redacted]');
  out = out.replace(KEY_PATTERNS[1], (_m, scheme: string) => `${scheme} [redacted]`);
  out = out.replace(KEY_PATTERNS[2], (_m, name: string, sep: string) => `${name}${sep}[redacted]`);
  return out;
}

/**
 * A model reply with every form of the client's and the registered keys redacted (a model can
 * echo a key it was shown; the reply then goes into sidecars, --json and run folders).
 */
export function redactReply<T extends { text: string; refusal?: string; toolCalls?: { id: string; name: string; arguments: string }[] }>(
  result: T,
  secrets: ReadonlyArray<string | undefined>,
): T {
  const redact = (text: string) => redactSecrets(text, secrets);
  const out: T = { ...result, text: redact(result.text) };
  if (result.refusal !== undefined) out.refusal = redact(result.refusal);
  if (result.toolCalls) out.toolCalls = result.toolCalls.map((c) => ({ ...c, name: redact(c.name), arguments: redact(c.arguments) }));
  return out;
}
