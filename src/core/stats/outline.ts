import type { Message, ToolCall, Trajectory } from '../model/trajectory';
import { callKind, type ToolKind, type ToolNames } from './toolKinds';

export interface OutlineEntry {
  position: number;
  agent?: string;
  /** Compact tool-call summary, e.g. `search(query=["a", "b"])`. */
  calls: string[];
  /** Each call's kind (toolKinds.ts: search, visit, code, file-edit, other), in the order of `calls`. */
  kinds: ToolKind[];
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

/** The characters of a regex `\s`. */
const isSpace = (code: number) =>
  code === 32 ||
  (code >= 9 && code <= 13) ||
  code === 0xa0 ||
  code === 0x1680 ||
  (code >= 0x2000 && code <= 0x200a) ||
  code === 0x2028 ||
  code === 0x2029 ||
  code === 0x202f ||
  code === 0x205f ||
  code === 0x3000 ||
  code === 0xfeff;

/**
 * The same as truncate(text, max), reading only as far as it needs: about `max` characters of
 * ordinary text, where truncate() squeezes the whole text with a regex first. The timeline builds
 * one preview per message, 5,000 of them for a long trajectory.
 */
export function truncatedPrefix(text: string, max: number): string {
  // Count the squeezed length up to the first character past `max`; squeeze only that far.
  let length = 0;
  let pendingSpace = false;
  for (let i = 0; i < text.length; i++) {
    if (isSpace(text.charCodeAt(i))) {
      pendingSpace = length > 0;
      continue;
    }
    length += pendingSpace ? 2 : 1;
    pendingSpace = false;
    // The prefix ends on a non-space, so its squeezed form is the start of the whole one.
    if (length > max) return truncate(text.slice(0, i + 1), max);
  }
  return truncate(text, max);
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
export function buildOutline(trajectory: Trajectory, previewChars = 160, names: ToolNames = {}): OutlineEntry[] {
  return trajectory.decisionSteps.map((position) => {
    const message = trajectory.messages[position];
    const entry: OutlineEntry = {
      position,
      calls: message.toolCalls.map((c) => summarizeCall(c)),
      kinds: message.toolCalls.map((c) => callKind(c, names)),
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
