// `trajaudit harness run-agent`: the agent command over a dataset, into a run folder that
// `trajaudit score` scores:
//   DeepSearchQA rows (CSV/JSONL)  → kind deepsearchqa: responses.jsonl {id, response, trajectory?}, manifest → the dataset
//   Delegation items               → kind delegation: outputs.jsonl {id, setting: "agent", answer, cited_doc_ids, trajectory?}
//   Clarify instances (intent or blurred queries) → kind nuggets: gold_nuggets.jsonl + answers.jsonl {id, condition, answer}
//   A seed-003 scenario set      → kind scenarios: results.jsonl {scenario, criteria: {}, deliverable}, manifest → the set
//                                  (one deliverable per scenario; `score` checks it mechanically and, with a model, judges it)
// `samples` > 1 (DeepSearchQA and Delegation) runs each item that many times, lines recording sample 0…N−1 (pass@n).
// Trajectories the agent writes are kept under trajectories/. Resumable like every harness run.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../input/inputError';
import type { ClarifyInstance } from '../../items/schemas';
import { loadFile } from '../../load/loadFile';
import type { TrajectoryFormat } from '../../model/trajectory';
import { isAbortError } from '../../providers/errors';
import { mapWithConcurrency } from '../../audit/runAudit';
import { loadDelegationItems } from '../../scoring/runs/delegationRun';
import { itemPool } from '../delegation/docs';
import { parseCitations } from '../delegation/conversation';
import type { HarnessRunSummary } from '../delegation/run';
import {
  appendJsonLine,
  checkSameConfig,
  ensureFolder,
  manifestPath,
  readForResume,
  readManifest,
  writeJsonLines,
  writeManifest,
  type ProgressSink,
} from '../runFolder';
import { safeNameComponent } from '../../files/safeName';
import { emptyHarnessUsage } from '../wire';
import { answerCutMessage, runAgentCommand, templateProblems } from './command';

export type DatasetKind = 'deepsearchqa' | 'delegation' | 'clarify' | 'scenarios';

export interface AgentTask {
  id: string;
  query: string;
  condition: string;
  /** Delegation: doc ids the answer may cite (mapped as they are). */
  docIds?: Map<string, string>;
  pool?: ReturnType<typeof itemPool>;
}

export interface Dataset {
  kind: DatasetKind;
  tasks: AgentTask[];
  /** Clarify: the instances, for gold_nuggets.jsonl. */
  instances?: ClarifyInstance[];
}

export type QueryField = 'fused_query' | 'blurred_query';

/** Reads a dataset: DeepSearchQA rows, Delegation items (file or folder), or Clarify instances. */
export function loadDataset(path: string, options: { queryField?: QueryField; condition?: string } = {}): Dataset {
  if (statSync(path).isDirectory()) return delegationDataset(path, options.condition);
  const loaded = loadFile(path);
  if (loaded.problems.length) {
    const p = loaded.problems[0];
    throw new InputError(p.file, p.message, p);
  }
  const kind = loaded.detection.kind;
  if (kind === 'deepsearchqa') {
    return {
      kind,
      tasks: loaded.records.flatMap((r) => (r.kind === 'deepsearchqa' ? [{ id: r.id, query: r.row.problem, condition: options.condition ?? 'agent' }] : [])),
    };
  }
  if (kind === 'delegation-item') return delegationDataset(path, options.condition);
  if (kind === 'scenario-set') {
    const record = loaded.records[0];
    const scenarios = record?.kind === 'scenario-set' ? record.scenarioSet.scenarios : [];
    const condition = options.condition ?? 'agent';
    const inputless = scenarios.find((s) => !s.input?.trim());
    if (inputless)
      throw new InputError(path, `scenario "${inputless.id}" has no input for the agent`, { path: `$.scenarios[${scenarios.indexOf(inputless)}].input` });
    return { kind: 'scenarios', tasks: scenarios.map((s) => ({ id: s.id, query: s.input as string, condition })) };
  }
  if (kind === 'clarify-instance') {
    const field = options.queryField ?? 'fused_query';
    const instances = loaded.records.flatMap((r) => (r.kind === 'clarify-instance' ? [r.instance] : []));
    const condition = options.condition ?? (field === 'blurred_query' ? 'orig' : 'intent');
    return { kind: 'clarify', instances, tasks: instances.map((i) => ({ id: String(i.id), query: i[field], condition })) };
  }
  throw new InputError(path, `expected a DeepSearchQA dataset, Delegation items, Clarify-Then-Search instances or a scenario set; found ${kind}`);
}

function delegationDataset(path: string, condition?: string): Dataset {
  const items = [...loadDelegationItems(path).values()];
  return {
    kind: 'delegation',
    tasks: items.map((item) => {
      const pool = itemPool(item);
      return { id: String(item.id), query: item.query, condition: condition ?? 'agent', docIds: new Map(pool.map((d) => [d.original, d.original])), pool };
    }),
  };
}

export interface AgentRunOptions {
  datasetPath: string;
  dataset: Dataset;
  template: string;
  out: string;
  concurrency: number;
  timeoutMs?: number;
  cwd?: string;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  /** Give the agent the product's API keys (off by default; see runAgentCommand). */
  passApiKeys?: boolean;
  /** The reader of the trajectories the agent writes (default: detected). */
  trajectoryFormat?: TrajectoryFormat;
  /** Runs per item (DeepSearchQA and Delegation; default 1). When set, every line records its `sample` 0…N−1. */
  samples?: number;
}

/** The dataset kinds whose run folders hold several samples per item. */
export const SAMPLED_KINDS: readonly DatasetKind[] = ['deepsearchqa', 'delegation'];

const FILES: Record<DatasetKind, string> = {
  deepsearchqa: 'responses.jsonl',
  delegation: 'outputs.jsonl',
  clarify: 'answers.jsonl',
  scenarios: 'results.jsonl',
};

export async function runAgentOverDataset(o: AgentRunOptions): Promise<HarnessRunSummary> {
  const problems = templateProblems(o.template);
  if (problems.length) throw new InputError('--command', problems.join('; '));
  const kind = o.dataset.kind;
  const samples = o.samples ?? 1;
  if (!Number.isInteger(samples) || samples < 1) throw new InputError('--samples', `expected a whole number ≥ 1, got ${samples}`);
  if (samples > 1 && !SAMPLED_KINDS.includes(kind))
    throw new InputError('--samples', `several samples per item apply to ${SAMPLED_KINDS.join(' and ')} datasets, not to a ${kind} dataset`);
  const folder = o.out;
  ensureFolder(folder);
  const manifest = readManifest(folder) ?? {};
  const config = { tool: 'trajaudit harness run-agent', command: o.template, dataset: manifestPath(folder, o.datasetPath) };
  checkSameConfig(folder, 'run-agent', (manifest.harness as { command?: string } | undefined)?.command, o.template);
  const base =
    kind === 'deepsearchqa'
      ? { kind: 'deepsearchqa', dataset: config.dataset, responses: FILES.deepsearchqa }
      : kind === 'delegation'
        ? { kind: 'delegation', items: config.dataset, outputs: FILES.delegation }
        : kind === 'scenarios'
          ? { kind: 'scenarios', scenarios: config.dataset, results: FILES.scenarios }
          : { kind: 'nuggets', gold: 'gold_nuggets.jsonl', answers: FILES.clarify };
  if (manifest.kind !== undefined && manifest.kind !== base.kind) checkSameConfig(folder, 'run kind', manifest.kind, base.kind);
  writeManifest(folder, { ...manifest, ...base, harness: config });
  if (kind === 'clarify')
    writeJsonLines(
      join(folder, 'gold_nuggets.jsonl'),
      (o.dataset.instances ?? []).map((i) => ({ id: String(i.id), nuggets: i.nuggets, fused_query: i.fused_query, blurred_query: i.blurred_query })),
    );

  const path = join(folder, FILES[kind]);
  const previous = readForResume<{ id?: string; scenario?: string; condition?: string; sample?: number }>(path);
  const sampled = o.samples !== undefined;
  // One unit per task and sample; a line without `sample` (a run without --samples) is sample 0.
  const key = (id: string, condition: string, sample: number) => `${id}${kind === 'clarify' ? `#${condition}` : ''}${sampled ? `#${sample}` : ''}`;
  const done = new Set(previous.lines.map((l) => key(String(kind === 'scenarios' ? l.scenario : l.id), String(l.condition ?? ''), l.sample ?? 0)));
  const units = o.dataset.tasks.flatMap((task) => Array.from({ length: samples }, (_, sample) => ({ task, sample })));
  const todo = units.filter((u) => !done.has(key(u.task.id, u.task.condition, u.sample)));
  const skipped = units.length - todo.length;
  const failed: HarnessRunSummary['failed'] = [];
  let finished = 0;
  let aborted = false;
  const notes: string[] = [];
  o.onProgress?.({ done: 0, total: todo.length, skipped, message: `${todo.length} to run, ${skipped} already done (${kind} dataset)` });
  await mapWithConcurrency(todo, Math.max(1, o.concurrency), async ({ task, sample }) => {
    if (o.signal?.aborted) {
      aborted = true;
      return;
    }
    const sampleField = sampled ? { sample } : {};
    const name = `${safeNameComponent(task.id)}.${safeNameComponent(task.condition)}${sampled ? `.s${sample}` : ''}`;
    try {
      const trajectoryRel = `trajectories/${name}.traj.json`;
      const result = await runAgentCommand({
        template: o.template,
        query: task.query,
        id: task.id,
        condition: task.condition,
        workdir: join(folder, '.work', name),
        trajectoryTarget: join(folder, trajectoryRel),
        cwd: o.cwd,
        timeoutMs: o.timeoutMs,
        signal: o.signal,
        passApiKeys: o.passApiKeys,
        trajectoryFormat: o.trajectoryFormat,
      });
      const extra = {
        ...(result.trajectory ? { trajectory: trajectoryRel } : {}),
        ...(result.trajectoryProblem ? { trajectory_problem: result.trajectoryProblem } : {}),
        ...(result.answerCut
          ? { answer_cut: { source: result.answerCut.source, kept_bytes: result.answerCut.keptBytes, total_bytes: result.answerCut.totalBytes } }
          : {}),
        duration_ms: result.durationMs,
      };
      if (kind === 'deepsearchqa') appendJsonLine(path, { id: task.id, ...sampleField, response: result.answer, ...extra });
      else if (kind === 'scenarios') appendJsonLine(path, { scenario: task.id, criteria: {}, deliverable: result.answer, ...extra });
      else if (kind === 'clarify') appendJsonLine(path, { id: task.id, condition: task.condition, answer: result.answer, query: task.query, ...extra });
      else {
        const citations = parseCitations(result.answer, task.docIds ?? new Map(), task.pool ?? [], []);
        appendJsonLine(path, {
          id: task.id,
          setting: task.condition,
          ...sampleField,
          answer: result.answer,
          cited_doc_ids: citations.cited,
          cited_groups: citations.groups,
          ...extra,
          usage: emptyHarnessUsage(),
        });
      }
      finished++;
      o.onProgress?.({
        done: finished + failed.length,
        total: todo.length,
        skipped,
        message: `${task.id}${kind === 'clarify' ? ` ${task.condition}` : ''}${sampled ? ` sample ${sample}` : ''}: answered in ${(result.durationMs / 1000).toFixed(1)} s${result.trajectory ? '' : ' (no trajectory written)'}${result.trajectoryProblem ? ` (trajectory unreadable: ${result.trajectoryProblem})` : ''}${result.answerCut ? `; ${answerCutMessage(result.answerCut)} (write long answers to {out_answer}, or shorten them)` : ''}`,
      });
      if (result.answerCut)
        notes.push(`${task.id}${kind === 'clarify' ? ` ${task.condition}` : ''}: ${answerCutMessage(result.answerCut)}; the line records answer_cut`);
    } catch (error) {
      if (isAbortError(error) || o.signal?.aborted) {
        aborted = true;
        return;
      }
      const message = (error as Error).message.split('\n')[0];
      failed.push({ key: key(task.id, task.condition, sample), error: message });
      o.onProgress?.({ done: finished + failed.length, total: todo.length, skipped, message: `${task.id}: failed — ${message}` });
    }
  });
  return {
    folder,
    total: units.length,
    skipped,
    completed: finished,
    failed,
    aborted,
    usage: emptyHarnessUsage(),
    runUsage: emptyHarnessUsage(),
    notes: [...(previous.repaired ? [`${FILES[kind]}: a partial last line (an interrupted write) was removed`] : []), ...notes],
  };
}
