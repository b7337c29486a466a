// OpenHands event streams and evaluation `output.jsonl` records (docs/formats.md §1). Message i
// is event i (or, in the older evaluation histories, the i-th [action, observation] pair).
import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, Trajectory } from '../model/trajectory';
import { isObject, pickString, remainingFields } from './fields';
import { finishTrajectory } from './finish';
import type { FormatMatch, TrajectoryReader } from './registry';
import { checkedList, type Outcome } from './sweAgent';
import { linkToolReturns, NO_TOOL_CALLS, toolCallFromRaw } from './toolCalls';

type Obj = Record<string, unknown>;

const event = z
  .looseObject({
    id: z.number().nullish(),
    source: z.string({ message: 'expected `source` agent, user or environment' }).nullish(),
    action: z.string().nullish(),
    observation: z.string().nullish(),
    args: z.looseObject({}, { message: 'expected the action’s `args` as an object' }).nullish(),
    content: z.string({ message: 'expected the observation’s `content` as a string' }).nullish(),
    extras: z.looseObject({}).nullish(),
    message: z.string().nullish(),
    cause: z.number().nullish(),
    tool_call_metadata: z.looseObject({ function_name: z.string().nullish(), tool_call_id: z.string().nullish() }).nullish(),
  })
  .refine((e) => typeof e.action === 'string' || typeof e.observation === 'string', { message: 'expected an OpenHands event with `action` or `observation`' });
type OpenHandsEvent = z.infer<typeof event>;
const pair = z.tuple([event, event], { message: 'expected an [action, observation] pair' });

const nullish = (v: unknown, type: 'string' | 'number') => v === undefined || v === null || typeof v === type;
const nullishObject = (v: unknown) => v === undefined || v === null || isObject(v);

/** What `event` accepts, checked without copying (see checkedList). */
function isValidEvent(v: unknown): boolean {
  if (!isObject(v) || (typeof v.action !== 'string' && typeof v.observation !== 'string')) return false;
  const metadata = v.tool_call_metadata;
  return (
    nullish(v.id, 'number') &&
    nullish(v.source, 'string') &&
    nullish(v.action, 'string') &&
    nullish(v.observation, 'string') &&
    nullishObject(v.args) &&
    nullish(v.content, 'string') &&
    nullishObject(v.extras) &&
    nullish(v.message, 'string') &&
    nullish(v.cause, 'number') &&
    (metadata === undefined ||
      metadata === null ||
      (isObject(metadata) && nullish(metadata.function_name, 'string') && nullish(metadata.tool_call_id, 'string')))
  );
}

const isValidPair = (v: unknown) => Array.isArray(v) && v.length === 2 && isValidEvent(v[0]) && isValidEvent(v[1]);

/** Agent actions that change the controller's state rather than act: kept as system messages. */
const STATE_ACTIONS = new Set(['change_agent_state', 'null', 'pause', 'resume', 'stop', 'condensation', 'condensation_request', 'loop_recovery', 'start']);

/** An action of the agent that is a tool call (everything but messages, the system prompt and state changes). */
function isToolAction(e: OpenHandsEvent): boolean {
  return typeof e.action === 'string' && (e.source ?? 'agent') === 'agent' && e.action !== 'message' && e.action !== 'system' && !STATE_ACTIONS.has(e.action);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The finish action's answer: its final thought, else an output it names, else its thought. */
function finishAnswer(args: Obj): string | undefined {
  const outputs = isObject(args.outputs) ? args.outputs : {};
  return text(args.final_thought) ?? pickString(outputs, ['content', 'answer', 'solution']) ?? text(args.thought) ?? text(args.message);
}

function finishAnswerOf(e: OpenHandsEvent): string | undefined {
  return finishAnswer(fieldsOf(e, 'args')) ?? text(e.message);
}

/** The keys of an event that are not the action's arguments or the observation's extras. */
const EVENT_KEYS = new Set([
  'id',
  'timestamp',
  'source',
  'message',
  'cause',
  'action',
  'observation',
  'tool_call_metadata',
  'llm_metrics',
  'timeout',
  'content',
  'extras',
  'args',
  'success',
]);

/** `args` (or `extras`), or for the flat 2024 events every field that is not an event key. */
function fieldsOf(e: OpenHandsEvent, key: 'args' | 'extras'): Obj {
  const given = e[key];
  if (given) return given;
  const out: Obj = {};
  for (const [k, v] of Object.entries(e)) if (!EVENT_KEYS.has(k)) out[k] = v;
  return out;
}

/** One action event as a message (`source` missing, as in the flat histories, means the agent). */
function actionMessage(e: OpenHandsEvent, position: number, callId: string): Message {
  const args = fieldsOf(e, 'args');
  const source = e.source ?? 'agent';
  const action = e.action as string;
  if (action === 'system') return { position, role: 'system', content: text(args.content) ?? e.message ?? '', toolCalls: NO_TOOL_CALLS };
  if (action === 'message') {
    const content = typeof args.content === 'string' ? args.content : (e.message ?? '');
    if (source === 'user') return { position, role: 'user', content, toolCalls: NO_TOOL_CALLS };
    return { position, role: source === 'agent' ? 'assistant' : 'system', content, toolCalls: NO_TOOL_CALLS };
  }
  if (!isToolAction(e)) return { position, role: 'system', content: e.message ?? `${source} ${action}`, toolCalls: NO_TOOL_CALLS };
  const { thought, ...callArgs } = args;
  const message: Message = {
    position,
    role: 'assistant',
    content: text(thought) ?? e.message ?? '',
    toolCalls: [toolCallFromRaw(action, callArgs, callId)],
  };
  if (action === 'finish') {
    const answer = finishAnswerOf(e);
    if (answer !== undefined) message.answer = answer;
  }
  return message;
}

function isErrorObservation(e: OpenHandsEvent): boolean {
  if (e.observation === 'error') return true;
  const extras = fieldsOf(e, 'extras');
  const exitCode = isObject(extras.metadata) ? extras.metadata.exit_code : extras.exit_code;
  return typeof exitCode === 'number' && exitCode > 0;
}

function eventMessages(events: OpenHandsEvent[]): Message[] {
  // Call ids are made only for the tool actions that need one, not kept in a list for every event.
  const callIdAt = (i: number) => events[i].tool_call_metadata?.tool_call_id ?? `openhands-event-${events[i].id ?? i}`;
  // Event ids are usually the events' indexes; then the event a `cause` names is found at its
  // index, and a map of every tool action's id (a Map per record) is built only when they are not.
  let idsAreIndexes = true;
  for (let i = 0; i < events.length && idsAreIndexes; i++) idsAreIndexes = events[i].id === i || events[i].id == null;
  let callIdOfEvent: Map<number, string> | undefined;
  if (!idsAreIndexes) {
    callIdOfEvent = new Map();
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      if (isToolAction(e) && typeof e.id === 'number') callIdOfEvent.set(e.id, callIdAt(i));
    }
  }
  const callIdOfCause = (cause: number): string | undefined => {
    if (callIdOfEvent) return callIdOfEvent.get(cause);
    const e = events[cause];
    return e !== undefined && e.id === cause && isToolAction(e) ? callIdAt(cause) : undefined;
  };
  let actedYet = false;
  const messages = events.map((e, position): Message => {
    if (typeof e.action === 'string') {
      const message = actionMessage(e, position, isToolAction(e) ? callIdAt(position) : '');
      // Flat histories have no `source`: their first message, before the agent acts, is the task.
      if (e.source == null && e.action === 'message' && !actedYet) message.role = 'user';
      actedYet ||= isToolAction(e);
      return message;
    }
    // An observation answers the action named by `cause` (or by its tool call id; in the flat
    // histories, the tool action just before it); one that answers no agent action
    // (agent_state_changed, a recall for the user's message) is system.
    const previous = events[position - 1];
    const flat = e.source == null && e.id == null;
    const answersPrevious = flat && e.cause == null && previous !== undefined && isToolAction(previous);
    const answered =
      (typeof e.cause === 'number' ? callIdOfCause(e.cause) : undefined) ??
      e.tool_call_metadata?.tool_call_id ??
      (answersPrevious ? callIdAt(position - 1) : undefined);
    const content = e.content ?? e.message ?? '';
    if (answered === undefined)
      return { position, role: 'system', content: content || `${e.source ?? 'environment'} ${e.observation}`, toolCalls: NO_TOOL_CALLS };
    // Made with every field it ends with (`issuedBy` is set on every return by linkToolReturns): a
    // field added to a made object costs it a second block for its fields, ~40 bytes a return.
    return isErrorObservation(e)
      ? { position, role: 'tool', content, toolCalls: NO_TOOL_CALLS, toolCallId: answered, isError: true, issuedBy: undefined }
      : { position, role: 'tool', content, toolCalls: NO_TOOL_CALLS, toolCallId: answered, issuedBy: undefined };
  });
  linkToolReturns(messages);
  return messages;
}

/**
 * The older evaluation histories store [action, observation] pairs. A pair is one source entry,
 * so it is one message: the action's message (a decision step when the agent acted), its content
 * followed by the observation's.
 */
function pairMessages(pairs: [OpenHandsEvent, OpenHandsEvent][]): Message[] {
  return pairs.map(([action, observation], position): Message => {
    const message =
      typeof action.action === 'string'
        ? actionMessage(action, position, action.tool_call_metadata?.tool_call_id ?? `openhands-event-${action.id ?? position}`)
        : { position, role: 'system' as const, content: '', toolCalls: NO_TOOL_CALLS };
    const observed = observation.observation && observation.observation !== 'null' ? (observation.content ?? '') : '';
    if (observed) message.content = `${message.content}${message.content ? '\n\n' : ''}Observation (${observation.observation}):\n${observed}`;
    if (!message.content && action.action === 'null') message.content = `${observation.source ?? 'environment'} ${observation.observation}`;
    if (isErrorObservation(observation) && message.role === 'assistant') message.isError = true;
    return message;
  });
}

/** The outcome an evaluation recorded: SWE-bench's `report.resolved`, else a `resolved`, `success` or `score`. */
function testOutcome(testResult: unknown): Outcome | undefined {
  if (!isObject(testResult)) return undefined;
  const report = isObject(testResult.report) ? testResult.report : undefined;
  if (typeof report?.resolved === 'boolean') return { success: report.resolved, score: report.resolved ? 1 : 0, source: 'test_result.report.resolved' };
  for (const key of ['resolved', 'success', 'correct', 'score']) {
    const v = testResult[key];
    if (typeof v === 'boolean') return { success: v, score: v ? 1 : 0, source: `test_result.${key}` };
    if (typeof v === 'number' && Number.isFinite(v)) return { success: key === 'score' ? null : v > 0, score: v, source: `test_result.${key}` };
  }
  return undefined;
}

type Located = { list: unknown; key: string | undefined };

const EVENT_LIST = z.array(z.unknown(), { message: 'expected a list of OpenHands events' });

function eventListOf(value: unknown): Located {
  if (Array.isArray(value)) return { list: value, key: undefined };
  if (isObject(value)) {
    if (Array.isArray(value.history)) return { list: value.history, key: 'history' };
    if (Array.isArray(value.trajectory)) return { list: value.trajectory, key: 'trajectory' };
  }
  return { list: undefined, key: 'history' };
}

export function loadOpenHands(value: unknown, source: SourceText, id: string): Trajectory {
  const obj = isObject(value) ? value : {};
  const { list, key } = eventListOf(value);
  const base = [...(source.basePath ?? []), ...(key ? [key] : [])];
  // zod only for what is not a list, for its message: building and running the schema per record cost more than reading a short history.
  const entries = Array.isArray(list) ? (list as unknown[]) : checkSchema(EVENT_LIST, list, { ...source, basePath: base }, 'an OpenHands event list');
  const pairs = entries.length > 0 && Array.isArray(entries[0]);
  const messages = pairs
    ? pairMessages(checkedList(pair, entries, isValidPair, { ...source, basePath: base }, 'an OpenHands history pair'))
    : eventMessages(checkedList(event, entries, isValidEvent, { ...source, basePath: base }, 'an OpenHands event'));
  const metadata: Obj = key ? remainingFields(obj, [key]) : {};
  if (pairs) metadata.historyShape = 'pairs of [action, observation]: one message per pair, the observation after the action';
  // The resolver's output records `success` beside the history instead of a test_result.
  const outcome =
    testOutcome(obj.test_result) ?? (typeof obj.success === 'boolean' ? { success: obj.success, score: obj.success ? 1 : 0, source: 'success' } : undefined);
  if (outcome) metadata.outcome = outcome;
  let finish: Message | undefined;
  for (let i = messages.length - 1; i >= 0 && !finish; i--) if (messages[i].toolCalls.some((c) => c.name === 'finish')) finish = messages[i];
  const testResult = isObject(obj.test_result) ? obj.test_result : {};
  return finishTrajectory({
    format: 'openhands',
    id,
    messages,
    query: pickString(obj, ['instruction']),
    predictedAnswer: finish?.answer ?? pickString(testResult, ['model_answer', 'git_patch']) ?? pickString(obj, ['git_patch']),
    metadata,
  });
}

/**
 * An OpenHands event: an action type name, or an observation type with its `content`/`extras`/
 * `cause`. Histories of 2024 write the fields flat (`{action: "run", command, thought}`).
 */
const EVENT_TYPE_NAME = /^[a-z_]+$/;
const typeName = (v: unknown) => typeof v === 'string' && EVENT_TYPE_NAME.test(v);

function isEvent(value: unknown): boolean {
  if (!isObject(value)) return false;
  // An event is an action or an observation, never both (a SWE-agent step has both).
  if (typeName(value.action)) return !('observation' in value);
  if (typeName(value.observation)) return !('action' in value) && ('extras' in value || 'cause' in value || typeof value.content === 'string');
  return false;
}

function isEntry(value: unknown): boolean {
  return isEvent(value) || (Array.isArray(value) && value.length === 2 && value.every(isEvent));
}

const EVAL_FIELDS = ['instance_id', 'instruction', 'test_result', 'metrics', 'error', 'instance'];

function listMatch(list: unknown[], where: string, evalFields: string[]): FormatMatch | undefined {
  if (list.length === 0 || !isEntry(list[0])) return undefined;
  const bad = list.findIndex((e) => !isEntry(e));
  if (bad !== -1) return { score: 0.4, reason: `${where} of OpenHands events`, missing: [`\`action\` or \`observation\` in entry ${bad}`] };
  const shape = Array.isArray(list[0]) ? '[action, observation] pairs' : 'OpenHands events (`action`/`observation`)';
  const fields = evalFields.length ? ` and ${evalFields.map((k) => '`' + k + '`').join(', ')} (OpenHands evaluation output)` : '';
  return { score: evalFields.length ? 0.95 : 0.9, reason: `${where} of ${shape}${fields}` };
}

export const openHandsReader: TrajectoryReader = {
  id: 'openhands',
  label: 'OpenHands events',
  detect(value): FormatMatch | undefined {
    if (Array.isArray(value)) return listMatch(value, 'a JSON array', []);
    if (!isObject(value)) return undefined;
    const evalFields = EVAL_FIELDS.filter((k) => k in value);
    const { list, key } = eventListOf(value);
    if (Array.isArray(list) && list.length > 0) return listMatch(list, `an object with \`${key}\``, evalFields);
    // A run that failed before its first event still records an (empty) history.
    if (Array.isArray(value.history) && 'instance_id' in value && 'test_result' in value)
      return { score: 0.9, reason: 'an object with an empty `history`, `instance_id` and `test_result` (OpenHands evaluation output)' };
    if ('instance_id' in value && 'test_result' in value)
      return { score: 0.45, reason: 'an object with `instance_id` and `test_result` (OpenHands evaluation output)', missing: ['`history` (the event list)'] };
    return undefined;
  },
  load: loadOpenHands,
};
