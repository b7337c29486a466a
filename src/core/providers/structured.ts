// completeStructured: ask for JSON, extract it, validate it with zod, and re-ask
// with the validation problem when the output is unusable.

import { z } from 'zod';
import { oneLine, StructuredOutputError } from './errors';
import { extractJson, jsonInstruction, withJsonInstruction } from './json';
import { addUsage, emptyUsage, type ChatMessage, type ChatRequest, type ChatResult, type ChatUsage, type JsonOutputSpec, type ModelClient } from './types';

export interface StructuredOptions {
  /** Model-level attempts in total (first ask + re-asks). Default 3. */
  attempts?: number;
  /** Schema name sent to the server. Default request.json?.name ?? 'result'. */
  name?: string;
  /** JSON Schema to send; default: derived from the zod schema (z.toJSONSchema). */
  jsonSchema?: Record<string, unknown>;
  /** OpenAI strict mode; default: whether the JSON Schema is strict-compatible. */
  strict?: boolean;
  signal?: AbortSignal;
  /** Called after each rejected attempt (for logs / progress). */
  onInvalid?: (attempt: number, problem: string, result: ChatResult) => void;
}

export interface StructuredResult<T> {
  value: T;
  /** Raw text of the accepted reply. */
  text: string;
  /** Summed over all model-level attempts. */
  usage: ChatUsage;
  /** Summed over all model-level attempts. */
  latencyMs: number;
  /** Model-level attempts (1 = the first reply validated). */
  attempts: number;
  /** HTTP attempts summed over all model-level attempts. */
  transportAttempts: number;
  /** The accepted reply. */
  result: ChatResult;
}

/** JSON Schema for a zod schema, as sent to servers (no $schema key). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

const MAX_ECHO_CHARS = 20_000;

export async function completeStructured<T>(
  client: ModelClient,
  request: ChatRequest,
  schema: z.ZodType<T>,
  options: StructuredOptions = {},
): Promise<StructuredResult<T>> {
  const attempts = options.attempts ?? 3;
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError('completeStructured: attempts must be a positive integer');
  const spec: JsonOutputSpec = {
    name: options.name ?? request.json?.name ?? 'result',
    schema: options.jsonSchema ?? request.json?.schema ?? jsonSchemaOf(schema),
  };
  const strict = options.strict ?? request.json?.strict;
  if (strict !== undefined) spec.strict = strict;

  // In prompt mode the instruction is put into the original last user message once,
  // so re-asks extend the conversation without changing what came before.
  const native = (request.structuredOutput ?? client.structuredOutput) === 'native';
  let messages: ChatMessage[] = native ? request.messages.slice() : withJsonInstruction(request.messages, spec);
  let usage = emptyUsage();
  let latencyMs = 0;
  let transportAttempts = 0;
  let lastText = '';
  let lastProblem = '';

  for (let attempt = 1; attempt <= attempts; attempt++) {
    const result = await client.complete({ ...request, messages, json: spec }, options.signal);
    usage = addUsage(usage, result.usage);
    latencyMs += result.latencyMs;
    transportAttempts += result.attempts;
    lastText = result.text;

    const problem = problemOf(result, schema);
    if (problem.ok) return { value: problem.value, text: result.text, usage, latencyMs, attempts: attempt, transportAttempts, result };
    lastProblem = problem.problem;
    options.onInvalid?.(attempt, lastProblem, result);
    messages = [
      ...messages,
      { role: 'assistant', content: result.text.trim() ? result.text.slice(0, MAX_ECHO_CHARS) : '(empty reply)' },
      { role: 'user', content: reaskText(lastProblem, native ? spec : undefined) },
    ];
  }
  throw new StructuredOutputError({
    provider: client.provider,
    model: client.model,
    attempts,
    schemaName: spec.name,
    usage,
    lastOutput: lastText,
    lastProblem,
  });
}

function problemOf<T>(result: ChatResult, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; problem: string } {
  const truncated = result.truncated ? 'the reply was cut off at the output token limit; ' : '';
  if (result.refusal) return { ok: false, problem: `the model refused: ${oneLine(result.refusal, 300)}` };
  const extracted = extractJson(result.text);
  if (!extracted.ok) return { ok: false, problem: truncated + extracted.problem };
  const parsed = schema.safeParse(extracted.value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, problem: `${truncated}the JSON does not match the schema: ${oneLine(z.prettifyError(parsed.error), 1500)}` };
}

function reaskText(problem: string, spec: JsonOutputSpec | undefined): string {
  const schemaHint = spec ? `\n\n${jsonInstruction(spec)}` : ' It must conform to the JSON Schema given above.';
  return `Your previous reply could not be used: ${problem}\nReply again with only the corrected JSON object, no other text.${schemaHint}`;
}
