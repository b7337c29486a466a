// Harbor's Agent Trajectory Interchange Format (ATIF) v1.0–v1.7: `schema_version` "ATIF-v1.x",
// `session_id`, `agent`, `steps[]`, `final_metrics`, `extra` (Harbor RFC 0001).
//
// Position rule: message i is steps[i]. An agent step is one decision: its message, reasoning and
// tool calls, and its `observation.results` (the tool returns ATIF keeps inside the step) are
// shown after the message text under an "observation" line per result, and kept as structured
// data in `metadata.atif_observations` (by position) so writing ATIF again restores them. A step
// that is only an observation (a system step with an empty message and `observation.results`,
// as ATIF v1.2+ allows and as `write` emits for a tool message) whose results name a
// `source_call_id` is canonical role `tool`, linked to that call; other system observations
// (context compaction, environment resets) stay system messages with the observation as text.
import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, Role, Trajectory } from '../model/trajectory';
import { isObject } from './fields';
import { finishTrajectory } from './finish';
import { linkToolReturns, NO_TOOL_CALLS, toolCallFromRaw } from './toolCalls';
import type { FormatMatch, TrajectoryReader } from './registry';

const contentItem = z.looseObject({ type: z.string({ message: 'expected a content item with a `type` (text, image)' }) });
const stepText = z.union([z.string(), z.null(), z.array(contentItem)], { message: 'expected the message as a string or a list of content items' });
const subagentRef = z.looseObject({ session_id: z.string().nullish(), trajectory_id: z.string().nullish(), trajectory_path: z.string().nullish() });
const observationResult = z.looseObject({
  source_call_id: z.string().nullish(),
  content: stepText.optional(),
  subagent_trajectory_ref: z.array(subagentRef).nullish(),
});
const step = z.looseObject({
  step_id: z.number().int().optional(),
  timestamp: z.string().nullish(),
  source: z.enum(['system', 'user', 'agent'], { message: 'expected source "system", "user" or "agent"' }),
  model_name: z.string().nullish(),
  message: stepText.optional(),
  reasoning_content: z.string().nullish(),
  tool_calls: z
    .array(
      z.looseObject({
        tool_call_id: z.string({ message: 'expected the tool_call_id string' }),
        function_name: z.string({ message: 'expected the function_name string' }),
        arguments: z.unknown().optional(),
      }),
    )
    .nullish(),
  observation: z.looseObject({ results: z.array(observationResult, { message: 'expected observation.results as a list' }) }).nullish(),
  metrics: z.record(z.string(), z.unknown()).nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
});
export const atifSchema = z.looseObject({
  schema_version: z.string({ message: 'expected schema_version "ATIF-v1.x"' }),
  session_id: z.string().nullish(),
  trajectory_id: z.string().nullish(),
  agent: z.looseObject({ name: z.string().nullish(), version: z.string().nullish(), model_name: z.string().nullish() }).nullish(),
  steps: z.array(step, { message: 'expected `steps`, the list of ATIF steps' }),
  notes: z.string().nullish(),
  final_metrics: z.record(z.string(), z.unknown()).nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
});
type AtifStep = z.infer<typeof step>;
type ObservationResult = z.infer<typeof observationResult>;

/** The newest ATIF version `write` emits (every field it writes is in the RFC since v1.2). */
export const ATIF_WRITE_VERSION = 'ATIF-v1.4';

function textOf(value: z.infer<typeof stepText> | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return value.map((item) => (item.type === 'text' && typeof item.text === 'string' ? item.text : `[${item.type}]`)).join('\n');
}

// The texts below are joined with `+`, never with Array#join or a template around a page: `+`
// links the parts without copying them (a V8 cons string), where join copied every observation
// page into each step's content on load.

// The rule around the call as shared constants joined with `+`: a template made a flat copy of
// it per result, two bytes a character for its `─`.
const OBSERVATION_OPEN = '── observation (';
const OBSERVATION_CLOSE = ') ──\n';

/** The text shown for one observation result under its step's message. */
function observationBlock(result: ObservationResult, functionOf: (callId: string) => string | undefined): string {
  const call = result.source_call_id ? `${functionOf(result.source_call_id) ?? 'call'} ${result.source_call_id}` : 'action';
  const refs = result.subagent_trajectory_ref
    ? result.subagent_trajectory_ref.map((r) => r.trajectory_path ?? r.trajectory_id ?? r.session_id).filter(Boolean)
    : [];
  const content = textOf(result.content);
  const subagents = refs.length ? (content ? '\n' : '') + `[subagent trajectory ${refs.join(', ')}]` : '';
  return OBSERVATION_OPEN + call + OBSERVATION_CLOSE + content + subagents;
}

/** The observation text appended to a step's message (exactly what `write` strips again). */
function observationText(results: ObservationResult[], functionOf: (callId: string) => string | undefined): string {
  let text = '';
  for (let i = 0; i < results.length; i++) text += '\n\n' + observationBlock(results[i], functionOf);
  return text;
}

/** The results' contents one after another, as an observation-only step shows them. */
function resultContents(results: ObservationResult[]): string {
  let text = '';
  for (let i = 0; i < results.length; i++) text += (i ? '\n\n' : '') + textOf(results[i].content);
  return text;
}

interface TrajauditExtra {
  source_format?: string;
  query?: string;
  /** null: the source had none (so reading does not infer one from the last step). */
  predicted_answer?: string | null;
  gold_answer?: string;
  gold?: Trajectory['gold'];
  metadata?: Record<string, unknown>;
}

function trajauditExtra(extra: Record<string, unknown> | null | undefined): TrajauditExtra | undefined {
  return isObject(extra?.trajaudit) ? (extra.trajaudit as TrajauditExtra) : undefined;
}

function outcomeOf(root: z.infer<typeof atifSchema>): Record<string, unknown> | undefined {
  for (const [path, holder] of [
    ['extra', root.extra],
    ['final_metrics.extra', isObject(root.final_metrics?.extra) ? root.final_metrics.extra : undefined],
  ] as const) {
    if (!holder) continue;
    const reward = holder.reward ?? holder.score;
    if (typeof reward === 'number' && Number.isFinite(reward))
      return { success: reward >= 1 ? true : reward <= 0 ? false : null, score: reward, source: `${path}.${'reward' in holder ? 'reward' : 'score'}` };
    const success = holder.success ?? holder.resolved ?? holder.is_correct;
    if (typeof success === 'boolean')
      return { success, score: success ? 1 : 0, source: `${path}.${['success', 'resolved', 'is_correct'].find((k) => k in holder)}` };
  }
  return undefined;
}

const ROLE: Record<AtifStep['source'], Role> = { system: 'system', user: 'user', agent: 'assistant' };

// What atifSchema accepts, checked without copying: zod copies every step it parses, most of the
// load time on a large file. These accept what the schema accepts (or less), so a bad step still
// gets zod's message with its path and line:column.
const nullish = (v: unknown, ok: (v: unknown) => boolean) => v === undefined || v === null || ok(v);
const isString = (v: unknown) => typeof v === 'string';
const isContentItem = (c: unknown) => isObject(c) && typeof c.type === 'string';
const isStepText = (v: unknown) => v === null || typeof v === 'string' || (Array.isArray(v) && v.every(isContentItem));
const isSubagentRef = (v: unknown) =>
  isObject(v) && nullish(v.session_id, isString) && nullish(v.trajectory_id, isString) && nullish(v.trajectory_path, isString);
const isSubagentRefList = (refs: unknown) => Array.isArray(refs) && refs.every(isSubagentRef);
const isObservationResult = (v: unknown) =>
  isObject(v) &&
  nullish(v.source_call_id, isString) &&
  (v.content === undefined || isStepText(v.content)) &&
  nullish(v.subagent_trajectory_ref, isSubagentRefList);
const isAtifToolCall = (v: unknown) => isObject(v) && typeof v.tool_call_id === 'string' && typeof v.function_name === 'string';
const STEP_SOURCES = new Set(['system', 'user', 'agent']);

// Named, not inline: an inline arrow is a new closure for every step checked.
const isToolCallList = (calls: unknown) => Array.isArray(calls) && calls.every(isAtifToolCall);
const isObservation = (o: unknown) => isObject(o) && Array.isArray(o.results) && o.results.every(isObservationResult);

function isAtifStep(v: unknown): boolean {
  return (
    isObject(v) &&
    (v.step_id === undefined || Number.isInteger(v.step_id)) &&
    nullish(v.timestamp, isString) &&
    STEP_SOURCES.has(v.source as string) &&
    nullish(v.model_name, isString) &&
    (v.message === undefined || isStepText(v.message)) &&
    nullish(v.reasoning_content, isString) &&
    nullish(v.tool_calls, isToolCallList) &&
    nullish(v.observation, isObservation) &&
    nullish(v.metrics, isObject) &&
    nullish(v.extra, isObject)
  );
}

/** isAtifRoot but for the steps, which the reader checks as it reads them (one pass over them, not two). */
function isAtifRootAround(v: unknown): v is z.infer<typeof atifSchema> {
  return (
    isObject(v) &&
    typeof v.schema_version === 'string' &&
    nullish(v.session_id, isString) &&
    nullish(v.trajectory_id, isString) &&
    nullish(v.agent, (a) => isObject(a) && nullish(a.name, isString) && nullish(a.version, isString) && nullish(a.model_name, isString)) &&
    Array.isArray(v.steps) &&
    nullish(v.notes, isString) &&
    nullish(v.final_metrics, isObject) &&
    nullish(v.extra, isObject)
  );
}

/** A step's tool call, with the arguments `write` could not hold as an object (see argumentsObject) read back. */
function toolCallOf(c: NonNullable<AtifStep['tool_calls']>[number], extra: AtifStep['extra']): Message['toolCalls'][number] {
  const raw = isObject(extra?.raw_arguments) ? extra.raw_arguments[c.tool_call_id] : undefined;
  const generated = Array.isArray(extra?.generated_call_ids) && extra.generated_call_ids.includes(c.tool_call_id);
  return toolCallFromRaw(c.function_name, typeof raw === 'string' ? raw : c.arguments, generated ? undefined : c.tool_call_id);
}

/**
 * The function a call id names, for the observation lines: the latest call with that id in the
 * steps reached so far. A result almost always answers a call of its own step, found by a scan
 * of that step; the map of every earlier call (an entry per call of the file) is built only when
 * a result answers a call further back.
 */
function functionNames(steps: AtifStep[]): { reach(position: number): void; nameOf(callId: string): string | undefined } {
  let reached = 0;
  let byId: Map<string, string> | undefined;
  let indexedUpTo = 0;
  return {
    reach(position) {
      reached = position;
    },
    nameOf(callId) {
      const own = steps[reached].tool_calls ?? [];
      for (let i = own.length - 1; i >= 0; i--) if (own[i].tool_call_id === callId) return own[i].function_name;
      byId ??= new Map();
      for (; indexedUpTo < reached; indexedUpTo++) {
        const calls = steps[indexedUpTo].tool_calls ?? [];
        for (let i = 0; i < calls.length; i++) byId.set(calls[i].tool_call_id, calls[i].function_name);
      }
      return byId.get(callId);
    },
  };
}

export function loadAtif(value: unknown, source: SourceText, id: string): Trajectory {
  // The plain check skips zod's copy of every step; a root or step it refuses is read from zod's
  // parse, which names the first problem (or accepts what the plain check is too strict for).
  return (
    (isAtifRootAround(value) && readAtif(value, id, true)) || (readAtif(checkSchema(atifSchema, value, source, 'an ATIF trajectory'), id, false) as Trajectory)
  );
}

/** The trajectory of a checked root; with `checkSteps`, undefined at the first step isAtifStep refuses. */
function readAtif(root: z.infer<typeof atifSchema>, id: string, checkSteps: boolean): Trajectory | undefined {
  const functionOf = functionNames(root.steps);
  const observations: Record<number, ObservationResult[]> = {};
  let observationSteps = 0;
  const subagents: Record<string, unknown>[] = [];
  const steps = root.steps;
  // Sized once, filled by an indexed loop (no closure per step, no arrays grown by push): a large trajectory is thousands of steps.
  const messages = new Array<Message>(steps.length);
  // What each step's agent wrote, before its observations: where an answer counts (finishTrajectory).
  const ownText = new Array<string>(steps.length);
  const stepMetrics = new Array<unknown>(steps.length);
  let anyMetrics = false;
  let stepModel: string | undefined;
  for (let position = 0; position < steps.length; position++) {
    const s = steps[position];
    if (checkSteps && !isAtifStep(s)) return undefined;
    const calls = s.tool_calls ?? [];
    functionOf.reach(position);
    const results = s.observation?.results ?? [];
    let answersCall = false;
    for (let i = 0; i < results.length; i++) {
      const result = results[i];
      if (result.source_call_id) answersCall = true;
      const refs = result.subagent_trajectory_ref;
      if (refs) for (let j = 0; j < refs.length; j++) subagents.push({ position, source_call_id: result.source_call_id ?? null, ...refs[j] });
    }
    const text = textOf(s.message);
    ownText[position] = text;
    if (s.metrics) anyMetrics = true;
    stepMetrics[position] = s.metrics ?? null;
    if (stepModel === undefined && s.model_name) stepModel = s.model_name;
    // A system step holding only results that answer calls is a tool return; other system observations (context compaction, resets) stay system messages.
    const isObservationOnly = s.source === 'system' && text === '' && answersCall && calls.length === 0;
    // Exactly sized: an empty array grown by push reserves room for 17 calls.
    const toolCalls: Message['toolCalls'] = calls.length ? new Array<Message['toolCalls'][number]>(calls.length) : NO_TOOL_CALLS;
    for (let i = 0; i < calls.length; i++) toolCalls[i] = toolCallOf(calls[i], s.extra);
    let content = text;
    if (isObservationOnly || (s.source === 'system' && text === '' && results.length)) content = resultContents(results);
    else if (results.length) content = text + observationText(results, functionOf.nameOf);
    let message: Message;
    if (isObservationOnly) {
      message = { position, role: 'tool', content, toolCalls };
      const callId = results.find((r) => r.source_call_id)?.source_call_id;
      if (callId && s.extra?.generated_call_id !== true) message.toolCallId = callId;
      if (s.reasoning_content) message.reasoning = s.reasoning_content;
    } else {
      // The reasoning in the literal, not added after: a field added to a made object costs it a
      // second block for its fields (about 40 bytes a step), and agent steps usually reason.
      const role = ROLE[s.source];
      message = s.reasoning_content ? { position, role, content, toolCalls, reasoning: s.reasoning_content } : { position, role, content, toolCalls };
      if (results.length) {
        observations[position] = results;
        observationSteps++;
      }
    }
    if (s.extra?.is_error === true) message.isError = true;
    if (typeof s.extra?.agent === 'string') message.agent = s.extra.agent;
    messages[position] = message;
  }
  linkToolReturns(messages);
  const ours = trajauditExtra(root.extra);
  const metadata: Record<string, unknown> = { ...(ours?.metadata ?? {}) };
  for (const [key, v] of Object.entries({
    schema_version: root.schema_version,
    session_id: root.session_id,
    trajectory_id: root.trajectory_id,
    agent: root.agent,
    model: root.agent?.model_name ?? stepModel,
    notes: root.notes,
    final_metrics: root.final_metrics,
    extra:
      root.extra && Object.keys(root.extra).some((k) => k !== 'trajaudit')
        ? Object.fromEntries(Object.entries(root.extra).filter(([k]) => k !== 'trajaudit'))
        : undefined,
    atif_observations: observationSteps ? observations : undefined,
    subagent_trajectories: subagents.length ? subagents : undefined,
    step_metrics: anyMetrics ? stepMetrics : undefined,
  }))
    if (v !== undefined && v !== null) metadata[key] = v;
  const outcome = outcomeOf(root);
  if (outcome && metadata.outcome === undefined) metadata.outcome = outcome;
  return finishTrajectory({
    format: 'atif',
    id,
    messages,
    query: ours?.query,
    predictedAnswer: ours?.predicted_answer ?? undefined,
    inferPredictedAnswer: ours?.predicted_answer !== null,
    goldAnswer: ours?.gold_answer,
    gold: ours?.gold,
    metadata,
    answerTextOf: (m) => ownText[m.position],
  });
}

/**
 * ATIF arguments are JSON objects. Arguments that are not (truncated JSON, a bare string or array)
 * are written as `{}` with the source text in the step's `extra.raw_arguments[<call id>]`, which
 * this reader reads back, so a round trip keeps them; other ATIF readers see `{}`.
 */
function argumentsObject(
  call: Message['toolCalls'][number],
  callId: string,
  where: string,
  rawArguments: Record<string, string>,
  lost: string[],
): Record<string, unknown> {
  if (call.argumentsValid && isObject(call.arguments)) return call.arguments;
  lost.push(
    `${where}: arguments ${call.argumentsValid ? 'that are not a JSON object' : 'that are not valid JSON'} (${JSON.stringify(call.rawArguments.slice(0, 40))}…) written as {} with the text in the step's extra.raw_arguments`,
  );
  rawArguments[callId] = call.rawArguments;
  return {};
}

/**
 * ATIF for any canonical trajectory: message i becomes steps[i] (step_id i + 1). Assistant
 * messages are agent steps with their tool calls; a tool message is a system step holding only
 * its observation (`source_call_id` = the call it answers), so positions and returns survive a
 * round trip. The query, answers, gold and metadata ride in `extra.trajaudit`.
 */
export function writeAtif(t: Trajectory): { value: unknown; lost: string[] } {
  const lost: string[] = [];
  const inline = isObject(t.metadata.atif_observations) ? (t.metadata.atif_observations as Record<string, ObservationResult[]>) : {};
  const functionOf = new Map<string, string>();
  // ATIF calls need ids; calls without one get `<record>-<position>-<index>`, marked so reading drops them again.
  const writtenIds = new Map<number, string[]>();
  const returnsSeen = new Map<number, number>();
  const steps = t.messages.map((m) => {
    for (const call of m.toolCalls) if (call.id) functionOf.set(call.id, call.name);
    const where = `message ${m.position}`;
    const out: Record<string, unknown> = { step_id: m.position + 1 };
    const extra: Record<string, unknown> = {};
    if (m.isError) extra.is_error = true;
    if (m.agent) extra.agent = m.agent;
    if (m.role === 'tool') {
      out.source = 'system';
      out.message = '';
      let callId = m.toolCallId;
      if (!callId && m.issuedBy !== undefined) {
        const index = returnsSeen.get(m.issuedBy) ?? 0;
        returnsSeen.set(m.issuedBy, index + 1);
        callId = writtenIds.get(m.issuedBy)?.[index];
        if (callId) extra.generated_call_id = true;
      }
      out.observation = { results: [{ ...(callId ? { source_call_id: callId } : {}), content: m.content }] };
      if (!callId) lost.push(`${where}: a tool return without a call it answers (read back as a system observation)`);
      if (m.reasoning) lost.push(`${where}: reasoning of a tool message (ATIF observations have none)`);
      if (m.toolCalls.length) lost.push(`${where}: tool calls of a tool message`);
    } else {
      out.source = m.role === 'assistant' ? 'agent' : m.role;
      const results = inline[String(m.position)];
      const suffix = results ? observationText(results, (callId) => functionOf.get(callId)) : '';
      out.message = suffix && m.content.endsWith(suffix) ? m.content.slice(0, -suffix.length) : m.content;
      if (m.reasoning) {
        if (m.role === 'assistant') out.reasoning_content = m.reasoning;
        else lost.push(`${where}: reasoning of a ${m.role} message (ATIF keeps reasoning on agent steps)`);
      }
      if (m.toolCalls.length) {
        if (m.role !== 'assistant') lost.push(`${where}: tool calls of a ${m.role} message (ATIF keeps tool calls on agent steps); written on the step anyway`);
        const rawArguments: Record<string, string> = {};
        const generated: string[] = [];
        out.tool_calls = m.toolCalls.map((call, index) => {
          const callId = call.id ?? `${t.id}-${m.position}-${index}`;
          if (!call.id) generated.push(callId);
          return { tool_call_id: callId, function_name: call.name, arguments: argumentsObject(call, callId, `${where} call ${index}`, rawArguments, lost) };
        });
        if (Object.keys(rawArguments).length) extra.raw_arguments = rawArguments;
        if (generated.length) extra.generated_call_ids = generated;
        writtenIds.set(
          m.position,
          (out.tool_calls as { tool_call_id: string }[]).map((c) => c.tool_call_id),
        );
      }
      if (results && suffix && m.content.endsWith(suffix)) out.observation = { results };
    }
    if (Object.keys(extra).length) out.extra = extra;
    return out;
  });
  const metadata = { ...t.metadata };
  const agent = isObject(metadata.agent) ? metadata.agent : {};
  for (const key of ['schema_version', 'agent', 'atif_observations', 'session_id', 'trajectory_id', 'notes', 'final_metrics', 'extra', 'subagent_trajectories'])
    delete metadata[key];
  const ours: TrajauditExtra = { source_format: t.format };
  if (t.query !== undefined) ours.query = t.query;
  ours.predicted_answer = t.predictedAnswer ?? null;
  if (t.goldAnswer !== undefined) ours.gold_answer = t.goldAnswer;
  if (t.gold) ours.gold = t.gold;
  if (Object.keys(metadata).length) ours.metadata = metadata;
  const sourceExtra = isObject(t.metadata.extra) ? t.metadata.extra : {};
  const value: Record<string, unknown> = {
    schema_version: ATIF_WRITE_VERSION,
    session_id: typeof t.metadata.session_id === 'string' ? t.metadata.session_id : `${t.format}-${t.id}`,
    agent: {
      name: typeof agent.name === 'string' ? agent.name : t.format,
      version: typeof agent.version === 'string' ? agent.version : 'unknown',
      ...(typeof agent.model_name === 'string'
        ? { model_name: agent.model_name }
        : typeof t.metadata.model === 'string'
          ? { model_name: t.metadata.model }
          : {}),
    },
    steps,
  };
  if (typeof t.metadata.notes === 'string') value.notes = t.metadata.notes;
  if (isObject(t.metadata.final_metrics)) value.final_metrics = t.metadata.final_metrics;
  value.extra = { ...sourceExtra, trajaudit: ours };
  return { value, lost };
}

function isAtifVersion(value: unknown): value is string {
  return typeof value === 'string' && /^ATIF-v1\.\d+$/.test(value);
}

export const atifReader: TrajectoryReader & { write: typeof writeAtif } = {
  id: 'atif',
  label: 'Harbor ATIF trajectory',
  detect(value): FormatMatch | undefined {
    if (!isObject(value)) return undefined;
    if (isAtifVersion(value.schema_version)) {
      if (Array.isArray(value.steps)) return { score: 0.95, reason: `an object with "schema_version": "${value.schema_version}" and \`steps\` (Harbor ATIF)` };
      return { score: 0.4, reason: `an object with "schema_version": "${value.schema_version}" (Harbor ATIF)`, missing: ['`steps` (the list of ATIF steps)'] };
    }
    // Without the version: ATIF's step shape (`step_id` and `source` user/agent/system).
    if (Array.isArray(value.steps) && value.steps.length > 0 && value.steps.every((s) => isObject(s) && 'step_id' in s && typeof s.source === 'string'))
      return {
        score: 0.4,
        reason: 'an object with `steps` of {step_id, source, message} (Harbor ATIF)',
        missing: ['`schema_version` ("ATIF-v1.x")'],
      };
    return undefined;
  },
  load: loadAtif,
  write: writeAtif,
};
