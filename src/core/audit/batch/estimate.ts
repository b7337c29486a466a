// What a batch audit will cost before it is submitted, and what it did cost after: tokens and
// USD at batch prices. Both providers bill batches at half their list price, input and output;
// the list prices are the user's (--price, the trajaudit.audit.pricing setting): trajaudit keeps
// no price table, so without them the cost is unknown (null), never guessed.

import { costUsd, type HarnessUsage, type Pricing } from '../../harness/wire';
import { ROOT_CAUSES } from '../../model/rootCauses';
import { startStructured } from '../../providers/structured';
import type { ModelClient } from '../../providers/types';
import { tokenCount } from '../../stats/tokens';
import type { StructuredAsk } from '../modelCalls';
import type { BaselineCase } from '../baselines';
import { adjudicationStep, branchAsks, repairAsk, type SearchAuditorOptions, type SearchAuditorPlan } from '../searchAuditor';
import type { BranchReport } from '../types';

/** Batch price ÷ list price, for input and output alike (OpenAI Batch API, Anthropic Message Batches). */
export const BATCH_PRICE_FACTOR = 0.5;

/**
 * Output tokens assumed per structured reply for the estimate (a report, an adjudication or a
 * repair is a few hundred tokens of JSON; reasoning tokens are not foreseeable). The upper bound,
 * every reply at its output limit, is given beside it.
 */
export const ASSUMED_OUTPUT_TOKENS_PER_REPLY = 400;

/** The output limit a request without one is counted with (the sync path reserves the same). */
const DEFAULT_OUTPUT_LIMIT = 8000;

export interface BatchCostEstimate {
  /** First attempts only: re-asks and resubmissions come on top. */
  requests: number;
  inputTokens: number;
  outputTokens: number;
  outputTokensMax: number;
  /** null when no prices were given. */
  costUsd: number | null;
  costUsdMax: number | null;
  /** USD per million tokens at batch prices; null when no prices were given. */
  batchPricing: Pricing | null;
  note: string;
}

/** The estimate under `estimate` in `audit --batch --json` and `score --batch --json` (docs/cli.md). */
export function estimateJson(e: BatchCostEstimate | undefined) {
  if (!e) return null;
  return {
    requests: e.requests,
    input_tokens: e.inputTokens,
    output_tokens: e.outputTokens,
    output_tokens_max: e.outputTokensMax,
    cost_usd: e.costUsd,
    cost_usd_max: e.costUsdMax,
    batch_pricing: e.batchPricing,
    note: e.note,
  };
}

export function batchPricingOf(list: Pricing | undefined): Pricing | undefined {
  if (!list) return undefined;
  return { input: list.input * BATCH_PRICE_FACTOR, cachedInput: list.cachedInput * BATCH_PRICE_FACTOR, output: list.output * BATCH_PRICE_FACTOR };
}

/** The cost of real usage at batch prices (cached input at the cached price); null without prices. */
export function batchCostUsd(usage: HarnessUsage, list: Pricing | undefined): number | null {
  return costUsd(usage, batchPricingOf(list)) ?? null;
}

/**
 * Tokens of every request of every stage. Stage 1 is exact (its requests are built); stages 2 and
 * 3 depend on stage 1's replies, so they are built from placeholder reports that disagree and a
 * placeholder diagnosis, which have the length of the real prompts up to the reports' own text. No prompt
 * cache hit is assumed (batches cache best-effort), so input is an upper bound.
 */
export function estimateSearchAuditorBatch(
  plans: readonly SearchAuditorPlan[],
  client: Pick<ModelClient, 'structuredOutput'>,
  listPricing: Pricing | undefined,
): BatchCostEstimate {
  const tally = newTally(client);
  for (const plan of plans) {
    const add = tally.forCase(plan.options.maxOutputTokens);
    const branches = branchAsks(plan);
    for (const b of branches) add(b.ask);
    // Three reports that disagree (a third in, two thirds in, the final step), as branches often do:
    // each distinct step adds an evidence window to the adjudication; the diagnosis takes the middle one.
    const steps = plan.t.decisionSteps;
    const at = (fraction: number) => steps[Math.min(steps.length - 1, Math.floor(steps.length * fraction))];
    const proposed = [at(1 / 3), at(2 / 3), plan.final];
    const placeholders: BranchReport[] = branches.map((b, i) => ({
      name: b.name,
      criticalStep: proposed[i % proposed.length],
      rootCause: ROOT_CAUSES[i % ROOT_CAUSES.length],
      rationale: `(report of ${b.name})`,
    }));
    const step = adjudicationStep(plan, placeholders);
    if ('ask' in step) add(step.ask);
    add(repairAsk(plan.t, { criticalStep: proposed[1], rootCause: ROOT_CAUSES[0], rationale: '(the diagnosis)', citedSteps: [] }, plan.options, plan.final));
  }
  return estimateOf(tally, listPricing, 'no prompt-cache hits assumed');
}

/** Input tokens of first attempts, counted as they would be sent (the JSON instruction or native schema included). */
function newTally(client: Pick<ModelClient, 'structuredOutput'>) {
  const totals = { requests: 0, inputTokens: 0, outputTokensMax: 0 };
  return {
    totals,
    /** The counter of one case's requests (texts a case repeats are counted once, then reused). */
    forCase(maxOutputTokens: number | undefined) {
      const counted = new Map<string, number>();
      const count = (text: string | undefined) => {
        if (!text) return 0;
        let n = counted.get(text);
        if (n === undefined) counted.set(text, (n = tokenCount(text)));
        return n;
      };
      return (ask: StructuredAsk<unknown>) => {
        const attempt = startStructured(ask.request, ask.schema, { name: ask.name, structuredOutput: client.structuredOutput });
        const r = attempt.request;
        totals.requests++;
        totals.inputTokens += count(r.system) + count(r.cacheablePrefix) + r.messages.reduce((n, m) => n + count(m.content), 0);
        if (attempt.native) totals.inputTokens += count(JSON.stringify(attempt.spec.schema));
        totals.outputTokensMax += maxOutputTokens ?? DEFAULT_OUTPUT_LIMIT;
      };
    },
  };
}

/**
 * A baseline batch's requests at most: each case walked with the replies that keep it going
 * longest (Binary Search down the larger half, Step-by-Step to the last step), as the rounds
 * depend on the replies. Fresh, unrun cases: walking them uses them up.
 */
export function estimateBaselineBatch(
  cases: readonly BaselineCase[],
  options: Pick<SearchAuditorOptions, 'maxOutputTokens'>,
  client: Pick<ModelClient, 'structuredOutput'>,
  listPricing: Pricing | undefined,
): BatchCostEstimate {
  const tally = newTally(client);
  for (const audit of cases) {
    const add = tally.forCase(options.maxOutputTokens);
    for (let asks = audit.next(); asks; asks = audit.next()) {
      asks.forEach(add);
      audit.accept(audit.longestReplies());
    }
  }
  return estimateOf(
    tally,
    listPricing,
    'the longest path of every case (Binary Search down the larger half, Step-by-Step to its last step), no prompt-cache hits assumed',
  );
}

function estimateOf(tally: ReturnType<typeof newTally>, listPricing: Pricing | undefined, assumption: string): BatchCostEstimate {
  return batchEstimate(tally.totals, listPricing, { assumption, outputTokensPerReply: ASSUMED_OUTPUT_TOKENS_PER_REPLY, reply: 'reply' });
}

/**
 * The estimate of a batch from its first attempts' token totals: output tokens at
 * `outputTokensPerReply` a reply (and at most every reply at its limit), cost at batch prices.
 */
export function batchEstimate(
  totals: { requests: number; inputTokens: number; outputTokensMax: number },
  listPricing: Pricing | undefined,
  basis: { assumption: string; outputTokensPerReply: number; reply: string },
): BatchCostEstimate {
  const { requests, inputTokens, outputTokensMax } = totals;
  const outputTokens = requests * basis.outputTokensPerReply;
  const pricing = batchPricingOf(listPricing);
  const cost = (output: number) => costUsd({ calls: requests, inputTokens, cachedInputTokens: 0, outputTokens: output }, pricing) ?? null;
  return {
    requests,
    inputTokens,
    outputTokens,
    outputTokensMax,
    costUsd: cost(outputTokens),
    costUsdMax: cost(outputTokensMax),
    batchPricing: pricing ?? null,
    note: pricing
      ? `at batch prices (${BATCH_PRICE_FACTOR * 100}% of the list prices given), ${basis.assumption}, ${basis.outputTokensPerReply} output tokens per ${basis.reply} (max: every reply at its output limit)`
      : 'cost unknown: trajaudit has no price list; pass --price IN,CACHED,OUT (list USD per million tokens) to see it at batch prices',
  };
}
