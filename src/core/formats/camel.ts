import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, ToolCall, Trajectory } from '../model/trajectory';
import { isObject, pickString, remainingFields } from './fields';
import { finishTrajectory } from './finish';
import { normalizeOpenAiMessages, openAiMessagesSchema } from './openaiChat';
import type { FormatMatch, TrajectoryReader } from './registry';
import { NO_TOOL_CALLS, toolCallFromRaw } from './toolCalls';

// CAMEL and OWL chat histories (camel-ai/camel, camel-ai/owl). Two shapes:
// - a CAMEL role-playing session: `{assistant_role, user_role, task_prompt?, messages | chat_history:
//   [{role: user/assistant/system/tool, content, tool_calls?}]}` (the agents' OpenAI-style memory);
//   the user side is the instructing agent, named by `user_role`, the assistant side by `assistant_role`.
// - OWL's `run_society` history: `{question?, answer?, history | chat_history: [{user, assistant,
//   tool_calls: [{tool_name, args, result, tool_call_id}]}]}`, one entry per round; each round is
//   one message (position rule), the assistant's step with the round's instruction, tool calls
//   and their results in its text.

const MESSAGE_LISTS = ['messages', 'chat_history', 'history'] as const;

function listKey(obj: Record<string, unknown>): (typeof MESSAGE_LISTS)[number] | undefined {
  return MESSAGE_LISTS.find((k) => Array.isArray(obj[k]));
}

function isOwlRound(value: unknown): boolean {
  return isObject(value) && ('user' in value || 'assistant' in value) && !('role' in value);
}

const owlRound = z.looseObject({
  user: z.string({ message: 'expected the instruction text as a string' }).nullish(),
  assistant: z.string({ message: 'expected the assistant text as a string' }).nullish(),
  tool_calls: z
    .array(
      z.looseObject({
        tool_name: z.string().optional(),
        func_name: z.string().optional(),
        args: z.unknown().optional(),
        result: z.unknown().optional(),
        tool_call_id: z.string().nullish(),
      }),
    )
    .nullish(),
});

const nullishString = (v: unknown) => v === undefined || v === null || typeof v === 'string';

/** What `owlRound` accepts, checked without zod's copy of every round (histories run to thousands of rounds). */
function isPlainOwlRound(value: unknown): boolean {
  if (!isObject(value) || !nullishString(value.user) || !nullishString(value.assistant)) return false;
  const calls = value.tool_calls;
  if (calls === undefined || calls === null) return true;
  if (!Array.isArray(calls)) return false;
  // Indexed, not `every`: no callback per round.
  for (let i = 0; i < calls.length; i++) {
    const c: unknown = calls[i];
    if (
      !isObject(c) ||
      (c.tool_name !== undefined && typeof c.tool_name !== 'string') ||
      (c.func_name !== undefined && typeof c.func_name !== 'string') ||
      !nullishString(c.tool_call_id)
    )
      return false;
  }
  return true;
}

// One RegExp for every call: a literal in the function body is a new object each time.
const NOT_SPACE = /\S/;

/** Whether a text has anything but white space (`trim()` without the trimmed copy). */
function hasText(text: string | null | undefined): text is string {
  return typeof text === 'string' && NOT_SPACE.test(text);
}

function resultText(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return text.length > 4000 ? text.slice(0, 4000) + '…' : text;
}

type OwlCall = NonNullable<z.infer<typeof owlRound>['tool_calls']>[number];

function callOf(c: OwlCall): ToolCall {
  return toolCallFromRaw(c.tool_name ?? c.func_name ?? 'unknown', c.args, c.tool_call_id ?? undefined);
}

/**
 * One message per round: `user: …`, `assistant: …` and `→ tool returned: …` parts, a blank line
 * between. The parts are joined with `+`, which links them without copying (a V8 cons string;
 * Array#join copied every round's texts), and the constant text around them is made once per
 * file (per tool name for the results), so a round costs one link per piece.
 */
function owlMessages(rounds: z.infer<typeof owlRound>[], userRole: string, assistantRole: string): Message[] {
  const userLead = userRole + ': ';
  const assistantLead = assistantRole + ': ';
  const assistantAfter = '\n\n' + assistantLead;
  /** `→ name returned: ` first in a round, and after a blank line. */
  const returnLeads = new Map<string, [string, string]>();
  return rounds.map((round, position): Message => {
    const calls = round.tool_calls ?? [];
    let content = '';
    if (hasText(round.user)) content = userLead + round.user;
    if (hasText(round.assistant)) content = content ? content + assistantAfter + round.assistant : assistantLead + round.assistant;
    for (let i = 0; i < calls.length; i++) {
      const name = calls[i].tool_name ?? calls[i].func_name ?? 'tool';
      let leads = returnLeads.get(name);
      if (!leads) {
        const lead = '→ ' + name + ' returned: ';
        returnLeads.set(name, (leads = [lead, '\n\n' + lead]));
      }
      content = (content ? content + leads[1] : leads[0]) + resultText(calls[i].result);
    }
    return { position, role: 'assistant', agent: assistantRole, content, toolCalls: calls.length ? calls.map(callOf) : NO_TOOL_CALLS };
  });
}

/** `camel`: a CAMEL role-playing chat history or an OWL society history. */
export function loadCamel(value: unknown, source: SourceText, id: string): Trajectory {
  const obj = isObject(value) ? value : {};
  const key = listKey(obj) ?? 'messages';
  const at = { ...source, basePath: [...(source.basePath ?? []), key] };
  const userRole = pickString(obj, ['user_role', 'user_role_name']) ?? 'user';
  const assistantRole = pickString(obj, ['assistant_role', 'assistant_role_name']) ?? 'assistant';
  const list = obj[key];
  const owl = Array.isArray(list) && list.length > 0 && isOwlRound(list[0]);
  let messages: Message[];
  let answerTextOf: ((m: Message) => string) | undefined;
  if (owl) {
    const rounds = (list as unknown[]).every(isPlainOwlRound)
      ? (list as z.infer<typeof owlRound>[])
      : checkSchema(z.array(owlRound), list, at, 'OWL history rounds ({user, assistant, tool_calls})');
    messages = owlMessages(rounds, userRole, assistantRole);
    // A round's answer is in what its assistant wrote, not in the instruction or the tool results.
    answerTextOf = (m) => rounds[m.position].assistant ?? '';
  } else {
    messages = normalizeOpenAiMessages(checkSchema(openAiMessagesSchema, list, at, 'CAMEL chat history messages'));
    for (const m of messages) {
      if (m.role === 'assistant') m.agent ??= assistantRole;
      if (m.role === 'user') m.agent ??= userRole;
    }
  }
  const metadata = remainingFields(obj, [key]);
  return finishTrajectory({
    format: 'camel',
    id,
    messages,
    query: pickString(obj, ['task_prompt', 'task', 'question', 'query']) ?? (owl ? ((list as { user?: string }[])[0]?.user ?? undefined) : undefined),
    predictedAnswer: pickString(obj, ['answer', 'final_answer', 'prediction']),
    goldAnswer: pickString(obj, ['ground_truth', 'gold_answer', 'expected_answer']),
    metadata,
    ...(answerTextOf ? { answerTextOf } : {}),
  });
}

function detectCamel(value: unknown): FormatMatch | undefined {
  if (!isObject(value)) return undefined;
  const key = listKey(value);
  const roles = 'assistant_role' in value || 'user_role' in value || 'assistant_role_name' in value;
  const list = key ? (value[key] as unknown[]) : undefined;
  if (list && list.length > 0 && list.every(isOwlRound)) return { score: 0.85, reason: `an OWL history (\`${key}\` of {user, assistant, tool_calls} rounds)` };
  if (!roles) return undefined;
  if (!list) return { score: 0.4, reason: 'an object with `assistant_role`/`user_role` (CAMEL role-playing)', missing: ['messages or chat_history'] };
  if (!list.every((m) => isObject(m) && typeof m.role === 'string'))
    return { score: 0.4, reason: 'a CAMEL role-playing session', missing: [`\`${key}\` entries with \`role\` and \`content\``] };
  return { score: 0.9, reason: `a CAMEL role-playing session (\`assistant_role\`, \`user_role\`, \`${key}\`)` };
}

export const camelReader: TrajectoryReader = {
  id: 'camel',
  label: 'CAMEL / OWL chat history',
  detect: detectCamel,
  load: loadCamel,
};
