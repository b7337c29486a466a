// completeStructured: ask for JSON, extract it, validate it with zod, and re-ask
// with the validation problem when the output is unusable.

import { z } from 'zod';
import { oneLine, StructuredOutputError } from './errors';
import { extractJson, jsonInstruction, withJsonInstruction } from './json';
import {
  addUsage,
  emptyUsage,
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  type ChatUsage,
  type JsonOutputSpec,
  type ModelClient,
  type StructuredOutputMode,
} from './types';

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

/**
 * One model-level attempt of a structured call: the request to send, and what is needed to
 * judge its reply. Built by `startStructured`, advanced by `acceptStructuredReply`; both pure,
 * so a reply that came back from a batch goes through the same validation and re-ask as a
 * synchronous one (completeStructured is the loop that sends them directly).
 */
export interface StructuredAttempt {
  /** The request of this attempt: `json` set, re-asks appended to `messages`. */
  request: ChatRequest;
  /** 1-based. */
  attempt: number;
  spec: JsonOutputSpec;
  native: boolean;
}

/** The result of judging one reply: its validated value, or the problem and the re-ask to send next. */
export type StructuredReplyStep<T> = { ok: true; value: T } | { ok: false; problem: string; next: StructuredAttempt };

/**
 * The first attempt of a structured call. `structuredOutput` is the client's mode (ModelClient.structuredOutput);
 * the request's own `structuredOutput` overrides it.
 */
export function startStructured<T>(
  request: ChatRequest,
  schema: z.ZodType<T>,
  options: Pick<StructuredOptions, 'name' | 'jsonSchema' | 'strict'> & { structuredOutput?: StructuredOutputMode } = {},
): StructuredAttempt {
  const spec: JsonOutputSpec = {
    name: options.name ?? request.json?.name ?? 'result',
    schema: options.jsonSchema ?? request.json?.schema ?? jsonSchemaOf(schema),
  };
  const strict = options.strict ?? request.json?.strict;
  if (strict !== undefined) spec.strict = strict;
  // In prompt mode the instruction is put into the original last user message once,
  // so re-asks extend the conversation without changing what came before.
  const native = (request.structuredOutput ?? options.structuredOutput) === 'native';
  const messages: ChatMessage[] = native ? request.messages.slice() : withJsonInstruction(request.messages, spec);
  return { request: { ...request, messages, json: spec }, attempt: 1, spec, native };
}

/** Validates one reply of `attempt`: the value, or the problem and the next attempt (the reply echoed, the problem re-asked). */
export function acceptStructuredReply<T>(attempt: StructuredAttempt, result: ChatResult, schema: z.ZodType<T>): StructuredReplyStep<T> {
  const problem = problemOf(result, schema);
  if (problem.ok) return { ok: true, value: problem.value };
  const messages: ChatMessage[] = [
    ...attempt.request.messages,
    { role: 'assistant', content: result.text.trim() ? result.text.slice(0, MAX_ECHO_CHARS) : '(empty reply)' },
    { role: 'user', content: reaskText(problem.problem, attempt.native ? attempt.spec : undefined) },
  ];
  return { ok: false, problem: problem.problem, next: { ...attempt, request: { ...attempt.request, messages }, attempt: attempt.attempt + 1 } };
}

export async function completeStructured<T>(
  client: ModelClient,
  request: ChatRequest,
  schema: z.ZodType<T>,
  options: StructuredOptions = {},
): Promise<StructuredResult<T>> {
  const attempts = options.attempts ?? 3;
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError('completeStructured: attempts must be a positive integer');
  let current = startStructured(request, schema, { ...options, structuredOutput: client.structuredOutput });
  let usage = emptyUsage();
  let latencyMs = 0;
  let transportAttempts = 0;
  let lastText = '';
  let lastProblem = '';

  for (let attempt = 1; attempt <= attempts; attempt++) {
    const result = await client.complete(current.request, options.signal);
    usage = addUsage(usage, result.usage);
    latencyMs += result.latencyMs;
    transportAttempts += result.attempts;
    lastText = result.text;

    const step = acceptStructuredReply(current, result, schema);
    if (step.ok) return { value: step.value, text: result.text, usage, latencyMs, attempts: attempt, transportAttempts, result };
    lastProblem = step.problem;
    options.onInvalid?.(attempt, lastProblem, result);
    current = step.next;
  }
  throw new StructuredOutputError({
    provider: client.provider,
    model: client.model,
    attempts,
    schemaName: current.spec.name,
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
