import { z } from 'zod';
import { ROOT_CAUSE_LABELS } from '../model/rootCauses';
import type { Trajectory } from '../model/trajectory';
import { tokenCount } from '../stats/tokens';
import { toDecisionStep } from './decisionSteps';
import { structuredCall, rootCauseField, type CallSettings, type StructuredAsk } from './modelCalls';
import { organizeReports, voteAdjudication } from './organize';
import { fillPrompt, loadPrompt } from './prompts';
import { renderOutline, renderTrajectory, renderWindows } from './render';
import { newAuditId } from './ids';
import { allAtOnce, warmThenParallel } from '../providers/fanout';
import { emptyUsage, type AuditResult, type AuditUsage, type BranchReport, type StepCorrection } from './types';
import { jsonSchemaOf } from '../providers/structured';
import type { ChatRequest } from '../providers/types';

export const SEARCHAUDITOR_PROMPT_VERSION = 'searchauditor/v2';
/** The prompt files of SEARCHAUDITOR_PROMPT_VERSION. */
const PROMPTS = SEARCHAUDITOR_PROMPT_VERSION;

/** The ablations of seed 002 §5.3, as switches. */
export const SEARCHAUDITOR_VARIANTS = ['full', '3x-holistic', 'no-forward', 'no-backward', 'vote', 'no-outline-windows'] as const;
export type SearchAuditorVariant = (typeof SEARCHAUDITOR_VARIANTS)[number];

export interface SearchAuditorOptions extends CallSettings {
  variant?: SearchAuditorVariant;
  /** The adjudicator also gets the full trajectory (default true, as in the paper). */
  adjudicatorSeesTrajectory?: boolean;
  /** Context window of the model, in tokens; the trajectory is cut to fit (default 128K). */
  contextLimit?: number;
  windowRadius?: number;
  windowTokens?: number;
  /**
   * Send one branch first and the other two once it is answered, so they read the trajectory
   * prefix from the provider's prompt cache instead of each paying for it (on Anthropic, the
   * cache-write price). Costs one branch of latency; off by default (the paper runs all three at once).
   */
  warmCacheFirst?: boolean;
}

// What each stage that reads τ needs from its reply, validated per stage.
const branchSchema = z.object({ critical_step: z.number().int(), root_cause: rootCauseField, rationale: z.string().min(1), notes: z.string() });
const adjudicationSchema = z.object({
  critical_step: z.number().int(),
  root_cause: rootCauseField,
  rationale: z.string().min(1),
  cited_steps: z.array(z.number().int()),
});
/**
 * The one JSON Schema (and name) sent by every stage that reads τ: the branches and the
 * adjudicator. A provider's cached prefix starts with the schema — OpenAI: "the structured output
 * schema serves as a prefix to the system message" (platform.openai.com/docs/guides/prompt-caching);
 * Anthropic's prefix is tools → system → messages, and a changed output_config.format schema has
 * been observed to miss its cache too — so a stage with a schema of its own would re-pay the
 * whole trajectory. Each stage's zod schema above reads only its own fields of the reply.
 */
const SHARED_REPLY = { name: 'audit_report', schema: jsonSchemaOf(branchSchema.extend(adjudicationSchema.shape)) };

/** A stage's ask that shares the cached prefix: the shared schema on the wire, the stage's own for validation. */
function sharedPrefixAsk<T>(request: ChatRequest, schema: z.ZodType<T>): StructuredAsk<T> {
  return { request: { ...request, json: SHARED_REPLY }, schema, name: SHARED_REPLY.name };
}
export const repairSchema = z.object({ directives: z.array(z.string().min(1)).min(1).max(6) });

type Procedure = 'holistic' | 'backward' | 'forward';

function branchesOf(variant: SearchAuditorVariant): { name: string; procedure: Procedure }[] {
  switch (variant) {
    case '3x-holistic':
      return [
        { name: 'holistic-1', procedure: 'holistic' },
        { name: 'holistic-2', procedure: 'holistic' },
        { name: 'holistic-3', procedure: 'holistic' },
      ];
    case 'no-forward':
      return [
        { name: 'holistic', procedure: 'holistic' },
        { name: 'backward', procedure: 'backward' },
        { name: 'holistic-2', procedure: 'holistic' },
      ];
    case 'no-backward':
      return [
        { name: 'holistic', procedure: 'holistic' },
        { name: 'holistic-2', procedure: 'holistic' },
        { name: 'forward', procedure: 'forward' },
      ];
    default:
      return [
        { name: 'holistic', procedure: 'holistic' },
        { name: 'backward', procedure: 'backward' },
        { name: 'forward', procedure: 'forward' },
      ];
  }
}

/** The shared prefix of every request that sees τ: identical bytes, so providers cache it once. */
export function auditContext(t: Trajectory, contextLimit: number, reserveTokens: number) {
  const rendered = renderTrajectory(t, { maxTokens: Math.max(4000, contextLimit - reserveTokens) });
  const text = fillPrompt(loadPrompt(`${PROMPTS}/context.md`), {
    query: t.query ?? '(no query recorded)',
    predicted_answer: t.predictedAnswer ?? '(no final answer recorded)',
    trajectory: rendered.text,
  });
  return { text, cuts: rendered.cuts };
}

function reportsText(reports: BranchReport[]): string {
  return reports
    .map((r) =>
      [
        `### Report ${r.name}`,
        `Critical step: ${r.criticalStep}`,
        `Root cause: ${r.rootCause} (${ROOT_CAUSE_LABELS[r.rootCause]})`,
        `Rationale: ${r.rationale}`,
        ...(r.notes ? [`Audit notes: ${r.notes}`] : []),
      ].join('\n'),
    )
    .join('\n\n');
}

/** What every stage of one SearchAuditor case shares: the rendered views of τ and the settings. */
export interface SearchAuditorPlan {
  t: Trajectory;
  options: SearchAuditorOptions;
  variant: SearchAuditorVariant;
  system: string;
  outline: string;
  context: { text: string; cuts: { position: number; cutTokens: number }[] };
  /** The final-answer step (the repair's second window). */
  final: number;
  trajectorySha256?: string;
}

export type BranchValue = z.infer<typeof branchSchema>;
export type AdjudicationValue = z.infer<typeof adjudicationSchema>;
export type RepairValue = z.infer<typeof repairSchema>;

/**
 * The stages of SearchAuditor split into the requests they send and what they make of the
 * replies, so a synchronous audit (runSearchAuditor) and a batch audit (audit/batch) run the same
 * prompts and the same post-processing.
 */
export function planSearchAuditor(t: Trajectory, options: SearchAuditorOptions, trajectorySha256?: string): SearchAuditorPlan {
  if (t.decisionSteps.length === 0) throw new Error('the trajectory has no decision step to audit');
  const system = loadPrompt(`${PROMPTS}/system.md`);
  const outline = renderOutline(t);
  const reserve = (options.maxOutputTokens ?? 8000) + tokenCount(system) + tokenCount(outline) + 3000;
  return {
    t,
    options,
    variant: options.variant ?? 'full',
    system,
    outline,
    context: auditContext(t, options.contextLimit ?? 128_000, reserve),
    final: t.finalAnswerStep ?? t.decisionSteps[t.decisionSteps.length - 1],
    ...(trajectorySha256 ? { trajectorySha256 } : {}),
  };
}

/** Stage 1's three requests, sharing the trajectory as a cacheable prefix. */
export function branchAsks(plan: SearchAuditorPlan): { name: string; ask: StructuredAsk<BranchValue> }[] {
  return branchesOf(plan.variant).map(({ name, procedure }) => {
    const instructions =
      procedure === 'holistic' ? loadPrompt(`${PROMPTS}/holistic.md`) : fillPrompt(loadPrompt(`${PROMPTS}/${procedure}.md`), { outline: plan.outline });
    const request: ChatRequest = {
      system: plan.system,
      cacheablePrefix: plan.context.text,
      messages: [{ role: 'user', content: instructions }],
      ...(plan.trajectorySha256 ? { promptCacheKey: plan.trajectorySha256 } : {}),
    };
    return { name, ask: sharedPrefixAsk(request, branchSchema) };
  });
}

export function branchReport(plan: SearchAuditorPlan, name: string, value: BranchValue, corrections: StepCorrection[]): BranchReport {
  const mapped = toDecisionStep(plan.t, value.critical_step, name);
  if (mapped.correction) corrections.push(mapped.correction);
  return {
    name,
    criticalStep: mapped.step,
    rootCause: value.root_cause,
    rationale: value.rationale,
    ...(value.notes.trim() ? { notes: value.notes } : {}),
  };
}

export type Organized = ReturnType<typeof organizeReports>;

/** Stage 2: deterministic organization, then the adjudicator's request (or, for the vote ablation, the voted diagnosis). */
export function adjudicationStep(
  plan: SearchAuditorPlan,
  reports: BranchReport[],
): { organized: Organized } & ({ diagnosis: AuditResult['diagnosis'] } | { ask: StructuredAsk<AdjudicationValue> }) {
  const { t, options, variant, outline, system } = plan;
  const organized = organizeReports(t, reports);
  if (variant === 'vote') {
    const vote = voteAdjudication(t, reports);
    const source =
      reports.find((r) => r.rootCause === vote.rootCause && r.criticalStep === vote.criticalStep) ?? reports.find((r) => r.rootCause === vote.rootCause)!;
    return {
      organized,
      diagnosis: { criticalStep: vote.criticalStep, rootCause: vote.rootCause, rationale: source.rationale, citedSteps: [vote.criticalStep] },
    };
  }
  const withViews = variant !== 'no-outline-windows';
  const user = fillPrompt(loadPrompt(`${PROMPTS}/adjudicator.md`), {
    reports: reportsText(reports),
    summary: organized.summary,
    outline: withViews ? outline : '(not provided in this configuration)',
    windows: withViews ? renderWindows(t, organized.anchors, options.windowRadius ?? 2, options.windowTokens ?? 3000) : '(not provided in this configuration)',
  });
  const prefix =
    options.adjudicatorSeesTrajectory === false
      ? fillPrompt(loadPrompt(`${PROMPTS}/context.md`), {
          query: t.query ?? '',
          predicted_answer: t.predictedAnswer ?? '',
          trajectory: '(the full trajectory is not provided in this configuration; use the outline and windows)',
        })
      : plan.context.text;
  return {
    organized,
    ask: sharedPrefixAsk(
      {
        system,
        cacheablePrefix: prefix,
        messages: [{ role: 'user', content: user }],
        // The branches' routing hint too: OpenAI routes on it, and a hit needs the same machine.
        ...(plan.trajectorySha256 ? { promptCacheKey: plan.trajectorySha256 } : {}),
      },
      adjudicationSchema,
    ),
  };
}

export function adjudicatedDiagnosis(plan: SearchAuditorPlan, value: AdjudicationValue, corrections: StepCorrection[]): AuditResult['diagnosis'] {
  const mapped = toDecisionStep(plan.t, value.critical_step, 'adjudicator');
  if (mapped.correction) corrections.push(mapped.correction);
  return {
    criticalStep: mapped.step,
    rootCause: value.root_cause,
    rationale: value.rationale,
    citedSteps: [...new Set(value.cited_steps)].filter((p) => p >= 0 && p < plan.t.messages.length),
  };
}

/** The audit result of a case whose three stages are done. */
export function searchAuditorResult(
  plan: SearchAuditorPlan,
  parts: {
    reports: BranchReport[];
    organized: Organized;
    diagnosis: AuditResult['diagnosis'];
    repair: RepairValue;
    usage: AuditUsage;
    corrections: StepCorrection[];
  },
): AuditResult {
  const { options, variant, context, trajectorySha256 } = plan;
  const { organized, corrections } = parts;
  return {
    id: newAuditId('searchauditor'),
    method: 'searchauditor',
    provider: options.client.provider,
    model: options.client.model,
    createdAt: new Date().toISOString(),
    promptVersion: SEARCHAUDITOR_PROMPT_VERSION,
    diagnosis: parts.diagnosis,
    repair: { directives: parts.repair.directives },
    branches: parts.reports,
    adjudication: { disagreements: organized.summary, clusters: organized.clusters, windows: organized.anchors },
    usage: parts.usage,
    ...(corrections.length ? { corrections } : {}),
    ...(context.cuts.length ? { contextCuts: context.cuts } : {}),
    options: { variant, adjudicatorSeesTrajectory: options.adjudicatorSeesTrajectory !== false },
    ...(trajectorySha256 ? { trajectorySha256 } : {}),
  };
}

/**
 * SearchAuditor (seed 002 §4): three audit branches in parallel over the same trajectory,
 * deterministic organization of their reports with an outline and evidence windows, an
 * evidence-grounded adjudicator, and a repair synthesizer that sees only q, â, the diagnosis and
 * fresh windows. Five model calls (four with the vote ablation). Strictly offline: no gold field
 * is ever put into a prompt.
 */
export async function runSearchAuditor(t: Trajectory, options: SearchAuditorOptions, trajectorySha256?: string): Promise<AuditResult> {
  const started = Date.now();
  const plan = planSearchAuditor(t, options, trajectorySha256);
  const usage = emptyUsage();
  const corrections: StepCorrection[] = [];

  // Stage 1: the three branches, in parallel (or one first: warmCacheFirst); reports (and their
  // corrections) in branch order, whichever answers first.
  const asks = branchAsks(plan);
  const values = await (options.warmCacheFirst ? warmThenParallel : allAtOnce)(
    asks.map(
      ({ ask }) =>
        () =>
          structuredCall(options, usage, ask.request, ask.schema, ask.name),
    ),
  );
  const reports = asks.map(({ name }, i) => branchReport(plan, name, values[i], corrections));

  // Stage 2: deterministic organization, then the adjudicator (or the vote ablation).
  const step = adjudicationStep(plan, reports);
  const diagnosis =
    'diagnosis' in step
      ? step.diagnosis
      : adjudicatedDiagnosis(plan, await structuredCall(options, usage, step.ask.request, step.ask.schema, step.ask.name), corrections);

  // Stage 3: diagnosis-conditioned repair, from q, â, the diagnosis and fresh windows only.
  const repair = await synthesizeRepair(t, diagnosis, options, usage, plan.final);
  usage.latencyMs = Date.now() - started;
  return searchAuditorResult(plan, { reports, organized: step.organized, diagnosis, repair, usage, corrections });
}

/** Stage 3's request: never sees τ or any gold field. */
export function repairAsk(t: Trajectory, diagnosis: AuditResult['diagnosis'], options: SearchAuditorOptions, final: number): StructuredAsk<RepairValue> {
  const user = fillPrompt(loadPrompt(`${PROMPTS}/repair-user.md`), {
    query: t.query ?? '(no query recorded)',
    predicted_answer: t.predictedAnswer ?? '(no final answer recorded)',
    critical_step: diagnosis.criticalStep,
    root_cause: `${diagnosis.rootCause} (${ROOT_CAUSE_LABELS[diagnosis.rootCause]})`,
    rationale: diagnosis.rationale,
    windows: renderWindows(t, [...new Set([diagnosis.criticalStep, final])], options.windowRadius ?? 2, options.windowTokens ?? 3000),
  });
  return { request: { system: loadPrompt(`${PROMPTS}/repair.md`), messages: [{ role: 'user', content: user }] }, schema: repairSchema, name: 'repair' };
}

/** Stage 3, shared with the baselines that need a repair: never sees τ or any gold field. */
export async function synthesizeRepair(
  t: Trajectory,
  diagnosis: AuditResult['diagnosis'],
  options: SearchAuditorOptions,
  usage: AuditResult['usage'],
  final: number,
): Promise<{ directives: string[] }> {
  const ask = repairAsk(t, diagnosis, options, final);
  const value = await structuredCall(options, usage, ask.request, ask.schema, ask.name);
  return { directives: value.directives };
}
