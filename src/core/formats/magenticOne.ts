import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, Trajectory } from '../model/trajectory';
import { isObject } from './fields';
import { finalAnswerLineOf, finishTrajectory } from './finish';
import { refuseLine } from './sessionLines';
import type { FormatMatch, TrajectoryReader } from './registry';
import { linkToolReturns, NO_TOOL_CALLS, toolCallFromRaw } from './toolCalls';

// Magentic-One logs (microsoft/autogen): a bare array of `{role, content}` whose roles are agent
// names — `Orchestrator`, `WebSurfer`, `FileSurfer`, `Coder`, `ComputerTerminal`, or the
// orchestrator's `Orchestrator (thought)` / `Orchestrator (-> WebSurfer)` — the task from `human`
// or `user`. AgentChat's MagenticOneGroupChat writes `{source, type, content}` messages instead:
// TextMessage, ToolCallRequestEvent (content: [{id, name, arguments}]), ToolCallExecutionEvent
// (content: [{call_id, content, is_error}]), ToolCallSummaryMessage, ThoughtEvent, StopMessage…

const MAGENTIC_AGENTS = /^(Orchestrator|MagenticOneOrchestrator|WebSurfer|FileSurfer|Coder|ComputerTerminal|Executor|Assistant)\b/;
const ORCHESTRATOR_ROLE = /^\w+ \((thought|-> [^)]+|termination condition|final answer)\)$/;
const TASK_GIVER = /^(human|user|user_?proxy)$/i;
const CHAT_ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function', 'human']);
const AGENTCHAT_TYPES = new Set([
  'TextMessage',
  'MultiModalMessage',
  'StopMessage',
  'HandoffMessage',
  'ToolCallRequestEvent',
  'ToolCallExecutionEvent',
  'ToolCallSummaryMessage',
  'ThoughtEvent',
  'StructuredMessage',
  'SelectSpeakerEvent',
  'SelectorEvent',
  'MemoryQueryEvent',
  'UserInputRequestedEvent',
  'ModelClientStreamingChunkEvent',
  'CodeGenerationEvent',
  'CodeExecutionEvent',
]);

const functionCall = z.looseObject({ id: z.string().nullish(), name: z.string(), arguments: z.unknown().optional() });
const executionResult = z.looseObject({
  call_id: z.string().nullish(),
  content: z.unknown().optional(),
  is_error: z.boolean().nullish(),
  name: z.string().nullish(),
});
const roleEntry = z.looseObject({
  role: z.string({ message: 'expected the agent name as a string' }),
  content: z.union([z.string(), z.null()], { message: 'expected the message text as a string' }),
  name: z.string().nullish(),
});
const sourceEntry = z.looseObject({
  source: z.string({ message: 'expected the agent name as a string' }),
  type: z.string({ message: 'expected the AgentChat message type as a string' }),
  content: z.unknown(),
});

function isRoleEntry(value: unknown): value is { role: string; content: unknown } {
  return isObject(value) && typeof value.role === 'string';
}

function isSourceEntry(value: unknown): value is { source: string; type: string; content: unknown } {
  return isObject(value) && typeof value.source === 'string' && typeof value.type === 'string';
}

function looksMagenticAgent(name: string): boolean {
  return MAGENTIC_AGENTS.test(name) || ORCHESTRATOR_ROLE.test(name);
}

// Every reader's detect runs on every loaded value (issue 15 item 6): the agent names and the
// message shape show within the first entries, so a long chat is not walked once per file just
// to be told apart. A bad entry further on is still named by the loader's schema check.
const DETECT_ENTRIES = 50;

function detectMagenticOne(value: unknown): FormatMatch | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const head: unknown[] = value.slice(0, DETECT_ENTRIES);
  if (head.every(isSourceEntry)) {
    const types = new Set(head.map((v) => v.type));
    if (![...types].some((t) => AGENTCHAT_TYPES.has(t))) return undefined;
    return { score: 0.85, reason: `an array of AutoGen AgentChat messages ({source, type, content}; types ${[...types].slice(0, 4).join(', ')})` };
  }
  if (!isRoleEntry(head[0])) return undefined;
  const seen = new Set<string>();
  let badIndex = -1;
  for (let i = 0; i < head.length; i++) {
    const v = head[i];
    if (!isRoleEntry(v)) {
      if (badIndex === -1) badIndex = i;
      continue;
    }
    seen.add(v.role);
    if (badIndex === -1 && typeof v.content !== 'string' && v.content !== null) badIndex = i;
  }
  const roles = [...seen];
  const agents = roles.filter(looksMagenticAgent);
  const foreign = roles.filter((r) => !CHAT_ROLES.has(r));
  // A chat log with an `Assistant` role only is not Magentic-One evidence; an agent name beyond the chat roles is.
  if (foreign.length === 0) return undefined;
  const reason = `a bare array of {role, content} whose roles are agent names (${roles.slice(0, 5).join(', ')})`;
  if (badIndex !== -1) return agents.length ? { score: 0.4, reason, missing: [`a string \`content\` and \`role\` in entry ${badIndex}`] } : undefined;
  return { score: agents.length ? 0.85 : 0.55, reason };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (Array.isArray(content))
    return content.map((part) => (typeof part === 'string' ? part : isObject(part) && typeof part.content === 'string' ? part.content : '[image]')).join('\n');
  return JSON.stringify(content);
}

/** Whether `role` starts as TASK_GIVER's names do (h/u, any case): the regex runs only for those, not for every agent turn of a long log. */
function mayBeTaskGiver(role: string): boolean {
  const first = role.charCodeAt(0) | 0x20;
  return first === 0x68 || first === 0x75;
}

function fromRoleEntry(entry: { role: string; content: string | null; name?: string | null }, position: number): Message {
  const role = entry.role.trim();
  const content = entry.content ?? '';
  if (mayBeTaskGiver(role) && TASK_GIVER.test(role)) return { position, role: 'user', agent: role, content, toolCalls: NO_TOOL_CALLS };
  if (role === 'system') return { position, role: 'system', content, toolCalls: NO_TOOL_CALLS };
  return { position, role: 'assistant', agent: entry.name || role, content, toolCalls: NO_TOOL_CALLS };
}

function fromSourceEntry(entry: { source: string; type: string; content: unknown }, position: number, source: SourceText): Message {
  const agent = entry.source;
  if (entry.type === 'ToolCallRequestEvent') {
    const calls = checkSchema(
      z.array(functionCall),
      entry.content,
      { ...source, basePath: [...(source.basePath ?? []), position, 'content'] },
      'AgentChat tool calls',
    );
    return { position, role: 'assistant', agent, content: '', toolCalls: calls.map((c) => toolCallFromRaw(c.name, c.arguments, c.id ?? undefined)) };
  }
  if (entry.type === 'ToolCallExecutionEvent') {
    const results = checkSchema(
      z.array(executionResult),
      entry.content,
      { ...source, basePath: [...(source.basePath ?? []), position, 'content'] },
      'AgentChat tool results',
    );
    // One event answers every call of the request before it; its first call id links it.
    const message: Message = { position, role: 'tool', agent, content: results.map((r) => textOf(r.content)).join('\n\n'), toolCalls: NO_TOOL_CALLS };
    if (results[0]?.call_id) message.toolCallId = results[0].call_id;
    if (results.some((r) => r.is_error)) message.isError = true;
    return message;
  }
  if (agent === 'user' || agent === 'human') return { position, role: 'user', agent, content: textOf(entry.content), toolCalls: NO_TOOL_CALLS };
  return { position, role: 'assistant', agent, content: textOf(entry.content), toolCalls: NO_TOOL_CALLS };
}

/** Where entry `position` is, for its schema error. */
function entrySource(source: SourceText, position: number): SourceText {
  return { ...source, basePath: [...(source.basePath ?? []), position] };
}

/**
 * Adds an assistant message's agent to the agents seen (first seen first). Done as each message is
 * made, while its agent name was just read: a second pass over tens of thousands of messages read
 * every name from memory again, a quarter of the parse's time on the bench file.
 */
function noteAgent(agents: Set<string | undefined>, message: Message): Message {
  if (message.role === 'assistant') agents.add(message.agent);
  return message;
}

/** `magentic-one`: the first human/user entry is the task; every agent message is a decision step of its agent. */
export function loadMagenticOne(value: unknown, source: SourceText, id: string): Trajectory {
  const list = Array.isArray(value)
    ? (value as unknown[])
    : checkSchema(z.array(z.unknown(), { message: 'expected an array of agent messages' }), value, source, 'Magentic-One messages');
  const seen = new Set<string | undefined>();
  const messages = list.map((entry, position) => {
    // Each entry is checked against the shape it claims, so the message names the field it lacks.
    // The well-formed common case skips zod (logs run to tens of thousands of turns).
    if (
      isObject(entry) &&
      typeof entry.role === 'string' &&
      (typeof entry.content === 'string' || entry.content === null) &&
      (entry.name === undefined || entry.name === null || typeof entry.name === 'string')
    )
      return noteAgent(seen, fromRoleEntry(entry as z.infer<typeof roleEntry>, position));
    if (isObject(entry) && 'source' in entry && !('role' in entry))
      return noteAgent(seen, fromSourceEntry(checkSchema(sourceEntry, entry, entrySource(source, position), 'an AgentChat message'), position, source));
    return noteAgent(seen, fromRoleEntry(checkSchema(roleEntry, entry, entrySource(source, position), 'a Magentic-One {role, content} message'), position));
  });
  linkToolReturns(messages);
  const task = messages.find((m) => m.role === 'user');
  const agents = [...seen];
  return finishTrajectory({
    format: 'magentic-one',
    id,
    messages,
    query: task?.content,
    // Multi-agent logs end with chatter; the answer is the `FINAL ANSWER:` line when there is one.
    inferPredictedAnswer: false,
    metadata: { agents },
  });
}

// The `log.jsonl` Magentic-One's LogHandler writes (autogen-magentic-one utils.py): one JSON object
// a line, `{timestamp, source, message, type: "OrchestrationEvent" | "AgentEvent"}`,
// `{timestamp, type: "WebSurferEvent", source, url, action, arguments, message}` and
// `{timestamp, type: "LLMCallEvent", prompt_tokens, completion_tokens}`. One file is one run;
// message i is line i.
const LOG_EVENTS = new Set(['OrchestrationEvent', 'AgentEvent', 'WebSurferEvent', 'LLMCallEvent']);
const logEventSchema = z.looseObject({
  timestamp: z.string({ message: 'expected the event `timestamp` as a string' }),
  type: z.string({ message: 'expected the event `type` (OrchestrationEvent, AgentEvent, WebSurferEvent, LLMCallEvent)' }),
});
const messageEventSchema = logEventSchema.extend({
  source: z.string({ message: 'expected the agent name `source` as a string' }),
  message: z.string({ message: 'expected the event `message` as a string' }),
});

function isLogEvent(value: unknown): value is { timestamp: string; type: string } & Record<string, unknown> {
  return isObject(value) && typeof value.timestamp === 'string' && typeof value.type === 'string' && LOG_EVENTS.has(value.type);
}

function detectMagenticOneLines(values: unknown[]): FormatMatch | undefined {
  const head = values.slice(0, DETECT_ENTRIES);
  if (!head.some((v) => isLogEvent(v) && v.type === 'OrchestrationEvent')) return undefined;
  const reason = 'JSONL events {timestamp, type: OrchestrationEvent/AgentEvent/WebSurferEvent/LLMCallEvent, source, message} (Magentic-One log.jsonl)';
  const foreign = head.findIndex((v) => !isLogEvent(v));
  if (foreign !== -1) return { score: 0.4, reason, missing: [`a Magentic-One log event on JSON line ${foreign + 1}`] };
  return { score: 0.9, reason };
}

/** A log event's message; a line the fast checks refuse gets the schema's error naming the line and field. */
function fromLogEvent(value: unknown, position: number, lineNumber: number, source: SourceText, tokens: { prompt: number; completion: number }): Message {
  if (!isLogEvent(value)) refuseLine(logEventSchema, value, source, lineNumber, 'a Magentic-One log event; format magentic-one');
  const event = value;
  if (event.type === 'LLMCallEvent') {
    const prompt = typeof event.prompt_tokens === 'number' ? event.prompt_tokens : 0;
    const completion = typeof event.completion_tokens === 'number' ? event.completion_tokens : 0;
    tokens.prompt += prompt;
    tokens.completion += completion;
    return { position, role: 'system', agent: 'LLM call', content: `[LLM call] ${prompt} prompt, ${completion} completion tokens`, toolCalls: NO_TOOL_CALLS };
  }
  if (typeof event.source !== 'string' || typeof event.message !== 'string')
    refuseLine(messageEventSchema, value, source, lineNumber, `a Magentic-One ${event.type}; format magentic-one`);
  const message = fromRoleEntry({ role: event.source as string, content: event.message as string }, position);
  // A WebSurfer event is the browser action it took (web_search, visit_url, click…) with its arguments.
  if (event.type === 'WebSurferEvent' && typeof event.action === 'string' && event.action) {
    message.toolCalls = [toolCallFromRaw(event.action, event.arguments ?? {})];
  }
  return message;
}

/** `log.jsonl`: the first human/user event is the task; the orchestrator's `(final answer)` event, else a FINAL ANSWER line, the answer. */
export function loadMagenticOneLines(values: unknown[], lineNumbers: number[], source: SourceText): { id: string; trajectory: Trajectory; line: number }[] {
  const tokens = { prompt: 0, completion: 0 };
  const seen = new Set<string | undefined>();
  const messages = values.map((value, position) => noteAgent(seen, fromLogEvent(value, position, lineNumbers[position], source, tokens)));
  linkToolReturns(messages);
  const metadata: Record<string, unknown> = { agents: [...seen], layout: 'log.jsonl' };
  if (tokens.prompt || tokens.completion) metadata.tokens = tokens;
  let finalAnswer: Message | undefined;
  for (let i = 0; i < messages.length; i++)
    if (messages[i].role === 'assistant' && / \(final answer\)$/.test(messages[i].agent ?? '')) finalAnswer = messages[i];
  const trajectory = finishTrajectory({
    format: 'magentic-one',
    id: '0',
    messages,
    query: messages.find((m) => m.role === 'user')?.content,
    ...(finalAnswer?.content.trim() ? { predictedAnswer: finalAnswerLineOf(finalAnswer.content) ?? finalAnswer.content.trim() } : {}),
    inferPredictedAnswer: false,
    metadata,
  });
  return [{ id: '0', trajectory, line: lineNumbers[0] ?? 1 }];
}

export const magenticOneReader: TrajectoryReader = {
  id: 'magentic-one',
  label: 'Magentic-One / AutoGen agent log',
  detect: detectMagenticOne,
  load: loadMagenticOne,
  detectLines: detectMagenticOneLines,
  loadLines: loadMagenticOneLines,
};
