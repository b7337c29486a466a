import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, Trajectory } from '../model/trajectory';
import { extractGold, isObject, pickString, remainingFields } from './fields';
import { finishTrajectory } from './finish';
import type { TrajectoryReader } from './registry';
import { linkToolReturns, toolCallFromRaw } from './toolCalls';

const block = z.looseObject({ type: z.string({ message: 'expected a content block with a string "type"' }) });
const anthropicMessage = z.looseObject({
  role: z.enum(['user', 'assistant', 'system'], { message: 'expected role user or assistant' }),
  content: z.union([z.string(), z.array(block)], { message: 'expected a string or an array of content blocks' }),
});
const anthropicMessages = z.array(anthropicMessage);
type Block = Record<string, unknown> & { type: string };

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value.map((b) => (isObject(b) ? (typeof b.text === 'string' ? b.text : `[${String(b.type ?? 'block')}]`) : String(b))).join('\n');
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

export function looksAnthropic(obj: Record<string, unknown>): boolean {
  if (!Array.isArray(obj.messages)) return false;
  for (const m of obj.messages) {
    if (!isObject(m)) continue;
    if (m.role === 'tool' || 'tool_calls' in m || 'tool_call_id' in m) return false;
    if (Array.isArray(m.content) && m.content.some((b) => isObject(b) && ['tool_use', 'tool_result', 'thinking', 'redacted_thinking'].includes(String(b.type))))
      return true;
  }
  return 'system' in obj && (typeof obj.system === 'string' || Array.isArray(obj.system));
}

function normalize(raw: z.infer<typeof anthropicMessage>, position: number): Message {
  const blocks: Block[] = typeof raw.content === 'string' ? [{ type: 'text', text: raw.content }] : (raw.content as Block[]);
  const texts: string[] = [];
  const thinking: string[] = [];
  const message: Message = { position, role: raw.role === 'assistant' ? 'assistant' : raw.role === 'system' ? 'system' : 'user', content: '', toolCalls: [] };
  const results = blocks.filter((b) => b.type === 'tool_result');
  const onlyResults = raw.role === 'user' && results.length > 0 && results.length === blocks.length;
  for (const b of blocks) {
    if (b.type === 'text') texts.push(textOf(b.text));
    else if (b.type === 'thinking') thinking.push(textOf(b.thinking));
    else if (b.type === 'redacted_thinking') thinking.push('[redacted thinking]');
    else if (b.type === 'tool_use')
      message.toolCalls.push(toolCallFromRaw(String(b.name ?? 'tool'), b.input ?? {}, typeof b.id === 'string' ? b.id : undefined));
    else if (b.type === 'tool_result') {
      const body = textOf(b.content);
      texts.push(results.length > 1 ? `[result of ${String(b.tool_use_id)}]\n${body}` : body);
      if (b.is_error === true) message.isError = true;
    } else texts.push(`[${b.type}]`);
  }
  if (onlyResults) {
    message.role = 'tool';
    const first = results[0].tool_use_id;
    if (typeof first === 'string') message.toolCallId = first;
  }
  message.content = texts.join('\n');
  if (thinking.length) message.reasoning = thinking.join('\n');
  return message;
}

/** `anthropic`: `{system?, messages}` with string or block content. */
export function loadAnthropic(value: unknown, source: SourceText, id: string): Trajectory {
  const obj = isObject(value) ? value : {};
  const parsed = checkSchema(anthropicMessages, obj.messages, { ...source, basePath: [...(source.basePath ?? []), 'messages'] }, 'Anthropic messages');
  const messages = parsed.map(normalize);
  linkToolReturns(messages);
  const metadata = remainingFields(obj, ['messages']);
  if (obj.system !== undefined) metadata.system = textOf(obj.system);
  return finishTrajectory({
    format: 'anthropic',
    id,
    messages,
    metadata,
    query: pickString(obj, ['query', 'question']),
    predictedAnswer: pickString(obj, ['predicted_answer', 'prediction']),
    goldAnswer: pickString(obj, ['gold_answer', 'ground_truth', 'answer']),
    gold: extractGold(obj),
  });
}

export const anthropicReader: TrajectoryReader = {
  id: 'anthropic',
  label: 'Anthropic messages',
  detect: (value) =>
    isObject(value) && looksAnthropic(value) ? { score: 0.8, reason: 'an object with `messages` made of Anthropic content blocks' } : undefined,
  load: loadAnthropic,
};
