import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, ToolCall, Trajectory } from '../model/trajectory';
import { isObject } from './fields';
import { finishTrajectory } from './finish';
import type { FormatMatch, SplitRecord, TrajectoryReader } from './registry';
import { isoMicros, startOrder } from './startOrder';
import { linkToolReturns, toolCallFromRaw } from './toolCalls';

// OpenTelemetry span exports of LLM agents, one trajectory per trace, one message per span in
// start-time order. Three containers: OTLP JSON (`resourceSpans[].scopeSpans[].spans[]`, attributes
// as `[{key, value: {stringValue|intValue|…}}]`), a JSON array or JSONL of flat spans (Phoenix /
// OpenInference exports and the SDK console exporter: `context.trace_id`, `parent_id`,
// `start_time`, `attributes` as a map, dotted or nested), and lines that each hold an OTLP export
// (the collector's file exporter). Two vocabularies: OpenInference (`openinference.span.kind`
// LLM/TOOL/CHAIN/AGENT/RETRIEVER…, `llm.input_messages.N.message.*`, `llm.output_messages…`,
// `tool.name`, `input.value`/`output.value`) and the GenAI semantic conventions
// (`gen_ai.operation.name` chat/execute_tool/invoke_agent, `gen_ai.input.messages` /
// `gen_ai.output.messages` JSON, the older `gen_ai.prompt.N.*` / `gen_ai.completion.N.*`,
// `gen_ai.tool.name`, `gen_ai.tool.call.id`). LLM spans are decision steps (their output message
// and its tool calls); TOOL spans are tool returns; agent and chain spans are system entries
// naming the agent.

type Obj = Record<string, unknown>;
type Path = (string | number)[];

interface Span {
  traceId: string;
  spanId: string;
  parentId?: string;
  name: string;
  /** Microseconds since the epoch (ties keep source order). */
  start: number;
  attributes: Obj;
  events: { name: string; attributes: Obj }[];
  statusError: boolean;
  /** JSONL line of the span, when it came from one. */
  line?: number;
}

const otlpValue: z.ZodType<unknown> = z.lazy(() =>
  z.looseObject({
    stringValue: z.string().optional(),
    intValue: z.union([z.string(), z.number()]).optional(),
    doubleValue: z.union([z.number(), z.string()]).optional(),
    boolValue: z.boolean().optional(),
    arrayValue: z.looseObject({ values: z.array(otlpValue).optional() }).optional(),
    kvlistValue: z.looseObject({ values: z.array(z.looseObject({ key: z.string(), value: otlpValue.optional() })).optional() }).optional(),
  }),
);
const otlpAttributes = z.array(z.looseObject({ key: z.string({ message: 'expected the attribute key as a string' }), value: otlpValue.optional() })).optional();
const otlpSpan = z.looseObject({
  traceId: z.string({ message: 'expected the trace id as a hex string' }),
  spanId: z.string({ message: 'expected the span id as a hex string' }),
  parentSpanId: z.string().nullish(),
  name: z.string({ message: 'expected the span name as a string' }),
  startTimeUnixNano: z.union([z.string(), z.number()], { message: 'expected the start time in nanoseconds' }),
  attributes: otlpAttributes,
  events: z.array(z.looseObject({ name: z.string().optional(), attributes: otlpAttributes })).nullish(),
  status: z.looseObject({ code: z.union([z.number(), z.string()]).optional() }).nullish(),
});
const flatSpan = z.looseObject({
  name: z.string({ message: 'expected the span name as a string' }),
  context: z.looseObject({
    trace_id: z.string({ message: 'expected the trace id as a string' }),
    span_id: z.string({ message: 'expected the span id as a string' }),
  }),
  parent_id: z.string().nullish(),
  start_time: z.union([z.string(), z.number()], { message: 'expected the start time (ISO 8601 or epoch)' }),
  attributes: z.record(z.string(), z.unknown()).nullish(),
  events: z.array(z.looseObject({ name: z.string().optional(), attributes: z.record(z.string(), z.unknown()).nullish() })).nullish(),
});

function otlpScalar(value: unknown): unknown {
  if (!isObject(value)) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return Number(value.doubleValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (isObject(value.arrayValue)) return (Array.isArray(value.arrayValue.values) ? value.arrayValue.values : []).map(otlpScalar);
  if (isObject(value.kvlistValue)) {
    const out: Obj = {};
    for (const kv of Array.isArray(value.kvlistValue.values) ? value.kvlistValue.values : [])
      if (isObject(kv) && typeof kv.key === 'string') out[kv.key] = otlpScalar(kv.value);
    return out;
  }
  return undefined;
}

function otlpAttributeMap(list: { key: string; value?: unknown }[] | undefined): Obj {
  const out: Obj = {};
  if (!list) return out;
  for (let i = 0; i < list.length; i++) {
    const value = otlpScalar(list[i].value);
    // Scalars (nearly every attribute) need no flattening call.
    if (typeof value === 'object' && value !== null) flattenInto(out, list[i].key, value);
    else out[list[i].key] = value;
  }
  return out;
}

/** Dotted keys for nested attribute maps (`{llm: {input_messages: [{message: …}]}}` → `llm.input_messages.0.message.role`). */
function flattenInto(out: Obj, key: string, value: unknown): void {
  if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) flattenInto(out, key ? `${key}.${k}` : k, v);
    return;
  }
  if (Array.isArray(value) && value.some((v) => isObject(v))) {
    value.forEach((v, i) => flattenInto(out, `${key}.${i}`, v));
    return;
  }
  out[key] = value;
}

function microsFromNanos(value: string | number): number {
  if (typeof value === 'number') return value / 1000;
  if (value.length === 0) return Number.NaN;
  // Dropping the last three digits is the integer division by 1000, read digit by digit (no regex, no sliced copy per span).
  let micros = 0;
  for (let i = 0; i < value.length; i++) {
    const digit = value.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
    if (i < value.length - 3) micros = micros * 10 + digit;
  }
  // Past 2^53 the sum above rounds at each step; Number() of the digits rounds once, as Number() of that BigInt does.
  return micros <= Number.MAX_SAFE_INTEGER ? micros : Number(value.slice(0, -3));
}

function microsFromTime(value: string | number): number {
  if (typeof value === 'number') return value > 1e17 ? value / 1000 : value > 1e14 ? value : value * 1e6; // ns, µs or s
  return isoMicros(value, 'date-parse');
}

// Named, not inline: an inline arrow is a new closure for every span checked.
function isPlainAttributeList(list: unknown): boolean {
  if (!Array.isArray(list)) return false;
  for (let i = 0; i < list.length; i++) {
    const a: unknown = list[i];
    if (!isObject(a) || typeof a.key !== 'string' || !(a.value === undefined || isObject(a.value))) return false;
  }
  return true;
}

const isPlainEvent = (e: unknown) => isObject(e) && (e.attributes === undefined || Array.isArray(e.attributes));

/** The well-formed common case without zod (tens of thousands of spans); anything else gets zod's exact message. */
function plainOtlpSpan(raw: unknown): z.infer<typeof otlpSpan> | undefined {
  if (!isOtlpSpanShape(raw) || !isObject(raw) || typeof raw.name !== 'string') return undefined;
  const start = raw.startTimeUnixNano;
  if (typeof start !== 'string' && typeof start !== 'number') return undefined;
  if (raw.attributes !== undefined && !isPlainAttributeList(raw.attributes)) return undefined;
  if (raw.events !== undefined && raw.events !== null && !Array.isArray(raw.events)) return undefined;
  if (Array.isArray(raw.events) && !raw.events.every(isPlainEvent)) return undefined;
  if (raw.parentSpanId !== undefined && raw.parentSpanId !== null && typeof raw.parentSpanId !== 'string') return undefined;
  if (raw.status !== undefined && raw.status !== null && !isObject(raw.status)) return undefined;
  return raw as z.infer<typeof otlpSpan>;
}

/** The events of a span without any (most spans): one shared, never written, list. */
const NO_EVENTS: Span['events'] = [];

/** The span's JSON path (`placePath`) is built only for a message about a bad span. */
function spanFromOtlp(raw: unknown, place: SpanPlace, source: SourceText): Span {
  const span =
    plainOtlpSpan(raw) ?? checkSchema(otlpSpan, raw, { ...source, basePath: [...(source.basePath ?? []), ...placePath(place, raw)] }, 'an OTLP span');
  const events = span.events;
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    parentId: span.parentSpanId || undefined,
    name: span.name,
    start: microsFromNanos(span.startTimeUnixNano),
    attributes: otlpAttributeMap(span.attributes),
    events: events && events.length ? events.map((e) => ({ name: e.name ?? '', attributes: otlpAttributeMap(e.attributes) })) : NO_EVENTS,
    statusError: span.status?.code === 2 || span.status?.code === 'STATUS_CODE_ERROR',
  };
}

function spanFromFlat(raw: unknown, place: SpanPlace, source: SourceText): Span {
  const span = checkSchema(flatSpan, raw, { ...source, basePath: [...(source.basePath ?? []), ...placePath(place, raw)] }, 'an OpenTelemetry span');
  const attributes: Obj = {};
  flattenInto(attributes, '', span.attributes ?? {});
  // Phoenix keeps the span kind beside the attributes too.
  if (typeof span.span_kind === 'string' && attributes['openinference.span.kind'] === undefined) attributes['openinference.span.kind'] = span.span_kind;
  const status = span.status_code ?? (isObject(span.status) ? span.status.status_code : undefined);
  return {
    traceId: span.context.trace_id,
    spanId: span.context.span_id,
    parentId: span.parent_id || undefined,
    name: span.name,
    start: microsFromTime(span.start_time),
    attributes,
    events: (span.events ?? []).map((e) => {
      const eventAttributes: Obj = {};
      flattenInto(eventAttributes, '', e.attributes ?? {});
      return { name: e.name ?? '', attributes: eventAttributes };
    }),
    statusError: status === 'ERROR' || status === 'StatusCode.ERROR',
  };
}

function isOtlpExport(value: unknown): value is { resourceSpans: unknown[] } {
  return isObject(value) && Array.isArray(value.resourceSpans);
}

function isFlatSpan(value: unknown): boolean {
  return isObject(value) && isObject(value.context) && 'trace_id' in value.context && 'span_id' in value.context;
}

function isOtlpSpanShape(value: unknown): boolean {
  return isObject(value) && typeof value.traceId === 'string' && typeof value.spanId === 'string' && 'startTimeUnixNano' in value;
}

/** A span of a source, unchecked: where it is (its JSON path is built only for a message) and its resource's attributes. */
interface SpanEntry {
  raw: unknown;
  /** The scope's path, the span's index in its `spans`; or, for a flat list, the index alone. */
  scopePath?: Path;
  index?: number;
  resource: Obj;
}

function entryPath(entry: SpanEntry): Path {
  if (entry.index === undefined) return [];
  return entry.scopePath ? [...entry.scopePath, 'spans', entry.index] : [entry.index];
}

/**
 * Where a span is, for a message about it: its entry (JSONL lines), or the split container it is
 * looked up in then (no wrapper per span is kept for the whole load of a large export).
 */
type SpanPlace = SpanEntry | { container: object };

function placePath(place: SpanPlace, raw: unknown): Path {
  if (!('container' in place)) return entryPath(place);
  const container = place.container;
  if (Array.isArray(container)) return [container.indexOf(raw)];
  let found: Path = [];
  if (isOtlpExport(container))
    otlpScopes(
      container,
      (spans, scopePath) => {
        const k = spans.indexOf(raw);
        if (k !== -1 && found.length === 0) found = [...scopePath, 'spans', k];
      },
      false,
    );
  return found;
}

/** Each span list of an OTLP export, with its scope's JSON path and resource attributes. */
function otlpScopes(value: { resourceSpans: unknown[] }, visit: (spans: unknown[], scopePath: Path, resource: Obj) => void, withResource = true): void {
  value.resourceSpans.forEach((rs, i) => {
    if (!isObject(rs)) return;
    const resource =
      withResource && isObject(rs.resource) && Array.isArray(rs.resource.attributes)
        ? otlpAttributeMap(rs.resource.attributes as { key: string; value?: unknown }[])
        : {};
    const scopes = Array.isArray(rs.scopeSpans) ? rs.scopeSpans : Array.isArray(rs.instrumentationLibrarySpans) ? rs.instrumentationLibrarySpans : [];
    const scopeKey = Array.isArray(rs.scopeSpans) ? 'scopeSpans' : 'instrumentationLibrarySpans';
    scopes.forEach((ss: unknown, j: number) => {
      if (isObject(ss) && Array.isArray(ss.spans)) visit(ss.spans, ['resourceSpans', i, scopeKey, j], resource);
    });
  });
}

/** Every span of an OTLP export, unchecked. */
function otlpSpanEntries(value: { resourceSpans: unknown[] }): SpanEntry[] {
  const out: SpanEntry[] = [];
  otlpScopes(value, (spans, scopePath, resource) => {
    for (let k = 0; k < spans.length; k++) out.push({ raw: spans[k], scopePath, index: k, resource });
  });
  return out;
}

function traceIdOf(raw: unknown): string | undefined {
  if (!isObject(raw)) return undefined;
  if (typeof raw.traceId === 'string') return raw.traceId;
  if (isObject(raw.context) && typeof raw.context.trace_id === 'string') return raw.context.trace_id;
  return undefined;
}

// ---- attribute readers ----

function str(attributes: Obj, key: string): string | undefined {
  const v = attributes[key];
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

function jsonAttribute(attributes: Obj, key: string): unknown {
  const v = attributes[key];
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}

type SpanKind = 'llm' | 'tool' | 'agent' | 'chain' | 'retriever' | 'other';

function kindOf(span: Span): SpanKind {
  const oi = str(span.attributes, 'openinference.span.kind')?.toUpperCase();
  if (oi === 'LLM') return 'llm';
  if (oi === 'TOOL') return 'tool';
  if (oi === 'AGENT') return 'agent';
  if (oi === 'CHAIN') return 'chain';
  if (oi === 'RETRIEVER') return 'retriever';
  if (oi) return 'other';
  const op = str(span.attributes, 'gen_ai.operation.name');
  if (op === 'chat' || op === 'text_completion' || op === 'generate_content') return 'llm';
  if (op === 'execute_tool') return 'tool';
  if (op === 'invoke_agent' || op === 'create_agent') return 'agent';
  if (op) return 'other';
  if (str(span.attributes, 'gen_ai.tool.name') !== undefined) return 'tool';
  if (str(span.attributes, 'gen_ai.system') !== undefined || str(span.attributes, 'gen_ai.request.model') !== undefined) return 'llm';
  return 'other';
}

/** `prefix.N.suffix…` groups of a flat attribute map, in index order. */
function indexed(attributes: Obj, prefix: string): Obj[] {
  const groups: Obj[] = [];
  const head = prefix + '.';
  for (const [key, value] of Object.entries(attributes)) {
    if (!key.startsWith(head)) continue;
    const rest = key.slice(head.length);
    const dot = rest.indexOf('.');
    const index = Number(dot === -1 ? rest : rest.slice(0, dot));
    if (!Number.isInteger(index) || index < 0 || index > 100000) continue;
    (groups[index] ??= {})[dot === -1 ? '' : rest.slice(dot + 1)] = value;
  }
  return groups.filter(Boolean);
}

interface ChatTurn {
  role?: string;
  content: string;
  toolCalls: ToolCall[];
}

function partsText(parts: unknown): string {
  if (typeof parts === 'string') return parts;
  if (!Array.isArray(parts)) return '';
  return parts.map(partText).filter(Boolean).join('\n');
}

/** The text of a part (`content`, else `text`), '' for none. */
function partText(p: unknown): string {
  if (typeof p === 'string') return p;
  if (!isObject(p)) return '';
  return typeof p.content === 'string' ? p.content : typeof p.text === 'string' ? p.text : '';
}

/** GenAI `gen_ai.*.messages` JSON: `[{role, parts: [{type: text|tool_call|tool_call_response, …}]}]`. */
function genAiMessages(value: unknown, withCalls = true): ChatTurn[] {
  if (!Array.isArray(value)) return [];
  // Lists sized once: a list grown by push reserves room for 16 on its first item, and a message's calls are kept.
  const turns = new Array<ChatTurn>(value.length);
  let turnCount = 0;
  for (let i = 0; i < value.length; i++) {
    const m: unknown = value[i];
    if (!isObject(m)) continue;
    const parts = Array.isArray(m.parts) ? (m.parts as unknown[]) : undefined;
    let callCount = 0;
    if (withCalls && parts) for (let k = 0; k < parts.length; k++) if (isToolCallPart(parts[k])) callCount++;
    // One pass over the parts (every LLM span has them): tool calls, and the text and reasoning parts' text.
    const calls = new Array<ToolCall>(callCount);
    let text = '';
    let anyPart = false;
    if (parts)
      for (let k = 0, c = 0; k < parts.length; k++) {
        const p = parts[k];
        if (!isObject(p)) continue;
        anyPart = true;
        if (withCalls && isToolCallPart(p)) calls[c++] = toolCallFromRaw(p.name as string, p.arguments, typeof p.id === 'string' ? p.id : undefined);
        if (p.type === 'text' || p.type === 'reasoning') {
          const t = partText(p);
          if (t) text = text ? `${text}\n${t}` : t;
        }
      }
    if (!anyPart) text = partsText(m.content);
    turns[turnCount++] = { role: typeof m.role === 'string' ? m.role : undefined, content: text, toolCalls: calls };
  }
  turns.length = turnCount;
  return turns;
}

function isToolCallPart(p: unknown): boolean {
  return isObject(p) && p.type === 'tool_call' && typeof p.name === 'string';
}

/** OpenInference `llm.{input,output}_messages.N.message.*` (flat keys). */
function openInferenceMessages(attributes: Obj, prefix: string): ChatTurn[] {
  return indexed(attributes, prefix).map((m) => {
    const calls: ToolCall[] = [];
    const callGroups = indexed(m, 'message.tool_calls');
    for (const c of callGroups) {
      const name = c['tool_call.function.name'];
      if (typeof name === 'string')
        calls.push(toolCallFromRaw(name, c['tool_call.function.arguments'], typeof c['tool_call.id'] === 'string' ? c['tool_call.id'] : undefined));
    }
    let content = typeof m['message.content'] === 'string' ? m['message.content'] : '';
    if (!content)
      content = indexed(m, 'message.contents')
        .map((c) => (typeof c['message_content.text'] === 'string' ? c['message_content.text'] : ''))
        .filter(Boolean)
        .join('\n');
    return { role: typeof m['message.role'] === 'string' ? m['message.role'] : undefined, content, toolCalls: calls };
  });
}

/** The older GenAI `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` (OpenLLMetry). */
function legacyGenAiMessages(attributes: Obj, prefix: string): ChatTurn[] {
  return indexed(attributes, prefix).map((m) => {
    const calls = indexed(m, 'tool_calls')
      .filter((c) => typeof c.name === 'string')
      .map((c) => toolCallFromRaw(c.name as string, c.arguments, typeof c.id === 'string' ? c.id : undefined));
    return { role: typeof m.role === 'string' ? m.role : undefined, content: typeof m.content === 'string' ? m.content : '', toolCalls: calls };
  });
}

/** `withCalls` false: the turns' text only (the question is looked for in them; their tool calls are not read). */
function inputTurns(span: Span, withCalls: boolean): ChatTurn[] {
  const genAi = genAiMessages(jsonAttribute(span.attributes, 'gen_ai.input.messages'), withCalls);
  if (genAi.length) return genAi;
  const oi = openInferenceMessages(span.attributes, 'llm.input_messages');
  if (oi.length) return oi;
  return legacyGenAiMessages(span.attributes, 'gen_ai.prompt');
}

function outputTurns(span: Span): ChatTurn[] {
  const genAi = genAiMessages(jsonAttribute(span.attributes, 'gen_ai.output.messages'));
  if (genAi.length) return genAi;
  const oi = openInferenceMessages(span.attributes, 'llm.output_messages');
  if (oi.length) return oi;
  const legacy = legacyGenAiMessages(span.attributes, 'gen_ai.completion');
  if (legacy.length) return legacy;
  // GenAI events: `gen_ai.choice` carries the output message.
  return span.events
    .filter((e) => e.name === 'gen_ai.choice')
    .map((e) => {
      const message = jsonAttribute(e.attributes, 'message');
      const text = isObject(message) ? partsText(message.content) : (str(e.attributes, 'message.content') ?? '');
      return { role: 'assistant', content: text, toolCalls: [] };
    });
}

function short(text: string, max = 400): string {
  return text.length > max ? text.slice(0, max) + '…' : text;
}

function retrievedDocuments(attributes: Obj): string {
  return indexed(attributes, 'retrieval.documents')
    .map((d) => (typeof d['document.content'] === 'string' ? d['document.content'] : ''))
    .filter(Boolean)
    .join('\n\n');
}

function spanMessage(span: Span, kind: SpanKind, position: number): Message {
  const a = span.attributes;
  if (kind === 'llm') {
    const out = outputTurns(span);
    // One output message (the usual case) is used as it is: no joined copy of its text or its calls.
    let content = out.length === 1 ? out[0].content : '';
    const toolCalls = out.length === 1 ? out[0].toolCalls : [];
    if (out.length > 1) {
      for (const turn of out) {
        if (turn.content) content = content ? `${content}\n${turn.content}` : turn.content;
        toolCalls.push(...turn.toolCalls);
      }
    } else if (out.length === 0) content = str(a, 'output.value') ?? '';
    const message: Message = {
      position,
      role: 'assistant',
      agent: str(a, 'llm.model_name') ?? str(a, 'gen_ai.response.model') ?? str(a, 'gen_ai.request.model') ?? span.name,
      content,
      toolCalls,
    };
    if (span.statusError) message.isError = true;
    return message;
  }
  if (kind === 'tool' || kind === 'retriever') {
    // The retrieved documents are looked for (a walk of every attribute) only when the span has no output.
    const content = str(a, 'output.value') ?? str(a, 'gen_ai.tool.call.result') ?? retrievedDocuments(a);
    const agent = str(a, 'tool.name') ?? str(a, 'gen_ai.tool.name') ?? span.name;
    const callId = str(a, 'tool_call.id') ?? str(a, 'gen_ai.tool.call.id');
    // The call id in the literal (same field order): a field added afterwards costs a property store per message.
    const message: Message = callId
      ? { position, role: 'tool', agent, content, toolCalls: [], toolCallId: callId }
      : { position, role: 'tool', agent, content, toolCalls: [] };
    if (span.statusError) message.isError = true;
    return message;
  }
  const agent = str(a, 'agent.name') ?? str(a, 'gen_ai.agent.name') ?? span.name;
  const input = str(a, 'input.value');
  const label =
    kind === 'agent' ? 'agent' : kind === 'chain' ? 'chain' : (str(a, 'openinference.span.kind')?.toLowerCase() ?? str(a, 'gen_ai.operation.name') ?? 'span');
  return { position, role: 'system', agent, content: `${label} ${agent}${input ? `: ${short(input)}` : ''}`, toolCalls: [] };
}

/** The first span (in start order) without a parent in its trace. */
function rootSpan(sorted: Span[]): Span | undefined {
  for (let i = 0; i < sorted.length; i++) {
    const parent = sorted[i].parentId;
    if (!parent) return sorted[i];
    let found = false;
    for (let j = 0; j < sorted.length && !found; j++) found = sorted[j].spanId === parent;
    if (!found) return sorted[i];
  }
  return undefined;
}

/** One trace's spans as a trajectory: one message per span, in start-time order. */
function traceTrajectory(spans: Span[], id: string, resource: Obj): Trajectory {
  // A plain array, not a Float64Array: a typed array per trace costs more to make than its few numbers.
  const starts = new Array<number>(spans.length);
  for (let i = 0; i < spans.length; i++) starts[i] = spans[i].start;
  const sorted = startOrder(starts)?.map((i) => spans[i]) ?? spans;
  // One pass: each span's kind once, its message, and the trace's models and token counts.
  const messages: Message[] = new Array(sorted.length);
  // A list, not a Set: a trace names one model or a few; made with its first model (a list grown from empty reserves room for 17).
  let models: string[] | undefined;
  let firstLlm: Span | undefined;
  let rootIsLlm = false;
  let inputTokens = 0;
  let outputTokens = 0;
  const root = rootSpan(sorted);
  for (let position = 0; position < sorted.length; position++) {
    const s = sorted[position];
    const kind = kindOf(s);
    if (kind === 'llm') {
      firstLlm ??= s;
      if (s === root) rootIsLlm = true;
    }
    messages[position] = spanMessage(s, kind, position);
    const model = str(s.attributes, 'llm.model_name') ?? str(s.attributes, 'gen_ai.request.model');
    if (model) {
      if (!models) models = [model];
      else if (!models.includes(model)) models.push(model);
    }
    inputTokens += Number(s.attributes['llm.token_count.prompt'] ?? s.attributes['gen_ai.usage.input_tokens'] ?? 0) || 0;
    outputTokens += Number(s.attributes['llm.token_count.completion'] ?? s.attributes['gen_ai.usage.output_tokens'] ?? 0) || 0;
  }
  // Tool calls an LLM span lists link to TOOL spans by id; without ids, the n-th TOOL span after a step answers its n-th call.
  linkToolReturns(messages);
  const question = firstLlm ? inputTurns(firstLlm, false).find((t) => t.role === 'user' && t.content.trim())?.content : undefined;
  const rootInput = root ? str(root.attributes, 'input.value') : undefined;
  const rootOutput = root && !rootIsLlm ? str(root.attributes, 'output.value') : undefined;
  const metadata: Obj = { traceId: spans[0]?.traceId, spans: spans.length };
  if (root) metadata.rootSpan = root.name;
  if (models) metadata.models = models;
  if (inputTokens || outputTokens) metadata.tokens = { input: inputTokens, output: outputTokens };
  if (typeof resource['service.name'] === 'string') metadata.service = resource['service.name'];
  return finishTrajectory({ format: 'otel', id, messages, query: question ?? rootInput, predictedAnswer: rootOutput, metadata });
}

// ---- containers ----

interface TraceRef {
  otelTrace: string;
}

/** A trace's spans as they are in the source, and the attributes of its first span's resource. */
interface TraceSpans {
  spans: unknown[];
  resource: Obj;
}

/** Split values carry the whole source and the trace to read from it; the spans of each source are indexed once. */
const spanIndex = new WeakMap<object, { traces: Map<string, TraceSpans>; place: SpanPlace }>();

function byTrace(container: object): { traces: Map<string, TraceSpans>; place: SpanPlace } {
  let index = spanIndex.get(container);
  if (!index) {
    const traces = new Map<string, TraceSpans>();
    const add = (raw: unknown, resource: Obj) => {
      const trace = traceIdOf(raw) ?? '';
      let spans = traces.get(trace);
      if (!spans) traces.set(trace, (spans = { spans: [], resource }));
      spans.spans.push(raw);
    };
    // Each span straight into its trace's list: no list of every span of the file first.
    if (isOtlpExport(container))
      otlpScopes(container, (spans, _scopePath, resource) => {
        for (let k = 0; k < spans.length; k++) add(spans[k], resource);
      });
    else if (Array.isArray(container)) {
      const none: Obj = {};
      for (let k = 0; k < container.length; k++) add(container[k], none);
    }
    spanIndex.set(container, (index = { traces, place: { container } }));
  }
  return index;
}

function normalize(raw: unknown, place: SpanPlace, source: SourceText): Span {
  return isObject(raw) && 'context' in raw ? spanFromFlat(raw, place, source) : spanFromOtlp(raw, place, source);
}

function splitOtel(value: unknown): SplitRecord[] {
  const container = isObject(value) && 'otelSource' in value ? (value.otelSource as object) : (value as object);
  const traces = [...byTrace(container).traces.keys()];
  // A span without a trace id is one record of its own, so its load names the missing field.
  return traces.map((trace) => ({
    id: trace || 'no-trace-id',
    value: { otelSource: container, otelTrace: trace } satisfies TraceRef & { otelSource: object },
    path: [],
  }));
}

function loadOtel(value: unknown, source: SourceText, id: string): Trajectory {
  const ref = isObject(value) && 'otelTrace' in value ? (value as unknown as TraceRef & { otelSource: object }) : undefined;
  const container = ref ? ref.otelSource : (value as object);
  const { traces, place } = byTrace(container);
  const trace = ref ? ref.otelTrace : [...traces.keys()][0];
  const raws = traces.get(trace ?? '');
  if (!raws?.spans.length) checkSchema(z.array(z.unknown()).min(1, { message: 'expected at least one span' }), [], source, 'an OpenTelemetry span export');
  const spans = new Array<Span>(raws!.spans.length);
  for (let i = 0; i < spans.length; i++) spans[i] = normalize(raws!.spans[i], place, source);
  return traceTrajectory(spans, id, raws!.resource);
}

function detectOtel(value: unknown): FormatMatch | undefined {
  // One malformed span does not hide the others: its trace's record names the span's bad field.
  if (isOtlpExport(value)) {
    let count = 0;
    let shaped = false;
    otlpScopes(
      value,
      (spans) => {
        count += spans.length;
        shaped ||= spans.some(isOtlpSpanShape);
      },
      false,
    );
    if (!shaped)
      return {
        score: 0.4,
        reason: 'an OTLP export (`resourceSpans`)',
        missing: ['resourceSpans[].scopeSpans[].spans[] with traceId, spanId, startTimeUnixNano'],
      };
    return { score: 0.95, reason: `an OTLP JSON export (\`resourceSpans\`, ${count} spans)` };
  }
  if (Array.isArray(value) && value.length > 0 && (isFlatSpan(value[0]) || isOtlpSpanShape(value[0]))) {
    const spans = value.filter((v) => isFlatSpan(v) || isOtlpSpanShape(v)).length;
    if (spans * 2 < value.length) return { score: 0.4, reason: 'a JSON array of OpenTelemetry spans', missing: ['trace and span ids in most elements'] };
    return { score: 0.9, reason: `a JSON array of ${value.length} OpenTelemetry spans` };
  }
  return undefined;
}

/** JSONL: one span per line, or one OTLP export per line; together they make one record per trace. */
function detectOtelLines(values: unknown[]): FormatMatch | undefined {
  // Counted in one pass without filtered copies: every JSONL file's lines are walked here.
  let spans = 0;
  let exports = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!isObject(v)) continue;
    if (isFlatSpan(v) || isOtlpSpanShape(v)) spans++;
    if (isOtlpExport(v)) exports++;
  }
  if (spans === 0 && exports === 0) return undefined;
  if ((spans + exports) * 2 < values.length)
    return { score: 0.4, reason: `JSONL with ${spans + exports} of ${values.length} lines OpenTelemetry spans`, missing: ['trace and span ids on most lines'] };
  return { score: 0.9, reason: exports ? `JSONL of ${exports} OTLP exports` : `JSONL of ${spans} OpenTelemetry spans (one per line)` };
}

function loadOtelLines(values: unknown[], lineNumbers: number[], source: SourceText): { id: string; trajectory: Trajectory; line: number }[] {
  const traces = new Map<string, { spans: Span[]; resource: Obj; line: number }>();
  const lineText = lineTexts(source.text);
  values.forEach((value, i) => {
    const lineSource: SourceText = { file: source.file, text: lineText(lineNumbers[i]), lineOffset: lineNumbers[i] - 1 };
    const entries: SpanEntry[] = isOtlpExport(value) ? otlpSpanEntries(value) : [{ raw: value, resource: {} }];
    for (const entry of entries) {
      const span = { ...normalize(entry.raw, entry, lineSource), line: lineNumbers[i] };
      let trace = traces.get(span.traceId);
      if (!trace) traces.set(span.traceId, (trace = { spans: [], resource: entry.resource, line: lineNumbers[i] }));
      trace.spans.push(span);
    }
  });
  return [...traces].map(([traceId, trace]) => ({ id: traceId, trajectory: traceTrajectory(trace.spans, traceId, trace.resource), line: trace.line }));
}

/** The text of each line by its 1-based number, so a schema error on a line gets its column. */
export function lineTexts(text: string | undefined): (lineNumber: number) => string | undefined {
  if (text === undefined) return () => undefined;
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (lineNumber) => {
    const start = starts[lineNumber - 1];
    if (start === undefined) return undefined;
    const end = starts[lineNumber];
    return text.slice(start, end === undefined ? undefined : end - 1);
  };
}

export const otelReader: TrajectoryReader = {
  id: 'otel',
  label: 'OpenTelemetry GenAI / OpenInference spans',
  detect: detectOtel,
  load: loadOtel,
  split: splitOtel,
  detectLines: detectOtelLines,
  loadLines: loadOtelLines,
};
