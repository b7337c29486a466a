import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, ToolCall, Trajectory } from '../model/trajectory';
import { extractGold, isObject, pickString, remainingFields } from './fields';
import { finishTrajectory } from './finish';
import { linkToolReturns, toolCallFromRaw } from './toolCalls';

const tongyiMessages = z.array(z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool'], { message: 'expected role system, user or assistant' }),
  content: z.string({ message: 'expected the message text as a string' }).nullable(),
  reasoning_content: z.string().nullish(),
}));

// <think> and <answer> also occur in OpenAI-style logs of reasoning models; tool tags do not.
const TOOL_TAGS = ['<tool_call>', '<tool_response>'];

export function looksTongyi(obj: Record<string, unknown>): boolean {
  if (!Array.isArray(obj.messages)) return false;
  if (obj.messages.some((m) => isObject(m) && (m.role === 'tool' || Array.isArray(m.tool_calls) || Array.isArray(m.content)))) return false;
  const hasRunFields = 'question' in obj && ('termination' in obj || 'prediction' in obj);
  if (hasRunFields) return true;
  return obj.messages.some((m) => isObject(m) && typeof m.content === 'string' && TOOL_TAGS.some((t) => (m.content as string).includes(t)));
}

function parseToolCall(body: string): ToolCall {
  const text = body.trim();
  try {
    const parsed = JSON.parse(text);
    if (isObject(parsed) && typeof parsed.name === 'string') {
      const args = parsed.arguments ?? parsed.parameters ?? {};
      return toolCallFromRaw(parsed.name, typeof args === 'string' ? args : args);
    }
  } catch {
    /* fall through: keep the raw text */
  }
  const name = /"name"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? 'unknown';
  return { name, rawArguments: text, argumentsValid: false };
}

const THINK = /<think>([\s\S]*?)(?:<\/think>|$)/g;
const TOOL_CALL = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g;
const ANSWER = /<answer>([\s\S]*?)(?:<\/answer>|$)/;
const TOOL_RESPONSE = /^\s*<tool_response>([\s\S]*?)(?:<\/tool_response>\s*)?$/;

/** `tongyi-react`: tags inside assistant text; `<tool_response>` user messages are tool returns. */
export function loadTongyi(value: unknown, source: SourceText, id: string): Trajectory {
  const obj = isObject(value) ? value : {};
  const parsed = checkSchema(tongyiMessages, obj.messages, { ...source, basePath: [...(source.basePath ?? []), 'messages'] }, 'Tongyi ReAct messages');
  const messages = parsed.map((m, position): Message => {
    const text = m.content ?? '';
    if (m.role === 'user' && text.includes('<tool_response>')) {
      const inner = TOOL_RESPONSE.exec(text);
      return { position, role: 'tool', content: (inner ? inner[1] : text).trim(), toolCalls: [] };
    }
    if (m.role !== 'assistant') return { position, role: m.role, content: text, toolCalls: [] };
    if (!text.includes('<')) {
      const plain: Message = { position, role: 'assistant', content: text, toolCalls: [] };
      if (m.reasoning_content) plain.reasoning = m.reasoning_content;
      return plain;
    }
    const thoughts = [...text.matchAll(THINK)].map((x) => x[1].trim());
    const calls = [...text.matchAll(TOOL_CALL)].map((x) => parseToolCall(x[1]));
    const answer = ANSWER.exec(text)?.[1].trim();
    const rest = text.replace(THINK, '').trim();
    const message: Message = { position, role: 'assistant', content: rest, toolCalls: calls };
    const reasoning = [m.reasoning_content ?? '', ...thoughts].filter(Boolean).join('\n');
    if (reasoning) message.reasoning = reasoning;
    if (answer !== undefined) message.answer = answer;
    return message;
  });
  linkToolReturns(messages);
  return finishTrajectory({
    format: 'tongyi-react', id, messages,
    query: pickString(obj, ['question', 'query']),
    predictedAnswer: pickString(obj, ['prediction', 'predicted_answer']),
    goldAnswer: pickString(obj, ['answer', 'gold_answer', 'ground_truth']),
    gold: extractGold(obj),
    metadata: remainingFields(obj, ['messages']),
  });
}
