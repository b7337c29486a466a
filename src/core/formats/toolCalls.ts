import { nestsDeeperThan } from '../input/jsonText';
import type { Message, ToolCall } from '../model/trajectory';

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
      // Arguments nested past the bound are kept raw: hashing or saving them would overflow the stack.
      if (!nestsDeeperThan(parsed)) return { id, name, arguments: parsed, rawArguments: raw, argumentsValid: true };
    } catch {
      /* kept raw below */
    }
    return { id, name, rawArguments: raw, argumentsValid: false };
  }
  if (raw === undefined || raw === null) return { id, name, arguments: {}, rawArguments: '', argumentsValid: true };
  if (nestsDeeperThan(raw)) return { id, name, rawArguments: '(arguments nested too deep to keep)', argumentsValid: false };
  return { id, name, arguments: raw, rawArguments: JSON.stringify(raw), argumentsValid: true };
}

/**
 * Links each tool return to the decision step that issued its call: by call id when both sides
 * carry one, otherwise by order (the n-th return after a step answers its n-th call).
 */
export function linkToolReturns(messages: Message[]): void {
  const issuerById = new Map<string, number>();
  let lastIssuer: number | undefined;
  let returnsSinceIssuer = 0;
  for (const message of messages) {
    if (message.role === 'assistant') {
      if (message.toolCalls.length > 0) {
        lastIssuer = message.position;
        returnsSinceIssuer = 0;
        for (const call of message.toolCalls) if (call.id) issuerById.set(call.id, message.position);
      }
      continue;
    }
    if (message.role !== 'tool') continue;
    const byId = message.toolCallId ? issuerById.get(message.toolCallId) : undefined;
    message.issuedBy = byId ?? lastIssuer;
    if (byId === undefined && lastIssuer !== undefined && !message.toolCallId) {
      const issuer = messages[lastIssuer];
      message.toolCallId = issuer.toolCalls[returnsSinceIssuer]?.id;
    }
    returnsSinceIssuer++;
  }
}
