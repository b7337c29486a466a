import { z } from 'zod';
import type { Trajectory } from '../model/trajectory';
import { tokenCount } from '../stats/tokens';
import { toDecisionStep } from './decisionSteps';
import { newAuditId } from './ids';
import { rootCauseField, structuredCall } from './modelCalls';
import { fillPrompt, loadPrompt } from './prompts';
import { renderTrajectory } from './render';
import type { SearchAuditorOptions } from './searchAuditor';
import { emptyUsage, type AuditMethod, type AuditResult, type StepCorrection } from './types';

export const BASELINES_PROMPT_VERSION = 'baselines/v1';

const tripleSchema = z.object({
  critical_step: z.number().int(),
  root_cause: rootCauseField,
  rationale: z.string().min(1),
  directives: z.array(z.string().min(1)).min(1).max(6),
});
const stepSchema = z.object({
  decisive: z.boolean(),
  root_cause: rootCauseField.optional(),
  rationale: z.string(),
  directives: z.array(z.string()).optional(),
});
const halfSchema = z.object({ half: z.enum(['first', 'second']), rationale: z.string() });

type Triple = z.infer<typeof tripleSchema>;

/** The trajectory prefix up to `end` (inclusive) as a trajectory of its own, for prefix-wise prompts. */
function prefixOf(t: Trajectory, end: number): Trajectory {
  const messages = t.messages.slice(0, end + 1);
  return { ...t, messages, decisionSteps: t.decisionSteps.filter((p) => p <= end), finalAnswerStep: undefined };
}

function contextOf(t: Trajectory, options: SearchAuditorOptions): { text: string; cuts: { position: number; cutTokens: number }[] } {
  const system = loadPrompt('searchauditor/v1/system.md');
  const rendered = renderTrajectory(t, {
    maxTokens: Math.max(4000, (options.contextLimit ?? 128_000) - (options.maxOutputTokens ?? 8000) - tokenCount(system) - 2000),
  });
  return {
    text: fillPrompt(loadPrompt('searchauditor/v1/context.md'), {
      query: t.query ?? '(no query recorded)',
      predicted_answer: t.predictedAnswer ?? '(no final answer recorded)',
      trajectory: rendered.text,
    }),
    cuts: rendered.cuts,
  };
}

function result(
  t: Trajectory,
  method: AuditMethod,
  options: SearchAuditorOptions,
  triple: Triple,
  usage: AuditResult['usage'],
  started: number,
  corrections: StepCorrection[],
  cuts: { position: number; cutTokens: number }[],
  sha?: string,
): AuditResult {
  const mapped = toDecisionStep(t, triple.critical_step, method);
  if (mapped.correction) corrections.push(mapped.correction);
  usage.latencyMs = Date.now() - started;
  return {
    id: newAuditId(method),
    method,
    provider: options.client.provider,
    model: options.client.model,
    createdAt: new Date().toISOString(),
    promptVersion: BASELINES_PROMPT_VERSION,
    diagnosis: { criticalStep: mapped.step, rootCause: triple.root_cause, rationale: triple.rationale, citedSteps: [mapped.step] },
    repair: { directives: triple.directives },
    usage,
    ...(corrections.length ? { corrections } : {}),
    ...(cuts.length ? { contextCuts: cuts } : {}),
    ...(sha ? { trajectorySha256: sha } : {}),
  };
}

/** All-at-Once (Who&When, adapted to the full triple): one judgment over the whole trajectory. */
export async function runAllAtOnce(t: Trajectory, options: SearchAuditorOptions, sha?: string): Promise<AuditResult> {
  const started = Date.now();
  const usage = emptyUsage();
  const context = contextOf(t, options);
  const triple = await structuredCall(
    options,
    usage,
    {
      system: loadPrompt('searchauditor/v1/system.md'),
      cacheablePrefix: context.text,
      messages: [{ role: 'user', content: loadPrompt('baselines/v1/all-at-once.md') }],
    },
    tripleSchema,
    'all_at_once',
  );
  return result(t, 'all-at-once', options, triple, usage, started, [], context.cuts, sha);
}

/** Step-by-Step: prefix by prefix, committing at the first decision step judged decisive. */
export async function runStepByStep(t: Trajectory, options: SearchAuditorOptions, sha?: string): Promise<AuditResult> {
  const started = Date.now();
  const usage = emptyUsage();
  const system = loadPrompt('searchauditor/v1/system.md');
  const steps = t.decisionSteps;
  if (steps.length === 0) throw new Error('the trajectory has no decision step to audit');
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const isLast = i === steps.length - 1;
    // Include the tool returns that answer this step, so the judge sees what the call brought back.
    const end = isLast ? t.messages.length - 1 : steps[i + 1] - 1;
    const context = contextOf(prefixOf(t, end), options);
    const note = isLast ? '\n\nThis is the final decision step of the failed run: if no earlier step was decisive, this one is.' : '';
    const value = await structuredCall(
      options,
      usage,
      { system, cacheablePrefix: context.text, messages: [{ role: 'user', content: fillPrompt(loadPrompt('baselines/v1/step-by-step.md'), { step }) + note }] },
      stepSchema,
      'step_judgment',
    );
    if (value.decisive || isLast) {
      const triple: Triple = {
        critical_step: step,
        root_cause: value.root_cause ?? 'unsupported_answer',
        rationale: value.rationale,
        directives: value.directives?.length ? value.directives : [`Revisit decision step ${step}: ${value.rationale}`],
      };
      return result(t, 'step-by-step', options, triple, usage, started, [], context.cuts, sha);
    }
  }
  throw new Error('unreachable: the last step always commits');
}

/** Binary Search: recursive halving of the message range, then one judgment inside the last range. */
export async function runBinarySearch(t: Trajectory, options: SearchAuditorOptions, sha?: string): Promise<AuditResult> {
  const started = Date.now();
  const usage = emptyUsage();
  const system = loadPrompt('searchauditor/v1/system.md');
  const context = contextOf(t, options);
  let [start, end] = [0, t.messages.length - 1];
  const inRange = (a: number, b: number) => t.decisionSteps.filter((p) => p >= a && p <= b);
  while (inRange(start, end).length > 2) {
    const steps = inRange(start, end);
    const mid = steps[Math.floor(steps.length / 2)] - 1; // the first half ends just before a decision step
    const value = await structuredCall(
      options,
      usage,
      {
        system,
        cacheablePrefix: context.text,
        messages: [
          {
            role: 'user',
            content: fillPrompt(loadPrompt('baselines/v1/binary-search.md'), { first_start: start, first_end: mid, second_start: mid + 1, second_end: end }),
          },
        ],
      },
      halfSchema,
      'half',
    );
    if (value.half === 'first') end = mid;
    else start = mid + 1;
  }
  const triple = await structuredCall(
    options,
    usage,
    { system, cacheablePrefix: context.text, messages: [{ role: 'user', content: fillPrompt(loadPrompt('baselines/v1/final-judgment.md'), { start, end }) }] },
    tripleSchema,
    'final_judgment',
  );
  return result(t, 'binary-search', options, triple, usage, started, [], context.cuts, sha);
}
