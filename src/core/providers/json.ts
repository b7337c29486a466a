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
/** Model replies are far smaller; a longer text is refused rather than searched. */
export const MAX_REPLY_CHARS = 16 * 2 ** 20;

/**
 * `<think>…</think>` sections dropped (reasoning models served by vLLM/Ollama/llama.cpp), in one
 * pass: a lazy regex rescans the rest of the text from every unclosed `<think>`.
 */
export function withoutThinking(text: string): string {
  const open = /<think>/gi;
  const close = /<\/think>/gi;
  let out = '';
  let from = 0;
  for (;;) {
    open.lastIndex = from;
    const start = open.exec(text);
    if (!start) break;
    close.lastIndex = start.index + start[0].length;
    const end = close.exec(text);
    if (!end) break; // an unclosed section is kept, as the regex kept it
    out += text.slice(from, start.index);
    from = end.index + end[0].length;
  }
  return out + text.slice(from);
}

interface Fence {
  lang: string;
  body: string;
}

/** Closed ``` fences, left to right, like /```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n([\s\S]*?)```/g but in linear time. */
function closedFences(text: string): Fence[] {
  const fences: Fence[] = [];
  for (let at = text.indexOf('```'); at !== -1;) {
    const newline = text.indexOf('\n', at + 3);
    if (newline === -1) break; // no later opener has a header line either
    const close = text.indexOf('```', newline + 1);
    if (close === -1) break; // nor a closing fence
    const lang = /^[ \t]*([A-Za-z0-9_+-]*)/.exec(text.slice(at + 3, newline))?.[1] ?? '';
    fences.push({ lang, body: text.slice(newline + 1, close) });
    at = text.indexOf('```', close + 3);
  }
  return fences;
}

/** The body after the first ```json header line, for an unclosed fence. */
function unclosedJsonFence(text: string): string | undefined {
  const header = /```[ \t]*json/i.exec(text);
  if (!header) return undefined;
  const newline = text.indexOf('\n', header.index + header[0].length);
  return newline === -1 ? undefined : text.slice(newline + 1);
}

/**
 * Finds the JSON value in a model's text output: the whole text if it is JSON,
 * else a fenced ```json block (or any fenced block), else the first balanced
 * {...} (or [...] with `container: 'array'`) that parses. <think>…</think> sections are dropped
 * first. Linear in the text: every search is one pass or runs on a budget of characters.
 */
export function extractJson(text: string, options: { container?: 'object' | 'array' } = {}): JsonExtraction {
  if (text.length > MAX_REPLY_CHARS)
    return { ok: false, problem: `the reply is ${text.length} characters long; at most ${MAX_REPLY_CHARS} are searched for JSON` };
  const cleaned = withoutThinking(text).trim();
  if (!cleaned) return { ok: false, problem: 'the reply was empty' };
  const [openChar, closeChar] = options.container === 'array' ? ['[', ']'] : ['{', '}'];

  let firstError: string | undefined;
  const tryParse = (candidate: string): JsonExtraction | undefined => {
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch (error) {
      firstError ??= (error as Error).message;
      return undefined;
    }
  };
  const balanced = (body: string) => firstBalanced(body, openChar, closeChar, tryParse);

  if (cleaned.startsWith('{') || cleaned.startsWith('[')) {
    const whole = tryParse(cleaned);
    if (whole) return whole;
  }

  const fences = closedFences(cleaned);
  const ordered = [...fences.filter((f) => /^json/i.test(f.lang)), ...fences.filter((f) => !/^json/i.test(f.lang))];
  // A bounded number of fences: each failed parse costs an exception (2,000,000 characters of
  // empty fences took seconds).
  for (const fence of ordered.slice(0, MAX_CANDIDATES)) {
    const body = fence.body.trim();
    if (!body) continue;
    const parsed = tryParse(body) ?? balanced(body);
    if (parsed) return parsed;
  }
  // An unclosed fence (output cut off, or the model forgot to close it).
  if (!fences.length) {
    const open = unclosedJsonFence(cleaned);
    if (open !== undefined) {
      const parsed = tryParse(open.trim());
      if (parsed) return parsed;
    }
  }

  const found = balanced(cleaned);
  if (found) return found;

  if (firstError) return { ok: false, problem: `the reply is not valid JSON (${firstError})` };
  if (cleaned.includes(openChar))
    return { ok: false, problem: `the reply contains an unbalanced JSON ${options.container === 'array' ? 'array' : 'object'} (cut off?)` };
  return { ok: false, problem: `no JSON ${options.container === 'array' ? 'array' : 'object'} found in the reply` };
}

/**
 * The first balanced candidate that parses. Each start is scanned to its closing bracket; all
 * scans and parses together may read at most a few times the text (plus a constant), so a reply
 * of 2,000,000 unclosed braces costs a few passes, not 2,000,000.
 */
function firstBalanced(text: string, openChar: string, closeChar: string, tryParse: (s: string) => JsonExtraction | undefined): JsonExtraction | undefined {
  let budget = 4 * text.length + 100_000;
  let starts = 0;
  for (let start = text.indexOf(openChar); start !== -1 && starts < MAX_CANDIDATES && budget > 0; start = text.indexOf(openChar, start + 1)) {
    starts++;
    const { end, scanned } = matchingClose(text, start, openChar, closeChar, budget);
    budget -= scanned;
    if (end === -1) continue;
    budget -= end + 1 - start;
    const parsed = tryParse(text.slice(start, end + 1));
    if (parsed) return parsed;
  }
  return undefined;
}

/** Index of the bracket closing the one at `start`, honouring JSON strings; -1 if none within `limit` characters. */
function matchingClose(text: string, start: number, openChar: string, closeChar: string, limit: number): { end: number; scanned: number } {
  let depth = 0;
  let inString = false;
  const stop = Math.min(text.length, start + limit);
  for (let i = start; i < stop; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === openChar) depth++;
    else if (c === closeChar && --depth === 0) return { end: i, scanned: i + 1 - start };
  }
  return { end: -1, scanned: stop - start };
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
