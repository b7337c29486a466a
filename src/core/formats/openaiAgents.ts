import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, ToolCall, Trajectory } from '../model/trajectory';
import { isObject } from './fields';
import { finishTrajectory } from './finish';
import type { FormatMatch, SplitRecord, TrajectoryReader } from './registry';
import { lineTexts } from './otel';
import { isoMicros, startOrder } from './startOrder';
import { linkToolReturns, toolCallFromRaw } from './toolCalls';

// OpenAI Agents SDK traces (openai/openai-agents-python `agents.tracing`), as its exporter sends
// them (`{data: [item.export(), …]}`), as a JSON array of those items, or as JSONL of them: trace
// items `{object: "trace", id, workflow_name, group_id, metadata}` and span items `{object:
// "trace.span", id, trace_id, parent_id, started_at, ended_at, span_data: {type, …}, error}` with
// span_data agent {name, handoffs, tools}, generation {input, output (chat messages), model,
// usage}, response {response_id, usage}, function {name, input, output}, handoff {from_agent,
// to_agent}, guardrail {name, triggered}, custom, mcp_tools…. One record per trace; its trace item
// first, then one message per span in start order. Generation and response spans are decision
// steps, function spans tool returns. A response span carries only the response id, not the
// model's output; the SDK's run loop runs exactly the tool calls of the response before them, so
// the function spans up to the next model call are that response's calls.

type Obj = Record<string, unknown>;
type Path = (string | number)[];

const spanItem = z.looseObject({
  object: z.literal('trace.span', { message: 'expected "trace" or "trace.span"' }),
  id: z.string({ message: 'expected the span id as a string' }),
  trace_id: z.string({ message: 'expected the trace id as a string' }),
  parent_id: z.string().nullish(),
  started_at: z.string({ message: 'expected the start time (ISO 8601)' }).nullish(),
  span_data: z.looseObject({ type: z.string({ message: 'expected the span type (agent, generation, function, response, handoff…)' }) }),
  error: z.looseObject({ message: z.string().optional() }).nullish(),
});
const traceItem = z.looseObject({
  object: z.literal('trace'),
  id: z.string({ message: 'expected the trace id as a string' }),
  workflow_name: z.string().nullish(),
});
type SpanItem = z.infer<typeof spanItem>;

/** What `spanItem` accepts, checked by hand for the common case (exports run to thousands of spans). */
function plainSpan(raw: unknown): SpanItem | undefined {
  if (!isObject(raw) || raw.object !== 'trace.span' || typeof raw.id !== 'string' || typeof raw.trace_id !== 'string') return undefined;
  if (!(raw.parent_id === undefined || raw.parent_id === null || typeof raw.parent_id === 'string')) return undefined;
  if (!(raw.started_at === undefined || raw.started_at === null || typeof raw.started_at === 'string')) return undefined;
  if (!isObject(raw.span_data) || typeof raw.span_data.type !== 'string') return undefined;
  if (!(raw.error === undefined || raw.error === null || (isObject(raw.error) && (raw.error.message === undefined || typeof raw.error.message === 'string'))))
    return undefined;
  return raw as SpanItem;
}

/** What `traceItem` accepts, checked by hand for the common case. */
function plainTrace(raw: Obj): Obj | undefined {
  if (raw.object !== 'trace' || typeof raw.id !== 'string') return undefined;
  return raw.workflow_name === undefined || raw.workflow_name === null || typeof raw.workflow_name === 'string' ? raw : undefined;
}

function isTraceItem(value: unknown): value is Obj {
  return isObject(value) && value.object === 'trace';
}

function isItem(value: unknown): value is Obj {
  return isObject(value) && (value.object === 'trace' || value.object === 'trace.span');
}

function traceOf(value: unknown): string {
  if (!isObject(value)) return '';
  if (value.object === 'trace' && typeof value.id === 'string') return value.id;
  return typeof value.trace_id === 'string' ? value.trace_id : '';
}

function itemsOf(value: unknown): { list: unknown[]; base: Path } | undefined {
  if (Array.isArray(value)) return { list: value, base: [] };
  if (isObject(value) && Array.isArray(value.data)) return { list: value.data, base: ['data'] };
  return undefined;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

function messageText(m: Obj): string {
  if (typeof m.content === 'string') return m.content;
  if (Array.isArray(m.content)) return m.content.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('\n');
  return '';
}

/** The calls of an output message; the shared empty list when it has none (callers only read it or copy it). */
function generationCalls(m: Obj): readonly ToolCall[] {
  if (!Array.isArray(m.tool_calls)) return NO_CALLS;
  const calls: ToolCall[] = [];
  for (let i = 0; i < m.tool_calls.length; i++) {
    const c: unknown = m.tool_calls[i];
    if (isObject(c) && isObject(c.function) && typeof c.function.name === 'string')
      calls.push(toolCallFromRaw(c.function.name, c.function.arguments, typeof c.id === 'string' ? c.id : undefined));
  }
  return calls;
}

const NO_CALLS: readonly ToolCall[] = [];

function spanMessage(span: SpanItem, position: number): Message {
  const data = span.span_data as Obj & { type: string };
  const name = typeof data.name === 'string' ? data.name : data.type;
  const error = span.error?.message;
  let message: Message;
  switch (data.type) {
    case 'generation': {
      // One pass over the output messages: their text, one per line, and their tool calls.
      let content = '';
      let toolCalls: ToolCall[] = [];
      if (Array.isArray(data.output))
        for (const output of data.output) {
          if (!isObject(output)) continue;
          const piece = messageText(output);
          if (piece) content = content ? `${content}\n${piece}` : piece;
          const calls = generationCalls(output);
          // A non-empty list is a new one of this message's own: taken as it is.
          if (calls.length) toolCalls = toolCalls.length ? [...toolCalls, ...calls] : (calls as ToolCall[]);
        }
      message = { position, role: 'assistant', agent: typeof data.model === 'string' ? data.model : 'generation', content, toolCalls };
      break;
    }
    case 'response':
      message = { position, role: 'assistant', agent: 'response', content: `model response ${text(data.response_id)}`.trim(), toolCalls: [] };
      break;
    case 'function':
      message = { position, role: 'tool', agent: name, content: text(data.output), toolCalls: [] };
      break;
    case 'agent': {
      const tools = Array.isArray(data.tools) && data.tools.length ? ` (tools: ${data.tools.join(', ')})` : '';
      message = { position, role: 'system', agent: name, content: `agent ${name}${tools}`, toolCalls: [] };
      break;
    }
    case 'handoff':
      message = {
        position,
        role: 'system',
        agent: text(data.from_agent) || 'handoff',
        content: `handoff ${text(data.from_agent)} → ${text(data.to_agent)}`,
        toolCalls: [],
      };
      break;
    case 'guardrail':
      message = { position, role: 'system', agent: name, content: `guardrail ${name}${data.triggered ? ' triggered' : ' passed'}`, toolCalls: [] };
      break;
    default:
      message = { position, role: 'system', agent: name, content: `${data.type} ${name === data.type ? '' : name}`.trim(), toolCalls: [] };
  }
  if (error) {
    message.isError = true;
    message.content = message.content ? `${message.content}\nError: ${error}` : `Error: ${error}`;
  }
  return message;
}

/** The function spans after a response span are its calls (see the header comment); `messages[offset + i]` is span i's. */
function attachResponseCalls(spans: SpanItem[], messages: Message[], offset: number): void {
  let response: Message | undefined;
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i];
    const data = span.span_data as Obj;
    const type = data.type;
    if (type === 'response' || type === 'generation') response = type === 'response' ? messages[offset + i] : undefined;
    else if (type === 'function' && response) {
      const id = `fn:${span.id}`;
      response.toolCalls.push(toolCallFromRaw(typeof data.name === 'string' ? data.name : 'function', data.input, id));
      messages[offset + i].toolCallId = id;
    }
  }
}

/**
 * Where a trace's items are, for a message about a bad one: the source's item list and its JSON
 * path (the item's index is looked up then), or each item's own JSONL line. Items are kept as
 * they are, without a wrapper each: an export holds tens of thousands, kept for the whole load.
 */
type ItemPlaces = { list: unknown[]; base: Path } | { lineSources: SourceText[] };

/** The source a bad item's message is given: its line's, or the file's with the item's path. */
function itemSource(places: ItemPlaces, k: number, raw: unknown, source: SourceText): SourceText {
  if ('lineSources' in places) return places.lineSources[k];
  return { ...source, basePath: [...(source.basePath ?? []), ...places.base, places.list.indexOf(raw)] };
}

// Trace and span items are checked by hand for the common case, read in place (no wrapper per
// item), and their messages filled into one array: an export holds tens of thousands of spans.
function traceTrajectory(items: unknown[], places: ItemPlaces, source: SourceText, id: string): Trajectory {
  // Both lists sized once (counted first): a list grown by push reserves room for 16 on its first item, per trace.
  let traceCount = 0;
  for (let k = 0; k < items.length; k++) if (isTraceItem(items[k])) traceCount++;
  const traces = new Array<Obj>(traceCount);
  const spans = new Array<SpanItem>(items.length - traceCount);
  for (let k = 0, t = 0, sp = 0; k < items.length; k++) {
    const raw = items[k];
    if (isTraceItem(raw)) traces[t++] = plainTrace(raw) ?? checkSchema(traceItem, raw, itemSource(places, k, raw, source), 'an OpenAI Agents trace');
    else spans[sp++] = plainSpan(raw) ?? checkSchema(spanItem, raw, itemSource(places, k, raw, source), 'an OpenAI Agents span');
  }
  // Millisecond start times, as Date.parse reads them (spans within one millisecond keep their order), each parsed once.
  // A plain array, not a Float64Array: a typed array per trace costs more to make than its few numbers.
  const starts = new Array<number>(spans.length);
  for (let i = 0; i < spans.length; i++) {
    const startedAt = spans[i].started_at;
    starts[i] = startedAt ? Math.floor(isoMicros(startedAt, 'date-parse') / 1000) : Number.NaN;
  }
  const order = startOrder(starts);
  if (order) {
    const reordered = order.map((i) => spans[i]);
    for (let i = 0; i < reordered.length; i++) spans[i] = reordered[i];
  }
  const offset = traces.length;
  const messages: Message[] = new Array(offset + spans.length);
  for (let position = 0; position < offset; position++)
    messages[position] = { position, role: 'system', agent: 'trace', content: `workflow ${text(traces[position].workflow_name)}`.trim(), toolCalls: [] };
  let firstGeneration: SpanItem | undefined;
  // A list, not a Set: a trace names one agent or a few.
  let agentNames: unknown[] | undefined;
  for (let i = 0; i < spans.length; i++) {
    const data = spans[i].span_data as Obj;
    if (data.type === 'generation') firstGeneration ??= spans[i];
    else if (data.type === 'agent') {
      agentNames ??= [];
      if (!agentNames.includes(data.name)) agentNames.push(data.name);
    }
    messages[offset + i] = spanMessage(spans[i], offset + i);
  }
  attachResponseCalls(spans, messages, offset);
  linkToolReturns(messages);
  const firstInput = firstGeneration ? (firstGeneration.span_data as Obj).input : undefined;
  const question = Array.isArray(firstInput) ? firstInput.filter(isObject).find((m) => m.role === 'user') : undefined;
  const metadata: Obj = { spans: spans.length };
  if (traces[0]) {
    metadata.workflow = traces[0].workflow_name;
    if (traces[0].group_id) metadata.group_id = traces[0].group_id;
    if (traces[0].metadata) metadata.traceMetadata = traces[0].metadata;
  }
  if (agentNames) metadata.agents = agentNames;
  return finishTrajectory({
    format: 'openai-agents',
    id,
    messages,
    query: question ? messageText(question) || undefined : undefined,
    // A response span's text is not exported: only generation spans hold an answer.
    inferPredictedAnswer: firstGeneration !== undefined,
    metadata,
  });
}

interface TraceIndex {
  /** Each trace's items, in source order. */
  traces: Map<string, unknown[]>;
  places: ItemPlaces;
}

const index = new WeakMap<object, TraceIndex>();

function byTrace(container: object): TraceIndex {
  let found = index.get(container);
  if (found) return found;
  const traces = new Map<string, unknown[]>();
  const items = itemsOf(container);
  const list = items?.list ?? [];
  for (let i = 0; i < list.length; i++) {
    const key = traceOf(list[i]);
    let trace = traces.get(key);
    if (!trace) traces.set(key, (trace = []));
    trace.push(list[i]);
  }
  found = { traces, places: { list, base: items?.base ?? [] } };
  index.set(container, found);
  return found;
}

function split(value: unknown): SplitRecord[] {
  return [...byTrace(value as object).traces.keys()].map((trace) => ({
    id: trace || 'no-trace-id',
    value: { agentsSource: value, agentsTrace: trace },
    path: [],
  }));
}

function load(value: unknown, source: SourceText, id: string): Trajectory {
  const ref = isObject(value) && 'agentsTrace' in value ? (value as { agentsSource: object; agentsTrace: string }) : undefined;
  const container = ref ? ref.agentsSource : (value as object);
  const { traces, places } = byTrace(container);
  const items = traces.get(ref ? ref.agentsTrace : ([...traces.keys()][0] ?? '')) ?? [];
  if (!items.length) checkSchema(spanItem, undefined, source, 'an OpenAI Agents span');
  return traceTrajectory(items, places, source, id);
}

// Every reader's detect sees every loaded value: a list with no trace item among its first entries
// is not an export (exports start with one), and is not walked to its end to learn that.
const DETECT_SAMPLE = 50;

function someItemAmongFirst(list: unknown[]): boolean {
  for (let i = 0; i < list.length && i < DETECT_SAMPLE; i++) if (isItem(list[i])) return true;
  return false;
}

function detect(value: unknown): FormatMatch | undefined {
  const items = itemsOf(value);
  if (!items || items.list.length === 0 || !someItemAmongFirst(items.list)) return undefined;
  const where = items.base.length ? '`data`' : 'a JSON array';
  if (!items.list.some((i) => isObject(i) && i.object === 'trace.span'))
    return { score: 0.4, reason: `${where} of OpenAI Agents trace items`, missing: ['"trace.span" items'] };
  const bad = items.list.findIndex((i) => !isItem(i));
  if (bad !== -1) return { score: 0.4, reason: `${where} of OpenAI Agents trace items`, missing: [`\`object\` "trace" or "trace.span" in item ${bad}`] };
  return { score: 0.9, reason: `${where} of OpenAI Agents SDK traces and spans (\`object\`: "trace.span", \`span_data\`)` };
}

function detectLines(values: unknown[]): FormatMatch | undefined {
  if (!someItemAmongFirst(values)) return undefined;
  const items = values.filter(isItem).length;
  if (items < values.length)
    return {
      score: 0.4,
      reason: `JSONL with ${items} of ${values.length} lines OpenAI Agents trace items`,
      missing: ['`object` "trace" or "trace.span" on every line'],
    };
  return { score: 0.9, reason: `JSONL of ${items} OpenAI Agents SDK trace items` };
}

function loadLines(values: unknown[], lineNumbers: number[], source: SourceText): { id: string; trajectory: Trajectory; line: number }[] {
  const traces = new Map<string, { items: unknown[]; lineSources: SourceText[]; line: number }>();
  const lineText = lineTexts(source.text);
  values.forEach((raw, i) => {
    const key = traceOf(raw);
    let trace = traces.get(key);
    if (!trace) traces.set(key, (trace = { items: [], lineSources: [], line: lineNumbers[i] }));
    trace.items.push(raw);
    trace.lineSources.push({ file: source.file, text: lineText(lineNumbers[i]), lineOffset: lineNumbers[i] - 1 });
  });
  return [...traces].map(([traceId, trace]) => ({
    id: traceId || 'no-trace-id',
    trajectory: traceTrajectory(trace.items, trace, source, traceId || 'no-trace-id'),
    line: trace.line,
  }));
}

export const openAiAgentsReader: TrajectoryReader = {
  id: 'openai-agents',
  label: 'OpenAI Agents SDK traces',
  detect,
  load,
  split,
  detectLines,
  loadLines,
};
