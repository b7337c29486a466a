// SearchAuditor over a whole corpus through a provider's batch engine, stage by stage (issue 17):
// submission 1 holds the three branches of every case, submission 2 the adjudication of every
// case whose branches all succeeded, submission 3 the repair. Each stage is one BatchJob whose
// state file lives in the job folder, so a rerun resumes polling and submits nothing twice; a
// detached run does one step (submit, or poll once) and stops. The prompts and the processing of
// every reply are the synchronous audit's own (searchAuditor.ts halves, acceptStructuredReply).

import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BatchProvider } from '../../providers/batch';
import { addUsage, emptyUsage, type ChatUsage } from '../../providers/types';
import type { Trajectory } from '../../model/trajectory';
import {
  adjudicatedDiagnosis,
  adjudicationStep,
  branchAsks,
  branchReport,
  planSearchAuditor,
  repairAsk,
  searchAuditorResult,
  type AdjudicationValue,
  type BranchValue,
  type Organized,
  type RepairValue,
  type SearchAuditorOptions,
  type SearchAuditorPlan,
} from '../searchAuditor';
import { emptyUsage as emptyAuditUsage, type AuditResult, type AuditUsage, type BranchReport, type Diagnosis, type StepCorrection } from '../types';
import type { StructuredAsk } from '../modelCalls';
import { runStage, StageWaiting, type StageOutcome } from './stageRunner';

export const BATCH_STAGES = ['branches', 'adjudication', 'repair'] as const;
export type BatchStage = (typeof BATCH_STAGES)[number];

export interface BatchCase {
  /** Unique within the job and stable across runs (e.g. "<file>#<record>"): custom ids are derived from it. */
  caseId: string;
  trajectory: Trajectory;
  trajectorySha256?: string;
}

export interface SearchAuditorBatchOptions {
  search: SearchAuditorOptions;
  provider: BatchProvider;
  /** The job folder: one state file per stage. Created when missing. */
  jobDir: string;
  maxAttempts?: number;
  pollIntervalMs?: number;
  detach?: boolean;
  signal?: AbortSignal;
  onSubmitted?: (stage: BatchStage, batchIds: string[], requests: number) => void;
  /** The cases' plans, before anything is submitted (for the cost estimate). */
  onPlanned?: (plans: SearchAuditorPlan[]) => void;
}

export type BatchCaseOutcome = { audit: AuditResult } | { error: string; stage: BatchStage };

export interface SearchAuditorBatchResult {
  /** 'complete': every case has an audit or an error; 'waiting': a detached run stopped at `waiting.stage`. */
  status: 'complete' | 'waiting';
  cases: Map<string, BatchCaseOutcome>;
  waiting?: { stage: BatchStage; phase: 'submitted' | 'in_progress'; batchIds: string[]; requests: number };
  /** The real usage of every reply read in this run (results of earlier runs are read back too). */
  usage: ChatUsage & { calls: number };
}

/** The custom-id stem of a case: a hash, since case ids (paths, record ids) may hold any character. */
export function caseKey(caseId: string): string {
  return `c${createHash('sha256').update(caseId).digest('hex').slice(0, 24)}`;
}

interface CaseState {
  c: BatchCase;
  plan: SearchAuditorPlan;
  usage: AuditUsage;
  corrections: StepCorrection[];
  reports?: BranchReport[];
  organized?: Organized;
  diagnosis?: Diagnosis;
}

export async function runSearchAuditorBatch(cases: readonly BatchCase[], options: SearchAuditorBatchOptions): Promise<SearchAuditorBatchResult> {
  mkdirSync(options.jobDir, { recursive: true });
  const started = Date.now();
  const out = new Map<string, BatchCaseOutcome>();
  const total = { ...emptyUsage(), calls: 0 };
  const states = new Map<string, CaseState>();
  const keys = new Set<string>();
  for (const c of cases) {
    const key = caseKey(c.caseId);
    if (keys.has(key)) throw new Error(`batch audit: case id "${c.caseId}" is given twice`);
    keys.add(key);
    try {
      states.set(key, { c, plan: planSearchAuditor(c.trajectory, options.search, c.trajectorySha256), usage: emptyAuditUsage(), corrections: [] });
    } catch (error) {
      out.set(c.caseId, { error: (error as Error).message.split('\n')[0], stage: 'branches' });
    }
  }
  options.onPlanned?.([...states.values()].map((s) => s.plan));
  let current: BatchStage = 'branches';
  const stage = async <T>(name: BatchStage, index: number, requests: { key: string; ask: StructuredAsk<T> }[]) => {
    current = name;
    if (requests.length === 0) return new Map<string, StageOutcome<T>>();
    const outcomes = await runStage(requests, {
      provider: options.provider,
      client: options.search.client,
      statePath: join(options.jobDir, `stage-${index}-${name}.json`),
      ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
      ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
      ...(options.detach ? { detach: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      onSubmitted: (ids, n) => options.onSubmitted?.(name, ids, n),
    });
    return outcomes;
  };
  const account = (state: CaseState, outcome: StageOutcome<unknown>) => {
    state.usage.calls += outcome.calls;
    state.usage.inputTokens += outcome.usage.inputTokens;
    state.usage.outputTokens += outcome.usage.outputTokens;
    state.usage.cachedInputTokens += outcome.usage.cachedInputTokens;
    Object.assign(total, addUsage(total, outcome.usage));
    total.calls += outcome.calls;
  };
  const fail = (state: CaseState, name: BatchStage, error: string) => {
    states.delete(caseKey(state.c.caseId));
    out.set(state.c.caseId, { error: `stage ${name}: ${error}`, stage: name });
  };

  try {
    // Stage 1: the three branches of every case.
    const branchRequests: { key: string; ask: StructuredAsk<BranchValue> }[] = [];
    const branchNames = new Map<string, string[]>();
    for (const [key, state] of states) {
      const asks = branchAsks(state.plan);
      branchNames.set(
        key,
        asks.map((a) => a.name),
      );
      for (const a of asks) branchRequests.push({ key: `${key}-${a.name}`, ask: a.ask });
    }
    const branchOutcomes = await stage('branches', 1, branchRequests);
    for (const [key, state] of [...states]) {
      const names = branchNames.get(key)!;
      const outcomes = names.map((n) => branchOutcomes.get(`${key}-${n}`)!);
      for (const o of outcomes) account(state, o);
      const failed = outcomes.map((o, i) => (o.ok ? undefined : `${names[i]}: ${o.error}`)).filter(Boolean);
      if (failed.length) {
        fail(state, 'branches', failed.join('; '));
        continue;
      }
      state.reports = names.map((n, i) => branchReport(state.plan, n, (outcomes[i] as { value: BranchValue }).value, state.corrections));
    }

    // Stage 2: adjudication (the vote ablation decides without a model call).
    const adjudicationRequests: { key: string; ask: StructuredAsk<AdjudicationValue> }[] = [];
    for (const [key, state] of states) {
      const step = adjudicationStep(state.plan, state.reports!);
      state.organized = step.organized;
      if ('diagnosis' in step) state.diagnosis = step.diagnosis;
      else adjudicationRequests.push({ key: `${key}-adj`, ask: step.ask });
    }
    const adjudications = await stage('adjudication', 2, adjudicationRequests);
    for (const [key, state] of [...states]) {
      if (state.diagnosis) continue;
      const o = adjudications.get(`${key}-adj`)!;
      account(state, o);
      if (!o.ok) fail(state, 'adjudication', o.error);
      else state.diagnosis = adjudicatedDiagnosis(state.plan, o.value, state.corrections);
    }

    // Stage 3: the repair of every diagnosed case.
    const repairRequests: { key: string; ask: StructuredAsk<RepairValue> }[] = [];
    for (const [key, state] of states)
      repairRequests.push({ key: `${key}-rep`, ask: repairAsk(state.c.trajectory, state.diagnosis!, options.search, state.plan.final) });
    const repairs = await stage('repair', 3, repairRequests);
    for (const [key, state] of [...states]) {
      const o = repairs.get(`${key}-rep`)!;
      account(state, o);
      if (!o.ok) {
        fail(state, 'repair', o.error);
        continue;
      }
      // A batch result has no latency of its own: the case took as long as this run waited for it.
      state.usage.latencyMs = Date.now() - started;
      const audit = searchAuditorResult(state.plan, {
        reports: state.reports!,
        organized: state.organized!,
        diagnosis: state.diagnosis!,
        repair: o.value,
        usage: state.usage,
        corrections: state.corrections,
      });
      out.set(state.c.caseId, { audit });
    }
  } catch (error) {
    if (!(error instanceof StageWaiting)) throw error;
    return { status: 'waiting', cases: out, waiting: { stage: current, phase: error.phase, batchIds: error.batchIds, requests: error.requests }, usage: total };
  }
  return { status: 'complete', cases: out, usage: total };
}
