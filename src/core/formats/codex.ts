// `codex`: a Codex CLI rollout (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl). One file is one
// session; message i is line i. Two layouts: `{timestamp, type, payload}` lines (session_meta,
// response_item, event_msg, turn_context, compacted), and the legacy one (a session object line,
// then bare ResponseItems and `{record_type: "state"}` lines); also the `codex exec --json` event
// stream. The TypeScript CLI's `{session, items}` JSON is read as one value.
import { z } from 'zod';
import type { SourceText } from '../input/schemaCheck';
import type { Message, Trajectory } from '../model/trajectory';
import { isObject } from './fields';
import { finishTrajectory } from './finish';
import type { FormatMatch, LineReader, TrajectoryReader } from './registry';
import { addTo, firstFailing, linesThrough, refuseLine, shortText, typeOf } from './sessionLines';
import { linkToolReturns, NO_TOOL_CALLS, toolCallFromRaw } from './toolCalls';

type Obj = Record<string, unknown>;

const LINE_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
const ITEM_TYPES = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'local_shell_call',
  'custom_tool_call',
  'custom_tool_call_output',
  'web_search_call',
  'ghost_snapshot',
  'compaction',
  'other',
]);

const lineSchema = z.looseObject({
  type: z.string({ message: 'expected a line `type` (session_meta, response_item, event_msg, turn_context, compacted)' }),
  payload: z.looseObject({}, { message: 'expected a `payload` object' }),
});
const legacyLineSchema = z.looseObject({
  type: z.enum([...ITEM_TYPES] as [string, ...string[]], { message: 'expected a ResponseItem `type` (message, reasoning, function_call…)' }),
});
const messageItemSchema = z.looseObject({
  role: z.string({ message: 'expected the message role as a string' }),
  content: z.array(z.looseObject({ type: z.string({ message: 'expected a content item with a string "type"' }) }), {
    message: 'expected `content` as an array of {type, text} items',
  }),
});
const functionCallSchema = z.looseObject({
  name: z.string({ message: 'expected the function name as a string' }),
  call_id: z.string({ message: 'expected the `call_id` as a string' }).optional(),
});

/**
 * A rollout line; types added by later versions (with the line's `timestamp`) are read as notes.
 * The timestamp is looked at first: every line the CLI writes has one, and the type's look-up in
 * LINE_TYPES hashed each line's fresh type string (detect walks every line of every JSONL file).
 */
function isRolloutLine(value: unknown): boolean {
  return isObject(value) && typeof value.type === 'string' && isObject(value.payload) && (typeof value.timestamp === 'string' || LINE_TYPES.has(value.type));
}

/** The session object a legacy rollout starts with. */
function isLegacySession(value: unknown): boolean {
  return isObject(value) && typeof value.id === 'string' && typeof value.timestamp === 'string' && !('type' in value) && !('payload' in value);
}

function isLegacyLine(value: unknown): boolean {
  return isObject(value) && ((typeof value.type === 'string' && ITEM_TYPES.has(value.type)) || typeof value.record_type === 'string');
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  // Joined with `+`, not map and join: no array per item list, and a single item's text is itself, not a copy.
  let text = '';
  for (let i = 0; i < content.length; i++) {
    const c: unknown = content[i];
    text += (i ? '\n' : '') + (isObject(c) ? (typeof c.text === 'string' ? c.text : `[${String(c.type ?? 'item')}]`) : String(c));
  }
  return text;
}

/** Context the CLI injects as a user message (environment, AGENTS.md instructions): not the user's prompt. */
const INJECTED = /^\s*(<environment_context>|<user_instructions>|<INSTRUCTIONS>|# AGENTS\.md|<turn_aborted>|<user_shell_command>)/;

/** The index of the `"` closing the JSON string whose opening `"` is at `open`; -1 when it is not closed. */
function closingQuote(text: string, open: number): number {
  for (let quote = text.indexOf('"', open + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}

/** JSON's white space: space, tab, line feed, carriage return. */
function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** Where the string value of a `{"output"` object starts (its opening quote), or -1. */
function outputValueStart(text: string): number {
  let i = '{"output"'.length;
  while (isJsonSpace(text.charCodeAt(i))) i++;
  if (text[i] !== ':') return -1;
  i++;
  while (isJsonSpace(text.charCodeAt(i))) i++;
  return text[i] === '"' ? i : -1;
}

// What follows the output string in the compact JSON the CLI writes: the metadata with its exit
// code, ending the text. Checked in place (a sticky test allocates nothing); any other shape
// takes the full parse.
const JSON_NUMBER = '-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?';
const ZERO_EXIT_REST = new RegExp(`,"metadata":\\{"exit_code":0,"duration_seconds":${JSON_NUMBER}\\}\\}$`, 'y');
const NONZERO_EXIT_REST = new RegExp(`,"metadata":\\{"exit_code":-?[1-9]\\d*,"duration_seconds":${JSON_NUMBER}\\}\\}$`, 'y');

/** Whether `pattern` matches `text` from `at` to its end. */
function restIs(pattern: RegExp, text: string, at: number): boolean {
  pattern.lastIndex = at;
  return pattern.test(text);
}

/**
 * A shell tool's output is a JSON string `{output, metadata: {exit_code}}`: the output text, and
 * whether it failed. In the CLI's own compact form only the `output` string is decoded (parsing
 * the whole again built the object and its metadata per output); any other form is parsed whole.
 */
function toolOutput(output: unknown): { text: string; failed: boolean } {
  if (isObject(output)) {
    const failed = output.success === false;
    return { text: contentText(output.content ?? output.output ?? output), failed };
  }
  if (typeof output !== 'string') return { text: contentText(output), failed: false };
  if (output.startsWith('{"output"')) {
    try {
      const open = outputValueStart(output);
      const close = open === -1 ? -1 : closingQuote(output, open);
      if (close !== -1) {
        const failed = restIs(NONZERO_EXIT_REST, output, close + 1);
        if (failed || restIs(ZERO_EXIT_REST, output, close + 1)) return { text: JSON.parse(output.slice(open, close + 1)) as string, failed };
      }
      const parsed: unknown = JSON.parse(output);
      if (isObject(parsed) && typeof parsed.output === 'string') return { text: parsed.output, failed: exitFailed(parsed.metadata) };
    } catch {
      /* shown as written */
    }
  }
  return { text: output, failed: false };
}

function exitFailed(metadata: unknown): boolean {
  return isObject(metadata) && typeof metadata.exit_code === 'number' && metadata.exit_code !== 0;
}

/** Where an item sits, for the error of a wrong shape (built once per file, not per line). */
interface ItemPlace {
  source: SourceText;
  lineNumber?: number;
  /** `payload` for an item inside a rollout line. */
  basePath?: (string | number)[];
}

// Each message is built as one literal holding every field it gets (in the order the fields were
// always written): a field added after the literal costs the object a second allocation.
function readItem(item: Obj, position: number, place: ItemPlace): Message {
  const type = String(item.type);
  switch (type) {
    case 'message': {
      if (typeof item.role !== 'string' || !Array.isArray(item.content) || !item.content.every((c) => isObject(c) && typeof c.type === 'string'))
        refuseLine(messageItemSchema, item, place.source, place.lineNumber, 'a Codex message item; format codex', place.basePath);
      const role = item.role as string;
      const content = contentText(item.content);
      if (role === 'user')
        return INJECTED.test(content)
          ? { position, role: 'user', content, toolCalls: NO_TOOL_CALLS, agent: 'context' }
          : { position, role: 'user', content, toolCalls: NO_TOOL_CALLS };
      if (role === 'assistant') return { position, role: 'assistant', content, toolCalls: NO_TOOL_CALLS };
      return { position, role: 'system', content, toolCalls: NO_TOOL_CALLS, agent: role };
    }
    case 'reasoning': {
      const summary = Array.isArray(item.summary) ? contentText(item.summary) : '';
      const content = Array.isArray(item.content) ? contentText(item.content) : '';
      const text = summary.trim() && content.trim() ? summary + '\n' + content : summary.trim() ? summary : content.trim() ? content : '';
      return {
        position,
        role: 'assistant',
        content: '',
        toolCalls: NO_TOOL_CALLS,
        reasoning: text || (item.encrypted_content ? '[encrypted reasoning]' : '[reasoning]'),
      };
    }
    case 'function_call':
    case 'custom_tool_call': {
      if (typeof item.name !== 'string' || (item.call_id !== undefined && typeof item.call_id !== 'string'))
        refuseLine(functionCallSchema, item, place.source, place.lineNumber, 'a Codex function call; format codex', place.basePath);
      const callId = typeof item.call_id === 'string' ? item.call_id : undefined;
      // A custom tool (apply_patch) takes free text, not JSON: kept as its `input` argument.
      const args = type === 'custom_tool_call' ? { input: item.input } : item.arguments;
      // A one-element literal: push onto the empty list would reserve room for 17 calls.
      return { position, role: 'assistant', content: '', toolCalls: [toolCallFromRaw(item.name as string, args, callId)] };
    }
    case 'local_shell_call': {
      const callId = typeof item.call_id === 'string' ? item.call_id : typeof item.id === 'string' ? item.id : undefined;
      return { position, role: 'assistant', content: '', toolCalls: [toolCallFromRaw('local_shell', item.action ?? {}, callId)] };
    }
    case 'web_search_call':
      return {
        position,
        role: 'assistant',
        content: '',
        toolCalls: [toolCallFromRaw('web_search', item.action ?? {}, typeof item.id === 'string' ? item.id : undefined)],
      };
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const { text, failed } = toolOutput(item.output);
      // linkToolReturns sets `issuedBy` on every return: the literal holds it from the start.
      if (typeof item.call_id === 'string')
        return failed
          ? { position, role: 'tool', content: text, toolCalls: NO_TOOL_CALLS, toolCallId: item.call_id, isError: true, issuedBy: undefined }
          : { position, role: 'tool', content: text, toolCalls: NO_TOOL_CALLS, toolCallId: item.call_id, issuedBy: undefined };
      const message: Message = { position, role: 'tool', content: text, toolCalls: NO_TOOL_CALLS };
      if (failed) message.isError = true;
      return message;
    }
    default:
      return { position, role: 'system', content: `[${type}]`, toolCalls: NO_TOOL_CALLS, agent: type };
  }
}

/** The typed prompt a message item is: a user's message that is not injected context nor blank. */
function isPrompt(message: Message): boolean {
  return message.role === 'user' && message.agent === undefined && message.content.trim() !== '';
}

/** The payload keys an event's text is read from, first found first. */
const EVENT_TEXT_KEYS = ['message', 'text', 'aggregated_output', 'stdout', 'reason'];

/** The agent name a non-item rollout line is shown under. */
function entryAgent(type: string): string {
  if (type === 'event_msg') return 'event';
  if (type === 'session_meta') return 'session';
  if (type === 'turn_context') return 'turn-context';
  return type;
}

/**
 * The readable line of an event, turn context, session meta or compaction entry. An event
 * without text reads the same for every event of its kind: `labels` keeps one string per kind
 * (a long session has thousands of token_count events).
 */
function entryText(type: string, payload: Obj, labels: Map<string, string>): string {
  if (type === 'event_msg') {
    const kind = typeof payload.type === 'string' ? payload.type : 'event';
    let text: string | undefined;
    for (let k = 0; k < EVENT_TEXT_KEYS.length && text === undefined; k++) {
      const v = payload[EVENT_TEXT_KEYS[k]];
      if (typeof v === 'string') text = v;
    }
    if (text) return `[event ${kind}] ${shortText(text)}`;
    let label = labels.get(kind);
    if (label === undefined) labels.set(kind, (label = `[event ${kind}]`));
    return label;
  }
  if (type === 'session_meta') {
    const parts = ['id', 'cwd', 'cli_version', 'originator'].filter((k) => typeof payload[k] === 'string').map((k) => `${k} ${String(payload[k])}`);
    return `[session] ${parts.join(', ')}`;
  }
  if (type === 'turn_context') {
    const parts = ['model', 'cwd', 'approval_policy', 'effort'].filter((k) => typeof payload[k] === 'string').map((k) => `${k} ${String(payload[k])}`);
    return `[turn context] ${parts.join(', ')}`;
  }
  if (type === 'compacted') return `[compacted] ${shortText(contentText(payload.message))}`;
  return `[${type}]`;
}

type Loaded = { id: string; trajectory: Trajectory; line: number }[];

function finish(messages: Message[], metadata: Obj, query: string | undefined, id: string, line: number): Loaded {
  linkToolReturns(messages);
  const trajectory = finishTrajectory({ format: 'codex', id, messages, metadata, ...(query !== undefined ? { query } : {}) });
  // The query is the first typed prompt; injected environment context never stands in for it.
  if (query === undefined) delete trajectory.query;
  return [{ id, trajectory, line }];
}

/** Reads a Codex JSONL session line by line: a rollout (either layout) or a `codex exec --json` stream, told by its first line. */
export function codexLineReader(source: SourceText): LineReader {
  let reader: LineReader | undefined;
  return {
    read(value, lineNumber) {
      reader ??= isExecEvent(value) ? execLineReader(source) : rolloutLineReader(source, isLegacySession(value));
      reader.read(value, lineNumber);
    },
    finish: () => (reader ?? rolloutLineReader(source, false)).finish(),
  };
}

export function loadCodexLines(values: unknown[], lineNumbers: number[], source: SourceText): Loaded {
  return linesThrough(codexLineReader(source), values, lineNumbers);
}

function rolloutLineReader(source: SourceText, legacy: boolean): LineReader {
  const messages: Message[] = [];
  let firstLine: number | undefined;
  const metadata: Obj = {};
  const models = new Set<string>();
  let query: string | undefined;
  let sessionId: string | undefined;
  const itemPath = legacy ? undefined : ['payload'];
  const place: ItemPlace = { source, basePath: itemPath };
  const labels = new Map<string, string>();
  const readLine = (value: unknown, position: number, lineNumber: number): Message => {
    const line = isObject(value) ? value : {};
    let item: Obj | undefined;
    if (legacy) {
      if (position === 0) {
        sessionId = line.id as string;
        for (const key of ['timestamp', 'instructions', 'git']) if (line[key] !== undefined && line[key] !== null) metadata[key] = line[key];
        return { position, role: 'system', agent: 'session', content: `[session] id ${sessionId}`, toolCalls: NO_TOOL_CALLS };
      }
      if (typeof line.record_type === 'string')
        return { position, role: 'system', agent: line.record_type, content: `[${line.record_type}]`, toolCalls: NO_TOOL_CALLS };
      if (!isLegacyLine(value))
        refuseLine(legacyLineSchema, value, source, lineNumber, 'a legacy Codex rollout line, a ResponseItem or a state line; format codex');
      item = line;
    } else {
      if (!isRolloutLine(value)) refuseLine(lineSchema, value, source, lineNumber, 'a Codex rollout line; format codex');
      const payload = line.payload as Obj;
      if (line.type === 'response_item') item = payload;
      else {
        const type = line.type as string;
        if (type === 'session_meta') {
          const meta = isObject(payload.meta) ? payload.meta : payload; // newer versions nest it under `meta`
          if (typeof meta.id === 'string') sessionId ??= meta.id;
          for (const key of ['cwd', 'cli_version', 'originator', 'instructions', 'model_provider', 'source'])
            if (meta[key] !== undefined && meta[key] !== null) metadata[key] ??= meta[key];
          if (isObject(payload.git)) metadata.git = payload.git;
          else if (isObject(meta.git)) metadata.git = meta.git;
        } else if (type === 'turn_context' && typeof payload.model === 'string') models.add(payload.model);
        else if (type === 'event_msg' && payload.type === 'token_count' && isObject(payload.info)) {
          // token_count events carry running totals: the last one is the session's.
          if (isObject(payload.info.total_token_usage)) metadata.tokenUsage = payload.info.total_token_usage;
        }
        const content = entryText(type, type === 'session_meta' && isObject(payload.meta) ? payload.meta : payload, labels);
        return { position, role: 'system', agent: entryAgent(type), content, toolCalls: NO_TOOL_CALLS };
      }
    }
    if (typeof item.type !== 'string') refuseLine(lineSchema.pick({ type: true }), item, source, lineNumber, 'a Codex response item; format codex', itemPath);
    place.lineNumber = lineNumber;
    const message = readItem(item, position, place);
    if (query === undefined && isPrompt(message)) query = message.content;
    return message;
  };
  return {
    read(value, lineNumber) {
      firstLine ??= lineNumber;
      messages.push(readLine(value, messages.length, lineNumber));
    },
    finish() {
      if (models.size) metadata.model = [...models].join(', ');
      if (sessionId !== undefined) metadata.sessionId = sessionId;
      // One file is one trajectory: its record id is "0" as for any single-trajectory file.
      return finish(messages, metadata, query, '0', firstLine ?? 1);
    },
  };
}

// `codex exec --json` output: thread events `{type: thread.started | turn.started | turn.completed |
// turn.failed | item.started | item.updated | item.completed | error}`, items {id, type (item_type
// in the first version), …}: agent_message, reasoning, command_execution, file_change,
// mcp_tool_call, web_search, todo_list, error.
const EXEC_EVENTS = new Set(['thread.started', 'turn.started', 'turn.completed', 'turn.failed', 'item.started', 'item.updated', 'item.completed', 'error']);
const TOOL_ITEMS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'web_search']);
const execEventSchema = z.looseObject({
  type: z.enum([...EXEC_EVENTS] as [string, ...string[]], { message: 'expected an event `type` (thread.started, turn.*, item.*, error)' }),
});
const execItemSchema = z.looseObject({
  item: z.looseObject({ id: z.string({ message: 'expected the item `id` as a string' }), type: z.string({ message: 'expected the item `type` as a string' }) }),
});

function isExecEvent(value: unknown): boolean {
  return isObject(value) && typeof value.type === 'string' && EXEC_EVENTS.has(value.type) && !('payload' in value);
}

function execItemType(item: Obj): string {
  const type = typeof item.type === 'string' ? item.type : String(item.item_type);
  return type === 'assistant_message' ? 'agent_message' : type;
}

/** The call an exec tool item stands for: its tool name and arguments. */
function execCall(item: Obj, type: string): { name: string; args: unknown } {
  if (type === 'command_execution') return { name: 'shell', args: { command: item.command } };
  if (type === 'web_search') return { name: 'web_search', args: { query: item.query } };
  if (type === 'file_change') return { name: 'apply_patch', args: { changes: item.changes } };
  return { name: [item.server, item.tool].filter((p) => typeof p === 'string').join('.') || 'mcp_tool', args: item.arguments ?? {} };
}

function execOutput(item: Obj, type: string): { text: string; failed: boolean } {
  const failed = item.status === 'failed' || item.status === 'declined' || (typeof item.exit_code === 'number' && item.exit_code !== 0) || isObject(item.error);
  if (type === 'command_execution') return { text: typeof item.aggregated_output === 'string' ? item.aggregated_output : '', failed };
  if (type === 'file_change')
    return {
      text: (Array.isArray(item.changes) ? item.changes : []).map((c) => (isObject(c) ? `${String(c.kind)} ${String(c.path)}` : String(c))).join('\n'),
      failed,
    };
  if (isObject(item.error)) return { text: `Error: ${String(item.error.message ?? '')}`, failed };
  return { text: item.result === undefined || item.result === null ? '' : contentText(isObject(item.result) ? item.result.content : item.result), failed };
}

function execLineReader(source: SourceText): LineReader {
  const messages: Message[] = [];
  let firstLine: number | undefined;
  const started = new Set<string>();
  const metadata: Obj = {};
  const usage: Record<string, number> = {};
  const readLine = (value: unknown, position: number, lineNumber: number): Message => {
    // Every line is an event (detection saw to it for the lines it looked at).
    if (!isExecEvent(value)) refuseLine(execEventSchema, value, source, lineNumber, 'a codex exec --json event; format codex');
    const line = isObject(value) ? value : {};
    const event = typeof line.type === 'string' ? line.type : 'entry';
    if (event === 'item.started' || event === 'item.updated' || event === 'item.completed') {
      const item = isObject(line.item) ? line.item : undefined;
      if (!item || typeof item.id !== 'string' || (typeof item.type !== 'string' && typeof item.item_type !== 'string'))
        refuseLine(execItemSchema, value, source, lineNumber, 'a codex exec --json item event; format codex');
      const type = execItemType(item);
      const message: Message = { position, role: 'system', agent: type, content: '', toolCalls: NO_TOOL_CALLS };
      if (event === 'item.updated') {
        message.content = `[${type} update]`;
        return message;
      }
      if (TOOL_ITEMS.has(type)) {
        const { name, args } = execCall(item, type);
        const output = execOutput(item, type);
        // Started, then completed: the call, then its return; completed alone: the call with its output.
        if (event === 'item.completed' && started.has(item.id)) {
          message.role = 'tool';
          message.toolCallId = item.id;
          message.content = output.text;
        } else {
          message.role = 'assistant';
          message.toolCalls = [toolCallFromRaw(name, args, item.id)];
          if (event === 'item.started') started.add(item.id);
          else message.content = output.text;
        }
        if (event === 'item.completed' && output.failed) message.isError = true;
        delete message.agent;
        return message;
      }
      if (type === 'agent_message' || type === 'reasoning') {
        message.role = 'assistant';
        delete message.agent;
        const text = typeof item.text === 'string' ? item.text : '';
        if (type === 'reasoning') message.reasoning = text;
        else message.content = text;
        return message;
      }
      if (type === 'error') message.isError = true;
      const text =
        type === 'todo_list' && Array.isArray(item.items)
          ? item.items.map((t) => (isObject(t) ? `${t.completed ? '[x]' : '[ ]'} ${String(t.text)}` : '')).join('\n')
          : contentText(item.message ?? item.text ?? '');
      message.content = `[${type}] ${text}`.trim();
      return message;
    }
    const message: Message = { position, role: 'system', agent: event, content: `[${event}]`, toolCalls: NO_TOOL_CALLS };
    if (event === 'thread.started' && typeof line.thread_id === 'string') {
      metadata.threadId ??= line.thread_id;
      message.content = `[thread started] ${line.thread_id}`;
    } else if (event === 'turn.completed' && isObject(line.usage)) {
      for (const key of Object.keys(line.usage)) addTo(usage, key, line.usage[key]);
    } else if (event === 'turn.failed' || event === 'error') {
      message.isError = true;
      const error = isObject(line.error) ? line.error.message : line.message;
      if (typeof error === 'string') message.content = `[${event}] ${error}`;
    }
    return message;
  };
  return {
    read(value, lineNumber) {
      firstLine ??= lineNumber;
      messages.push(readLine(value, messages.length, lineNumber));
    },
    finish() {
      if (Object.keys(usage).length) metadata.usage = usage;
      metadata.layout = 'codex exec --json';
      return finish(messages, metadata, undefined, '0', firstLine ?? 1);
    },
  };
}

function detectCodexLines(values: unknown[]): FormatMatch | undefined {
  if (values.length === 0) return undefined;
  if (isExecEvent(values[0])) {
    const reason = 'JSONL events `thread.started`/`turn.*`/`item.*` (codex exec --json)';
    const foreign = firstFailing(values, isExecEvent);
    if (foreign !== -1) return { score: 0.4, reason, missing: [`a codex exec event {type: thread.started/turn.*/item.*/error} on JSON line ${foreign + 1}`] };
    if (!values.some((v) => typeOf(v) === 'item.completed')) return { score: 0.4, reason, missing: ['`item.completed` events'] };
    return { score: 0.9, reason };
  }
  if (isLegacySession(values[0])) {
    const rest = values.slice(1);
    if (rest.length === 0 || !rest.some(isLegacyLine)) return undefined;
    const foreign = firstFailing(rest, isLegacyLine);
    const reason = 'a session line `{id, timestamp}` then ResponseItem lines (legacy Codex CLI rollout)';
    if (foreign !== -1)
      return { score: 0.4, reason, missing: [`a ResponseItem (type message/reasoning/function_call…) or state line on JSON line ${foreign + 2}`] };
    return { score: 0.85, reason };
  }
  // One pass over the lines (every detect runs on every JSONL file): the first foreign line, and
  // whether response_item and session_meta lines occur. A foreign line needs no more than that:
  // a rollout line anywhere makes it a near miss, none makes it not Codex's.
  let foreign = -1;
  let responseItems = false;
  let sessionMeta = false;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (!isRolloutLine(value)) {
      foreign = i;
      break;
    }
    const type = (value as Obj).type;
    if (type === 'response_item') responseItems = true;
    else if (type === 'session_meta') sessionMeta = true;
  }
  if (foreign === 0 && !values.some(isRolloutLine)) return undefined;
  const reason = 'JSONL lines `{timestamp, type, payload}` with `session_meta`/`response_item` (Codex CLI rollout)';
  if (foreign !== -1)
    return {
      score: 0.4,
      reason,
      missing: [`the rollout line shape {timestamp, type: session_meta/response_item/event_msg/turn_context/compacted, payload} on JSON line ${foreign + 1}`],
    };
  if (!responseItems) return { score: 0.4, reason, missing: ['`response_item` lines'] };
  return { score: sessionMeta ? 0.95 : 0.9, reason };
}

/** The TypeScript CLI's rollout: one JSON object `{session: {id, timestamp, instructions}, items: [ResponseItem]}`. */
function loadCodexJson(value: unknown, source: SourceText, id: string): Trajectory {
  const obj = isObject(value) ? value : {};
  const session = isObject(obj.session) ? obj.session : {};
  const items = Array.isArray(obj.items) ? obj.items : [];
  const messages: Message[] = [];
  let query: string | undefined;
  items.forEach((item, position) => {
    const at = { ...source, basePath: [...(source.basePath ?? []), 'items', position] };
    if (!isObject(item) || typeof item.type !== 'string')
      refuseLine(lineSchema.pick({ type: true }), item, at, undefined, 'a Codex response item; format codex');
    const message = readItem(item as Obj, position, { source: at });
    if (query === undefined && isPrompt(message)) query = message.content;
    messages.push(message);
  });
  const metadata: Obj = { ...session };
  const [record] = finish(messages, metadata, query, id, 1);
  return record.trajectory;
}

export const codexReader: TrajectoryReader = {
  id: 'codex',
  label: 'Codex CLI rollout',
  detect(value) {
    if (!isObject(value) || !isObject(value.session) || !Array.isArray(value.items)) return undefined;
    const reason = 'an object with `session` and `items` of ResponseItems (Codex CLI rollout JSON)';
    const foreign = firstFailing(value.items, isLegacyLine);
    if (foreign !== -1) return { score: 0.4, reason, missing: [`items[${foreign}] with a ResponseItem \`type\``] };
    return { score: 0.85, reason };
  },
  load(value, source, id) {
    if (Array.isArray(value)) {
      const first = (source.lineOffset ?? 0) + 1;
      // A copy: the lines reader drops each entry it has read, and this list is the caller's value.
      const [record] = loadCodexLines(
        value.slice(),
        value.map((_, i) => first + i),
        source,
      );
      return { ...record.trajectory, id };
    }
    return loadCodexJson(value, source, id);
  },
  detectLines: detectCodexLines,
  lineReader: codexLineReader,
  loadLines: loadCodexLines,
};
