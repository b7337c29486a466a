// The builders' prompts: versioned role prompts under prompts/builders/ (see prompts/builders/README.md),
// and the one way a builder asks a model for structured output and records who answered.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { completeStructured } from '../../providers/structured';
import type { ModelClient } from '../../providers/types';
import { fillTemplate, parsePromptText, promptsRoot, type PromptTemplate } from '../../scoring/judges/prompts';

export const STAGE_A_PROMPTS = {
  seedExpansion: 'stage-a/v1/seed-expansion',
  subqueries: 'stage-a/v1/subqueries',
  synthesize: 'stage-a/v1/synthesize',
} as const;
export const STAGE_B_PROMPTS = { distractors: 'stage-b/v1/distractors', verify: 'stage-b/v1/verify' } as const;

const cache = new Map<string, PromptTemplate>();

/** A builder prompt by version name (`stage-a/v1/synthesize`). */
export function builderPrompt(version: string, root = promptsRoot()): PromptTemplate {
  const path = join(root, 'builders', `${version}.md`);
  let template = cache.get(path);
  if (!template) {
    template = parsePromptText(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''), version);
    cache.set(path, template);
  }
  return template;
}

/** `openai:gpt-x`: how items record the model of a generated field. */
export const modelLabel = (client: ModelClient): string => `${client.provider}:${client.model}`;

export interface BuilderCallOptions {
  maxOutputTokens?: number;
  signal?: AbortSignal;
  promptsRoot?: string;
}

export interface BuilderUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/** A unit (seed query, item) whose model calls failed: not a decision about it, so it is not in the trail. */
export interface BuilderFailure {
  key: string;
  error: string;
}

export const emptyBuilderUsage = (): BuilderUsage => ({ calls: 0, inputTokens: 0, outputTokens: 0 });

/** Renders a builder prompt, asks for JSON matching `schema` (re-asked on invalid output), adds the usage. */
export async function askBuilder<T>(
  client: ModelClient,
  version: string,
  values: Record<string, string | number>,
  schema: z.ZodType<T>,
  usage: BuilderUsage,
  options: BuilderCallOptions = {},
): Promise<T> {
  const template = builderPrompt(version, options.promptsRoot);
  const result = await completeStructured(
    client,
    {
      system: fillTemplate(template.system, values),
      messages: [{ role: 'user', content: fillTemplate(template.user, values) }],
      ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
    },
    schema,
    { name: version.replace(/[^A-Za-z0-9_-]/g, '_'), signal: options.signal },
  );
  usage.calls += result.attempts;
  usage.inputTokens += result.usage.inputTokens;
  usage.outputTokens += result.usage.outputTokens;
  return result.value;
}
