// createModelClient: settings → a ModelClient for the chosen provider.

import { AnthropicMessagesClient } from './anthropic';
import { ModelError, oneLine, scrubSecrets } from './errors';
import { OpenAIChatClient } from './openai';
import { registerSecret } from '../secrets/redact';
import type { RetryPolicy } from './retry';
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_AFTER_MAX_MS,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_TIMEOUT_MS,
  type ModelClient,
  type ModelSettings,
  type ProviderName,
} from './types';

const HOSTED: Record<ProviderName, { baseUrl: string; host: string; keyVar: string }> = {
  openai: { baseUrl: 'https://api.openai.com/v1', host: 'api.openai.com', keyVar: 'OPENAI_API_KEY' },
  anthropic: { baseUrl: 'https://api.anthropic.com', host: 'api.anthropic.com', keyVar: 'ANTHROPIC_API_KEY' },
};

/** Sent to local servers that need no key (the SDKs refuse an empty one). */
export const PLACEHOLDER_API_KEY = 'no-key';

/** Checked settings with the base URL, key and retry policy resolved (shared by the sync and batch clients). */
export interface ResolvedModelSettings {
  provider: ProviderName;
  model: string;
  baseUrl: string;
  apiKey: string;
  policy: RetryPolicy;
  /** The provider's own API (not an OpenAI-compatible local server). */
  isHosted: boolean;
}

/**
 * Builds a client. The settings are explicit: nothing is read from the
 * environment here (the CLI passes OPENAI_API_KEY / ANTHROPIC_API_KEY as apiKey).
 * Throws ModelError kind 'config' for bad settings.
 */
export function createModelClient(settings: ModelSettings): ModelClient {
  const { provider, model, baseUrl, apiKey, policy, isHosted } = resolveModelSettings(settings);
  const common = {
    model,
    baseUrl,
    apiKey,
    policy,
    reasoningEffort: settings.reasoningEffort,
    maxOutputTokens: settings.maxOutputTokens,
  };
  if (provider === 'openai') {
    return new OpenAIChatClient({
      ...common,
      structuredOutput: settings.structuredOutput ?? 'native',
      temperature: settings.temperature,
      maxTokensParam: settings.maxTokensParam ?? (isHosted ? 'max_completion_tokens' : 'max_tokens'),
    });
  }
  return new AnthropicMessagesClient({ ...common, structuredOutput: settings.structuredOutput ?? 'prompt' });
}

/** Validates `settings` (ModelError kind 'config' naming the bad one) and resolves base URL, key and retry policy. */
export function resolveModelSettings(settings: ModelSettings): ResolvedModelSettings {
  const provider = settings.provider;
  const fail = (detail: string): never => {
    throw new ModelError({ kind: 'config', provider, model: String(settings.model ?? ''), detail: oneLine(scrubSecrets(detail, [settings.apiKey])) });
  };
  if (provider !== 'openai' && provider !== 'anthropic') {
    throw new ModelError({
      kind: 'config',
      provider,
      model: String(settings.model ?? ''),
      detail: `unknown provider "${String(provider)}" (expected "openai" or "anthropic")`,
    });
  }
  if (typeof settings.model !== 'string' || !settings.model.trim()) fail('no model name given');

  const hosted = HOSTED[provider];
  let baseUrl = hosted.baseUrl;
  if (settings.baseUrl !== undefined && settings.baseUrl.trim() !== '') {
    let url: URL;
    try {
      url = new URL(settings.baseUrl.trim());
    } catch {
      return fail(`base URL "${settings.baseUrl}" is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`base URL "${settings.baseUrl}" must be http(s)`);
    if (url.username || url.password) fail('base URL must not contain credentials; pass the key as apiKey');
    baseUrl = url.toString().replace(/\/+$/, '');
    // The Anthropic SDK appends /v1/messages itself.
    if (provider === 'anthropic') baseUrl = baseUrl.replace(/\/v1$/, '');
  }
  const isHosted = new URL(baseUrl).hostname === hosted.host;

  let apiKey = settings.apiKey?.trim();
  // Redacted from everything the process prints or writes from now on.
  registerSecret(apiKey);
  if (!apiKey) {
    if (isHosted) fail(`no API key: set ${hosted.keyVar} (or the apiKey setting)`);
    apiKey = PLACEHOLDER_API_KEY;
  }

  const policy: RetryPolicy = {
    timeoutMs: positive('timeoutMs', settings.timeoutMs ?? DEFAULT_TIMEOUT_MS, fail),
    maxRetries: integerIn('maxRetries', settings.maxRetries ?? DEFAULT_MAX_RETRIES, 0, 10, fail),
    baseDelayMs: nonNegative('retryBaseDelayMs', settings.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS, fail),
    maxDelayMs: nonNegative('retryMaxDelayMs', settings.retryMaxDelayMs ?? DEFAULT_RETRY_MAX_DELAY_MS, fail),
    retryAfterMaxMs: nonNegative('retryAfterMaxMs', settings.retryAfterMaxMs ?? DEFAULT_RETRY_AFTER_MAX_MS, fail),
  };
  if (settings.temperature !== undefined && !(settings.temperature >= 0 && settings.temperature <= 2)) fail('temperature must be between 0 and 2');
  if (settings.maxOutputTokens !== undefined) integerIn('maxOutputTokens', settings.maxOutputTokens, 1, 10_000_000, fail);
  if (settings.reasoningEffort !== undefined && !['low', 'medium', 'high'].includes(settings.reasoningEffort))
    fail('reasoningEffort must be low, medium or high');
  if (settings.structuredOutput !== undefined && settings.structuredOutput !== 'native' && settings.structuredOutput !== 'prompt')
    fail('structuredOutput must be "native" or "prompt"');

  return { provider, model: settings.model.trim(), baseUrl, apiKey, policy, isHosted };
}

/** The settings with the key replaced by whether one is set: safe to log or show. */
export function describeSettings(settings: ModelSettings): Omit<ModelSettings, 'apiKey'> & { apiKey: 'set' | 'not set' } {
  return { ...settings, apiKey: settings.apiKey ? 'set' : 'not set' };
}

function positive(name: string, value: number, fail: (d: string) => never): number {
  if (!(Number.isFinite(value) && value > 0)) fail(`${name} must be a positive number`);
  return value;
}

function nonNegative(name: string, value: number, fail: (d: string) => never): number {
  if (!(Number.isFinite(value) && value >= 0)) fail(`${name} must be a non-negative number`);
  return value;
}

function integerIn(name: string, value: number, min: number, max: number, fail: (d: string) => never): number {
  if (!(Number.isInteger(value) && value >= min && value <= max)) fail(`${name} must be an integer from ${min} to ${max}`);
  return value;
}
