// Inspect AI eval logs (`inspect_ai.log.EvalLog`): the `.json` log (one object with `eval`,
// `plan`, `results`, `stats`, `samples[]`) and, through src/core/load/loadZip.ts, the `.eval` zip
// (`header.json` + `samples/<id>_epoch_<n>.json`). One record per sample and epoch; message i is
// the sample's `messages[i]`.
import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, Role, ToolCall, Trajectory } from '../model/trajectory';
import { isObject } from './fields';
import { finishTrajectory } from './finish';
import { linkToolReturns, NO_TOOL_CALLS, toolCallFromRaw } from './toolCalls';
import type { FormatMatch, SplitRecord, TrajectoryReader } from './registry';

const contentPart = z.looseObject({ type: z.string({ message: 'expected a content part with a `type` (text, reasoning, image, …)' }) });
const content = z.union([z.string(), z.array(contentPart)], { message: 'expected a string or a list of content parts' });
const toolCall = z.looseObject({
  id: z.string().nullish(),
  function: z.string({ message: 'expected the tool name as a string' }),
  arguments: z.unknown().optional(),
  parse_error: z.string().nullish(),
});
const chatMessage = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool'], { message: 'expected role system, user, assistant or tool' }),
  content,
  tool_calls: z.array(toolCall).nullish(),
  tool_call_id: z.union([z.string(), z.array(z.string())]).nullish(),
  function: z.string().nullish(),
  error: z.looseObject({ type: z.string().optional(), message: z.string().optional() }).nullish(),
  model: z.string().nullish(),
});
const score = z.looseObject({ value: z.unknown(), answer: z.string().nullish(), explanation: z.string().nullish() });
export const inspectSampleSchema = z.looseObject({
  id: z.union([z.string(), z.number()], { message: 'expected the sample id (a string or number)' }),
  epoch: z.number({ message: 'expected the epoch number' }).int(),
  input: z.union([z.string(), z.array(z.unknown())], { message: 'expected the input as a string or a list of chat messages' }),
  target: z.union([z.string(), z.array(z.string())], { message: 'expected the target as a string or a list of strings' }).nullish(),
  messages: z.array(chatMessage, { message: 'expected the sample messages as a list' }),
  output: z.looseObject({ model: z.string().nullish(), completion: z.string().nullish() }).nullish(),
  scores: z.record(z.string(), score).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  attachments: z.record(z.string(), z.string()).nullish(),
});
type InspectSample = z.infer<typeof inspectSampleSchema>;
type ChatMessage = z.infer<typeof chatMessage>;

// What the schemas accept, checked by hand for the common case: zod parsing every message of a
// log cost more than JSON.parse of it. Anything these reject goes to zod for its exact message,
// so they may be stricter than the schemas, never looser.
const nullishString = (v: unknown) => v === undefined || v === null || typeof v === 'string';
const optionalString = (v: unknown) => v === undefined || typeof v === 'string';
const CHAT_ROLES = new Set(['system', 'user', 'assistant', 'tool']);

function plainContent(v: unknown): boolean {
  if (typeof v === 'string') return true;
  if (!Array.isArray(v)) return false;
  for (const part of v) if (!isObject(part) || typeof part.type !== 'string') return false;
  return true;
}

function plainToolCalls(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (!Array.isArray(v)) return false;
  for (const c of v) if (!isObject(c) || typeof c.function !== 'string' || !nullishString(c.id) || !nullishString(c.parse_error)) return false;
  return true;
}

function plainChatMessage(m: unknown): boolean {
  if (!isObject(m) || typeof m.role !== 'string' || !CHAT_ROLES.has(m.role) || !plainContent(m.content) || !plainToolCalls(m.tool_calls)) return false;
  const callId = m.tool_call_id;
  if (!(nullishString(callId) || (Array.isArray(callId) && callId.every((c) => typeof c === 'string')))) return false;
  if (!nullishString(m.function) || !nullishString(m.model)) return false;
  const error = m.error;
  return error === undefined || error === null || (isObject(error) && optionalString(error.type) && optionalString(error.message));
}

function plainSample(v: unknown): InspectSample | undefined {
  if (!isObject(v)) return undefined;
  if (!(typeof v.id === 'string' || (typeof v.id === 'number' && Number.isFinite(v.id)))) return undefined;
  if (typeof v.epoch !== 'number' || !Number.isSafeInteger(v.epoch)) return undefined;
  if (!(typeof v.input === 'string' || Array.isArray(v.input))) return undefined;
  const target = v.target;
  if (!(nullishString(target) || (Array.isArray(target) && target.every((t) => typeof t === 'string')))) return undefined;
  if (!Array.isArray(v.messages) || !v.messages.every(plainChatMessage)) return undefined;
  const output = v.output;
  if (!(output === undefined || output === null || (isObject(output) && nullishString(output.model) && nullishString(output.completion)))) return undefined;
  const scores = v.scores;
  if (scores !== undefined && scores !== null) {
    if (!isObject(scores)) return undefined;
    for (const key in scores) {
      const sc = scores[key];
      if (!isObject(sc) || !('value' in sc) || !nullishString(sc.answer) || !nullishString(sc.explanation)) return undefined;
    }
  }
  if (!(v.metadata === undefined || v.metadata === null || isObject(v.metadata))) return undefined;
  const attachments = v.attachments;
  if (attachments !== undefined && attachments !== null) {
    if (!isObject(attachments)) return undefined;
    for (const key in attachments) if (typeof attachments[key] !== 'string') return undefined;
  }
  return v as InspectSample;
}

/** The log-level context a sample is read with (the `.json` log's `eval`, or a `.eval` zip's header.json). */
export interface InspectLogContext {
  eval?: Record<string, unknown>;
  status?: unknown;
}

// Samples handed out by `split` keep their path in the log (for messages), so their log context rides beside them.
const contextOfSample = new WeakMap<object, InspectLogContext>();

/** Marks a sample value as coming from a log with this context (used by `split` and the `.eval` reader). */
export function withLogContext<T extends object>(sample: T, context: InspectLogContext): T {
  contextOfSample.set(sample, context);
  return sample;
}

const ATTACHMENT = 'attachment://';

function resolveAttachment(text: string, attachments: Record<string, string> | null | undefined): string {
  if (!text.startsWith(ATTACHMENT) || !attachments) return text;
  return attachments[text.slice(ATTACHMENT.length)] ?? text;
}

/** A content part's string field, its attachment resolved; undefined when it is not a string. */
function partString(part: Record<string, unknown>, key: string, attachments: InspectSample['attachments']): string | undefined {
  const v = part[key];
  return typeof v === 'string' ? resolveAttachment(v, attachments) : undefined;
}

// The text and the reasoning of a message's content are built by concatenation, with no list or
// result object per message: a log has tens of thousands of messages, and those short-lived
// lists were most of what reading one allocated besides its messages.

/**
 * The text of a message's content: its text parts, and parts other than text shown as `[image]`
 * etc., one per line; the tool uses the provider ran itself (web search, code execution) are
 * added to `serverToolCalls`, their results to the text.
 */
function contentText(value: ChatMessage['content'], attachments: InspectSample['attachments'], serverToolCalls?: ToolCall[]): string {
  if (typeof value === 'string') return resolveAttachment(value, attachments);
  let text = '';
  let pieces = 0;
  for (let i = 0; i < value.length; i++) {
    const part = value[i] as Record<string, unknown>;
    let piece: string;
    if (part.type === 'reasoning') continue;
    if (part.type === 'text') piece = partString(part, 'text', attachments) ?? '';
    else if (part.type === 'tool_use') {
      const name = partString(part, 'name', attachments) ?? partString(part, 'tool_type', attachments) ?? 'tool_use';
      serverToolCalls?.push(toolCallFromRaw(name, part.arguments, partString(part, 'id', attachments)));
      const error = partString(part, 'error', attachments);
      piece = `[${name}] ${partString(part, 'result', attachments) ?? ''}${error ? ` (error: ${error})` : ''}`.trim();
    } else piece = `[${String(part.type)}]`;
    text = pieces++ === 0 ? piece : `${text}\n${piece}`;
  }
  return text;
}

/** The reasoning parts' text, one per line (a redacted one by its summary); undefined when there are none. */
function reasoningText(value: ChatMessage['content'], attachments: InspectSample['attachments']): string | undefined {
  if (typeof value === 'string') return undefined;
  let reasoning: string | undefined;
  for (let i = 0; i < value.length; i++) {
    const part = value[i] as Record<string, unknown>;
    if (part.type !== 'reasoning') continue;
    const piece =
      part.redacted === true ? (partString(part, 'summary', attachments) ?? '[redacted reasoning]') : (partString(part, 'reasoning', attachments) ?? '');
    reasoning = reasoning === undefined ? piece : `${reasoning}\n${piece}`;
  }
  return reasoning;
}

const ROLE: Record<ChatMessage['role'], Role> = { system: 'system', user: 'user', assistant: 'assistant', tool: 'tool' };

function toMessages(sample: InspectSample): Message[] {
  const list = sample.messages;
  const messages: Message[] = new Array(list.length);
  for (let position = 0; position < list.length; position++) {
    const m = list[position];
    const calls = m.tool_calls;
    // Server tool calls follow the message's own calls: only a text without parts shares the empty list.
    const toolCalls: ToolCall[] = calls?.length
      ? calls.map((c) => toolCallFromRaw(c.function, c.arguments, c.id ?? undefined))
      : typeof m.content === 'string'
        ? NO_TOOL_CALLS
        : [];
    const message: Message = { position, role: ROLE[m.role], content: contentText(m.content, sample.attachments, toolCalls), toolCalls };
    const reasoning = reasoningText(m.content, sample.attachments);
    if (reasoning) message.reasoning = reasoning;
    if (m.role === 'tool') {
      if (typeof m.tool_call_id === 'string') message.toolCallId = m.tool_call_id;
      if (m.error) {
        message.isError = true;
        if (!message.content.trim()) message.content = `${m.error.type ?? 'error'}: ${m.error.message ?? ''}`.trim();
      }
    }
    messages[position] = message;
  }
  linkToolReturns(messages);
  return messages;
}

function firstUserText(input: InspectSample['input'], attachments: InspectSample['attachments']): string | undefined {
  if (typeof input === 'string') return resolveAttachment(input, attachments);
  const user = input.find((m) => isObject(m) && m.role === 'user') as { content?: unknown } | undefined;
  if (!user) return undefined;
  const parsed = content.safeParse(user.content);
  return parsed.success ? contentText(parsed.data, attachments) : undefined;
}

export interface Outcome {
  success: boolean | null;
  score: number | null;
  source: string;
}

/** Inspect's `value_to_float` conventions: C/I/P/N, booleans, numbers, yes/no/true/false, numeric strings. */
export function outcomeOfScoreValue(value: unknown, source: string): Outcome | undefined {
  if (typeof value === 'boolean') return { success: value, score: value ? 1 : 0, source };
  if (typeof value === 'number' && Number.isFinite(value)) return { success: value === 1 ? true : value === 0 ? false : null, score: value, source };
  if (typeof value !== 'string') return undefined;
  // The letters by a switch: a table of all four outcomes was built for every sample.
  switch (value) {
    case 'C':
      return { success: true, score: 1, source };
    case 'I':
    case 'N':
      return { success: false, score: 0, source };
    case 'P':
      return { success: null, score: 0.5, source };
  }
  const lower = value.trim().toLowerCase();
  if (lower === 'yes' || lower === 'true') return { success: true, score: 1, source };
  if (lower === 'no' || lower === 'false') return { success: false, score: 0, source };
  if (/^-?\d+(\.\d+)?$/.test(lower)) return outcomeOfScoreValue(Number(lower), source);
  return undefined;
}

/** The first scorer's score (Inspect lists the task's primary scorer first). */
function primaryScore(scores: InspectSample['scores']): [string, z.infer<typeof score>] | undefined {
  if (scores) for (const key of Object.keys(scores)) return [key, scores[key]];
  return undefined;
}

function isEmpty(object: Record<string, unknown>): boolean {
  for (const key in object) if (Object.prototype.hasOwnProperty.call(object, key)) return false;
  return true;
}

/** Id of a sample record: the sample id, with `#<epoch>` when the log has several epochs. */
export function inspectRecordId(sampleId: string | number, epoch: number, manyEpochs: boolean): string {
  return manyEpochs ? `${sampleId}#${epoch}` : String(sampleId);
}

/** One sample (an `EvalSample` value) as a trajectory. */
export function loadInspectSample(value: unknown, source: SourceText, id: string): Trajectory {
  const sample = plainSample(value) ?? checkSchema(inspectSampleSchema, value, source, 'an Inspect AI sample');
  const context = (isObject(value) ? contextOfSample.get(value) : undefined) ?? {};
  const spec = context.eval ?? {};
  const messages = toMessages(sample);
  const primary = primaryScore(sample.scores);
  const completion = sample.output?.completion?.trim() ? sample.output.completion : undefined;
  const target = sample.target ?? undefined;
  const metadata: Record<string, unknown> = {
    sample_id: sample.id,
    epoch: sample.epoch,
  };
  const dataset = isObject(spec.dataset) ? spec.dataset.name : undefined;
  const raw = value as Record<string, unknown>;
  // Set one by one, not through a map of candidates: that map and its entries were allocated per sample.
  const keep = (key: string, v: unknown) => {
    if (v !== undefined && v !== null) metadata[key] = v;
  };
  keep('model', sample.output?.model ?? spec.model);
  keep('task', spec.task);
  keep('task_id', spec.task_id);
  keep('dataset', dataset);
  keep('eval_id', spec.eval_id);
  keep('run_id', spec.run_id);
  keep('log_status', context.status);
  keep('target', Array.isArray(target) ? target : undefined);
  keep('scores', sample.scores);
  keep('sample_metadata', sample.metadata && !isEmpty(sample.metadata) ? sample.metadata : undefined);
  keep('model_usage', raw.model_usage);
  keep('total_time', raw.total_time);
  keep('working_time', raw.working_time);
  keep('error', raw.error);
  keep('limit', raw.limit);
  if (primary) {
    const outcome = outcomeOfScoreValue(primary[1].value, `scores.${primary[0]}.value`);
    if (outcome) metadata.outcome = outcome;
  }
  return finishTrajectory({
    format: 'inspect',
    id,
    messages,
    query: firstUserText(sample.input, sample.attachments),
    // The scorer's `answer` is what it judged (the extracted answer); the completion is the model's whole last reply.
    predictedAnswer: primary?.[1].answer?.trim() ? primary[1].answer : completion,
    goldAnswer: Array.isArray(target) ? (target.length ? target.join(' | ') : undefined) : target?.trim() ? target : undefined,
    metadata,
  });
}

function isEvalSpec(value: unknown): value is Record<string, unknown> {
  return isObject(value) && typeof value.task === 'string' && typeof value.model === 'string';
}

/** An `EvalLog` object: `eval` {task, model, …} beside `version`/`status`/`plan`/`results`. */
function isEvalLog(value: unknown): boolean {
  return isObject(value) && isEvalSpec(value.eval) && ('version' in value || 'status' in value || 'plan' in value || 'results' in value);
}

function looksLikeSample(value: Record<string, unknown>): boolean {
  return 'epoch' in value && 'input' in value && 'messages' in value && ('target' in value || 'scores' in value || 'output' in value);
}

function manyEpochs(log: Record<string, unknown>, samples: unknown[]): boolean {
  const spec = log.eval as Record<string, unknown>;
  const configured = isObject(spec.config) && typeof spec.config.epochs === 'number' ? spec.config.epochs : 1;
  return configured > 1 || samples.some((s) => isObject(s) && s.epoch !== 1 && s.epoch !== undefined);
}

export const inspectReader: TrajectoryReader = {
  id: 'inspect',
  label: 'Inspect AI eval log',
  detect(value): FormatMatch | undefined {
    if (!isObject(value)) return undefined;
    if (isEvalLog(value)) {
      if (Array.isArray(value.samples) && value.samples.length > 0)
        return { score: 0.95, reason: 'an object with `eval` {task, model} and `samples` (Inspect AI log)' };
      return {
        score: 0.4,
        reason: 'an object with `eval` {task, model} (Inspect AI log)',
        missing: ['`samples` (this log holds none: it was written without samples, or is a header only)'],
      };
    }
    if (looksLikeSample(value)) {
      const complete = 'id' in value && Array.isArray(value.messages);
      return complete
        ? { score: 0.85, reason: 'an object with `id`, `epoch`, `input` and `messages` (Inspect AI sample)' }
        : {
            score: 0.4,
            reason: 'an object with `epoch`, `input` and `messages` (Inspect AI sample)',
            missing: ['`id`', '`messages` as a list'].filter((k) => (k === '`id`' ? !('id' in value) : !Array.isArray(value.messages))),
          };
    }
    return undefined;
  },
  load(value, source, id) {
    // A whole log forced through `load` (no split): its first sample.
    if (isObject(value) && isEvalLog(value)) {
      const samplesSource = { ...source, basePath: [...(source.basePath ?? []), 'samples'] };
      checkSchema(logSamplesSchema, value.samples, samplesSource, 'an Inspect AI log with samples');
      const [first] = splitLog(value);
      return loadInspectSample(first.value, { ...source, basePath: [...(source.basePath ?? []), ...first.path] }, id);
    }
    return loadInspectSample(value, source, id);
  },
  split(value): SplitRecord[] {
    return isObject(value) && isEvalLog(value) ? splitLog(value) : [{ id: '0', value, path: [] }];
  },
};

const logSamplesSchema = z.array(z.unknown(), { message: "expected `samples`, the list of the log's samples (this log was written without them)" }).nonempty({
  message: 'expected at least one sample in `samples`',
});

/** One record per sample and epoch of a `.json` log. */
function splitLog(value: Record<string, unknown>): SplitRecord[] {
  const samples = Array.isArray(value.samples) ? value.samples : [];
  const context: InspectLogContext = { eval: value.eval as Record<string, unknown>, status: value.status };
  const several = manyEpochs(value, samples);
  return samples.map((sample, index) => {
    const s = isObject(sample) ? withLogContext(sample, context) : sample;
    const sampleId = isObject(s) && (typeof s.id === 'string' || typeof s.id === 'number') ? s.id : index + 1;
    const epoch = isObject(s) && typeof s.epoch === 'number' ? s.epoch : 1;
    return { id: inspectRecordId(sampleId, epoch, several), value: s, path: ['samples', index] };
  });
}
