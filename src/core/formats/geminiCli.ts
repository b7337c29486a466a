// `gemini-cli`: Gemini CLI sessions (~/.gemini/tmp/<project hash>/chats/). Three shapes:
// - the chat recording JSONL (current): a metadata line {sessionId, projectHash, startTime…}, then
//   message records {id, timestamp, type user/gemini/info/warning/error, content, toolCalls,
//   thoughts, tokens, model}, `{$set: {…}}` metadata updates and `{$rewindTo: id}` lines; a
//   message updated later (tokens, tool results) is written again with the same id;
// - the older single JSON session {sessionId, projectHash, startTime, lastUpdated, messages};
// - `/chat save` checkpoints: a list of Gemini `Content` {role user/model, parts}, bare or as
//   {history, authType}.
// Message i is line i (JSONL), messages[i] or history[i]. Tool calls of a recorded `gemini`
// message hold their results inline (there is no separate entry for them): the results are shown
// after the message's text, and the calls are the message's tool calls.
import { z } from 'zod';
import type { SourceText } from '../input/schemaCheck';
import type { Message, ToolCall, Trajectory } from '../model/trajectory';
import { isObject } from './fields';
import { finishTrajectory } from './finish';
import type { FormatMatch, LineReader, TrajectoryReader } from './registry';
import { addTo, firstFailing, linesThrough, refuseLine, shortText } from './sessionLines';
import { linkToolReturns, NO_TOOL_CALLS, toolCallFromRaw } from './toolCalls';

type Obj = Record<string, unknown>;

const RECORD_TYPES = new Set(['user', 'gemini', 'info', 'warning', 'error']);

const partList = z.union([z.string(), z.array(z.unknown()), z.looseObject({})], { message: 'expected `content` as a string, a part or a list of parts' });
const messageRecordSchema = z.looseObject({
  id: z.string({ message: 'expected the message `id` as a string' }),
  type: z.string({ message: 'expected `type` user, gemini, info, warning or error' }),
  content: partList.nullish(),
  toolCalls: z
    .array(z.looseObject({ name: z.string({ message: 'expected the tool call `name` as a string' }) }), { message: 'expected `toolCalls` as an array' })
    .optional(),
});
const sessionSchema = z.looseObject({ messages: z.array(messageRecordSchema) });
const contentSchema = z.looseObject({
  role: z.enum(['user', 'model', 'function'], { message: 'expected role user or model (a Gemini Content)' }),
  parts: z.array(z.looseObject({}, { message: 'expected a part object' }), { message: 'expected `parts` as an array' }),
});
const historySchema = z.array(contentSchema);

/** Text of a Gemini PartListUnion: texts, function calls and responses named, other parts by kind. */
function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === undefined || content === null) return '';
  if (!Array.isArray(content)) return partText(content);
  // One part (the common case) is its text as it is: join would copy it.
  return content.length === 1 ? partText(content[0]) : content.map(partText).join('\n');
}

function partText(p: unknown): string {
  if (typeof p === 'string') return p;
  if (!isObject(p)) return String(p);
  if (typeof p.text === 'string') return p.text;
  if (isObject(p.functionResponse)) return responseText(p.functionResponse);
  if (isObject(p.functionCall)) return `[call ${String(p.functionCall.name)}]`;
  const kind = Object.keys(p)[0];
  return `[${kind ?? 'part'}]`;
}

/** A functionResponse's `response`: its `output` (or `error`) text, else the JSON. */
function responseText(fr: Obj): string {
  const response = fr.response;
  if (isObject(response)) {
    if (typeof response.output === 'string') return response.output;
    if (typeof response.error === 'string') return `Error: ${response.error}`;
    if (typeof response.content === 'string') return response.content;
  }
  return typeof response === 'string' ? response : JSON.stringify(response ?? null);
}

/** The fast form of messageRecordSchema (zod on every line of a large session costs as much as the parse). */
function wellFormed(record: Obj): boolean {
  const content = record.content;
  if (content !== undefined && typeof content !== 'string' && typeof content !== 'object') return false;
  const calls = record.toolCalls;
  if (calls === undefined) return true;
  if (!Array.isArray(calls)) return false;
  // Indexed, not `every`: no callback per record.
  for (let i = 0; i < calls.length; i++) {
    const call: unknown = calls[i];
    if (!isObject(call) || typeof call.name !== 'string') return false;
  }
  return true;
}

// One RegExp for every call: a literal in the function body is a new object each time.
const NOT_SPACE = /\S/;

/** Whether a text has anything but white space (`trim() !== ''` without the trimmed copy). */
function hasText(text: string): boolean {
  return NOT_SPACE.test(text);
}

/** A message record; types other than RECORD_TYPES (added by later versions) are read as notes. */
function isMessageRecord(value: unknown): value is Obj & { id: string; type: string } {
  return isObject(value) && typeof value.id === 'string' && typeof value.type === 'string';
}

function isMetadataLine(value: unknown): value is Obj {
  return isObject(value) && typeof value.sessionId === 'string' && typeof value.projectHash === 'string';
}

function isControlLine(value: unknown): boolean {
  return isObject(value) && (isObject(value.$set) || typeof value.$rewindTo === 'string');
}

/** The CLI's own first message of a chat (environment context): not the user's prompt. */
const CONTEXT_PROMPT = /^\s*This is the Gemini CLI\. We are setting up the context/;

interface Totals {
  tokens: Record<string, number>;
  models: Set<string>;
  /** The `[name result, status]` header of a result block, by tool name and status: the same few strings for every call. */
  resultHeaders: Map<string, Map<string, string>>;
}

function newTotals(): Totals {
  return { tokens: {}, models: new Set(), resultHeaders: new Map() };
}

function resultHeader(totals: Totals, name: string, status: string | undefined): string {
  let byStatus = totals.resultHeaders.get(name);
  if (!byStatus) totals.resultHeaders.set(name, (byStatus = new Map()));
  const key = status ?? '';
  let header = byStatus.get(key);
  if (header === undefined) byStatus.set(key, (header = `[${name} result${status ? ', ' + status : ''}]\n`));
  return header;
}

/** A recorded thought `{subject, description}` as `subject: description` (either alone when the other is missing). */
function thoughtText(thought: unknown): string {
  if (!isObject(thought)) return String(thought);
  const subject = typeof thought.subject === 'string' ? thought.subject : '';
  const description = typeof thought.description === 'string' ? thought.description : '';
  return subject && description ? subject + ': ' + description : subject || description;
}

function thoughtsText(thoughts: unknown[]): string {
  let text = thoughtText(thoughts[0]);
  for (let i = 1; i < thoughts.length; i++) text += '\n' + thoughtText(thoughts[i]);
  return text;
}

function callOf(call: Obj): ToolCall {
  return toolCallFromRaw(String(call.name), call.args ?? {}, typeof call.id === 'string' ? call.id : undefined);
}

// A message is built as one literal holding the fields it gets: a field added after the literal
// costs the object a second allocation.
function readRecord(record: Obj, position: number, totals: Totals): Message {
  const type = record.type as string;
  const content = partsText(record.content);
  if (type === 'user') {
    return CONTEXT_PROMPT.test(content)
      ? { position, role: 'user', content, toolCalls: NO_TOOL_CALLS, agent: 'context' }
      : { position, role: 'user', content, toolCalls: NO_TOOL_CALLS };
  }
  if (type !== 'gemini') {
    const message: Message = {
      position,
      role: 'system',
      agent: type,
      content: RECORD_TYPES.has(type) ? content : `[${type}] ${content}`,
      toolCalls: NO_TOOL_CALLS,
    };
    if (type === 'error') message.isError = true;
    return message;
  }
  // Every call is an object with a string name (wellFormed or the session schema saw to it).
  const calls = Array.isArray(record.toolCalls) ? (record.toolCalls as Obj[]) : [];
  const toolCalls = calls.length ? calls.map(callOf) : NO_TOOL_CALLS;
  // The results follow the text, joined with + (which links them without copying; join copied each result).
  let results = '';
  let isError = false;
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i];
    const status = typeof call.status === 'string' ? call.status : undefined;
    if (status === 'error' || status === 'cancelled') isError = true;
    if (call.result !== undefined && call.result !== null) {
      const block = resultHeader(totals, String(call.name), status) + partsText(call.result);
      results = results ? results + '\n\n' + block : block;
    }
  }
  const shown = results ? (hasText(content) ? content + '\n\n' + results : results) : content;
  const message: Message =
    Array.isArray(record.thoughts) && record.thoughts.length
      ? { position, role: 'assistant', content: shown, toolCalls, reasoning: thoughtsText(record.thoughts) }
      : { position, role: 'assistant', content: shown, toolCalls };
  if (isError) message.isError = true;
  return message;
}

/** A gemini record's model and tokens (either may be absent) into the session's totals. */
function countModelAndTokens(model: unknown, tokens: unknown, totals: Totals): void {
  if (typeof model === 'string') totals.models.add(model);
  if (isObject(tokens)) for (const key of ['input', 'output', 'cached', 'thoughts', 'tool', 'total']) addTo(totals.tokens, key, tokens[key]);
}

/** `ownTextOf`: a gemini message's own text by position (its record's content, without the results shown after it). */
function finish(messages: Message[], metadata: Obj, totals: Totals, id: string, ownTextOf?: (position: number) => string): Trajectory {
  linkToolReturns(messages);
  if (totals.models.size) metadata.model = [...totals.models].join(', ');
  if (Object.keys(totals.tokens).length) metadata.tokens = totals.tokens;
  const query = messages.find((m) => m.role === 'user' && m.agent !== 'context' && m.content.trim() !== '')?.content;
  const trajectory = finishTrajectory({
    format: 'gemini-cli',
    id,
    messages,
    metadata,
    ...(query !== undefined ? { query } : {}),
    // A gemini message's answer is in its text, not in the tool results shown after it.
    answerTextOf: ownTextOf ? (m) => (m.role === 'assistant' ? ownTextOf(m.position) : m.content) : undefined,
  });
  if (query === undefined) delete trajectory.query;
  return trajectory;
}

const METADATA_KEYS = ['sessionId', 'projectHash', 'startTime', 'lastUpdated', 'summary', 'kind', 'directories'];

function keepMetadata(from: Obj, into: Obj): void {
  for (const key of METADATA_KEYS) if (from[key] !== undefined) into[key] = from[key];
}

/** Holds a message record's place until it is built (geminiLineReader); never in a loaded trajectory. */
const PENDING_MESSAGE: Message = Object.freeze({ position: -1, role: 'system', content: '', toolCalls: NO_TOOL_CALLS }) as Message;

/** The note that stands in for an earlier record of a message written again at entry `later`. */
function earlierRecordNote(position: number, id: string, later: number, ownText: string): Message {
  // Joined with a space only when there is text: trimming the joined note flattened a copy of it.
  const note = `[earlier record of message ${id}, updated at entry ${later}]`;
  const shown = shortText(ownText);
  return { position, role: 'system', agent: 'earlier record', content: shown ? note + ' ' + shown : note, toolCalls: NO_TOOL_CALLS };
}

/**
 * Reads a chat recording line by line (the pipeline hands each parsed line over and drops it, so
 * its tree dies young). A message written again later (tokens, tool results) is complete in its
 * last record: when a later record of it comes, the earlier ones become notes in place (position
 * rule), and only the last one's tokens and model count.
 */
export function geminiLineReader(source: SourceText): LineReader {
  const messages: Message[] = [];
  let firstLine: number | undefined;
  // By position: each message record's own text (content without the results shown after it),
  // and a gemini record's model and tokens, counted at the end for the records that stay.
  const ownTexts: string[] = [];
  const models: (string | undefined)[] = [];
  const tokens: (Obj | undefined)[] = [];
  // A message's position, or its positions once it is written again (a list only then: one per message was a list per line).
  const positionsOf = new Map<string, number | number[]>();
  // Each `$rewindTo` line's range of rewound entries [start, end).
  const rewoundRanges: number[] = [];
  const totals = newTotals();
  const metadata: Obj = {};
  const updateNotes = new Map<string, string>();
  let rewinds = 0;
  // The latest message record is built only when the next one comes: the CLI writes a message
  // again right after (with its tool results), and the first record then becomes a note unbuilt.
  let pending: Obj | undefined;
  let pendingPosition = -1;
  const buildPending = () => {
    if (pending) messages[pendingPosition] = readRecord(pending, pendingPosition, totals);
    pending = undefined;
  };

  function readLine(value: unknown, position: number, lineNumber: number): Message {
    if (isMessageRecord(value)) {
      if (!wellFormed(value)) refuseLine(messageRecordSchema, value, source, lineNumber, 'a Gemini CLI message record; format gemini-cli');
      const earlier = positionsOf.get(value.id);
      if (pending && pending.id !== value.id) buildPending();
      if (earlier === undefined) positionsOf.set(value.id, position);
      else {
        const list = typeof earlier === 'number' ? [earlier] : earlier;
        for (const p of list) {
          messages[p] = earlierRecordNote(p, value.id, position, ownTexts[p]);
          models[p] = tokens[p] = undefined;
        }
        list.push(position);
        if (list !== earlier) positionsOf.set(value.id, list);
      }
      ownTexts[position] = partsText(value.content);
      if (value.type === 'gemini') {
        if (typeof value.model === 'string') models[position] = value.model;
        if (isObject(value.tokens)) tokens[position] = value.tokens;
      }
      pending = value;
      pendingPosition = position;
      return PENDING_MESSAGE;
    }
    const line = isObject(value) ? value : {};
    if (isMetadataLine(value)) {
      keepMetadata(line, metadata);
      return {
        position,
        role: 'system',
        agent: 'session',
        content: `[session ${String(line.sessionId)}] started ${String(line.startTime ?? '')}`.trim(),
        toolCalls: NO_TOOL_CALLS,
      };
    }
    if (isObject(line.$set)) {
      keepMetadata(line.$set, metadata);
      return { position, role: 'system', agent: 'metadata', content: updateNote(line.$set, updateNotes), toolCalls: NO_TOOL_CALLS };
    }
    if (typeof line.$rewindTo === 'string') {
      rewinds++;
      // The rewound entries start at the target's first record; not found, the CLI clears the whole conversation.
      const target = positionsOf.get(line.$rewindTo);
      rewoundRanges.push(target === undefined ? 0 : typeof target === 'number' ? target : target[0], position);
      return { position, role: 'system', agent: 'rewind', content: `[rewound to before message ${line.$rewindTo}]`, toolCalls: NO_TOOL_CALLS };
    }
    return refuseLine(messageRecordSchema, value, source, lineNumber, 'a Gemini CLI session line; format gemini-cli');
  }

  return {
    read(value, lineNumber) {
      firstLine ??= lineNumber;
      messages.push(readLine(value, messages.length, lineNumber));
    },
    finish() {
      buildPending();
      for (let p = 0; p < messages.length; p++) countModelAndTokens(models[p], tokens[p], totals);
      if (rewinds) {
        metadata.rewinds = rewinds;
        markRewound(rewoundRanges, messages);
      }
      // One file is one trajectory: its record id is "0" as for any single-trajectory file.
      const id = '0';
      return [{ id, trajectory: finish(messages, metadata, totals, id, (position) => ownTexts[position]), line: firstLine ?? 1 }];
    },
  };
}

/**
 * The note of a `$set` line, `[metadata update] key, key`. Most sessions set the same keys each
 * time (`lastUpdated`): `notes` keeps one note per key list rather than a new string per line.
 */
function updateNote(set: Obj, notes: Map<string, string>): string {
  let keys = '';
  for (const key in set) keys = keys ? keys + ', ' + key : key;
  let note = notes.get(keys);
  if (note === undefined) notes.set(keys, (note = `[metadata update] ${keys}`));
  return note;
}

/**
 * The dropped messages stay in place (position rule) with the agent name `rewound` so the thread
 * the agent kept reads clearly. `ranges`: [start, end) pairs, one per `$rewindTo` line.
 */
function markRewound(ranges: number[], messages: Message[]): void {
  for (let r = 0; r < ranges.length; r += 2) for (let i = ranges[r]; i < ranges[r + 1]; i++) if (messages[i].role !== 'system') messages[i].agent = 'rewound';
}

function loadSessionJson(obj: Obj, source: SourceText, id: string): Trajectory {
  const parsed = sessionSchema.safeParse(obj);
  if (!parsed.success) refuseLine(sessionSchema, obj, source, undefined, 'a Gemini CLI session; format gemini-cli');
  const totals = newTotals();
  const messages = (obj.messages as Obj[]).map((record, position) => {
    if (record.type === 'gemini') countModelAndTokens(record.model, record.tokens, totals);
    return readRecord(record, position, totals);
  });
  const metadata: Obj = {};
  keepMetadata(obj, metadata);
  const records = obj.messages as Obj[];
  return finish(messages, metadata, totals, id, (position) => partsText(records[position].content));
}

/** A `/chat save` checkpoint: Gemini Content objects; a user turn of only function responses is a tool return. */
function loadHistory(history: unknown, source: SourceText, id: string, metadata: Obj): Trajectory {
  const parsed = historySchema.safeParse(history);
  if (!parsed.success) refuseLine(historySchema, history, source, undefined, 'a Gemini CLI checkpoint, a list of Content; format gemini-cli');
  const messages = (history as { role: string; parts: Obj[] }[]).map((content, position): Message => {
    const parts = content.parts;
    const responses = parts.filter((p) => isObject(p.functionResponse));
    if (content.role !== 'model' && responses.length > 0 && responses.length === parts.length) {
      const message: Message = { position, role: 'tool', content: partsText(parts), toolCalls: [] };
      const first = responses[0].functionResponse as Obj;
      if (typeof first.id === 'string') message.toolCallId = first.id;
      return message;
    }
    if (content.role !== 'model') {
      const text = partsText(parts);
      return { position, role: 'user', content: text, toolCalls: [], ...(CONTEXT_PROMPT.test(text) ? { agent: 'context' } : {}) };
    }
    const message: Message = { position, role: 'assistant', content: '', toolCalls: [] };
    const texts: string[] = [];
    const thoughts: string[] = [];
    for (const p of parts) {
      if (isObject(p.functionCall)) {
        const call = p.functionCall;
        message.toolCalls.push(toolCallFromRaw(String(call.name ?? 'tool'), call.args ?? {}, typeof call.id === 'string' ? call.id : undefined));
      } else if (typeof p.text === 'string') (p.thought === true ? thoughts : texts).push(p.text);
      else texts.push(partsText([p]));
    }
    message.content = texts.join('\n');
    if (thoughts.length) message.reasoning = thoughts.join('\n');
    return message;
  });
  return finish(messages, metadata, newTotals(), id);
}

function isContent(value: unknown): boolean {
  return isObject(value) && (value.role === 'user' || value.role === 'model' || value.role === 'function') && Array.isArray(value.parts);
}

/** How many entries of a list detection looks at for a Gemini Content (every detect runs on every loaded value). */
const DETECT_ENTRIES = 50;

function historyMatch(list: unknown[], reason: string, at: string): FormatMatch | undefined {
  // A checkpoint's Content shows in its first entries; a long list of something else is not walked.
  if (list.length === 0 || !list.slice(0, DETECT_ENTRIES).some(isContent)) return undefined;
  const broken = firstFailing(list, isContent);
  if (broken !== -1) return { score: 0.4, reason, missing: [`${at}[${broken}] as a Content {role user/model, parts}`] };
  // Only the Gemini API names the agent's role `model` and splits content into `parts`.
  return { score: 0.85, reason };
}

function detectGeminiLines(values: unknown[]): FormatMatch | undefined {
  const first = values[0];
  if (!isObject(first) || typeof first.sessionId !== 'string') return undefined;
  const reason = 'a session line {sessionId, projectHash} then message records {id, type, content} (Gemini CLI chat recording)';
  // The lines after the first, walked in place (every detect runs on every JSONL file: no copy of its lines).
  let foreign = -1;
  let records = 0;
  for (let i = 1; i < values.length && foreign === -1; i++) {
    if (isMessageRecord(values[i])) records++;
    else if (!isControlLine(values[i])) foreign = i - 1;
  }
  if (!isMetadataLine(first)) {
    // A first line with a session id alone is Gemini's only when the rest are its records.
    if (foreign !== -1 || records === 0) return undefined;
    return { score: 0.4, reason, missing: ['`projectHash` on the first line'] };
  }
  if (foreign !== -1)
    return {
      score: 0.4,
      reason,
      missing: [`a message record {id, type user/gemini/info/warning/error, content} or a $set/$rewindTo line on JSON line ${foreign + 2}`],
    };
  return { score: 0.95, reason };
}

export const geminiCliReader: TrajectoryReader = {
  id: 'gemini-cli',
  label: 'Gemini CLI session',
  detect(value) {
    if (Array.isArray(value)) return historyMatch(value, 'a JSON array of Gemini Content {role user/model, parts} (Gemini CLI checkpoint)', '$');
    if (!isObject(value)) return undefined;
    if (isMetadataLine(value) && 'messages' in value) {
      const reason = 'an object with `sessionId`, `projectHash` and `messages` (Gemini CLI session)';
      if (!Array.isArray(value.messages)) return { score: 0.4, reason, missing: ['`messages` as an array of message records'] };
      const broken = firstFailing(value.messages, isMessageRecord);
      if (broken !== -1) return { score: 0.4, reason, missing: [`messages[${broken}] as a message record {id, type user/gemini/info/warning/error, content}`] };
      return { score: 0.95, reason };
    }
    if (Array.isArray(value.history)) {
      const match = historyMatch(value.history, 'an object with `history` of Gemini Content {role user/model, parts} (Gemini CLI checkpoint)', 'history');
      // `authType` is written only by the CLI's /chat save.
      return match && match.score >= 0.5 && 'authType' in value ? { ...match, score: 0.9 } : match;
    }
    return undefined;
  },
  load(value, source, id) {
    if (Array.isArray(value)) return loadHistory(value, source, id, {});
    const obj = isObject(value) ? value : {};
    if (Array.isArray(obj.history) || !('messages' in obj)) {
      const metadata: Obj = {};
      if (obj.authType !== undefined) metadata.authType = obj.authType;
      return loadHistory(obj.history, { ...source, basePath: [...(source.basePath ?? []), 'history'] }, id, metadata);
    }
    return loadSessionJson(obj, source, id);
  },
  detectLines: detectGeminiLines,
  lineReader: geminiLineReader,
  loadLines: (values, lineNumbers, source) => linesThrough(geminiLineReader(source), values, lineNumbers),
};
