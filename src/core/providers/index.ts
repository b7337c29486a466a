export * from './types';
export { ModelError, ModelAbortError, StructuredOutputError, isAbortError, scrubSecrets, oneLine, type ModelErrorKind } from './errors';
export { createModelClient, describeSettings, PLACEHOLDER_API_KEY } from './factory';
export { completeStructured, jsonSchemaOf, type StructuredOptions, type StructuredResult } from './structured';
export { extractJson, jsonInstruction, isStrictCompatible, type JsonExtraction } from './json';
export { backoffDelayMs, retryAfterFromHeaders, type RetryPolicy } from './retry';
export { OpenAIChatClient } from './openai';
export { AnthropicMessagesClient } from './anthropic';
export { warmThenParallel } from './fanout';
