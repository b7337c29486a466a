// SWE-agent `.traj` and mini-swe-agent `.traj.json` (docs/formats.md §1). Both agents act by
// shell commands: a decision step's command is a tool call (named as the source names it, else
// `bash` with `{command}`), and the environment's output is a tool return, never a decision step.
import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, Role, ToolCall, Trajectory } from '../model/trajectory';
import { isObject, pickString, remainingFields } from './fields';
import { finishTrajectory } from './finish';
import { partsToText } from './openaiChat';
import type { FormatMatch, TrajectoryReader } from './registry';
import { linkToolReturns, NO_TOOL_CALLS, toolCallFromRaw } from './toolCalls';

type Obj = Record<string, unknown>;

/** What a run's result says about success, in the shape every reader puts under `metadata.outcome`. */
export interface Outcome {
  success: boolean | null;
  score: number | null;
  source: string;
}

interface FencedBlock {
  language: string;
  body: string;
}

/**
 * The complete ``` blocks of a text, in order. A fence line opens a block (with an optional
 * language) and a bare fence line closes it, the way SWE-agent's thought-action parser reads them.
 */
export function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  if (!text.includes('```')) return blocks;
  let language: string | undefined;
  let bodyStart = 0;
  // exec on one shared regex, not matchAll: matchAll copies the regex and makes an iterator per text.
  FENCE_LINE.lastIndex = 0;
  for (let fence = FENCE_LINE.exec(text); fence !== null; fence = FENCE_LINE.exec(text)) {
    if (language === undefined) {
      language = fence[1];
      bodyStart = fence.index + fence[0].length + 1;
    } else if (fence[1] === '') {
      blocks.push({ language, body: text.slice(bodyStart, Math.max(bodyStart, fence.index - 1)).replace(TRAILING_CR, '') });
      language = undefined;
    }
  }
  return blocks;
}

const FENCE_LINE = /^```(\S*)[ \t\r]*$/gm;
// Shared, not literals in the functions: a regex literal is a new RegExp object each time it is evaluated.
const TRAILING_CR = /\r$/;
const RETURNCODE_OUTPUT = /^\s*<returncode>/;

const nullishString = (v: unknown) => v === undefined || v === null || typeof v === 'string';
const optionalString = (v: unknown) => v === undefined || typeof v === 'string';

/**
 * The list as the schema reads it. zod runs only when the plain check `ok` rejects an item: it
 * copies every object it parses, the bulk of the load time on a large file. `ok` accepts what the
 * schema accepts (or less), so a bad item still gets zod's message with its path and line:column.
 */
export function checkedList<T extends z.ZodType>(schema: T, list: unknown, ok: (item: unknown) => boolean, source: SourceText, what: string): z.infer<T>[] {
  if (Array.isArray(list) && list.every(ok)) return list as z.infer<T>[];
  return checkSchema(z.array(schema), list, source, what);
}

/**
 * A shell command as a `bash` call with `{command}`: what toolCallFromRaw('bash', {command}) gives,
 * built directly (a string nests nothing, and quoting it is all JSON.stringify of the object does).
 */
export function commandCall(command: string, id?: string): ToolCall {
  return { id, name: 'bash', arguments: { command }, rawArguments: `{"command":${JSON.stringify(command)}}`, argumentsValid: true };
}

const textContent = z.union(
  [z.string(), z.null(), z.array(z.union([z.string(), z.looseObject({ type: z.string().optional(), text: z.string().optional() })]))],
  {
    message: 'expected the message text as a string or an array of {type, text} parts',
  },
);

const chatToolCall = z.looseObject({
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string({ message: 'expected the tool name as a string' }), arguments: z.unknown().optional() }),
});

function isTextContent(v: unknown): boolean {
  if (v === null || typeof v === 'string') return true;
  return Array.isArray(v) && v.every((p) => typeof p === 'string' || (isObject(p) && optionalString(p.type) && optionalString(p.text)));
}

function isChatToolCall(v: unknown): boolean {
  return isObject(v) && nullishString(v.id) && isObject(v.function) && typeof v.function.name === 'string';
}

const isCallList = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.every(isChatToolCall));

function callsOf(list: z.infer<typeof chatToolCall>[] | null | undefined): ToolCall[] {
  // A loop into an exact-size array: no closure and no second array per message.
  if (!list?.length) return NO_TOOL_CALLS;
  const calls = new Array<ToolCall>(list.length);
  for (let i = 0; i < list.length; i++) calls[i] = toolCallFromRaw(list[i].function.name, list[i].function.arguments, list[i].id ?? undefined);
  return calls;
}

// ---------------------------------------------------------------------------------------------
// SWE-agent

const sweHistoryItem = z.looseObject({
  role: z.string({ message: 'expected a role string (system, user, assistant or tool)' }),
  content: textContent.optional(),
  message_type: z.string().nullish(),
  agent: z.string().nullish(),
  is_demo: z.boolean().nullish(),
  thought: z.string().nullish(),
  action: z.string().nullish(),
  tool_calls: z.array(chatToolCall).nullish(),
  tool_call_ids: z.array(z.string()).nullish(),
});

const sweStep = z.looseObject({
  action: z.string({ message: 'expected the step’s action as a string' }),
  observation: z.string({ message: 'expected the step’s observation as a string' }).nullish(),
  response: z.string().nullish(),
  thought: z.string().nullish(),
  tool_calls: z.array(chatToolCall).nullish(),
});

function isSweHistoryItem(v: unknown): boolean {
  return (
    isObject(v) &&
    typeof v.role === 'string' &&
    (v.content === undefined || isTextContent(v.content)) &&
    nullishString(v.message_type) &&
    nullishString(v.agent) &&
    (v.is_demo === undefined || v.is_demo === null || typeof v.is_demo === 'boolean') &&
    nullishString(v.thought) &&
    nullishString(v.action) &&
    isCallList(v.tool_calls) &&
    (v.tool_call_ids === undefined || v.tool_call_ids === null || (Array.isArray(v.tool_call_ids) && v.tool_call_ids.every((id) => typeof id === 'string')))
  );
}

function isSweStep(v: unknown): boolean {
  return (
    isObject(v) &&
    typeof v.action === 'string' &&
    nullishString(v.observation) &&
    nullishString(v.response) &&
    nullishString(v.thought) &&
    isCallList(v.tool_calls)
  );
}

const SWE_ROLES: Record<string, Role> = {
  system: 'system',
  user: 'user',
  human: 'user',
  assistant: 'assistant',
  ai: 'assistant',
  tool: 'tool',
  function: 'tool',
};

/** Whether the history's messages name more than one agent (no agent counts as the name ''); stops at the second name. */
function speaksAsSeveralAgents(history: z.infer<typeof sweHistoryItem>[]): boolean {
  if (history.length === 0) return false;
  const first = history[0].agent ?? '';
  for (let i = 1; i < history.length; i++) if ((history[i].agent ?? '') !== first) return true;
  return false;
}

/**
 * The messages of a history as checkedList reads it, with whether several agents speak found in
 * the same pass as the plain check (every message names its agent, "main" or "primary"; the name
 * tells something only when several agents speak).
 */
function checkedHistoryMessages(history: unknown[], source: SourceText): Message[] {
  let firstAgent: string | undefined;
  let multiAgent = false;
  for (let i = 0; i < history.length; i++) {
    const item = history[i];
    if (!isSweHistoryItem(item)) {
      const checked = checkSchema(z.array(sweHistoryItem), history, source, 'a SWE-agent history');
      return sweHistoryMessages(checked, speaksAsSeveralAgents(checked));
    }
    const agent = ((item as Obj).agent as string | null | undefined) ?? '';
    if (i === 0) firstAgent = agent;
    else if (agent !== firstAgent) multiAgent = true;
  }
  return sweHistoryMessages(history as z.infer<typeof sweHistoryItem>[], multiAgent);
}

/** history[i] → message i: the system prompt is system, the commands tool calls, the outputs tool returns. */
function sweHistoryMessages(history: z.infer<typeof sweHistoryItem>[], multiAgent: boolean): Message[] {
  let lastActed = false;
  const messages = history.map((item, position): Message => {
    const content = partsToText(item.content ?? null);
    let role: Role = SWE_ROLES[item.role] ?? 'system';
    const message: Message = { position, role, content, toolCalls: NO_TOOL_CALLS };
    if (multiAgent && item.agent) message.agent = item.agent;
    if (role === 'assistant') {
      message.toolCalls = callsOf(item.tool_calls);
      if (message.toolCalls.length === 0) {
        const action = item.action?.trim() ? item.action : fencedBlocks(content).at(-1)?.body;
        if (action?.trim()) message.toolCalls = [commandCall(action.replace(/\n$/, ''))];
      }
      // The thought is usually the text of the response before its command: kept apart only when it is not in the content.
      if (item.thought?.trim() && !content.includes(item.thought.trim())) message.reasoning = item.thought;
      lastActed = message.toolCalls.length > 0;
      return message;
    }
    // An observation is the output of the command before it; the issue text (also typed
    // "observation" in SWE-agent ≥ 1.0) and demonstrations come before any command.
    if (role === 'user' && !item.is_demo && lastActed) role = 'tool';
    message.role = role;
    if (role === 'tool' && item.tool_call_ids?.length) message.toolCallId = item.tool_call_ids[0];
    if (role !== 'tool') lastActed = false;
    return message;
  });
  linkToolReturns(messages);
  return messages;
}

/**
 * trajectory[i] → message i (the older files with no `history`): one step holds the model's
 * response, its command and the command's output, so it is one decision step whose content is
 * the response followed by the observation (the position rule forbids splitting the step).
 */
function sweStepMessages(steps: z.infer<typeof sweStep>[]): Message[] {
  return steps.map((step, position): Message => {
    const said = step.response ?? step.thought ?? '';
    let calls = callsOf(step.tool_calls);
    if (calls.length === 0 && step.action.trim()) calls = [commandCall(step.action.replace(/\n$/, ''))];
    const observation = step.observation ?? '';
    const message: Message = { position, role: 'assistant', content: observation ? `${said}\n\nObservation:\n${observation}` : said, toolCalls: calls };
    if (step.thought?.trim() && step.response && !step.response.includes(step.thought.trim())) message.reasoning = step.thought;
    return message;
  });
}

/**
 * The problem statement inside the agents' default task templates (SWE-agent 0.x `ISSUE:` …
 * `INSTRUCTIONS:`, SWE-agent 1.x and mini-swe-agent `<pr_description>`, mini's "Please solve this
 * issue:"); the whole message when it follows none of them. The message itself keeps its text.
 */
export function problemInTemplate(text: string): string {
  const found =
    /<pr_description>\s*(?:Consider the following PR description:\s*)?([\s\S]*?)\s*<\/pr_description>/.exec(text) ??
    /\nISSUE:\n([\s\S]*?)\n\s*\nINSTRUCTIONS:/.exec(text) ??
    /^Please solve this issue: ([\s\S]*?)\n\nYou can execute bash commands/.exec(text);
  return found?.[1].trim() ? found[1].trim() : text;
}

/** `replay_config` is an object in some versions and a JSON string in others. */
function replayConfigOf(value: unknown): Obj | undefined {
  if (isObject(value)) return value;
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function problemStatementOf(obj: Obj): string | undefined {
  const info = isObject(obj.info) ? obj.info : {};
  const replay = replayConfigOf(obj.replay_config);
  for (const candidate of [replay?.problem_statement, info.problem_statement, obj.problem_statement]) {
    if (typeof candidate === 'string' && candidate.trim()) return candidate;
    if (isObject(candidate)) {
      const text = pickString(candidate, ['text', 'problem_statement']);
      if (text) return text;
    }
  }
  return undefined;
}

/**
 * A recorded resolution wins (`resolved`); otherwise a run that exited without submitting
 * anything failed. A submitted patch is not yet an outcome (only its evaluation is).
 */
export function exitOutcome(info: Obj, infoPath: string): Outcome | undefined {
  if (typeof info.resolved === 'boolean') return { success: info.resolved, score: info.resolved ? 1 : 0, source: `${infoPath}.resolved` };
  const status = typeof info.exit_status === 'string' ? info.exit_status : undefined;
  const submitted = typeof info.submission === 'string' && info.submission.trim() !== '';
  if (status && !submitted && !/submit/i.test(status)) return { success: false, score: null, source: `${infoPath}.exit_status` };
  return undefined;
}

export function loadSweAgent(value: unknown, source: SourceText, id: string): Trajectory {
  const obj = isObject(value) ? value : {};
  const base = source.basePath ?? [];
  const useHistory = Array.isArray(obj.history) && obj.history.length > 0;
  const messages = useHistory
    ? checkedHistoryMessages(obj.history as unknown[], { ...source, basePath: [...base, 'history'] })
    : sweStepMessages(checkedList(sweStep, obj.trajectory ?? [], isSweStep, { ...source, basePath: [...base, 'trajectory'] }, 'a SWE-agent trajectory'));
  const info = isObject(obj.info) ? obj.info : {};
  const firstUser = messages.find(
    (m, i) => m.role === 'user' && !(useHistory && isObject((obj.history as unknown[])[i]) && ((obj.history as Obj[])[i].is_demo ?? false)),
  );
  const metadata = remainingFields(obj, useHistory ? ['history'] : ['trajectory']);
  // The step list repeats the history (and each step's `query` the whole prompt); it is not kept twice.
  if (useHistory && Array.isArray(obj.trajectory)) metadata.trajectory = `(${obj.trajectory.length} steps; the messages are read from \`history\`)`;
  const outcome = exitOutcome(info, 'info');
  if (outcome) metadata.outcome = outcome;
  return finishTrajectory({
    format: 'swe-agent',
    id,
    messages,
    query: problemStatementOf(obj) ?? (firstUser ? problemInTemplate(firstUser.content) : undefined),
    predictedAnswer: pickString(info, ['submission']),
    metadata,
  });
}

const SWE_HISTORY_MARKS = ['message_type', 'agent', 'action', 'thought', 'tool_call_ids', 'is_demo'];

export const sweAgentReader: TrajectoryReader = {
  id: 'swe-agent',
  label: 'SWE-agent .traj',
  detect(value): FormatMatch | undefined {
    if (!isObject(value)) return undefined;
    const runFields = ['info', 'replay_config', 'environment'].filter((k) => k in value);
    const history = Array.isArray(value.history) ? value.history : undefined;
    const steps = Array.isArray(value.trajectory) ? value.trajectory : undefined;
    // One pass over the history finds whether every message has a role and the first whose role
    // is not a string; the steps are walked only for a file without a history (not for a history
    // file's step list, which repeats it).
    let historyLike = false;
    let badRole = -1;
    if (history !== undefined && history.length > 0 && history.some((m) => isObject(m) && SWE_HISTORY_MARKS.some((k) => k in m))) {
      historyLike = true;
      for (let i = 0; i < history.length; i++) {
        const m: unknown = history[i];
        if (!isObject(m) || !('role' in m)) {
          historyLike = false;
          break;
        }
        if (badRole === -1 && typeof m.role !== 'string') badRole = i;
      }
    }
    const stepLike =
      !historyLike &&
      !history?.length &&
      steps !== undefined &&
      steps.length > 0 &&
      steps.every((s) => isObject(s) && 'action' in s && ('observation' in s || 'response' in s || 'thought' in s));
    if (historyLike || stepLike) {
      if (badRole !== -1) return { score: 0.4, reason: 'an object with a SWE-agent `history`', missing: [`history[${badRole}].role`] };
      return {
        // A demonstration file is a bare `history`: its messages' SWE-agent fields suffice.
        score: runFields.length ? 0.95 : 0.85,
        reason: historyLike
          ? `an object with a \`history\` of messages carrying \`message_type\`/\`agent\`/\`action\` and ${runFields.map((k) => '`' + k + '`').join(', ') || 'steps'} (SWE-agent)`
          : 'an object with `trajectory` steps of `action`/`observation`/`thought` (SWE-agent)',
      };
    }
    if ((history !== undefined || steps !== undefined) && isObject(value.info) && ('submission' in value.info || 'exit_status' in value.info)) {
      return {
        score: 0.4,
        reason: 'an object with `info.submission`/`info.exit_status` and `history` or `trajectory` (SWE-agent)',
        missing: ['`history` of {role, content, message_type} or `trajectory` of {action, observation, thought}'],
      };
    }
    return undefined;
  },
  load: loadSweAgent,
};

// ---------------------------------------------------------------------------------------------
// mini-swe-agent

const miniMessage = z.looseObject({
  role: z.string().optional(),
  type: z.string().optional(),
  content: z.unknown().optional(),
  tool_calls: z.array(chatToolCall).nullish(),
  tool_call_id: z.string().nullish(),
  extra: z.looseObject({}).nullish(),
});
type MiniMessage = z.infer<typeof miniMessage>;

function isMiniMessage(v: unknown): boolean {
  return (
    isObject(v) &&
    optionalString(v.role) &&
    optionalString(v.type) &&
    isCallList(v.tool_calls) &&
    nullishString(v.tool_call_id) &&
    (v.extra === undefined || v.extra === null || isObject(v.extra))
  );
}

/** The languages mini-swe-agent's text-based models read an action from (v1 `bash`, v2 `mswea_bash_command`). */
const MINI_ACTION_LANGUAGES = new Set(['bash', 'mswea_bash_command']);

/** Text of a content in any of the shapes models give (a string, chat parts, Responses API items). */
function anyText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value
      .map((part) => (typeof part === 'string' ? part : isObject(part) ? (pickString(part, ['text', 'output', 'refusal']) ?? anyText(part.content)) : ''))
      .filter((s) => s !== '')
      .join('\n');
  return '';
}

/** One message of a mini-swe-agent run: roles system/user/assistant/tool/exit, or a Responses API object. */
// Read only: a message without `extra` shares it instead of making one each.
const NO_EXTRA: Obj = Object.freeze({});

function miniMessageOf(m: MiniMessage, position: number): Message {
  const extra: Obj = m.extra ?? NO_EXTRA;
  if (m.type === 'function_call_output') {
    const output = (m as Obj).output;
    const call = (m as Obj).call_id;
    const message: Message = { position, role: 'tool', content: anyText(output), toolCalls: NO_TOOL_CALLS };
    if (typeof call === 'string') message.toolCallId = call;
    return message;
  }
  // A Responses API response: its `output` items are the message text and the function calls.
  if ((m as Obj).object === 'response' || (m.role === undefined && Array.isArray((m as Obj).output))) {
    const items = Array.isArray((m as Obj).output) ? ((m as Obj).output as unknown[]) : [];
    const calls: ToolCall[] = [];
    const texts: string[] = [];
    const reasoning: string[] = [];
    for (const item of items) {
      if (!isObject(item)) continue;
      if (item.type === 'function_call' && typeof item.name === 'string')
        calls.push(toolCallFromRaw(item.name, item.arguments, pickString(item, ['call_id', 'id'])));
      else if (item.type === 'reasoning') reasoning.push(anyText(item.summary) || anyText(item.content));
      else texts.push(anyText(item.content));
    }
    const message: Message = { position, role: 'assistant', content: texts.filter(Boolean).join('\n'), toolCalls: calls };
    if (reasoning.some(Boolean)) message.reasoning = reasoning.filter(Boolean).join('\n');
    return message;
  }
  const content = anyText(m.content);
  switch (m.role) {
    case 'assistant': {
      const message: Message = { position, role: 'assistant', content, toolCalls: textActionCalls(m, extra, content) };
      const reasoning = (m as Obj).reasoning_content;
      if (typeof reasoning === 'string' && reasoning.trim()) message.reasoning = reasoning;
      return message;
    }
    case 'tool': {
      const message: Message = { position, role: 'tool', content, toolCalls: NO_TOOL_CALLS };
      if (m.tool_call_id) message.toolCallId = m.tool_call_id;
      return message;
    }
    case 'exit': {
      // The run's end (Submitted, LimitsExceeded…): not a chat message, kept as one at its position.
      const status = typeof extra.exit_status === 'string' ? extra.exit_status : '';
      return { position, role: 'system', content: content || `exit: ${status}`, toolCalls: NO_TOOL_CALLS };
    }
    case 'user':
      return { position, role: 'user', content, toolCalls: NO_TOOL_CALLS };
    default:
      return { position, role: 'system', content, toolCalls: NO_TOOL_CALLS };
  }
}

/** An assistant message's calls: its tool calls, else its `extra.actions` (v2), else the command of its one action block (v1). */
function textActionCalls(m: MiniMessage, extra: Obj, content: string): ToolCall[] {
  if (m.tool_calls?.length) return callsOf(m.tool_calls);
  const actions = Array.isArray(extra.actions) ? extra.actions.filter(isObject) : undefined;
  if (actions?.length)
    return actions.filter((a) => typeof a.command === 'string').map((a) => commandCall(a.command as string, pickString(a, ['tool_call_id'])));
  // mini-swe-agent runs a response's command only when it holds exactly one action block.
  const action = onlyActionBlock(content);
  return action !== undefined ? [commandCall(action)] : NO_TOOL_CALLS;
}

/** The body of a text's action block when it holds exactly one (in any other case mini-swe-agent runs nothing). */
function onlyActionBlock(content: string): string | undefined {
  // The blocks as fencedBlocks reads them, but with no list, no block objects and one body copied:
  // this runs on every response of a run.
  if (!content.includes('```')) return undefined;
  let language: string | undefined;
  let bodyStart = 0;
  let count = 0;
  let actionStart = 0;
  let actionEnd = 0;
  FENCE_LINE.lastIndex = 0;
  for (let fence = FENCE_LINE.exec(content); fence !== null; fence = FENCE_LINE.exec(content)) {
    if (language === undefined) {
      language = fence[1];
      bodyStart = fence.index + fence[0].length + 1;
    } else if (fence[1] === '') {
      if (MINI_ACTION_LANGUAGES.has(language) && ++count === 1) {
        actionStart = bodyStart;
        actionEnd = Math.max(bodyStart, fence.index - 1);
      }
      language = undefined;
    }
  }
  return count === 1 ? content.slice(actionStart, actionEnd).replace(TRAILING_CR, '') : undefined;
}

const isRoleless = (m: MiniMessage) => m.role === undefined && m.type === undefined && (m as Obj).object === undefined && !Array.isArray((m as Obj).output);

/**
 * The messages and the last exit message's `extra`, in one pass: a message with no role and no
 * Responses API shape is refused (the first such one, before any message is used), and a user
 * message is retagged as it is made. With `checkEach`, each message gets the plain check as it
 * is read, and the first one refused (or one without a role) ends the pass with undefined: the
 * caller reads the list again the checked way, so the error is the one a check of the whole
 * list first gives.
 */
function miniMessages(
  raw: MiniMessage[],
  checkEach: boolean,
  source: SourceText,
  base: (string | number)[],
): { messages: Message[]; exitExtra: Obj } | undefined {
  const messages = new Array<Message>(raw.length);
  let exitExtra: Obj = NO_EXTRA;
  for (let i = 0; i < raw.length; i++) {
    const item = raw[i];
    if (checkEach && !isMiniMessage(item)) return undefined;
    if (item.role === 'exit') exitExtra = item.extra ?? NO_EXTRA;
    if (isRoleless(item)) {
      if (checkEach) return undefined;
      checkSchema(
        z.looseObject({ role: z.string({ message: 'expected a role (system, user, assistant, tool or exit)' }) }),
        item,
        { ...source, basePath: [...base, 'messages', i] },
        'a mini-swe-agent message',
      );
    }
    const message = miniMessageOf(item, i);
    messages[i] = message;
    // A user message is a command's output when it records a return code (v1 writes
    // `<returncode>…`, v2 `extra.returncode`) or follows a step that ran a command; a format-error
    // reply is not.
    if (message.role !== 'user') continue;
    const extra: Obj = item.extra ?? NO_EXTRA;
    if (extra.interrupt_type === 'FormatError') continue;
    const previous = i > 0 ? messages[i - 1] : undefined;
    const afterCommand = previous !== undefined && previous.role === 'assistant' && previous.toolCalls.length > 0;
    if (afterCommand || 'returncode' in extra || RETURNCODE_OUTPUT.test(message.content)) message.role = 'tool';
  }
  linkToolReturns(messages);
  return { messages, exitExtra };
}

export function loadMiniSweAgent(value: unknown, source: SourceText, id: string): Trajectory {
  const obj = isObject(value) ? value : {};
  const base = source.basePath ?? [];
  // One pass checks and reads a well-formed list; any other is checked whole first, then read.
  const { messages, exitExtra } =
    (Array.isArray(obj.messages) && miniMessages(obj.messages as MiniMessage[], true, source, base)) ||
    (miniMessages(
      checkedList(miniMessage, obj.messages, isMiniMessage, { ...source, basePath: [...base, 'messages'] }, 'a mini-swe-agent message list'),
      false,
      source,
      base,
    ) as NonNullable<ReturnType<typeof miniMessages>>);
  const info = isObject(obj.info) ? obj.info : {};
  const metadata = remainingFields(obj, ['messages']);
  const outcome = exitOutcome(info, 'info');
  if (outcome) metadata.outcome = outcome;
  const task = messages.find((m) => m.role === 'user');
  return finishTrajectory({
    format: 'mini-swe-agent',
    id,
    messages,
    query: task ? problemInTemplate(task.content) : undefined,
    predictedAnswer: pickString(info, ['submission']) ?? pickString(exitExtra, ['submission']),
    // A run that ends without a submission has no answer; the last step's text is not one.
    inferPredictedAnswer: false,
    metadata,
  });
}

function isMiniExchange(m: unknown): boolean {
  if (!isObject(m) || typeof m.content !== 'string') return false;
  if (m.role === 'user') return RETURNCODE_OUTPUT.test(m.content);
  return m.role === 'assistant' && fencedBlocks(m.content).some((b) => MINI_ACTION_LANGUAGES.has(b.language));
}

export const miniSweAgentReader: TrajectoryReader = {
  id: 'mini-swe-agent',
  label: 'mini-swe-agent .traj.json',
  detect(value): FormatMatch | undefined {
    if (!isObject(value)) return undefined;
    const info = isObject(value.info) ? value.info : undefined;
    const declared = typeof value.trajectory_format === 'string' && value.trajectory_format.startsWith('mini-swe-agent');
    const versioned = info !== undefined && 'mini_version' in info;
    if (!declared && !versioned) {
      // Files written before the format was declared: a run `info` and mini's own conventions.
      const ranRun = info !== undefined && ('exit_status' in info || 'submission' in info);
      if (!ranRun || !Array.isArray(value.messages) || !value.messages.some(isMiniExchange)) return undefined;
      return { score: 0.75, reason: 'an object with `info.exit_status` and `messages` holding ```bash actions or <returncode> outputs (mini-swe-agent)' };
    }
    const evidence = declared ? `"trajectory_format": "${String(value.trajectory_format)}"` : '`info.mini_version`';
    if (!Array.isArray(value.messages))
      return { score: 0.4, reason: `an object with ${evidence} (mini-swe-agent)`, missing: ['`messages` (the run’s message list)'] };
    return { score: declared ? 0.95 : 0.9, reason: `an object with ${evidence} and \`messages\` (mini-swe-agent)` };
  },
  load: loadMiniSweAgent,
};
