import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, Role, Trajectory } from '../model/trajectory';
import { extractGold, isObject, pickString, remainingFields } from './fields';
import { finishTrajectory } from './finish';
import { linkToolReturns, toolCallFromRaw } from './toolCalls';
import type { FormatMatch, TrajectoryReader } from './registry';

const part = z.union([z.string(), z.looseObject({ type: z.string().optional(), text: z.string().optional() })]);
const content = z.union([z.string(), z.null(), z.array(part)], { message: 'expected a string, null or an array of {type, text} parts' }).optional();
const toolCall = z.looseObject({
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.looseObject({
    name: z.string(),
    arguments: z.unknown().optional(),
  }),
});

export const openAiMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function'], { message: 'expected role system, user, assistant or tool' }),
  content,
  reasoning_content: z.string().nullish(),
  reasoning: z.string().nullish(),
  tool_calls: z.array(toolCall).nullish(),
  function_call: z.looseObject({ name: z.string(), arguments: z.unknown().optional() }).nullish(),
  tool_call_id: z.string().nullish(),
  name: z.string().nullish(),
});
export const openAiMessagesSchema = z.array(openAiMessageSchema);
type OpenAiMessage = z.infer<typeof openAiMessageSchema>;

export function partsToText(value: z.infer<typeof content>): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return value.map((p) => (typeof p === 'string' ? p : typeof p.text === 'string' ? p.text : `[${p.type ?? 'part'}]`)).join('\n');
}

const ROLE: Record<OpenAiMessage['role'], Role> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
  function: 'tool',
};

export function normalizeOpenAiMessages(raw: OpenAiMessage[]): Message[] {
  const messages = raw.map((m, position): Message => {
    const role = ROLE[m.role];
    const reasoning = m.reasoning_content ?? m.reasoning ?? undefined;
    const calls = (m.tool_calls ?? []).map((c) => toolCallFromRaw(c.function.name, c.function.arguments, c.id ?? undefined));
    if (m.function_call) calls.push(toolCallFromRaw(m.function_call.name, m.function_call.arguments));
    const message: Message = { position, role, content: partsToText(m.content), toolCalls: calls };
    if (reasoning) message.reasoning = reasoning;
    if (m.tool_call_id) message.toolCallId = m.tool_call_id;
    if (m.name && role !== 'tool') message.agent = m.name;
    return message;
  });
  linkToolReturns(messages);
  return messages;
}

/** `openai-chat`: an array of messages, or an object with `messages`. */
export function loadOpenAiChat(value: unknown, source: SourceText, id: string): Trajectory {
  const obj = isObject(value) ? value : {};
  const rawMessages = Array.isArray(value) ? value : obj.messages;
  const basePath = [...(source.basePath ?? []), ...(Array.isArray(value) ? [] : ['messages'])];
  const parsed = checkSchema(openAiMessagesSchema, rawMessages, { ...source, basePath }, 'an OpenAI chat message list');
  const messages = normalizeOpenAiMessages(parsed);
  return finishTrajectory({
    format: 'openai-chat',
    id,
    messages,
    query: pickString(obj, ['query', 'question', 'problem']),
    predictedAnswer: pickString(obj, ['predicted_answer', 'prediction', 'predictedAnswer']),
    goldAnswer: pickString(obj, ['gold_answer', 'ground_truth', 'answer', 'golden_answer']),
    gold: extractGold(obj),
    metadata: remainingFields(obj, ['messages']),
  });
}

const OPENAI_ROLES = new Set(openAiMessageSchema.shape.role.options as readonly string[]);

function openAiMatch(list: unknown[], where: string): FormatMatch | undefined {
  if (list.length === 0 || !isObject(list[0]) || typeof list[0].role !== 'string') return undefined;
  const without = list.findIndex((m) => !isObject(m) || typeof m.role !== 'string');
  if (without !== -1) return { score: 0.3, reason: `${where} of chat messages`, missing: [`a \`role\` in message ${without}`] };
  const roles = [...new Set(list.map((m) => (m as { role: string }).role))];
  const foreign = roles.filter((r) => !OPENAI_ROLES.has(r));
  if (foreign.length)
    return {
      score: 0.3,
      reason: `${where} with roles ${roles.slice(0, 6).join(', ')}`,
      missing: [`roles system/user/assistant/tool (saw ${foreign.slice(0, 4).join(', ')})`],
    };
  return { score: 0.6, reason: `${where} of OpenAI chat messages` };
}

export const openAiChatReader: TrajectoryReader = {
  id: 'openai-chat',
  label: 'OpenAI chat messages',
  detect(value) {
    if (Array.isArray(value)) return openAiMatch(value, 'a JSON array');
    if (isObject(value) && Array.isArray(value.messages)) return openAiMatch(value.messages, 'an object with `messages`');
    return undefined;
  },
  load: loadOpenAiChat,
};
