import type { Message, ToolCall, Trajectory } from '../model/trajectory';

export interface OutlineEntry {
  position: number;
  agent?: string;
  /** Compact tool-call summary, e.g. `search(query=["a", "b"])`. */
  calls: string[];
  preview: string;
  isFinalAnswer: boolean;
}

function squeeze(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function truncate(text: string, max: number): string {
  const flat = squeeze(text);
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

const KEY_ARGUMENTS = ['query', 'queries', 'url', 'urls', 'goal', 'q', 'input'];

/** `search(query=["a", "b"])`: the arguments that say what a call did, truncated. */
export function summarizeCall(call: ToolCall, max = 120): string {
  if (!call.argumentsValid) return `${call.name}(${truncate(call.rawArguments, max)} [unparsed])`;
  const args = call.arguments;
  if (typeof args !== 'object' || args === null) return `${call.name}(${truncate(JSON.stringify(args) ?? '', max)})`;
  const entries = Object.entries(args as Record<string, unknown>);
  const keyed = entries.filter(([k]) => KEY_ARGUMENTS.includes(k));
  const shown = (keyed.length ? keyed : entries).slice(0, 2).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return `${call.name}(${truncate(shown.join(', '), max)})`;
}

export function previewOf(message: Message, max: number): string {
  const text = message.content.trim() || message.reasoning?.trim() || '';
  return truncate(text, max);
}

/** O(τ): every decision step's position with a truncated preview (seed 002, §4). Deterministic. */
export function buildOutline(trajectory: Trajectory, previewChars = 160): OutlineEntry[] {
  return trajectory.decisionSteps.map((position) => {
    const message = trajectory.messages[position];
    const entry: OutlineEntry = {
      position,
      calls: message.toolCalls.map((c) => summarizeCall(c)),
      preview: previewOf(message, previewChars),
      isFinalAnswer: position === trajectory.finalAnswerStep,
    };
    if (message.agent) entry.agent = message.agent;
    return entry;
  });
}

/** One line per entry, as the audit prompts and `trajaudit outline` show it. */
export function formatOutline(entries: OutlineEntry[]): string {
  return entries
    .map((e) => {
      const who = e.agent ? ` ${e.agent}` : '';
      const calls = e.calls.length ? ` → ${e.calls.join('; ')}` : '';
      const final = e.isFinalAnswer ? ' [final answer]' : '';
      return `[${e.position}]${who}${final} ${e.preview}${calls}`;
    })
    .join('\n');
}
