// OpenAI chat completions through the official `openai` SDK. Works with any
// OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio, …) via baseUrl.

import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { redactReply, scrubSecrets } from './errors';
import { withJsonInstruction, isStrictCompatible } from './json';
import { BadResponseError, classifySdkError, runWithRetries, type RetryPolicy } from './retry';
import type { ChatMessage, ChatRequest, ChatResult, ModelClient, StructuredOutputMode } from './types';

export interface OpenAIClientOptions {
  model: string;
  baseUrl: string;
  apiKey: string;
  policy: RetryPolicy;
  structuredOutput: StructuredOutputMode;
  maxTokensParam: 'max_completion_tokens' | 'max_tokens';
  temperature?: number;
  reasoningEffort?: ChatRequest['reasoningEffort'];
  maxOutputTokens?: number;
}

export class OpenAIChatClient implements ModelClient {
  readonly provider = 'openai' as const;
  readonly model: string;
  readonly structuredOutput: StructuredOutputMode;
  readonly #sdk: OpenAI;
  readonly #options: OpenAIClientOptions;
  readonly #scrub: (text: string) => string;

  constructor(options: OpenAIClientOptions) {
    this.model = options.model;
    this.structuredOutput = options.structuredOutput;
    this.#options = options;
    const apiKey = options.apiKey;
    this.#scrub = (text) => scrubSecrets(text, [apiKey]);
    this.#sdk = new OpenAI({
      apiKey,
      baseURL: options.baseUrl,
      // Explicit nulls: the SDK would otherwise read OPENAI_ORG_ID, OPENAI_PROJECT_ID, … from the environment.
      adminAPIKey: null,
      organization: null,
      project: null,
      webhookSecret: null,
      maxRetries: 0, // retries are ours (retry.ts)
      timeout: options.policy.timeoutMs,
      logLevel: 'off',
    });
  }

  /** The request body sent for `request` (exported for tests and dry runs). */
  buildBody(request: ChatRequest): ChatCompletionCreateParamsNonStreaming {
    const o = this.#options;
    let messages = withPrefix(request.messages, request.cacheablePrefix);
    const native = request.json && (request.structuredOutput ?? o.structuredOutput) === 'native';
    if (request.json && !native) messages = withJsonInstruction(messages, request.json);
    const wire: ChatCompletionMessageParam[] = [];
    if (request.system) wire.push({ role: 'system', content: request.system });
    for (const m of messages) wire.push(toWire(m));

    const body: ChatCompletionCreateParamsNonStreaming = { model: this.model, messages: wire };
    const maxTokens = request.maxOutputTokens ?? o.maxOutputTokens;
    if (maxTokens !== undefined) body[o.maxTokensParam] = maxTokens;
    const temperature = request.temperature ?? o.temperature;
    if (temperature !== undefined) body.temperature = temperature;
    const effort = request.reasoningEffort ?? o.reasoningEffort;
    if (effort) body.reasoning_effort = effort;
    if (request.promptCacheKey) body.prompt_cache_key = request.promptCacheKey;
    if (request.tools?.length) {
      body.tools = request.tools.map((t) => ({ type: 'function', function: { ...t.function } }));
      if (request.toolChoice) body.tool_choice = request.toolChoice;
    }
    if (native && request.json) {
      body.response_format = {
        type: 'json_schema',
        json_schema: { name: request.json.name, schema: request.json.schema, strict: request.json.strict ?? isStrictCompatible(request.json.schema) },
      };
    }
    return body;
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResult> {
    const started = Date.now();
    const body = this.buildBody(request);
    const policy = this.#options.policy;
    const { value: completion, attempts } = await runWithRetries(
      { provider: this.provider, model: this.model, policy, signal, scrub: this.#scrub },
      async (attemptSignal) =>
        checkCompletion(await this.#sdk.chat.completions.create(body, { signal: attemptSignal, timeout: policy.timeoutMs, maxRetries: 0 })),
      (error, timedOut) => classifySdkError(error, timedOut, OpenAI, policy.timeoutMs),
    );
    return completionToResult(completion, { model: this.model, latencyMs: Date.now() - started, attempts, secrets: [this.#options.apiKey] });
  }
}

/** A chat completion (sync, or one line of a batch output file) as a ChatResult, secrets redacted. */
export function completionToResult(
  completion: ChatCompletion,
  context: { model: string; latencyMs: number; attempts: number; secrets: ReadonlyArray<string | undefined> },
): ChatResult {
  const choice = completion.choices[0];
  const usage = completion.usage;
  const finishReason = choice.finish_reason ?? null;
  const result: ChatResult = {
    text: choice.message?.content ?? '',
    usage: {
      inputTokens: usage?.prompt_tokens ?? 0,
      outputTokens: usage?.completion_tokens ?? 0,
      cachedInputTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
      cacheWriteInputTokens: (usage?.prompt_tokens_details as { cache_write_tokens?: number } | undefined)?.cache_write_tokens ?? 0,
    },
    latencyMs: context.latencyMs,
    attempts: context.attempts,
    finishReason,
    truncated: finishReason === 'length',
    model: completion.model || context.model,
  };
  const requestId = (completion as { _request_id?: string | null })._request_id;
  if (requestId) result.requestId = requestId;
  if (choice.message?.refusal) result.refusal = choice.message.refusal;
  const calls = (choice.message?.tool_calls ?? []).flatMap((c) =>
    c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments ?? '' }] : [],
  );
  if (calls.length) result.toolCalls = calls;
  return redactReply(result, context.secrets);
}

/** A provider-neutral message in the chat-completions wire shape (tool calls and tool results included). */
function toWire(m: ChatMessage): ChatCompletionMessageParam {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content };
  if (m.role === 'assistant' && m.toolCalls?.length) {
    return {
      role: 'assistant',
      content: m.content ? m.content : null,
      tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
    };
  }
  return m.role === 'assistant' ? { role: 'assistant', content: m.content } : { role: 'user', content: m.content };
}

/** Puts the shared prefix first in the first user message (a new one if the conversation starts otherwise). */
export function withPrefix(messages: ChatMessage[], prefix: string | undefined): ChatMessage[] {
  if (!prefix) return messages;
  const [first, ...rest] = messages;
  if (first?.role === 'user') return [{ role: 'user', content: `${prefix}\n\n${first.content}` }, ...rest];
  return [{ role: 'user', content: prefix }, ...messages];
}

function checkCompletion(data: unknown): ChatCompletion {
  if (typeof data === 'string') {
    throw new BadResponseError(
      `server answered with non-JSON text (${JSON.stringify(data.slice(0, 80))}); check the base URL (OpenAI-compatible servers usually end in /v1)`,
      false,
    );
  }
  const c = data as (Partial<ChatCompletion> & { error?: { message?: unknown } }) | null | undefined;
  if (c && typeof c === 'object' && c.error) {
    // Some gateways report failures inside a 200 body.
    throw new BadResponseError(`server returned an error in a 200 response: ${String(c.error.message ?? JSON.stringify(c.error))}`, true);
  }
  if (!c || typeof c !== 'object' || !Array.isArray(c.choices) || c.choices.length === 0 || typeof c.choices[0] !== 'object') {
    throw new BadResponseError('response has no choices; not a chat completion', true);
  }
  return c as ChatCompletion;
}
