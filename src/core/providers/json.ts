// JSON helpers for structured model output: the prompt instruction used when a
// server has no native json_schema support, extraction of a JSON object from free
// text, and the OpenAI strict-mode compatibility check.

import type { ChatMessage, JsonOutputSpec } from './types';

/** The instruction appended to the last user message when JSON is asked for in the prompt. */
export function jsonInstruction(spec: JsonOutputSpec): string {
  return [
    `Respond with only one JSON object (no prose before or after it, no code fence) that conforms to this JSON Schema, named "${spec.name}":`,
    JSON.stringify(spec.schema),
  ].join('\n');
}

/**
 * Appends the JSON instruction to the last user message, unless some message
 * already carries it (completeStructured puts it into the original request once,
 * so that re-asks keep the conversation bytes stable).
 */
export function withJsonInstruction(messages: ChatMessage[], spec: JsonOutputSpec): ChatMessage[] {
  const instruction = jsonInstruction(spec);
  if (messages.some((m) => m.content.includes(instruction))) return messages;
  const out = messages.slice();
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i].role === 'user') {
      out[i] = { role: 'user', content: `${out[i].content}\n\n${instruction}` };
      return out;
    }
  }
  out.push({ role: 'user', content: instruction });
  return out;
}

export type JsonExtraction = { ok: true; value: unknown } | { ok: false; problem: string };

const MAX_CANDIDATES = 64;

/**
 * Finds the JSON value in a model's text output: the whole text if it is JSON,
 * else a fenced ```json block (or any fenced block), else the first balanced
 * {...} that parses. <think>…</think> sections (reasoning models served by
 * vLLM/Ollama/llama.cpp) are dropped first.
 */
export function extractJson(text: string): JsonExtraction {
  const cleaned = text.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  if (!cleaned) return { ok: false, problem: 'the reply was empty' };

  let firstError: string | undefined;
  const tryParse = (candidate: string): JsonExtraction | undefined => {
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch (error) {
      firstError ??= (error as Error).message;
      return undefined;
    }
  };

  if (cleaned.startsWith('{') || cleaned.startsWith('[')) {
    const whole = tryParse(cleaned);
    if (whole) return whole;
  }

  const fences = [...cleaned.matchAll(/```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n([\s\S]*?)```/g)];
  const ordered = [...fences.filter((m) => /^json/i.test(m[1])), ...fences.filter((m) => !/^json/i.test(m[1]))];
  for (const fence of ordered) {
    const body = fence[2].trim();
    const parsed = tryParse(body) ?? firstBalancedObject(body, tryParse);
    if (parsed) return parsed;
  }
  // An unclosed fence (output cut off, or the model forgot to close it).
  if (!fences.length) {
    const open = /```[ \t]*json[^\n]*\n([\s\S]*)$/i.exec(cleaned);
    if (open) {
      const parsed = tryParse(open[1].trim());
      if (parsed) return parsed;
    }
  }

  const balanced = firstBalancedObject(cleaned, tryParse);
  if (balanced) return balanced;

  if (firstError) return { ok: false, problem: `the reply is not valid JSON (${firstError})` };
  if (cleaned.includes('{')) return { ok: false, problem: 'the reply contains an unbalanced JSON object (cut off?)' };
  return { ok: false, problem: 'no JSON object found in the reply' };
}

function firstBalancedObject(text: string, tryParse: (s: string) => JsonExtraction | undefined): JsonExtraction | undefined {
  let tried = 0;
  for (let start = text.indexOf('{'); start !== -1 && tried < MAX_CANDIDATES; start = text.indexOf('{', start + 1)) {
    const end = matchingBrace(text, start);
    if (end === -1) continue;
    tried++;
    const parsed = tryParse(text.slice(start, end + 1));
    if (parsed) return parsed;
  }
  return undefined;
}

/** Index of the '}' closing the '{' at `start`, honouring JSON strings; -1 if none. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/**
 * Whether OpenAI strict mode accepts the schema: every object schema sets
 * `additionalProperties: false` and lists all of its properties as required.
 */
export function isStrictCompatible(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(isStrictCompatible);
  if (typeof schema !== 'object' || schema === null) return true;
  const s = schema as Record<string, unknown>;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('object') || s.properties !== undefined) {
    if (s.additionalProperties !== false) return false;
    const props = Object.keys((s.properties as Record<string, unknown> | undefined) ?? {});
    const required = Array.isArray(s.required) ? s.required : [];
    if (!props.every((p) => required.includes(p))) return false;
  }
  for (const key of ['properties', '$defs', 'definitions']) {
    const group = s[key];
    if (group && typeof group === 'object' && !Object.values(group).every(isStrictCompatible)) return false;
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'not', 'prefixItems']) {
    if (s[key] !== undefined && !isStrictCompatible(s[key])) return false;
  }
  return true;
}
