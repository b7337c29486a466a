// The multi-call baselines over a whole corpus through a provider's batch engine (issue 17), round
// by round: a round is one submission holding the next requests of every case still open
// (All-at-Once: one round; Binary Search: one halving question per round, then the final
// judgment; Step-by-Step: the next stepsPerRound prefixes per round). Each round is one BatchJob
// whose state file lives in the job folder, so a rerun resumes polling and submits nothing twice.
// The prompts and decisions are the synchronous audit's own (planBaseline), every reply goes
// through runStage (the same validation and re-asks as a synchronous call).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BatchProvider } from '../../providers/batch';
import { addUsage, emptyUsage, type ChatUsage } from '../../providers/types';
import { planBaseline, type BaselineCase, type BaselineMethod } from '../baselines';
import type { SearchAuditorOptions } from '../searchAuditor';
import { emptyUsage as emptyAuditUsage, type AuditResult, type AuditUsage } from '../types';
import type { BatchCase } from './searchAuditorBatch';
import { caseKey } from './searchAuditorBatch';
import { runStage, StageWaiting, type StageRequest } from './stageRunner';

/**
 * Step-by-Step judgments per case and round in a batch: a synchronous walk stops at the first
 * decisive step, a batch round trip can take hours, so a round judges the next eight prefixes and
 * the case commits at the first decisive one among them (the judgments after it are paid for).
 */
export const BATCH_STEPS_PER_ROUND = 8;

export interface BaselineBatchOptions {
  method: BaselineMethod;
  search: SearchAuditorOptions;
  provider: BatchProvider;
  jobDir: string;
  stepsPerRound?: number;
  maxAttempts?: number;
  pollIntervalMs?: number;
  detach?: boolean;
  signal?: AbortSignal;
  /** A round was submitted (1-based). */
  onSubmitted?: (round: number, batchIds: string[], requests: number) => void;
}

export type BaselineCaseOutcome = { audit: AuditResult } | { error: string; round: number };

export interface BaselineBatchResult {
  status: 'complete' | 'waiting';
  cases: Map<string, BaselineCaseOutcome>;
  waiting?: { round: number; phase: 'submitted' | 'in_progress'; batchIds: string[]; requests: number };
  usage: ChatUsage & { calls: number };
}

interface OpenCase {
  c: BatchCase;
  audit: BaselineCase;
  usage: AuditUsage;
}

/** The plan of every case as a batch runs it (for the estimate too); a case that cannot be planned is an error. */
export function planBaselineCases(
  cases: readonly BatchCase[],
  method: BaselineMethod,
  options: SearchAuditorOptions,
  stepsPerRound = BATCH_STEPS_PER_ROUND,
): { planned: Map<string, { c: BatchCase; audit: BaselineCase }>; failed: Map<string, string> } {
  const planned = new Map<string, { c: BatchCase; audit: BaselineCase }>();
  const failed = new Map<string, string>();
  for (const c of cases) {
    const key = caseKey(c.caseId);
    if (planned.has(key) || failed.has(c.caseId)) throw new Error(`batch audit: case id "${c.caseId}" is given twice`);
    try {
      planned.set(key, { c, audit: planBaseline(c.trajectory, method, options, c.trajectorySha256, { stepsPerRound }) });
    } catch (error) {
      failed.set(c.caseId, (error as Error).message.split('\n')[0]);
    }
  }
  return { planned, failed };
}

export async function runBaselineBatch(cases: readonly BatchCase[], options: BaselineBatchOptions): Promise<BaselineBatchResult> {
  mkdirSync(options.jobDir, { recursive: true });
  const started = Date.now();
  const out = new Map<string, BaselineCaseOutcome>();
  const total = { ...emptyUsage(), calls: 0 };
  const { planned, failed } = planBaselineCases(cases, options.method, options.search, options.stepsPerRound);
  for (const [caseId, error] of failed) out.set(caseId, { error: `round 1: ${error}`, round: 1 });
  const open = new Map<string, OpenCase>([...planned].map(([key, p]) => [key, { ...p, usage: emptyAuditUsage() }]));

  let round = 0;
  try {
    while (open.size) {
      round++;
      const requests: StageRequest<unknown>[] = [];
      const counts = new Map<string, number>();
      for (const [key, state] of open) {
        const asks = state.audit.next();
        if (!asks) throw new Error(`${options.method}: a case was left open without requests`);
        counts.set(key, asks.length);
        asks.forEach((ask, j) => requests.push({ key: `${key}-r${round}-${j}`, ask }));
      }
      const outcomes = await runStage(requests, {
        provider: options.provider,
        client: options.search.client,
        statePath: join(options.jobDir, `round-${round}-${options.method}.json`),
        ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
        ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
        ...(options.detach ? { detach: true } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        onSubmitted: (ids, n) => options.onSubmitted?.(round, ids, n),
      });
      for (const [key, state] of [...open]) {
        const mine = Array.from({ length: counts.get(key)! }, (_, j) => outcomes.get(`${key}-r${round}-${j}`)!);
        for (const o of mine) {
          state.usage.calls += o.calls;
          state.usage.inputTokens += o.usage.inputTokens;
          state.usage.outputTokens += o.usage.outputTokens;
          state.usage.cachedInputTokens += o.usage.cachedInputTokens;
          Object.assign(total, addUsage(total, o.usage));
          total.calls += o.calls;
        }
        const errors = mine.flatMap((o) => (o.ok ? [] : [o.error]));
        if (errors.length) {
          open.delete(key);
          out.set(state.c.caseId, { error: `round ${round}: ${errors.join('; ')}`, round });
          continue;
        }
        state.audit.accept(mine.map((o) => (o as { value: unknown }).value));
        if (state.audit.next() === undefined) {
          open.delete(key);
          // A batch result has no latency of its own: the case took as long as this run waited for it.
          out.set(state.c.caseId, { audit: state.audit.result(state.usage, started) });
        }
      }
    }
  } catch (error) {
    if (!(error instanceof StageWaiting)) throw error;
    return { status: 'waiting', cases: out, waiting: { round, phase: error.phase, batchIds: error.batchIds, requests: error.requests }, usage: total };
  }
  return { status: 'complete', cases: out, usage: total };
}
