// `trajaudit study` (seed 002 §5.3 and Appendix E): each method or ablation audits the same cases
// (all gold cases of the folder, or a seeded sample of them), and the comparison table gives per
// method the audit metrics — scored by the audit run kind, so CS-Strict … FPS are the numbers
// `trajaudit score` gives — and the per-case means of calls, input / cached / output tokens, cost
// and latency.
//
// Nothing is written beside the trajectories: each method gets a folder under --out,
// `<out>/<method id>/`, holding audits.jsonl (every audit result, or the error of a case),
// gold.jsonl + predictions.jsonl and a manifest (an `audit` run: `trajaudit score` reads it, and
// its judgments.jsonl caches the rubric grader's verdicts). A rerun with the same settings reuses
// the audits already in audits.jsonl and runs only the missing cases.
import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import { mapWithConcurrency, runHeuristicAudit, runModelAudit } from '../audit/runAudit';
import { methodIdText, type MethodId } from '../audit/methodIds';
import type { SearchAuditorOptions } from '../audit/searchAuditor';
import type { AuditResult } from '../audit/types';
import { InputError } from '../input/inputError';
import {
  appendJsonLine,
  checkSameConfig,
  ensureFolder,
  readForResume,
  readManifest,
  writeJsonLines,
  writeManifest,
  type ProgressSink,
} from '../harness/runFolder';
import { costUsd, type Pricing } from '../harness/wire';
import type { TrajectoryFormat } from '../model/trajectory';
import type { ModelClient } from '../providers/types';
import { isAbortError } from '../providers/errors';
import { seededRandom, shuffled } from '../random';
import { scoreAudit, type AuditScore } from '../scoring/audit';
import type { StructuredModel } from '../scoring/judges/llm';
import { scoreRunFolder } from '../scoring/scoreRunFolder';
import { studyCases, type StudyCase } from './cases';

export interface StudyOptions {
  folder: string;
  methods: readonly MethodId[];
  /** Audit this many cases, drawn with the seeded RNG (default: every case). */
  sample?: number;
  seed: string | number;
  out: string;
  /** The auditors' model (model methods need it). */
  client?: ModelClient;
  /** The rubric grader's model (Rep@Diag, FPS); without it repairs are ungraded and count as failing. */
  grader?: StructuredModel;
  /** Settings every model method gets (context limit, output cap, temperature, …). */
  callSettings?: Omit<SearchAuditorOptions, 'client' | 'variant'>;
  concurrency: number;
  pricing?: Pricing;
  format?: TrajectoryFormat;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
}

export interface StudyMethodRow {
  n: number;
  metrics: AuditScore['metrics'];
  /** Per-case means over the audited cases. */
  calls: number;
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  /** Null when no prices are given. */
  cost_usd: number | null;
  latency_ms: number;
  /** Cases whose audit failed (their prediction is missing: wrong on every metric). */
  errors: number;
}

export interface StudyResult {
  methods: Record<string, StudyMethodRow>;
  sample: { n: number; of: number; seed: string | number | null };
  folders: Record<string, string>;
  notes: string[];
  aborted: boolean;
}

/** The cases audited: all, or `sample` of them drawn by the seeded RNG, in folder order. */
export function sampleCases(cases: readonly StudyCase[], sample: number | undefined, seed: string | number): StudyCase[] {
  if (sample === undefined || sample >= cases.length) return [...cases];
  const chosen = new Set(shuffled(cases, seededRandom(seed, 'study-sample')).slice(0, sample));
  return cases.filter((c) => chosen.has(c));
}

type AuditLine = { case: string; audit?: AuditResult; error?: string };

function goldLine(c: StudyCase): Record<string, unknown> {
  const t = c.trajectory;
  return {
    id: c.id,
    critical_step: c.gold.criticalStep,
    tolerance_span: c.gold.span,
    root_cause: c.gold.rootCause ?? null,
    ...(c.gold.rubrics ? { repair_rubrics: c.gold.rubrics } : {}),
    messages: t.messages.length,
    ...(t.query !== undefined ? { query: t.query } : {}),
    ...(t.predictedAnswer !== undefined ? { predicted_answer: t.predictedAnswer } : {}),
  };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

async function runMethod(
  o: StudyOptions,
  id: MethodId,
  cases: StudyCase[],
  notes: string[],
): Promise<{ row?: StudyMethodRow; folder: string; aborted: boolean }> {
  const name = methodIdText(id);
  // Method ids come from a fixed vocabulary (parseMethodId); `searchauditor.vote` because a colon
  // is not allowed in Windows file names.
  const folder = join(o.out, name.replace(':', '.'));
  ensureFolder(folder);
  const config = { tool: 'trajaudit study', method: name, model: id.method === 'heuristic' ? null : (o.client?.model ?? null), settings: o.callSettings ?? {} };
  const manifest = readManifest(folder) ?? {};
  checkSameConfig(folder, 'study', manifest.study, config);
  writeManifest(folder, { kind: 'audit', gold: 'gold.jsonl', predictions: 'predictions.jsonl', study: config });
  const auditsPath = join(folder, 'audits.jsonl');
  const previous = readForResume<AuditLine>(auditsPath);
  const byCase = new Map<string, AuditLine>();
  for (const line of previous.lines) if (line.audit) byCase.set(line.case, line);
  const todo = cases.filter((c) => !byCase.has(c.id));
  let done = 0;
  let aborted = false;
  o.onProgress?.({ done: 0, total: todo.length, skipped: cases.length - todo.length, message: `${name}: ${todo.length} case(s) to audit` });
  await mapWithConcurrency(todo, Math.max(1, o.concurrency), async (c) => {
    if (o.signal?.aborted) {
      aborted = true;
      return;
    }
    let line: AuditLine;
    try {
      const audit =
        id.method === 'heuristic'
          ? runHeuristicAudit(c.trajectory)
          : await runModelAudit(c.trajectory, id.method, {
              ...(o.callSettings ?? {}),
              client: o.client as ModelClient,
              variant: id.ablation ?? 'full',
              signal: o.signal,
            });
      line = { case: c.id, audit };
    } catch (error) {
      if (isAbortError(error) || o.signal?.aborted) {
        aborted = true;
        return;
      }
      line = { case: c.id, error: (error as Error).message.split('\n')[0] };
    }
    appendJsonLine(auditsPath, line);
    byCase.set(c.id, line);
    o.onProgress?.({
      done: ++done,
      total: todo.length,
      message: `${name} ${c.id}: ${line.error ? `failed — ${line.error}` : `${line.audit?.usage.calls ?? 0} call(s)`}`,
    });
  });
  if (aborted) return { folder, aborted };
  writeJsonLines(join(folder, 'gold.jsonl'), cases.map(goldLine));
  const audited = cases.flatMap((c) => {
    const a = byCase.get(c.id)?.audit;
    return a ? [{ c, a }] : [];
  });
  const errors = cases.length - audited.length;
  if (errors) notes.push(`${name}: ${errors} case(s) failed to audit (see ${auditsPath}); their predictions are missing and count as wrong`);
  writeJsonLines(
    join(folder, 'predictions.jsonl'),
    audited.map(({ c, a }) => ({
      id: c.id,
      critical_step: a.diagnosis.criticalStep,
      root_cause: a.diagnosis.rootCause,
      repair_directive: a.repair.directives,
    })),
  );
  let score: AuditScore;
  if (audited.length === 0) {
    // No prediction at all (an empty predictions file is not a run): every case is a miss.
    score = scoreAudit(
      cases.map((c) => ({ id: c.id, gold: { criticalStep: c.gold.criticalStep, span: c.gold.span, rootCause: c.gold.rootCause, rubrics: c.gold.rubrics } })),
    );
  } else {
    const scored = await scoreRunFolder(folder, { ...(o.grader ? { model: o.grader } : {}), signal: o.signal, concurrency: o.concurrency });
    for (const note of scored.notes) notes.push(`${name}: ${note}`);
    score = scored.score as AuditScore;
  }
  const usage = audited.map(({ a }) => a.usage);
  const total = {
    calls: usage.reduce((s, u) => s + u.calls, 0),
    inputTokens: usage.reduce((s, u) => s + u.inputTokens, 0),
    cachedInputTokens: usage.reduce((s, u) => s + u.cachedInputTokens, 0),
    outputTokens: usage.reduce((s, u) => s + u.outputTokens, 0),
  };
  const cost = costUsd(total, o.pricing);
  return {
    folder,
    aborted: false,
    row: {
      n: score.n,
      metrics: score.metrics,
      calls: mean(usage.map((u) => u.calls)),
      input_tokens: mean(usage.map((u) => u.inputTokens)),
      cached_input_tokens: mean(usage.map((u) => u.cachedInputTokens)),
      output_tokens: mean(usage.map((u) => u.outputTokens)),
      cost_usd: cost === undefined || usage.length === 0 ? null : cost / usage.length,
      latency_ms: mean(usage.map((u) => u.latencyMs)),
      errors,
    },
  };
}

export async function runStudy(o: StudyOptions): Promise<StudyResult> {
  if (o.methods.length === 0) throw new InputError('--methods', 'name at least one method');
  if (!o.client && o.methods.some((m) => m.method !== 'heuristic'))
    throw new InputError('--methods', 'model methods need a model: give --model (and --provider / --base-url); only heuristic runs offline');
  // One cancel signal reaches every concurrent model request (each SDK call listens on it).
  if (o.signal) setMaxListeners(Math.max(16, o.concurrency * 8), o.signal);
  const { cases: all, notes } = studyCases(o.folder, { format: o.format, exclude: o.out });
  if (all.length === 0)
    throw new InputError(o.folder, 'no study cases: no trajectory here has a gold critical step (an annotation in its sidecar, or gold fields in the file)');
  const cases = sampleCases(all, o.sample, o.seed);
  const result: StudyResult = {
    methods: {},
    sample: { n: cases.length, of: all.length, seed: o.sample === undefined ? null : o.seed },
    folders: {},
    notes,
    aborted: false,
  };
  for (const id of o.methods) {
    const { row, folder, aborted } = await runMethod(o, id, cases, notes);
    result.folders[methodIdText(id)] = folder;
    if (aborted) {
      result.aborted = true;
      break;
    }
    if (row) result.methods[methodIdText(id)] = row;
  }
  return result;
}
