// Anthropic messages API through the official `@anthropic-ai/sdk`.

import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, Message, MessageCreateParamsNonStreaming, MessageParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { redactReply, scrubSecrets } from './errors';
import { withJsonInstruction } from './json';
import { BadResponseError, classifySdkError, runWithRetries, type RetryPolicy } from './retry';
import { DEFAULT_ANTHROPIC_MAX_TOKENS, type ChatMessage, type ChatRequest, type ChatResult, type ModelClient, type StructuredOutputMode } from './types';

export interface AnthropicClientOptions {
  model: string;
  baseUrl: string;
  apiKey: string;
  policy: RetryPolicy;
  structuredOutput: StructuredOutputMode;
  reasoningEffort?: ChatRequest['reasoningEffort'];
  maxOutputTokens?: number;
}

export class AnthropicMessagesClient implements ModelClient {
  readonly provider = 'anthropic' as const;
  readonly model: string;
  readonly structuredOutput: StructuredOutputMode;
  readonly #sdk: Anthropic;
  readonly #options: AnthropicClientOptions;
  readonly #scrub: (text: string) => string;

  constructor(options: AnthropicClientOptions) {
    this.model = options.model;
    this.structuredOutput = options.structuredOutput;
    this.#options = options;
    const apiKey = options.apiKey;
    this.#scrub = (text) => scrubSecrets(text, [apiKey]);
    this.#sdk = new Anthropic({
      apiKey,
      // Explicit null: the SDK would otherwise read ANTHROPIC_AUTH_TOKEN / ANTHROPIC_WEBHOOK_SIGNING_KEY.
      authToken: null,
      webhookKey: null,
      baseURL: options.baseUrl,
      maxRetries: 0, // retries are ours (retry.ts)
      timeout: options.policy.timeoutMs,
      logLevel: 'off',
    });
  }

  /** The request body sent for `request` (exported for tests and dry runs). */
  buildBody(request: ChatRequest): MessageCreateParamsNonStreaming {
    const o = this.#options;
    const native = request.json && (request.structuredOutput ?? o.structuredOutput) === 'native';
    const messages = request.json && !native ? withJsonInstruction(request.messages, request.json) : request.messages;
    const wire: MessageParam[] = toWire(messages);
    if (request.cacheablePrefix) {
      // The breakpoint goes on the prefix block: everything up to it (system + prefix) is cached.
      const prefixBlock: TextBlockParam = { type: 'text', text: request.cacheablePrefix, cache_control: { type: 'ephemeral' } };
      const first = messages[0];
      if (first?.role === 'user') {
        const blocks: TextBlockParam[] = [prefixBlock];
        if (first.content) blocks.push({ type: 'text', text: first.content });
        wire[0] = { role: 'user', content: blocks };
      } else {
        wire.unshift({ role: 'user', content: [prefixBlock] });
      }
    }
    const body: MessageCreateParamsNonStreaming = {
      model: this.model,
      max_tokens: request.maxOutputTokens ?? o.maxOutputTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
      messages: wire,
    };
    if (request.system) body.system = request.system;
    if (request.tools?.length) {
      body.tools = request.tools.map((t) => ({
        name: t.function.name,
        ...(t.function.description ? { description: t.function.description } : {}),
        input_schema: t.function.parameters as { type: 'object'; [key: string]: unknown },
      }));
      if (request.toolChoice) body.tool_choice = { type: request.toolChoice === 'required' ? 'any' : request.toolChoice };
    }
    // No temperature: the Messages API version this SDK speaks (anthropic-version
    // 2026-10-21) has no sampling parameters; request/settings temperature is ignored.
    const effort = request.reasoningEffort ?? o.reasoningEffort;
    if (effort || (native && request.json)) {
      body.output_config = {};
      if (effort) body.output_config.effort = effort;
      if (native && request.json) body.output_config.format = { type: 'json_schema', schema: request.json.schema };
    }
    return body;
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResult> {
    const started = Date.now();
    const body = this.buildBody(request);
    const policy = this.#options.policy;
    const { value: message, attempts } = await runWithRetries(
      { provider: this.provider, model: this.model, policy, signal, scrub: this.#scrub },
      async (attemptSignal) => checkMessage(await this.#sdk.messages.create(body, { signal: attemptSignal, timeout: policy.timeoutMs, maxRetries: 0 })),
      (error, timedOut) => classifySdkError(error, timedOut, Anthropic, policy.timeoutMs),
    );
    return messageToResult(message, { model: this.model, latencyMs: Date.now() - started, attempts, secrets: [this.#options.apiKey] });
  }
}

/** A Messages API message (sync, or a succeeded batch result) as a ChatResult, secrets redacted. */
export function messageToResult(
  message: Message,
  context: { model: string; latencyMs: number; attempts: number; secrets: ReadonlyArray<string | undefined> },
): ChatResult {
  const u = message.usage;
  const read = u?.cache_read_input_tokens ?? 0;
  const write = u?.cache_creation_input_tokens ?? 0;
  const result: ChatResult = {
    text: message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
    usage: {
      // Anthropic's input_tokens excludes cache reads and writes; ours is the total.
      inputTokens: (u?.input_tokens ?? 0) + read + write,
      outputTokens: u?.output_tokens ?? 0,
      cachedInputTokens: read,
      cacheWriteInputTokens: write,
    },
    latencyMs: context.latencyMs,
    attempts: context.attempts,
    finishReason: message.stop_reason ?? null,
    truncated: message.stop_reason === 'max_tokens',
    model: message.model || context.model,
  };
  const requestId = (message as { _request_id?: string | null })._request_id;
  if (requestId) result.requestId = requestId;
  const calls = message.content.flatMap((block) =>
    block.type === 'tool_use' ? [{ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) }] : [],
  );
  if (calls.length) result.toolCalls = calls;
  return redactReply(result, context.secrets);
}

/**
 * Provider-neutral messages → Messages API turns: an assistant turn with tool calls becomes text +
 * tool_use blocks; consecutive tool results become one user turn of tool_result blocks.
 */
function toWire(messages: ChatMessage[]): MessageParam[] {
  const wire: MessageParam[] = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      const block: ContentBlockParam = { type: 'tool_result', tool_use_id: m.toolCallId ?? '', content: m.content };
      const last = wire[wire.length - 1];
      if (last?.role === 'user' && Array.isArray(last.content) && last.content.every((b) => b.type === 'tool_result')) last.content.push(block);
      else wire.push({ role: 'user', content: [block] });
    } else if (m.role === 'assistant' && m.toolCalls?.length) {
      const blocks: ContentBlockParam[] = [];
      if (m.content) blocks.push({ type: 'text', text: m.content });
      for (const c of m.toolCalls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: parseArguments(c.arguments) });
      wire.push({ role: 'assistant', content: blocks });
    } else {
      wire.push({ role: m.role, content: m.content });
    }
  }
  return wire;
}

function parseArguments(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

function checkMessage(data: unknown): Message {
  if (typeof data === 'string') {
    throw new BadResponseError(
      `server answered with non-JSON text (${JSON.stringify(data.slice(0, 80))}); check the base URL (without /v1 for Anthropic)`,
      false,
    );
  }
  const m = data as Partial<Message> | null | undefined;
  if (!m || typeof m !== 'object' || !Array.isArray(m.content)) {
    throw new BadResponseError('response has no content array; not an Anthropic message', true);
  }
  return m as Message;
}
