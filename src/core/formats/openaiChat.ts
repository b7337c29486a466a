import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { GoldAnnotation, Message, Role, ToolCall, Trajectory } from '../model/trajectory';
import { extractGold, isObject, pickString, remainingFields } from './fields';
import { finishTrajectory } from './finish';
import { linkToolReturns, NO_TOOL_CALLS, toolCallFromRaw } from './toolCalls';
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

/** A message's `tool_calls`, then its legacy `function_call`, in one array of the exact size (no closure or copy per message). */
function openAiCallsOf(m: OpenAiMessage): ToolCall[] {
  const listed = m.tool_calls ?? [];
  if (!listed.length && !m.function_call) return NO_TOOL_CALLS;
  const calls: ToolCall[] = new Array<ToolCall>(listed.length + (m.function_call ? 1 : 0));
  for (let i = 0; i < listed.length; i++) calls[i] = toolCallFromRaw(listed[i].function.name, listed[i].function.arguments, listed[i].id ?? undefined);
  if (m.function_call) calls[listed.length] = toolCallFromRaw(m.function_call.name, m.function_call.arguments);
  return calls;
}

export function normalizeOpenAiMessages(raw: OpenAiMessage[]): Message[] {
  const messages = raw.map((m, position): Message => {
    const role = ROLE[m.role];
    const reasoning = m.reasoning_content ?? m.reasoning ?? undefined;
    const calls = openAiCallsOf(m);
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

// Every reader's detect runs on every loaded value (issue 15 item 6): the roles show within the
// first messages, so a long chat is not walked once per file to be told apart. A message further
// on without a role, or with a foreign one, is named by the loader's schema check.
const DETECT_MESSAGES = 50;

function openAiMatch(list: unknown[], where: string): FormatMatch | undefined {
  if (list.length === 0 || !isObject(list[0]) || typeof list[0].role !== 'string') return undefined;
  // One pass over the first messages, no copy of the list.
  const seen = new Set<string>();
  for (let i = 0; i < list.length && i < DETECT_MESSAGES; i++) {
    const m = list[i];
    if (!isObject(m) || typeof m.role !== 'string') return { score: 0.3, reason: `${where} of chat messages`, missing: [`a \`role\` in message ${i}`] };
    seen.add(m.role);
  }
  const roles = [...seen];
  const foreign = roles.filter((r) => !OPENAI_ROLES.has(r));
  if (foreign.length)
    return {
      score: 0.3,
      reason: `${where} with roles ${roles.slice(0, 6).join(', ')}`,
      missing: [`roles system/user/assistant/tool (saw ${foreign.slice(0, 4).join(', ')})`],
    };
  return { score: 0.6, reason: `${where} of OpenAI chat messages` };
}

/** Gold fields under the keys `extractGold` reads back (the searchauditbench aliases). */
function goldFields(gold: GoldAnnotation | undefined, lost: string[]): Record<string, unknown> {
  if (!gold) return {};
  const out: Record<string, unknown> = {};
  if (gold.criticalStep !== undefined) out.critical_step = gold.criticalStep;
  if (gold.toleranceSpan) out.tolerance_span = gold.toleranceSpan;
  if (gold.rootCause ?? gold.rootCauseRaw) out.root_cause = gold.rootCause ?? gold.rootCauseRaw;
  if (gold.rationale !== undefined) out.rationale = gold.rationale;
  if (gold.repairDirective !== undefined) out.repair_directive = gold.repairDirective;
  if (gold.repairRubrics) out.repair_rubrics = gold.repairRubrics;
  if (gold.mistakeAgent !== undefined) lost.push(`the gold mistake agent (${gold.mistakeAgent})`);
  if (gold.invalidSteps?.length) lost.push(`gold step fields that are not whole numbers (${gold.invalidSteps.map((s) => s.path.join('.')).join(', ')})`);
  return out;
}

/**
 * A trajectory as an object with `messages` (the form that also holds the query, the answers and
 * gold fields). Decision steps are assistant messages, since that is what makes one in this
 * format; the source's other fields go under `metadata`.
 */
export function writeOpenAiChat(trajectory: Trajectory): { value: unknown; lost: string[] } {
  const lost: string[] = [];
  const decisions = new Set(trajectory.decisionSteps);
  const messages = trajectory.messages.map((m) => {
    let role: string = m.role;
    if (decisions.has(m.position) && m.role !== 'assistant') {
      role = 'assistant';
      lost.push(`the role ${m.role} of decision step ${m.position} (written as assistant)`);
    } else if (!decisions.has(m.position) && m.role === 'assistant') {
      role = 'system';
      lost.push(`message ${m.position} is an assistant message but no decision step (written as system)`);
    }
    const out: Record<string, unknown> = { role, content: m.content };
    if (m.reasoning !== undefined) out.reasoning_content = m.reasoning;
    if (m.toolCalls.length) {
      out.tool_calls = m.toolCalls.map((call) => ({
        ...(call.id !== undefined ? { id: call.id } : {}),
        type: 'function',
        function: { name: call.name, arguments: call.rawArguments },
      }));
    }
    if (m.role === 'tool' && m.toolCallId !== undefined) out.tool_call_id = m.toolCallId;
    if (m.agent !== undefined) {
      if (role === 'tool') lost.push(`the agent ${m.agent} of tool return ${m.position}`);
      else out.name = m.agent;
    }
    if (m.isError) lost.push(`the error flag of tool return ${m.position}`);
    return out;
  });
  const value: Record<string, unknown> = {
    messages,
    ...(trajectory.query !== undefined ? { query: trajectory.query } : {}),
    ...(trajectory.predictedAnswer !== undefined ? { predicted_answer: trajectory.predictedAnswer } : {}),
    ...(trajectory.goldAnswer !== undefined ? { gold_answer: trajectory.goldAnswer } : {}),
    ...goldFields(trajectory.gold, lost),
  };
  // The outcome stays a top-level key, where the reader puts it back into metadata.outcome; the
  // other source fields are nested so that none of them (a `history`, a `question`) changes how the file is detected.
  const finalStep = trajectory.finalAnswerStep === undefined ? undefined : trajectory.messages[trajectory.finalAnswerStep];
  if (trajectory.predictedAnswer === undefined && finalStep && finalStep.toolCalls.length === 0 && finalStep.content.trim())
    lost.push("that the source records no predicted answer (an openai-chat reader takes the final step's text as one)");
  const { outcome, ...rest } = trajectory.metadata;
  if (outcome !== undefined) value.outcome = outcome;
  if (Object.keys(rest).length) value.metadata = rest;
  return { value, lost };
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
  write: writeOpenAiChat,
};
