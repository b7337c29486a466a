import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, ToolCall, Trajectory } from '../model/trajectory';
import { extractGold, isObject, pickString, remainingFields } from './fields';
import { finishTrajectory } from './finish';
import type { TrajectoryReader } from './registry';
import { tagContents, withoutTag } from './tags';
import { linkToolReturns, toolCallFromRaw } from './toolCalls';

const tongyiMessages = z.array(
  z.looseObject({
    role: z.enum(['system', 'user', 'assistant', 'tool'], { message: 'expected role system, user or assistant' }),
    content: z.string({ message: 'expected the message text as a string' }).nullable(),
    reasoning_content: z.string().nullish(),
  }),
);

// <think> and <answer> also occur in OpenAI-style logs of reasoning models; tool tags do not.
const TOOL_TAGS = ['<tool_call>', '<tool_response>'];
const TAG_SCAN_MESSAGES = 24;

export function looksTongyi(obj: Record<string, unknown>): boolean {
  if (!Array.isArray(obj.messages)) return false;
  const hasRunFields = 'question' in obj && ('termination' in obj || 'prediction' in obj);
  // The tags show in the first turns (the prompt and the first replies); scanning every message's
  // text made detection cost as much as parsing for every chat-shaped file.
  const tagged =
    hasRunFields ||
    obj.messages
      .slice(0, TAG_SCAN_MESSAGES)
      .some((m) => isObject(m) && typeof m.content === 'string' && TOOL_TAGS.some((t) => (m.content as string).includes(t)));
  // Every message is looked at only for a file the cheap checks above took for Tongyi: this walk
  // ran over every message of every chat-shaped file (mini-swe-agent, OpenAI chat) to reject it.
  return tagged && !obj.messages.some((m) => isObject(m) && (m.role === 'tool' || Array.isArray(m.tool_calls) || Array.isArray(m.content)));
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

const OPEN = '<tool_response>';
const CLOSE = '</tool_response>';

/** Cheap on megabyte-long returns: the tag is looked for at the start only. */
function isToolResponse(text: string): boolean {
  const start = text.indexOf('<');
  return start !== -1 && start < 64 && text.startsWith(OPEN, start);
}

/** Everything between the first opening and the last closing tag (several responses stay together). */
function toolResponseBody(text: string): string {
  const start = text.indexOf(OPEN) + OPEN.length;
  const end = text.lastIndexOf(CLOSE);
  return text.slice(start, end >= start ? end : text.length).trim();
}

// WebDancer/WebSailor put the tool instructions and the question in one user message, the question last after `User:`.
const TOOL_INSTRUCTIONS = ['<tools>', '<tool_call>', '<tool_response>'];
const USER_TURN = /(?:^|\n)[ \t]*User:[ \t]*/g;

/** The question after the last `User:` of a first user message that carries tool instructions; undefined for a plain question. */
export function questionAfterUserTurn(text: string): string | undefined {
  if (!TOOL_INSTRUCTIONS.some((tag) => text.includes(tag))) return undefined;
  let start = -1;
  for (const match of text.matchAll(USER_TURN)) start = match.index + match[0].length;
  if (start === -1) return undefined;
  const question = text
    .slice(start)
    .replace(/\n[ \t]*Assistant:[ \t]*$/, '')
    .trim();
  return question || undefined;
}

/** `tongyi-react`: tags inside assistant text; `<tool_response>` user messages are tool returns. */
export function loadTongyi(value: unknown, source: SourceText, id: string): Trajectory {
  const obj = isObject(value) ? value : {};
  const parsed = checkSchema(tongyiMessages, obj.messages, { ...source, basePath: [...(source.basePath ?? []), 'messages'] }, 'Tongyi ReAct messages');
  const messages = parsed.map((m, position): Message => {
    const text = m.content ?? '';
    if (m.role === 'user' && isToolResponse(text)) {
      return { position, role: 'tool', content: toolResponseBody(text), toolCalls: [] };
    }
    if (m.role !== 'assistant') return { position, role: m.role, content: text, toolCalls: [] };
    if (!text.includes('<')) {
      const plain: Message = { position, role: 'assistant', content: text, toolCalls: [] };
      if (m.reasoning_content) plain.reasoning = m.reasoning_content;
      return plain;
    }
    const thoughts = tagContents(text, 'think').map((x) => x.trim());
    const calls = tagContents(text, 'tool_call').map(parseToolCall);
    const answer = tagContents(text, 'answer')[0]?.trim();
    const rest = withoutTag(text, 'think').trim();
    const message: Message = { position, role: 'assistant', content: rest, toolCalls: calls };
    const reasoning = [m.reasoning_content ?? '', ...thoughts].filter(Boolean).join('\n');
    if (reasoning) message.reasoning = reasoning;
    if (answer !== undefined) message.answer = answer;
    return message;
  });
  linkToolReturns(messages);
  const firstUser = messages.find((m) => m.role === 'user');
  return finishTrajectory({
    format: 'tongyi-react',
    id,
    messages,
    query: pickString(obj, ['question', 'query']) ?? (firstUser ? questionAfterUserTurn(firstUser.content) : undefined),
    predictedAnswer: pickString(obj, ['prediction', 'predicted_answer']),
    goldAnswer: pickString(obj, ['answer', 'gold_answer', 'ground_truth']),
    gold: extractGold(obj),
    metadata: remainingFields(obj, ['messages']),
  });
}

export const tongyiReader: TrajectoryReader = {
  id: 'tongyi-react',
  label: 'Tongyi ReAct (WebDancer / WebSailor)',
  detect: (value) =>
    isObject(value) && looksTongyi(value)
      ? { score: 0.8, reason: 'an object with `messages` whose text carries Tongyi <think>/<tool_call>/<tool_response> tags' }
      : undefined,
  load: loadTongyi,
};
