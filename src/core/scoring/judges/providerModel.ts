// Adapter from the provider clients (src/core/providers) to the judges' StructuredModel seam.
// completeStructured is asked for one attempt: the judges' own loop (completeValidated) does the
// "retry up to 3 times on malformed output", including the judges' semantic checks.
import { completeStructured } from '../../providers/structured';
import type { ModelClient } from '../../providers/types';
import type { StructuredModel } from './llm';

export interface ProviderModelOptions {
  maxOutputTokens?: number;
  /** Default 0: judges should be as deterministic as the provider allows. */
  temperature?: number;
}

export function structuredModelFromClient(client: ModelClient, options: ProviderModelOptions = {}): StructuredModel {
  return {
    identity: { provider: client.provider, model: client.model },
    async complete(request, signal) {
      const result = await completeStructured(
        client,
        {
          system: request.system,
          messages: [{ role: 'user', content: request.user }],
          temperature: options.temperature ?? 0,
          ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
        },
        request.schema,
        { attempts: 1, name: request.schemaName, signal },
      );
      return {
        value: result.value,
        usage: {
          inputTokens: result.usage.inputTokens,
          outputTokens: result.usage.outputTokens,
          cachedInputTokens: result.usage.cachedInputTokens,
          latencyMs: result.latencyMs,
        },
      };
    },
  };
}
