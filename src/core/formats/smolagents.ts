import { z } from 'zod';
import { checkSchema, type SourceText } from '../input/schemaCheck';
import type { Message, ToolCall, Trajectory } from '../model/trajectory';
import { isObject, pickString, remainingFields } from './fields';
import { finishTrajectory } from './finish';
import type { FormatMatch, TrajectoryReader } from './registry';
import { toolCallFromRaw } from './toolCalls';

// smolagents agent memory (huggingface/smolagents memory.py), as `agent.memory.get_full_steps()`
// or `[step.dict() for step in agent.memory.steps]` dumps it: a list of step dicts —
// SystemPromptStep `{system_prompt}`, TaskStep `{task, task_images}`, PlanningStep
// `{model_input_messages, model_output_message, plan, timing, token_usage}`, ActionStep
// `{step_number, model_output, tool_calls: [{id, type, function: {name, arguments}}],
// observations, action_output, error: {type, message}, is_final_answer, timing, token_usage}`,
// FinalAnswerStep `{output}` — bare, or inside a run record (`steps` / `intermediate_steps` /
// `memory`, with `question`, `prediction`, `true_answer` as the GAIA runs write them). One message
// per step (position rule): an action step is one decision step whose text is its model output
// followed by its observations, since the memory keeps both in one step.

const STEP_LISTS = ['steps', 'intermediate_steps', 'memory'] as const;
const ACTION_KEYS = ['model_output', 'observations', 'step_number', 'action_output', 'model_output_message'];
const DETECT_STEPS = 50;

const toolCall = z.looseObject({
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string({ message: 'expected the tool name as a string' }), arguments: z.unknown().optional() }).optional(),
  name: z.string().optional(),
  arguments: z.unknown().optional(),
});
const step = z.looseObject({
  system_prompt: z.string().nullish(),
  task: z.string().nullish(),
  plan: z.string().nullish(),
  model_output: z.union([z.string(), z.null()], { message: 'expected the model output as a string' }).optional(),
  tool_calls: z.array(toolCall).nullish(),
  observations: z.union([z.string(), z.null()], { message: 'expected the observations as a string' }).optional(),
  error: z.union([z.looseObject({ type: z.string().optional(), message: z.string().optional() }), z.string(), z.null()]).optional(),
  is_final_answer: z.boolean().nullish(),
});
type Step = z.infer<typeof step>;

const optionalString = (v: unknown) => v === undefined || v === null || typeof v === 'string';

/** What `step` accepts, checked by hand. */
function plainStep(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (!optionalString(value.system_prompt) || !optionalString(value.task) || !optionalString(value.plan)) return false;
  if (!optionalString(value.model_output) || !optionalString(value.observations)) return false;
  if (!(value.is_final_answer === undefined || value.is_final_answer === null || typeof value.is_final_answer === 'boolean')) return false;
  const error = value.error;
  if (!(
    optionalString(error) ||
    (isObject(error) && (error.type === undefined || typeof error.type === 'string') && (error.message === undefined || typeof error.message === 'string'))
  ))
    return false;
  const calls = value.tool_calls;
  if (calls === undefined || calls === null) return true;
  return Array.isArray(calls) && calls.every(plainCall);
}

// Named, not inline: an inline arrow is a new closure for every step checked.
function plainCall(c: unknown): boolean {
  return (
    isObject(c) &&
    optionalString(c.id) &&
    (c.function === undefined || (isObject(c.function) && typeof c.function.name === 'string')) &&
    (c.name === undefined || typeof c.name === 'string')
  );
}

function isStep(value: unknown): boolean {
  return (
    isObject(value) &&
    (ACTION_KEYS.some((k) => k in value) ||
      'task' in value ||
      'system_prompt' in value ||
      'plan' in value ||
      ('output' in value && Object.keys(value).length <= 2))
  );
}

function isActionStep(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const key of ACTION_KEYS) if (key in value) return true;
  return false;
}

function stepList(value: unknown): { list: unknown[]; key?: (typeof STEP_LISTS)[number] } | undefined {
  if (Array.isArray(value)) return { list: value };
  if (!isObject(value)) return undefined;
  const key = STEP_LISTS.find((k) => Array.isArray(value[k]));
  return key ? { list: value[key] as unknown[], key } : undefined;
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

function outputMessageText(value: unknown): string {
  if (!isObject(value)) return '';
  if (typeof value.content === 'string') return value.content;
  if (Array.isArray(value.content)) return value.content.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('\n');
  return '';
}

/**
 * A part of a step's text after `first`, a blank line between (none when `first` is empty):
 * `label` and `text` joined with `+`, which links them without copying (Array#join copied every
 * observation into the content), the separator and label as one literal (one link fewer a step).
 */
function joinPart(first: string, label: 'Observation:\n' | 'Error: ', text: string): string {
  if (!first) return label + text;
  return label === 'Error: ' ? first + '\n\nError: ' + text : first + '\n\nObservation:\n' + text;
}

/** What the agent wrote in a step: an action step's model output, without the observations and error appended to it (where an answer counts). */
function ownTextOf(s: Step, message: Message): string {
  return isActionStep(s) ? (s.model_output ?? outputMessageText(s.model_output_message)).trim() : message.content;
}

/** A step's tool calls, in a list of their number (no closure per step). */
function stepCalls(s: Step): ToolCall[] {
  const raw = s.tool_calls ?? [];
  const calls = new Array<ToolCall>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    calls[i] = toolCallFromRaw(c.function?.name ?? c.name ?? 'unknown', c.function ? c.function.arguments : c.arguments, c.id ?? undefined);
  }
  return calls;
}

function stepMessageOf(s: Step, position: number): Message {
  if (typeof s.system_prompt === 'string') return { position, role: 'system', content: s.system_prompt, toolCalls: [] };
  if (typeof s.task === 'string' && !isActionStep(s)) return { position, role: 'user', content: s.task, toolCalls: [] };
  if (typeof s.plan === 'string' && !('step_number' in s) && !('observations' in s))
    return { position, role: 'assistant', agent: 'planning', content: s.plan, toolCalls: [] };
  if (!isActionStep(s) && 'output' in s) return { position, role: 'system', agent: 'final answer', content: `Final answer: ${text(s.output)}`, toolCalls: [] };
  const calls = stepCalls(s);
  let content = (s.model_output ?? outputMessageText(s.model_output_message)).trim();
  const observations = s.observations?.trim();
  if (observations) content = joinPart(content, 'Observation:\n', observations);
  const error = typeof s.error === 'string' ? s.error : s.error ? [s.error.type, s.error.message].filter(Boolean).join(': ') : '';
  if (error) content = joinPart(content, 'Error: ', error);
  const message: Message = { position, role: 'assistant', content, toolCalls: calls };
  if (error) message.isError = true;
  return message;
}

/** The final answer: FinalAnswerStep `output`, else the action output of a final-answer step. */
function finalOutput(steps: Step[]): string | undefined {
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i];
    if (!isActionStep(s) && 'output' in s && s.output !== undefined && s.output !== null) return text(s.output);
    if (s.is_final_answer && s.action_output !== undefined && s.action_output !== null) return text(s.action_output);
  }
  return undefined;
}

/** `smolagents`: an agent memory dump (bare step list or a run record holding one). */
export function loadSmolagents(value: unknown, source: SourceText, id: string): Trajectory {
  const found = stepList(value) ?? { list: [] };
  const at = { ...source, basePath: [...(source.basePath ?? []), ...(found.key ? [found.key] : [])] };
  const list = found.key || Array.isArray(value) ? found.list : undefined;
  // The well-formed common case skips zod (memories run to thousands of steps); anything else gets zod's exact message.
  const steps =
    Array.isArray(list) && list.every(plainStep)
      ? (list as Step[])
      : checkSchema(z.array(step, { message: 'expected the list of memory steps' }), list, at, 'smolagents memory steps');
  // Both lists sized once: grown by push, they reserved about half as much again.
  const messages = new Array<Message>(steps.length);
  const ownText = new Array<string>(steps.length);
  const tokens = { input: 0, output: 0 };
  for (let position = 0; position < steps.length; position++) {
    const s = steps[position];
    const message = stepMessageOf(s, position);
    messages[position] = message;
    ownText[position] = ownTextOf(s, message);
    if (isObject(s.token_usage)) {
      tokens.input += Number(s.token_usage.input_tokens) || 0;
      tokens.output += Number(s.token_usage.output_tokens) || 0;
    }
  }
  const obj = isObject(value) ? value : {};
  const task = steps.find((s) => typeof s.task === 'string')?.task ?? undefined;
  const metadata = found.key ? remainingFields(obj, [found.key]) : {};
  if (tokens.input || tokens.output) metadata.tokens = tokens;
  return finishTrajectory({
    format: 'smolagents',
    id,
    messages,
    query: pickString(obj, ['question', 'task', 'augmented_question']) ?? task,
    predictedAnswer: pickString(obj, ['prediction', 'answer']) ?? finalOutput(steps),
    goldAnswer: pickString(obj, ['true_answer', 'gold_answer', 'ground_truth']),
    metadata,
    answerTextOf: (m) => ownText[m.position],
  });
}

function detectSmolagents(value: unknown): FormatMatch | undefined {
  const found = stepList(value);
  if (!found || found.list.length === 0) return undefined;
  // An action step comes within the first few steps of any memory (after the system prompt, task
  // and plan). Only that head is looked at (every detect runs on every loaded value, issue 15 item
  // 6); a bad step further on is still named by the loader's schema check.
  const head = found.list.slice(0, DETECT_STEPS);
  if (!head.some(isActionStep)) return undefined;
  const bad = head.findIndex((s) => !isStep(s));
  const where = found.key ? `\`${found.key}\`` : 'a JSON array';
  if (bad !== -1)
    return {
      score: 0.4,
      reason: `${where} of smolagents memory steps`,
      missing: [`a memory step (task, model_output, observations…) at ${found.key ?? ''}[${bad}]`],
    };
  return { score: 0.9, reason: `${where} of smolagents memory steps (ActionStep \`model_output\`, \`observations\`)` };
}

export const smolagentsReader: TrajectoryReader = {
  id: 'smolagents',
  label: 'smolagents agent memory',
  detect: detectSmolagents,
  load: loadSmolagents,
};
