// Provider-neutral model client types. Plain Node: no `vscode` import here or
// anywhere under src/core/providers.

export type ProviderName = 'openai' | 'anthropic';

export type ReasoningEffort = 'low' | 'medium' | 'high';

export interface ChatMessage {
  /** 'tool' carries the result of an assistant tool call (OpenAI role tool; Anthropic a tool_result block). */
  role: 'user' | 'assistant' | 'tool';
  content: string;
  /** Assistant only: the tool calls the model made in this turn (content may then be ''). */
  toolCalls?: ToolCall[];
  /** Tool only: the id of the call this message answers. */
  toolCallId?: string;
}

/** A function tool call: `arguments` is the raw JSON text the model produced. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** A function tool, in the OpenAI chat-completions shape (Anthropic gets name/description/input_schema). */
export interface ToolSpec {
  type: 'function';
  function: {
    name: string;
    description?: string;
    /** JSON Schema of the arguments object. */
    parameters: Record<string, unknown>;
  };
}

/** 'auto': the model decides; 'none': tools listed but disabled; 'required': the model must call one. */
export type ToolChoice = 'auto' | 'none' | 'required';

/** Ask for a JSON object that conforms to `schema` (a JSON Schema object). */
export interface JsonOutputSpec {
  /** Schema name, [A-Za-z0-9_-]{1,64} (OpenAI `json_schema.name`). */
  name: string;
  schema: Record<string, unknown>;
  /**
   * OpenAI `json_schema.strict`. Strict mode needs every object to list all of its
   * properties as required and to set `additionalProperties: false`; the default is
   * true exactly when the schema satisfies that (see `isStrictCompatible`).
   */
  strict?: boolean;
}

export interface ChatRequest {
  system?: string;
  /**
   * Text shared byte-for-byte by several requests (e.g. the trajectory audited by
   * the three branch prompts). It is sent first in the first user message, before
   * `messages[0].content`. Anthropic: it gets its own content block with
   * `cache_control: {type: 'ephemeral'}` so the prefix (system + this block) is
   * written once and read by later requests. OpenAI-compatible servers cache
   * prefixes automatically; keeping the bytes identical is what makes that hit.
   */
  cacheablePrefix?: string;
  messages: ChatMessage[];
  maxOutputTokens?: number;
  /** OpenAI-compatible only: the Messages API version of @anthropic-ai/sdk 1.x has no temperature. */
  temperature?: number;
  /** OpenAI `reasoning_effort`; Anthropic `output_config.effort` (models that support effort). */
  reasoningEffort?: ReasoningEffort;
  json?: JsonOutputSpec;
  /**
   * Overrides the client's structuredOutput for this request. OpenAI puts a
   * json_schema in front of the system message, so requests that share a cached
   * prefix but differ in schema miss the cache; 'prompt' keeps the schema after it.
   */
  structuredOutput?: StructuredOutputMode;
  /** OpenAI `prompt_cache_key` (routing hint for cache hits); ignored by Anthropic. */
  promptCacheKey?: string;
  /** Function tools the model may call (OpenAI `tools`; Anthropic `tools` with input_schema). */
  tools?: ToolSpec[];
  /** OpenAI `tool_choice`; Anthropic `tool_choice` ({type: auto | none | any}). Only sent with `tools`. */
  toolChoice?: ToolChoice;
}

export interface ChatUsage {
  /** All input tokens of the request, cached ones included (both providers). */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from the provider's prompt cache (billed at a discount). */
  cachedInputTokens: number;
  /** Input tokens written to the prompt cache (Anthropic bills them at a premium; OpenAI reports them on some models). */
  cacheWriteInputTokens: number;
}

export interface ChatResult {
  text: string;
  usage: ChatUsage;
  /** Wall time of the call, retries and back-off included. */
  latencyMs: number;
  /** HTTP attempts made (1 = no transport retry). */
  attempts: number;
  /** Provider finish reason as reported: 'stop', 'length', 'end_turn', 'max_tokens', … (null when absent). */
  finishReason: string | null;
  /** True when the output hit the token limit (finish reason 'length' / 'max_tokens'). */
  truncated: boolean;
  /** Model name the server reports (may differ from the requested alias). */
  model: string;
  requestId?: string;
  /** OpenAI `message.refusal`, when the model refused. */
  refusal?: string;
  /** Tool calls of the reply (only when the request listed `tools` and the model called one). */
  toolCalls?: ToolCall[];
}

export interface ModelClient {
  readonly provider: ProviderName;
  readonly model: string;
  /** How `ChatRequest.json` is honoured; absent means 'prompt'. */
  readonly structuredOutput?: StructuredOutputMode;
  complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResult>;
}

/** How a JSON answer is requested: the server's native schema support, or instructions in the prompt. */
export type StructuredOutputMode = 'native' | 'prompt';

export interface ModelSettings {
  provider: ProviderName;
  model: string;
  /** OpenAI-compatible: include the /v1 (e.g. http://127.0.0.1:8000/v1). Anthropic: without /v1. */
  baseUrl?: string;
  /** Never logged and scrubbed from every error message. */
  apiKey?: string;
  temperature?: number;
  reasoningEffort?: ReasoningEffort;
  maxOutputTokens?: number;
  /** Per HTTP attempt, response body included. Default 120 000 ms. */
  timeoutMs?: number;
  /** Transport retries after the first attempt (429, 408, 409, 5xx, timeouts, connection errors). Default 3. */
  maxRetries?: number;
  /** First back-off delay; doubles per retry, with jitter. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Cap of the computed back-off. Default 8 000 ms. */
  retryMaxDelayMs?: number;
  /** Cap of a server's retry-after. Default 60 000 ms. */
  retryAfterMaxMs?: number;
  /** Default: 'native' for OpenAI (response_format json_schema), 'prompt' for Anthropic. */
  structuredOutput?: StructuredOutputMode;
  /**
   * OpenAI: the output-limit parameter name. Default: 'max_completion_tokens' for
   * api.openai.com (required by reasoning models), 'max_tokens' for other base URLs
   * (understood by every OpenAI-compatible server).
   */
  maxTokensParam?: 'max_completion_tokens' | 'max_tokens';
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
export const DEFAULT_RETRY_MAX_DELAY_MS = 8_000;
export const DEFAULT_RETRY_AFTER_MAX_MS = 60_000;
/** Anthropic requires max_tokens; used when neither the request nor the settings give one. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8_192;

export function emptyUsage(): ChatUsage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteInputTokens: 0 };
}

export function addUsage(a: ChatUsage, b: ChatUsage): ChatUsage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    cacheWriteInputTokens: a.cacheWriteInputTokens + b.cacheWriteInputTokens,
  };
}
