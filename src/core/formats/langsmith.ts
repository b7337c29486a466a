import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, ToolCall, Trajectory } from '../model/trajectory';
import { isObject } from './fields';
import { finishTrajectory } from './finish';
import type { FormatMatch, SplitRecord, TrajectoryReader } from './registry';
import { lineTexts } from './otel';
import { isoMicros, startOrder } from './startOrder';
import { linkToolReturns, NO_TOOL_CALLS, toolCallFromRaw } from './toolCalls';

// LangSmith run exports (langchain-ai/langsmith-sdk `Run`): a run tree `{id, name, run_type
// (llm/chain/tool/retriever/prompt/parser/embedding), inputs, outputs, error, start_time,
// trace_id, dotted_order, parent_run_id, child_runs[]}`, a flat JSON list of runs (as
// `client.list_runs` returns them), or a JSONL of flat runs (one run per line, as exports and
// `list_runs` dumps write them). One record per trace (`trace_id`, else the root run's id, found
// through `parent_run_id`); one message per run in start order, so message i is the i-th run of
// the trace by `start_time` (ties keep source order) — in a JSONL whose lines interleave traces
// or are not in time order, that is not line i (the record's `metadata.runLines[i]` is its line):
// llm runs are decision steps (their output message and its tool calls), tool and retriever runs
// tool returns, chain and other runs system entries naming the run. Messages inside inputs and
// outputs are LangChain serialized messages (`{lc, type: "constructor", id: [..., "AIMessage"],
// kwargs}`), OpenAI-style `{role, content, tool_calls}`, or `{type: "ai", content}` dicts.

type Obj = Record<string, unknown>;
type Path = (string | number)[];

const runSchema = z.looseObject({
  id: z.string({ message: 'expected the run id as a string' }),
  name: z.string({ message: 'expected the run name as a string' }),
  run_type: z.string({ message: 'expected run_type (llm, chain, tool, retriever…)' }),
  start_time: z.union([z.string(), z.number()], { message: 'expected the start time (ISO 8601)' }).nullish(),
  inputs: z.record(z.string(), z.unknown()).nullish(),
  outputs: z.record(z.string(), z.unknown()).nullish(),
  error: z.string().nullish(),
  parent_run_id: z.string().nullish(),
  trace_id: z.string().nullish(),
  dotted_order: z.string().nullish(),
  child_runs: z.array(z.unknown()).nullish(),
});
type Run = z.infer<typeof runSchema>;

const optional = (v: unknown, type: 'string' | 'number') => v === undefined || v === null || typeof v === type;
const optionalMap = (v: unknown) => v === undefined || v === null || isObject(v);

/** What `runSchema` accepts, checked by hand for the common case (exports run to thousands of runs). */
function plainRun(raw: unknown): z.infer<typeof runSchema> | undefined {
  if (!isObject(raw) || typeof raw.id !== 'string' || typeof raw.name !== 'string' || typeof raw.run_type !== 'string') return undefined;
  if (!(optional(raw.start_time, 'string') || typeof raw.start_time === 'number') || !optionalMap(raw.inputs) || !optionalMap(raw.outputs)) return undefined;
  if (!optional(raw.error, 'string') || !optional(raw.parent_run_id, 'string') || !optional(raw.trace_id, 'string') || !optional(raw.dotted_order, 'string'))
    return undefined;
  if (!(raw.child_runs === undefined || raw.child_runs === null || Array.isArray(raw.child_runs))) return undefined;
  return raw as z.infer<typeof runSchema>;
}

function looksRun(value: unknown): value is Obj {
  return isObject(value) && typeof value.run_type === 'string' && ('inputs' in value || 'child_runs' in value || 'outputs' in value);
}

/** Every run of a tree, depth first, as it is in the source (no wrapper per run: exports hold thousands, kept for the whole load). */
function flattenTree(raw: unknown, out: unknown[]): void {
  out.push(raw);
  if (isObject(raw) && Array.isArray(raw.child_runs)) for (let i = 0; i < raw.child_runs.length; i++) flattenTree(raw.child_runs[i], out);
}

/** The JSON path of `run` in `value` (a run tree or a list of them), looked up only for a message about the run. */
function pathOf(value: unknown, run: unknown): Path {
  const search = (node: unknown, path: Path): Path | undefined => {
    if (node === run) return path;
    if (!isObject(node) || !Array.isArray(node.child_runs)) return undefined;
    for (let i = 0; i < node.child_runs.length; i++) {
      const found = search(node.child_runs[i], [...path, 'child_runs', i]);
      if (found) return found;
    }
    return undefined;
  };
  if (!Array.isArray(value)) return search(value, []) ?? [];
  for (let i = 0; i < value.length; i++) {
    const found = search(value[i], [i]);
    if (found) return found;
  }
  return [];
}

function micros(value: unknown): number {
  if (typeof value === 'number') return value > 1e14 ? value : value * 1e6;
  if (typeof value !== 'string') return Number.NaN;
  // LangSmith writes naive UTC times ("2024-05-01T10:00:00.123456").
  return isoMicros(value, 'utc');
}

// ---- messages inside inputs/outputs ----

interface Turn {
  role: string;
  content: string;
  toolCalls: ToolCall[];
  toolCallId?: string;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((p) => (typeof p === 'string' ? p : isObject(p) && typeof p.text === 'string' ? p.text : ''))
      .filter(Boolean)
      .join('\n');
  return '';
}

const LC_ROLES: Record<string, string> = {
  HumanMessage: 'user',
  AIMessage: 'assistant',
  AIMessageChunk: 'assistant',
  SystemMessage: 'system',
  ToolMessage: 'tool',
  FunctionMessage: 'tool',
};
const TYPE_ROLES: Record<string, string> = { human: 'user', ai: 'assistant', system: 'system', tool: 'tool', user: 'user', assistant: 'assistant' };

/** A listed call's name: LangChain's `{name, args}` or OpenAI's `{function: {name, arguments}}`. */
function listedCallName(c: unknown): string | undefined {
  if (!isObject(c)) return undefined;
  if (typeof c.name === 'string') return c.name;
  return isObject(c.function) && typeof c.function.name === 'string' ? c.function.name : undefined;
}

function toolCallsOf(m: Obj): ToolCall[] {
  if (Array.isArray(m.tool_calls)) {
    const listed: unknown[] = m.tool_calls;
    // Counted first, then one list of the exact size: a kept list grown by push reserves room for 17.
    let count = 0;
    for (let i = 0; i < listed.length; i++) if (listedCallName(listed[i]) !== undefined) count++;
    if (count === 0) return NO_TOOL_CALLS;
    const calls = new Array<ToolCall>(count);
    for (let i = 0, k = 0; i < listed.length; i++) {
      const name = listedCallName(listed[i]);
      if (name === undefined) continue;
      const c = listed[i] as Obj;
      const raw = typeof c.name === 'string' ? (c.args ?? c.arguments) : (c.function as Obj).arguments;
      calls[k++] = toolCallFromRaw(name, raw, typeof c.id === 'string' ? c.id : undefined);
    }
    return calls;
  }
  if (isObject(m.additional_kwargs)) return toolCallsOf(m.additional_kwargs);
  return NO_TOOL_CALLS;
}

/**
 * A message's fields as a turn of `role` (read in place: serialized messages are not copied);
 * `withCalls` false when only its text and call id are read.
 */
function turnFrom(fields: Obj, role: string, withCalls = true): Turn {
  const turn: Turn = { role, content: textOf(fields.content), toolCalls: withCalls ? toolCallsOf(fields) : NO_TOOL_CALLS };
  if (typeof fields.tool_call_id === 'string') turn.toolCallId = fields.tool_call_id;
  return turn;
}

function roleOf(fields: Obj): string | undefined {
  if (typeof fields.role === 'string') return TYPE_ROLES[fields.role] ?? fields.role;
  return typeof fields.type === 'string' ? TYPE_ROLES[fields.type] : undefined;
}

function turnOf(value: unknown, withCalls = true): Turn | undefined {
  if (!isObject(value)) return undefined;
  if (value.lc !== undefined && Array.isArray(value.id) && isObject(value.kwargs))
    return turnFrom(value.kwargs, LC_ROLES[String(value.id.at(-1))] ?? 'system', withCalls);
  const role = roleOf(value);
  return role ? turnFrom(value, role, withCalls) : undefined;
}

function turnsOf(list: unknown, withCalls = true): Turn[] {
  if (!Array.isArray(list)) return [];
  // Chat model runs nest one list per prompt: `messages: [[…]]`.
  const flat = list.length > 0 && Array.isArray(list[0]) ? (list[0] as unknown[]) : list;
  const turns: Turn[] = [];
  for (let i = 0; i < flat.length; i++) {
    const turn = turnOf(flat[i], withCalls);
    if (turn) turns.push(turn);
  }
  return turns;
}

function llmOutput(outputs: Obj): Turn | undefined {
  const generations = outputs.generations;
  if (Array.isArray(generations)) {
    const first = Array.isArray(generations[0]) ? generations[0][0] : generations[0];
    if (isObject(first)) return turnOf(first.message) ?? { role: 'assistant', content: textOf(first.text), toolCalls: NO_TOOL_CALLS };
  }
  if (Array.isArray(outputs.choices) && isObject(outputs.choices[0])) {
    const message = isObject(outputs.choices[0].message) ? outputs.choices[0].message : {};
    return turnFrom(message, roleOf(message) ?? 'assistant');
  }
  const messages = turnsOf(outputs.messages);
  if (messages.length) return messages.at(-1);
  const output = turnOf(outputs.output);
  if (output) return output;
  if (typeof outputs.output === 'string') return { role: 'assistant', content: outputs.output, toolCalls: NO_TOOL_CALLS };
  return undefined;
}

function plainText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const turn = turnOf(value, false);
  if (turn) return turn.content;
  return undefined;
}

function short(text: string, max = 400): string {
  return text.length > max ? text.slice(0, max) + '…' : text;
}

function retrievedText(outputs: Obj): string {
  const docs = Array.isArray(outputs.documents)
    ? outputs.documents.filter(isObject).map((d) => textOf(d.page_content ?? (isObject(d.kwargs) ? d.kwargs.page_content : '')))
    : [];
  return docs.length ? docs.join('\n\n') : JSON.stringify(outputs);
}

function runMessage(run: Run, position: number): Message {
  const inputs = run.inputs ?? {};
  const outputs = run.outputs ?? {};
  if (run.run_type === 'llm') {
    const out = llmOutput(outputs);
    const message: Message = { position, role: 'assistant', agent: run.name, content: out?.content ?? '', toolCalls: out?.toolCalls ?? NO_TOOL_CALLS };
    if (run.error) message.isError = true;
    return message;
  }
  if (run.run_type === 'tool' || run.run_type === 'retriever') {
    const outputTurn = turnOf(outputs.output, false);
    const outputText = typeof outputs.output === 'string' ? outputs.output : outputTurn?.content;
    // The documents are read, and the outputs written out, only for a run with neither an error nor an output.
    const content = run.error ?? outputText ?? retrievedText(outputs);
    const message: Message = { position, role: 'tool', agent: run.name, content, toolCalls: NO_TOOL_CALLS };
    const callId = outputTurn?.toolCallId ?? (typeof inputs.tool_call_id === 'string' ? inputs.tool_call_id : undefined);
    if (callId) message.toolCallId = callId;
    if (run.error) message.isError = true;
    return message;
  }
  const input = plainText(inputs.input) ?? plainText(inputs.question) ?? plainText(inputs.query);
  return { position, role: 'system', agent: run.name, content: `${run.run_type} ${run.name}${input ? `: ${short(input)}` : ''}`, toolCalls: NO_TOOL_CALLS };
}

// Made once, not as a literal per trace.
const QUESTION_KEYS = ['question', 'query', 'input'];
const ROOT_METADATA_KEYS = ['session_id', 'reference_example_id', 'feedback_stats', 'total_tokens', 'total_cost', 'tags'];

function questionOf(inputs: Obj | null | undefined): string | undefined {
  if (!inputs) return undefined;
  for (let i = 0; i < QUESTION_KEYS.length; i++) {
    const text = plainText(inputs[QUESTION_KEYS[i]]);
    if (text?.trim()) return text;
  }
  const human = turnsOf(inputs.messages, false).find((t) => t.role === 'user' && t.content.trim());
  return human?.content;
}

/**
 * One trace's runs (in source order; `lines`, for JSONL, the line of each) as a trajectory, one
 * message per run in start order, ties in source order (exports are mostly in order already:
 * then nothing is copied).
 */
function traceTrajectory(runs: Run[], lines: number[] | undefined, id: string): Trajectory {
  // A plain array, not a Float64Array: a typed array per trace costs more to make than its few numbers.
  const starts = new Array<number>(runs.length);
  for (let i = 0; i < runs.length; i++) starts[i] = micros(runs[i].start_time);
  const order = startOrder(starts);
  const sorted = order ? order.map((i) => runs[i]) : runs;
  const messages: Message[] = new Array(sorted.length);
  for (let position = 0; position < sorted.length; position++) messages[position] = runMessage(sorted[position], position);
  linkToolReturns(messages);
  const root = rootRun(sorted);
  let firstLlm: Run | undefined;
  for (let i = 0; i < sorted.length && !firstLlm; i++) if (sorted[i].run_type === 'llm') firstLlm = sorted[i];
  const rootOutputs = root && root.run_type !== 'llm' ? (root.outputs ?? {}) : {};
  const predicted = plainText(rootOutputs.output) ?? plainText(rootOutputs.answer);
  const metadata: Obj = { runs: runs.length };
  if (lines) metadata.runLines = order ? order.map((i) => lines[i]) : lines;
  if (root) {
    metadata.rootRun = root.name;
    metadata.traceId = root.trace_id ?? root.id;
    for (let i = 0; i < ROOT_METADATA_KEYS.length; i++) {
      const key = ROOT_METADATA_KEYS[i];
      if (root[key] !== undefined && root[key] !== null) metadata[key] = root[key];
    }
  }
  return finishTrajectory({
    format: 'langsmith',
    id,
    messages,
    query: questionOf(root?.inputs) ?? (firstLlm ? turnsOf(firstLlm.inputs?.messages, false).find((t) => t.role === 'user')?.content : undefined),
    predictedAnswer: predicted?.trim() ? predicted : undefined,
    metadata,
  });
}

/** The first run whose parent is not in the trace (the set of the trace's run ids is built only when the first run has a parent). */
function rootRun(sorted: Run[]): Run | undefined {
  let ids: Set<string> | undefined;
  for (const run of sorted) {
    if (!run.parent_run_id) return run;
    ids ??= new Set(sorted.map((r) => r.id));
    if (!ids.has(run.parent_run_id)) return run;
  }
  return undefined;
}

// ---- containers: a tree, a flat list or JSONL of runs, grouped by trace ----

/** Runs by trace (each run's index in `runs`): `trace_id`, else the root run's id through the `parent_run_id` chain; first appearance order. */
function groupByTrace(runs: unknown[]): Map<string, number[]> {
  // The parent of every run is indexed only when a run has no `trace_id` (exports nearly always carry one).
  let parentOf: Map<string, string> | undefined;
  const rootOf = (runId: string): string => {
    if (!parentOf) {
      parentOf = new Map();
      for (const raw of runs) if (isObject(raw) && typeof raw.id === 'string' && typeof raw.parent_run_id === 'string') parentOf.set(raw.id, raw.parent_run_id);
    }
    let current = runId;
    for (let guard = 0; parentOf.has(current) && guard < 10000; guard++) current = parentOf.get(current)!;
    return current;
  };
  const map = new Map<string, number[]>();
  for (let i = 0; i < runs.length; i++) {
    const raw = isObject(runs[i]) ? (runs[i] as Obj) : {};
    const key = typeof raw.trace_id === 'string' ? raw.trace_id : typeof raw.id === 'string' ? rootOf(raw.id) : '';
    let list = map.get(key);
    if (!list) map.set(key, (list = []));
    list.push(i);
  }
  return map;
}

/** A container's runs (depth first) and each trace's runs as indexes into them. */
interface RunGroups {
  runs: unknown[];
  traces: Map<string, number[]>;
}

const groups = new WeakMap<object, RunGroups>();

function groupsOf(container: object): RunGroups {
  let found = groups.get(container);
  if (found) return found;
  const runs: unknown[] = [];
  if (Array.isArray(container)) for (let i = 0; i < container.length; i++) flattenTree(container[i], runs);
  else flattenTree(container, runs);
  found = { runs, traces: groupByTrace(runs) };
  groups.set(container, found);
  return found;
}

/** A run as the schema reads it (`value`: the tree or list it is in); the common well-formed case is checked by hand, anything else gets zod's message at its path. */
function checkedRun(raw: unknown, value: unknown, source: SourceText): Run {
  return plainRun(raw) ?? checkSchema(runSchema, raw, { ...source, basePath: [...(source.basePath ?? []), ...pathOf(value, raw)] }, 'a LangSmith run');
}

interface TraceRef {
  langsmithSource: object;
  langsmithTrace: string;
}

function splitLangSmith(value: unknown): SplitRecord[] {
  const container = value as object;
  return [...groupsOf(container).traces.keys()].map((trace) => ({
    id: trace || 'no-run-id',
    value: { langsmithSource: container, langsmithTrace: trace } satisfies TraceRef,
    path: [],
  }));
}

function loadLangSmith(value: unknown, source: SourceText, id: string): Trajectory {
  const ref = isObject(value) && 'langsmithTrace' in value ? (value as unknown as TraceRef) : undefined;
  const container = ref ? ref.langsmithSource : (value as object);
  const { runs: all, traces } = groupsOf(container);
  const indexes = traces.get(ref ? ref.langsmithTrace : ([...traces.keys()][0] ?? '')) ?? [];
  const runs: Run[] = new Array(indexes.length);
  for (let i = 0; i < indexes.length; i++) runs[i] = checkedRun(all[indexes[i]], container, source);
  if (runs.length === 0) checkSchema(runSchema, undefined, source, 'a LangSmith run');
  return traceTrajectory(runs, undefined, id);
}

function detectLangSmith(value: unknown): FormatMatch | undefined {
  if (looksRun(value)) return { score: 0.9, reason: `a LangSmith run tree (\`run_type\` ${String(value.run_type)}, \`child_runs\`)` };
  if (Array.isArray(value) && value.length > 0 && looksRun(value[0])) {
    const bad = value.findIndex((v) => !looksRun(v));
    if (bad !== -1) return { score: 0.4, reason: 'a JSON array of LangSmith runs', missing: [`\`run_type\` and \`inputs\` in element ${bad}`] };
    return { score: 0.9, reason: `a JSON array of ${value.length} LangSmith runs` };
  }
  if (isObject(value) && 'dotted_order' in value && 'trace_id' in value)
    return { score: 0.4, reason: 'an object with `dotted_order` and `trace_id`', missing: ['run_type', 'inputs'] };
  return undefined;
}

/** JSONL of runs (one flat run, or one run tree, per line): together they make one record per trace. */
function detectLangSmithLines(values: unknown[]): FormatMatch | undefined {
  let runs = 0;
  let firstOther = -1;
  values.forEach((value, i) => {
    if (looksRun(value)) runs++;
    else if (firstOther === -1) firstOther = i;
  });
  if (runs === 0) return undefined;
  if (firstOther !== -1)
    return {
      score: 0.4,
      reason: `JSONL with ${runs} of ${values.length} lines LangSmith runs`,
      missing: [`\`run_type\` and \`inputs\` in JSONL record ${firstOther + 1}`],
    };
  return { score: 0.9, reason: `JSONL of ${runs} LangSmith runs (one per line)` };
}

function loadLangSmithLines(values: unknown[], lineNumbers: number[], source: SourceText): { id: string; trajectory: Trajectory; line: number }[] {
  const all: unknown[] = [];
  // The index in `values` of each run's line.
  const lineOf: number[] = [];
  values.forEach((value, i) => {
    flattenTree(value, all);
    while (lineOf.length < all.length) lineOf.push(i);
  });
  const lineText = lineTexts(source.text);
  return [...groupByTrace(all)].map(([trace, group]) => {
    const runs = group.map((k) => {
      const line = lineNumbers[lineOf[k]];
      return checkedRun(all[k], values[lineOf[k]], { file: source.file, text: lineText(line), lineOffset: line - 1 });
    });
    const id = trace || 'no-run-id';
    return {
      id,
      trajectory: traceTrajectory(
        runs,
        group.map((k) => lineNumbers[lineOf[k]]),
        id,
      ),
      line: lineNumbers[lineOf[group[0]]],
    };
  });
}

export const langSmithReader: TrajectoryReader = {
  id: 'langsmith',
  label: 'LangSmith runs',
  detect: detectLangSmith,
  load: loadLangSmith,
  split: splitLangSmith,
  detectLines: detectLangSmithLines,
  loadLines: loadLangSmithLines,
};
