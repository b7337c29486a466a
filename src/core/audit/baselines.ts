import { z } from 'zod';
import type { Trajectory } from '../model/trajectory';
import { tokenCount } from '../stats/tokens';
import { toDecisionStep } from './decisionSteps';
import { newAuditId } from './ids';
import { rootCauseField, structuredCall, type StructuredAsk } from './modelCalls';
import { fillPrompt, loadPrompt } from './prompts';
import { renderTrajectory } from './render';
import type { SearchAuditorOptions } from './searchAuditor';
import { emptyUsage, type AuditMethod, type AuditResult, type AuditUsage, type StepCorrection } from './types';

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

export const BASELINE_METHODS = ['all-at-once', 'binary-search', 'step-by-step'] as const;
export type BaselineMethod = (typeof BASELINE_METHODS)[number];

/**
 * One baseline audit as rounds of structured requests, so a synchronous audit (one request at a
 * time) and a batch audit (one round of every case per submission, audit/batch/baselineBatch.ts)
 * run the same prompts and the same decisions. Each round's requests depend on the replies of the
 * rounds before it.
 */
export interface BaselineCase {
  readonly method: BaselineMethod;
  /** The next round's requests; undefined once the triple is decided. */
  next(): StructuredAsk<unknown>[] | undefined;
  /** The validated replies to the round next() gave, in its order. */
  accept(values: unknown[]): void;
  /** Replies that keep the case going longest (for an upper bound of what it may send). */
  longestReplies(): unknown[];
  /** The audit, once next() is undefined; `usage` is the usage of every call made. */
  result(usage: AuditUsage, started: number): AuditResult;
}

export interface BaselinePlanOptions {
  /**
   * Step-by-Step: decision steps judged per round (default 1, the synchronous walk that stops at
   * the first decisive step). A batch judges several per round: fewer round trips of the batch
   * engine, at the price of the judgments past the decisive step in its round.
   */
  stepsPerRound?: number;
}

const placeholderTriple: Triple = { critical_step: 0, root_cause: 'unsupported_answer', rationale: '(placeholder)', directives: ['(placeholder)'] };

/** A baseline case not yet run. Step-by-Step throws when the trajectory has no decision step. */
export function planBaseline(t: Trajectory, method: BaselineMethod, options: SearchAuditorOptions, sha?: string, plan: BaselinePlanOptions = {}): BaselineCase {
  const system = loadPrompt('searchauditor/v1/system.md');
  let triple: Triple | undefined;
  let cuts: { position: number; cutTokens: number }[] = [];
  const finish = (usage: AuditUsage, started: number) => {
    if (!triple) throw new Error(`${method}: the audit is not finished`);
    return result(t, method, options, triple, usage, started, [], cuts, sha);
  };

  if (method === 'all-at-once') {
    // All-at-Once (Who&When, adapted to the full triple): one judgment over the whole trajectory.
    const context = contextOf(t, options);
    cuts = context.cuts;
    return {
      method,
      next: () =>
        triple
          ? undefined
          : [
              {
                request: { system, cacheablePrefix: context.text, messages: [{ role: 'user', content: loadPrompt('baselines/v1/all-at-once.md') }] },
                schema: tripleSchema,
                name: 'all_at_once',
              },
            ],
      accept: ([value]) => {
        triple = value as Triple;
      },
      longestReplies: () => [placeholderTriple],
      result: finish,
    };
  }

  if (method === 'step-by-step') {
    // Step-by-Step: prefix by prefix, committing at the first decision step judged decisive.
    const steps = t.decisionSteps;
    if (steps.length === 0) throw new Error('the trajectory has no decision step to audit');
    const perRound = Math.max(1, plan.stepsPerRound ?? 1);
    let from = 0;
    const contexts = new Map<number, ReturnType<typeof contextOf>>();
    const contextAt = (i: number) => {
      let c = contexts.get(i);
      if (!c) {
        // Include the tool returns that answer this step, so the judge sees what the call brought back.
        const end = i === steps.length - 1 ? t.messages.length - 1 : steps[i + 1] - 1;
        contexts.set(i, (c = contextOf(prefixOf(t, end), options)));
      }
      return c;
    };
    const round = () => steps.slice(from, from + perRound).map((_, j) => from + j);
    return {
      method,
      next: () => {
        if (triple) return undefined;
        return round().map((i) => {
          const note = i === steps.length - 1 ? '\n\nThis is the final decision step of the failed run: if no earlier step was decisive, this one is.' : '';
          return {
            request: {
              system,
              cacheablePrefix: contextAt(i).text,
              messages: [{ role: 'user' as const, content: fillPrompt(loadPrompt('baselines/v1/step-by-step.md'), { step: steps[i] }) + note }],
            },
            schema: stepSchema,
            name: 'step_judgment',
          };
        });
      },
      accept: (values) => {
        const indices = round();
        for (let j = 0; j < indices.length; j++) {
          const i = indices[j];
          const value = values[j] as z.infer<typeof stepSchema>;
          if (value.decisive || i === steps.length - 1) {
            const step = steps[i];
            triple = {
              critical_step: step,
              root_cause: value.root_cause ?? 'unsupported_answer',
              rationale: value.rationale,
              directives: value.directives?.length ? value.directives : [`Revisit decision step ${step}: ${value.rationale}`],
            };
            cuts = contextAt(i).cuts;
            contexts.clear();
            return;
          }
        }
        for (const i of indices) contexts.delete(i);
        from += indices.length;
      },
      longestReplies: () => round().map(() => ({ decisive: false, rationale: '' })),
      result: finish,
    };
  }

  // Binary Search: recursive halving of the message range, then one judgment inside the last range.
  const context = contextOf(t, options);
  cuts = context.cuts;
  let [start, end] = [0, t.messages.length - 1];
  const inRange = (a: number, b: number) => t.decisionSteps.filter((p) => p >= a && p <= b);
  const searching = () => inRange(start, end).length > 2;
  // The first half ends just before a decision step.
  const midpoint = () => {
    const steps = inRange(start, end);
    return steps[Math.floor(steps.length / 2)] - 1;
  };
  const ask = (content: string, schema: z.ZodType, name: string): StructuredAsk<unknown> => ({
    request: { system, cacheablePrefix: context.text, messages: [{ role: 'user', content }] },
    schema,
    name,
  });
  return {
    method,
    next: () => {
      if (triple) return undefined;
      if (!searching()) return [ask(fillPrompt(loadPrompt('baselines/v1/final-judgment.md'), { start, end }), tripleSchema, 'final_judgment')];
      const mid = midpoint();
      return [
        ask(
          fillPrompt(loadPrompt('baselines/v1/binary-search.md'), { first_start: start, first_end: mid, second_start: mid + 1, second_end: end }),
          halfSchema,
          'half',
        ),
      ];
    },
    accept: ([value]) => {
      if (!searching()) {
        triple = value as Triple;
        return;
      }
      const mid = midpoint();
      if ((value as z.infer<typeof halfSchema>).half === 'first') end = mid;
      else start = mid + 1;
    },
    longestReplies: () => {
      if (!searching()) return [placeholderTriple];
      const mid = midpoint();
      return [{ half: inRange(start, mid).length >= inRange(mid + 1, end).length ? 'first' : 'second', rationale: '' }];
    },
    result: finish,
  };
}

/** A baseline, synchronously: its rounds' requests one after another. */
export async function runBaseline(t: Trajectory, method: BaselineMethod, options: SearchAuditorOptions, sha?: string): Promise<AuditResult> {
  const started = Date.now();
  const usage = emptyUsage();
  const audit = planBaseline(t, method, options, sha);
  for (let asks = audit.next(); asks; asks = audit.next()) {
    const values: unknown[] = [];
    for (const ask of asks) values.push(await structuredCall(options, usage, ask.request, ask.schema, ask.name));
    audit.accept(values);
  }
  return audit.result(usage, started);
}

/** All-at-Once (Who&When, adapted to the full triple): one judgment over the whole trajectory. */
export const runAllAtOnce = (t: Trajectory, options: SearchAuditorOptions, sha?: string) => runBaseline(t, 'all-at-once', options, sha);
/** Step-by-Step: prefix by prefix, committing at the first decision step judged decisive. */
export const runStepByStep = (t: Trajectory, options: SearchAuditorOptions, sha?: string) => runBaseline(t, 'step-by-step', options, sha);
/** Binary Search: recursive halving of the message range, then one judgment inside the last range. */
export const runBinarySearch = (t: Trajectory, options: SearchAuditorOptions, sha?: string) => runBaseline(t, 'binary-search', options, sha);
