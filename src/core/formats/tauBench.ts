import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, ToolCall, Trajectory } from '../model/trajectory';
import { isObject, pickString } from './fields';
import { finishTrajectory } from './finish';
import { openAiMessagesSchema, normalizeOpenAiMessages } from './openaiChat';
import type { FormatMatch, SplitRecord, TrajectoryReader } from './registry';
import { linkToolReturns, NO_TOOL_CALLS, toolCallFromRaw } from './toolCalls';

// τ-bench (sierra-research/tau-bench) writes results as an array of
// `{task_id, reward, info: {task, reward_info, …}, traj: [OpenAI chat messages], trial}`, one per
// task × trial. τ²-bench (sierra-research/tau2-bench) writes `{timestamp, info, tasks,
// simulations: [{id, task_id, trial, messages, reward_info: {reward, …}, termination_reason, …}]}`
// whose messages are `{role, content, tool_calls: [{id, name, arguments, requestor}], turn_idx}`
// and tool messages `{role: "tool", id, content, requestor, error}`. Both count a run as a
// success when its reward is 1 (within 1e-6).

type Obj = Record<string, unknown>;

function isTauRecord(value: unknown): value is Obj {
  return isObject(value) && Array.isArray(value.traj) && ('reward' in value || 'task_id' in value);
}

function isTau2Simulation(value: unknown): boolean {
  return isObject(value) && Array.isArray(value.messages) && 'task_id' in value && ('reward_info' in value || 'termination_reason' in value);
}

function isTau2Results(value: unknown): value is Obj {
  return isObject(value) && Array.isArray(value.simulations) && ('tasks' in value || 'info' in value);
}

function recordId(obj: Obj, fallback: string): string {
  const task = pickString(obj, ['task_id']);
  if (task === undefined) return pickString(obj, ['id']) ?? fallback;
  const trial = typeof obj.trial === 'number' ? obj.trial : undefined;
  return trial === undefined ? task : `${task}#${trial}`;
}

const success = (reward: number) => Math.abs(reward - 1) <= 1e-6;

function outcomeOf(reward: unknown, source: string): Obj | undefined {
  if (typeof reward !== 'number' || !Number.isFinite(reward)) return undefined;
  return { success: success(reward), score: reward, source };
}

function detectTau(value: unknown): FormatMatch | undefined {
  if (isTau2Results(value)) {
    const bad = (value.simulations as unknown[]).findIndex((s) => !isObject(s) || !Array.isArray(s.messages));
    if (bad !== -1) return { score: 0.4, reason: 'a τ²-bench results object (`simulations`)', missing: [`simulations[${bad}].messages`] };
    return { score: 0.9, reason: 'a τ²-bench results object with `simulations` and `tasks`' };
  }
  if (isTau2Simulation(value)) return { score: 0.85, reason: 'a τ²-bench simulation (`task_id`, `messages`, `reward_info`)' };
  if (isTauRecord(value)) return { score: 0.9, reason: 'a τ-bench result (`task_id`, `reward`, `traj`)' };
  if (Array.isArray(value) && value.length > 0 && isObject(value[0]) && 'task_id' in value[0] && ('traj' in value[0] || 'reward' in value[0])) {
    const bad = value.findIndex((v) => !isTauRecord(v));
    if (bad !== -1) return { score: 0.4, reason: 'an array of τ-bench results', missing: [`[${bad}].traj (the message list)`] };
    return { score: 0.9, reason: `an array of ${value.length} τ-bench results (\`task_id\`, \`reward\`, \`traj\`)` };
  }
  if (isObject(value) && 'task_id' in value && 'reward' in value && 'info' in value)
    return { score: 0.4, reason: 'a τ-bench result (`task_id`, `reward`, `info`)', missing: ['traj (the message list)'] };
  return undefined;
}

function splitTau(value: unknown): SplitRecord[] {
  if (Array.isArray(value)) return value.map((v, i) => ({ id: isObject(v) ? recordId(v, String(i + 1)) : String(i + 1), value: v, path: [i] }));
  if (isTau2Results(value)) {
    const tasks = new Map<string, unknown>();
    if (Array.isArray(value.tasks)) for (const task of value.tasks) if (isObject(task) && task.id !== undefined) tasks.set(String(task.id), task);
    return (value.simulations as unknown[]).map((s, i) => {
      if (!isObject(s)) return { id: String(i + 1), value: s, path: ['simulations', i] };
      // The task (instruction, gold actions) lives beside the simulations; it rides along for load.
      const task = tasks.get(String(s.task_id));
      return { id: recordId(s, String(i + 1)), value: task && !('task' in s) ? { ...s, task } : s, path: ['simulations', i] };
    });
  }
  return [{ id: isObject(value) ? recordId(value, '0') : '0', value, path: [] }];
}

export const tau2Message = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool'], { message: 'expected role system, user, assistant or tool' }),
  content: z.string({ message: 'expected the message text as a string' }).nullish(),
  tool_calls: z
    .array(
      z.looseObject({
        id: z.string().nullish(),
        name: z.string({ message: 'expected the tool name as a string' }),
        arguments: z.unknown().optional(),
        requestor: z.string().nullish(),
      }),
    )
    .nullish(),
  id: z.string().nullish(),
  requestor: z.string().nullish(),
  error: z.boolean().nullish(),
  turn_idx: z.number().nullish(),
});

// What the message schemas accept, checked by hand for the common case (zod over every message of
// a results file cost more than JSON.parse of it); anything these reject goes to zod for its exact
// message, so they may be stricter than the schemas, never looser.
const nullishString = (v: unknown) => v === undefined || v === null || typeof v === 'string';
const optionalString = (v: unknown) => v === undefined || typeof v === 'string';
const OPENAI_ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);
const TAU2_ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** `openAiMessagesSchema` (src/core/formats/openaiChat.ts) by hand. */
function plainOpenAiMessages(list: unknown): list is z.infer<typeof openAiMessagesSchema> {
  if (!Array.isArray(list)) return false;
  // Indexed loops: a for-of before V8 optimizes it allocates an iterator result per element.
  for (let i = 0; i < list.length; i++) {
    const m: unknown = list[i];
    if (!isObject(m) || typeof m.role !== 'string' || !OPENAI_ROLES.has(m.role)) return false;
    const content = m.content;
    if (!(content === undefined || content === null || typeof content === 'string' || Array.isArray(content))) return false;
    if (Array.isArray(content))
      for (let p = 0; p < content.length; p++) {
        const part: unknown = content[p];
        if (!(typeof part === 'string' || (isObject(part) && optionalString(part.type) && optionalString(part.text)))) return false;
      }
    if (!nullishString(m.reasoning_content) || !nullishString(m.reasoning) || !nullishString(m.tool_call_id) || !nullishString(m.name)) return false;
    const calls = m.tool_calls;
    if (calls !== undefined && calls !== null) {
      if (!Array.isArray(calls)) return false;
      for (let c = 0; c < calls.length; c++) {
        const call: unknown = calls[c];
        if (!isObject(call) || !nullishString(call.id) || !nullishString(call.type) || !isObject(call.function) || typeof call.function.name !== 'string')
          return false;
      }
    }
    const call = m.function_call;
    if (!(call === undefined || call === null || (isObject(call) && typeof call.name === 'string'))) return false;
  }
  return true;
}

/** `z.array(tau2Message)` by hand. */
function plainTau2Messages(list: unknown): list is z.infer<typeof tau2Message>[] {
  if (!Array.isArray(list)) return false;
  for (let i = 0; i < list.length; i++) {
    const m: unknown = list[i];
    if (!isObject(m) || typeof m.role !== 'string' || !TAU2_ROLES.has(m.role)) return false;
    if (!nullishString(m.content) || !nullishString(m.id) || !nullishString(m.requestor)) return false;
    if (!(m.error === undefined || m.error === null || typeof m.error === 'boolean')) return false;
    if (!(m.turn_idx === undefined || m.turn_idx === null || (typeof m.turn_idx === 'number' && Number.isFinite(m.turn_idx)))) return false;
    const calls = m.tool_calls;
    if (calls !== undefined && calls !== null) {
      if (!Array.isArray(calls)) return false;
      for (let c = 0; c < calls.length; c++) {
        const call: unknown = calls[c];
        if (!isObject(call) || typeof call.name !== 'string' || !nullishString(call.id) || !nullishString(call.requestor)) return false;
      }
    }
  }
  return true;
}

/** A τ² message's calls in an exact-size array (no closure and no second array per message). */
function tau2CallsOf(listed: z.infer<typeof tau2Message>['tool_calls']): ToolCall[] {
  if (!listed?.length) return NO_TOOL_CALLS;
  const calls = new Array<ToolCall>(listed.length);
  for (let i = 0; i < listed.length; i++) calls[i] = toolCallFromRaw(listed[i].name, listed[i].arguments, listed[i].id ?? undefined);
  return calls;
}

function tau2Messages(raw: z.infer<typeof tau2Message>[]): Message[] {
  const messages = raw.map((m, position): Message => {
    const message: Message = {
      position,
      role: m.role,
      content: m.content ?? '',
      toolCalls: tau2CallsOf(m.tool_calls),
    };
    if (m.role === 'tool') {
      if (m.id) message.toolCallId = m.id;
      if (m.error) message.isError = true;
      if (m.requestor === 'user') message.agent = 'user';
    }
    return message;
  });
  linkToolReturns(messages);
  // The simulated user calls tools of its own (τ² telecom); those returns answer no agent step.
  for (let i = 0; i < messages.length; i++) if (messages[i].role === 'tool' && messages[i].agent === 'user') delete messages[i].issuedBy;
  return messages;
}

function goldOf(task: unknown): string | undefined {
  if (!isObject(task)) return undefined;
  const outputs = Array.isArray(task.outputs)
    ? task.outputs
    : isObject(task.evaluation_criteria) && Array.isArray(task.evaluation_criteria.communicate_info)
      ? task.evaluation_criteria.communicate_info
      : [];
  const texts = outputs.filter((o): o is string => typeof o === 'string' && o.trim() !== '');
  return texts.length ? texts.join('; ') : undefined;
}

function instructionOf(task: unknown): unknown {
  if (!isObject(task)) return undefined;
  if (typeof task.instruction === 'string') return task.instruction;
  return isObject(task.user_scenario) ? task.user_scenario.instructions : undefined;
}

/** The conversation's first user words (a τ² user may open with a tool call of its own). */
function firstUserText(messages: Message[]): string | undefined {
  return messages.find((m) => m.role === 'user' && m.content.trim() !== '')?.content;
}

/**
 * A copy of `obj` without `left` (as `{ [left]: _, ...rest }` reads it, `__proto__` included as a
 * field), made in one object: the rest and then a spread of it were two copies per record.
 */
function fieldsBut(obj: Obj, left: string): Obj {
  const out: Obj = {};
  for (const key of Object.keys(obj)) {
    if (key === left) continue;
    if (key === '__proto__') Object.defineProperty(out, key, { value: obj[key], enumerable: true, writable: true, configurable: true });
    else out[key] = obj[key];
  }
  return out;
}

/** `tau-bench`: one τ-bench result or one τ²-bench simulation. */
export function loadTau(value: unknown, source: SourceText, id: string): Trajectory {
  const obj = isObject(value) ? value : {};
  const at = (...path: (string | number)[]) => ({ ...source, basePath: [...(source.basePath ?? []), ...path] });
  if (isTau2Simulation(obj) || (!Array.isArray(obj.traj) && Array.isArray(obj.messages))) {
    const raw = plainTau2Messages(obj.messages)
      ? obj.messages
      : checkSchema(z.array(tau2Message), obj.messages, at('messages'), 'τ²-bench simulation messages');
    const messages = tau2Messages(raw);
    const rewardInfo = isObject(obj.reward_info) ? obj.reward_info : {};
    const { messages: _messages, task, ...rest } = obj;
    const metadata: Obj = { ...rest, benchmark: 'tau2-bench' };
    if (instructionOf(task) !== undefined) metadata.instruction = instructionOf(task);
    if (isObject(task)) metadata.task = task;
    const outcome = outcomeOf(rewardInfo.reward, 'reward_info.reward');
    if (outcome) metadata.outcome = outcome;
    return finishTrajectory({
      format: 'tau-bench',
      id,
      messages,
      query: firstUserText(messages),
      goldAnswer: goldOf(task),
      inferPredictedAnswer: false,
      metadata,
    });
  }
  const parsed = plainOpenAiMessages(obj.traj) ? obj.traj : checkSchema(openAiMessagesSchema, obj.traj, at('traj'), 'τ-bench traj (OpenAI chat messages)');
  const messages = normalizeOpenAiMessages(parsed);
  const info = isObject(obj.info) ? obj.info : {};
  const metadata = fieldsBut(obj, 'traj');
  metadata.benchmark = 'tau-bench';
  const instruction = instructionOf(info.task);
  if (instruction !== undefined) metadata.instruction = instruction;
  const outcome = outcomeOf(obj.reward, 'reward');
  if (outcome) metadata.outcome = outcome;
  return finishTrajectory({
    format: 'tau-bench',
    id,
    messages,
    query: firstUserText(messages),
    goldAnswer: goldOf(info.task),
    inferPredictedAnswer: false,
    metadata,
  });
}

export const tauBenchReader: TrajectoryReader = {
  id: 'tau-bench',
  label: 'τ-bench / τ²-bench results',
  detect: detectTau,
  load: loadTau,
  split: splitTau,
};
