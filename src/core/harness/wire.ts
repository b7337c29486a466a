// Conversations in the OpenAI chat wire shape: what the harnesses keep, print (--dry-run) and save
// as `openai-chat` trajectories (*.traj.json), and their conversion to provider-neutral requests.
import type { ChatMessage, ChatUsage, ToolCall } from '../providers/types';

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type WireMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: WireToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export function toWireCalls(calls: readonly ToolCall[]): WireToolCall[] {
  return calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
}

/** The system prompt and the provider-neutral messages of a wire conversation. */
export function toChatRequestParts(messages: readonly WireMessage[]): { system?: string; messages: ChatMessage[] } {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content as string)
    .join('\n\n');
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'tool') out.push({ role: 'tool', content: m.content, toolCallId: m.tool_call_id });
    else if (m.role === 'assistant') {
      const message: ChatMessage = { role: 'assistant', content: m.content ?? '' };
      if (m.tool_calls?.length) message.toolCalls = m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
      out.push(message);
    } else out.push({ role: 'user', content: m.content });
  }
  return system ? { system, messages: out } : { messages: out };
}

/** Token accounting of a harness unit (summed over its model calls). */
export interface HarnessUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

export function emptyHarnessUsage(): HarnessUsage {
  return { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
}

export function addCall(usage: HarnessUsage, u: ChatUsage): void {
  usage.calls++;
  usage.inputTokens += u.inputTokens;
  usage.outputTokens += u.outputTokens;
  usage.cachedInputTokens += u.cachedInputTokens;
}

export function sumUsage(list: readonly (Partial<HarnessUsage> | undefined)[]): HarnessUsage {
  const total = emptyHarnessUsage();
  for (const u of list) {
    if (!u) continue;
    total.calls += u.calls ?? 0;
    total.inputTokens += u.inputTokens ?? 0;
    total.outputTokens += u.outputTokens ?? 0;
    total.cachedInputTokens += u.cachedInputTokens ?? 0;
  }
  return total;
}

/** USD per million tokens. */
export interface Pricing {
  input: number;
  cachedInput: number;
  output: number;
}

export function costUsd(usage: HarnessUsage, pricing: Pricing | undefined): number | undefined {
  if (!pricing || (pricing.input === 0 && pricing.output === 0 && pricing.cachedInput === 0)) return undefined;
  const uncached = Math.max(0, usage.inputTokens - usage.cachedInputTokens);
  return (uncached * pricing.input + usage.cachedInputTokens * pricing.cachedInput + usage.outputTokens * pricing.output) / 1_000_000;
}

export function usageLine(usage: HarnessUsage, pricing?: Pricing): string {
  const cost = costUsd(usage, pricing);
  return `${usage.calls} call(s), ${usage.inputTokens.toLocaleString('en-US')} input tokens (${usage.cachedInputTokens.toLocaleString('en-US')} cached), ${usage.outputTokens.toLocaleString('en-US')} output tokens${cost === undefined ? '' : `, ≈ $${cost.toFixed(4)}`}`;
}
