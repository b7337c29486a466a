import { SHORTEST_TOO_DEEP_TEXT } from '../input/jsonDepth';
import { nestsDeeperThan } from '../input/jsonText';
import type { Message, ToolCall } from '../model/trajectory';

/**
 * The tool calls of every message that makes none: one frozen empty list that the readers'
 * messages share (a new empty list per message was 32 bytes on top of each parsed entry).
 */
export const NO_TOOL_CALLS = Object.freeze([]) as unknown as ToolCall[];

/** Whether a text can be JSON at all: its first character after white space starts a JSON value. */
function mayBeJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // JSON white space: space, tab, line feed, carriage return.
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    // { [ " - 0-9 t(rue) f(alse) n(ull)
    return c === 0x7b || c === 0x5b || c === 0x22 || c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e;
  }
  return false;
}

/** Keeps `arguments` raw when it is not valid JSON (real agents emit truncated argument strings). */
export function toolCallFromRaw(name: string, raw: unknown, id?: string): ToolCall {
  if (typeof raw === 'string') {
    // Code agents' arguments are source code, not JSON: known without JSON.parse and the SyntaxError it throws.
    if (!mayBeJson(raw)) return { id, name, rawArguments: raw, argumentsValid: false };
    try {
      const parsed: unknown = JSON.parse(raw);
      // Arguments nested past the bound are kept raw: hashing or saving them would overflow the
      // stack. A short text cannot nest that deep, and is not walked.
      if (raw.length < SHORTEST_TOO_DEEP_TEXT || !nestsDeeperThan(parsed)) return { id, name, arguments: parsed, rawArguments: raw, argumentsValid: true };
    } catch {
      /* kept raw below */
    }
    return { id, name, rawArguments: raw, argumentsValid: false };
  }
  if (raw === undefined || raw === null) return { id, name, arguments: {}, rawArguments: '', argumentsValid: true };
  if (nestsDeeperThan(raw)) return { id, name, rawArguments: '(arguments nested too deep to keep)', argumentsValid: false };
  return { id, name, arguments: raw, rawArguments: JSON.stringify(raw), argumentsValid: true };
}

/** How far back a return's issuer is looked for by scanning, before every earlier call is indexed by id. */
const NEAR_ISSUER = 64;

/**
 * Links each tool return to the decision step that issued its call: by call id when both sides
 * carry one, otherwise by order (the n-th return after a step answers its n-th call).
 */
export function linkToolReturns(messages: Message[]): void {
  // A return's issuer is almost always a few messages back: it is found by scanning back, and
  // the map of every earlier call id (a Map entry per call of the file) is built only for a
  // return whose issuer is further away. Both find the latest issuer of the id before the return.
  let issuerById: Map<string, number> | undefined;
  let indexedUpTo = 0;
  const issuerOf = (callId: string, before: number): number | undefined => {
    for (let p = before - 1; p >= 0 && p >= before - NEAR_ISSUER; p--) {
      const m = messages[p];
      if (m.role !== 'assistant') continue;
      for (let c = 0; c < m.toolCalls.length; c++) if (m.toolCalls[c].id === callId) return m.position;
    }
    issuerById ??= new Map();
    for (; indexedUpTo < before; indexedUpTo++) {
      const m = messages[indexedUpTo];
      if (m.role !== 'assistant') continue;
      for (let c = 0; c < m.toolCalls.length; c++) {
        const id = m.toolCalls[c].id;
        if (id) issuerById.set(id, m.position);
      }
    }
    return issuerById.get(callId);
  };
  let lastIssuer: number | undefined;
  let returnsSinceIssuer = 0;
  // Indexed loops: unoptimized for-of allocates an iterator result per element, and this runs once per load.
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (message.role === 'assistant') {
      if (message.toolCalls.length > 0) {
        lastIssuer = message.position;
        returnsSinceIssuer = 0;
      }
      continue;
    }
    if (message.role !== 'tool') continue;
    const byId = message.toolCallId ? issuerOf(message.toolCallId, index) : undefined;
    message.issuedBy = byId ?? lastIssuer;
    if (byId === undefined && lastIssuer !== undefined && !message.toolCallId) {
      const issuer = messages[lastIssuer];
      message.toolCallId = issuer.toolCalls[returnsSinceIssuer]?.id;
    }
    returnsSinceIssuer++;
  }
}
