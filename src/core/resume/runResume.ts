// `trajaudit resume` (seed 002 §5.4): for every audited trajectory with a repair, the agent command
// runs from the resume payload of each condition (conditions.ts), through the agent runner of
// `harness run-agent` (one template expansion and one way of running processes). Each run's
// answer is judged against the trajectory's gold answer (scoring/runs/resumeRun.ts: exact, or the
// model judge through the run's judgment cache) and appended to `resumes.jsonl` in the run folder,
// with the new trajectory under trajectories/. The folder is a `resume` run `trajaudit score` scores.
//
// A failing agent run is recorded as a line with `error` (the others go on); rerunning the same
// command skips every id × condition that has a line without an error and retries the rest.
import { dirname, join, relative } from 'node:path';
import { statSync } from 'node:fs';
import { collectRepairs, trajectoryFilesUnder, type RepairSource } from '../export/repairs';
import { confinedWritePath } from '../files/confine';
import { safeNameComponent } from '../files/safeName';
import { InputError } from '../input/inputError';
import { loadFile } from '../load/loadFile';
import { isTrajectoryRecord } from '../load/loadRecord';
import { outcomeOf } from '../model/outcome';
import type { TrajectoryFormat } from '../model/trajectory';
import { isAbortError } from '../providers/errors';
import { mapWithConcurrency } from '../audit/runAudit';
import { answerCutMessage, runAgentCommand, templateProblems, RESUME_TEMPLATE_VARIABLES } from '../harness/agent/command';
import {
  appendJsonLine,
  checkSameConfig,
  ensureFolder,
  manifestPath,
  readForResume,
  readManifest,
  writeManifest,
  type ProgressSink,
} from '../harness/runFolder';
import { runTasks } from '../scoring/judges/judge';
import type { StructuredModel } from '../scoring/judges/llm';
import { JUDGMENTS_FILE } from '../scoring/judges/cache';
import { RESUMES_FILE, openResumeCache, resumeJudgeFor, resumeJudgeTask, resumeKey, type ResumeLine } from '../scoring/runs/resumeRun';
import type { ResumeCohort } from './score';
import { GENERIC_HINT_VERSION, conditionPayload, genericHint, type ResumeCondition } from './conditions';

export interface ResumeRunOptions {
  /** The audited trajectories: a folder (or one file) whose sidecars hold audits with repairs. */
  source: string;
  template: string;
  out: string;
  conditions: readonly ResumeCondition[];
  /** Resume from the newest audit of this method (default: the newest audit with a repair). */
  method?: string;
  judge: 'exact' | 'llm';
  /** The model judge's model (judge "llm"). */
  model?: StructuredModel;
  concurrency: number;
  timeoutMs?: number;
  cwd?: string;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  passApiKeys?: boolean;
  trajectoryFormat?: TrajectoryFormat;
  promptsRoot?: string;
}

export interface ResumeRunSummary {
  folder: string;
  /** id × condition units of the whole run, done before this session, finished now (answered or recorded as an error). */
  total: number;
  skipped: number;
  completed: number;
  /** Agent runs that failed now (recorded as error lines). */
  failed: { key: string; error: string }[];
  aborted: boolean;
  notes: string[];
}

/** The cohort of the audited files: their trajectory records, and those the source records as successes. */
function cohortOf(source: string, format?: TrajectoryFormat): ResumeCohort {
  let trajectories = 0;
  let originalCorrect = 0;
  for (const file of trajectoryFilesUnder(source)) {
    for (const record of loadFile(file, { format }).records) {
      if (!isTrajectoryRecord(record)) continue;
      trajectories++;
      if (outcomeOf(record.trajectory).success === true) originalCorrect++;
    }
  }
  return { trajectories, original_correct: originalCorrect };
}

export async function runResume(o: ResumeRunOptions): Promise<ResumeRunSummary> {
  const problems = templateProblems(o.template, RESUME_TEMPLATE_VARIABLES);
  if (problems.length) throw new InputError('--command', problems.join('; '));
  const judge = resumeJudgeFor({ judge: o.judge, model: o.model, promptsRoot: o.promptsRoot });
  const { sources, skipped: unaudited } = collectRepairs(o.source, o.method);
  if (sources.length === 0) {
    const by = o.method ? ` by ${o.method}` : '';
    throw new InputError(o.source, `nothing to resume: no trajectory here has an audit${by} with a repair; run trajaudit audit first`);
  }
  const folder = o.out;
  ensureFolder(folder);
  const resumesPath = confinedWritePath(join(folder, RESUMES_FILE), { folder, what: "the run's outputs" });
  confinedWritePath(join(folder, JUDGMENTS_FILE), { folder, what: 'the judgment cache' });
  const root = statSync(o.source).isDirectory() ? o.source : dirname(o.source);
  const manifest = readManifest(folder) ?? {};
  const config = {
    tool: 'trajaudit resume',
    command: o.template,
    source: manifestPath(folder, o.source),
    method: o.method ?? null,
    conditions: [...o.conditions],
    hint: GENERIC_HINT_VERSION,
    judge: o.judge,
  };
  const stored = manifest.resume as { command?: unknown } | undefined;
  checkSameConfig(folder, 'resume', stored?.command, o.template);
  if (manifest.kind !== undefined) checkSameConfig(folder, 'run kind', manifest.kind, 'resume');
  writeManifest(folder, { ...manifest, kind: 'resume', resumes: RESUMES_FILE, cohort: cohortOf(o.source, o.trajectoryFormat), resume: config });

  const previous = readForResume<{ id: string; condition: string; error?: unknown }>(resumesPath);
  const done = new Set(previous.lines.filter((l) => !l.error).map((l) => resumeKey({ id: String(l.id), condition: String(l.condition) })));
  const idOf = (s: RepairSource) => `${relative(root, s.file).split('\\').join('/') || s.file}#${s.record}`;
  const units = sources.flatMap((source) => o.conditions.map((condition) => ({ source, condition, id: idOf(source) })));
  const todo = units.filter((u) => !done.has(resumeKey(u)));
  const cache = openResumeCache(join(folder, JUDGMENTS_FILE), { folder, manifest: readManifest(folder) });
  const hint = genericHint();
  const failed: ResumeRunSummary['failed'] = [];
  const notes: string[] = [];
  if (previous.repaired) notes.push(`${RESUMES_FILE}: a partial last line (an interrupted write) was removed`);
  if (unaudited.length) notes.push(`${unaudited.length} record(s) have no audit${o.method ? ` by ${o.method}` : ''} with a repair and are not resumed`);
  let finished = 0;
  let aborted = false;
  const skipped = units.length - todo.length;
  o.onProgress?.({
    done: 0,
    total: todo.length,
    skipped,
    message: `${todo.length} to run, ${skipped} already done (${sources.length} trajectories × ${o.conditions.length} conditions)`,
  });
  await mapWithConcurrency(todo, Math.max(1, o.concurrency), async (unit) => {
    if (o.signal?.aborted) {
      aborted = true;
      return;
    }
    const { source, condition, id } = unit;
    const name = `${safeNameComponent(id)}.${condition}`;
    const t = source.trajectory;
    const base = {
      id,
      condition,
      gold_answer: t.goldAnswer ?? null,
      query: t.query ?? null,
      source: {
        file: manifestPath(folder, source.file),
        record: source.record,
        audit_id: source.auditId,
        method: source.method,
        critical_step: source.criticalStep,
      },
    };
    let line: ResumeLine & Record<string, unknown>;
    try {
      const trajectoryRel = `trajectories/${name}.traj.json`;
      const result = await runAgentCommand({
        template: o.template,
        query: t.query ?? '',
        id,
        condition,
        workdir: join(folder, '.work', name),
        trajectoryTarget: join(folder, trajectoryRel),
        cwd: o.cwd,
        timeoutMs: o.timeoutMs,
        signal: o.signal,
        passApiKeys: o.passApiKeys,
        trajectoryFormat: o.trajectoryFormat,
        resumePayload: conditionPayload(source, condition, hint).payload,
      });
      line = {
        ...base,
        answer: result.answer,
        trajectory: result.trajectory ? trajectoryRel : null,
        ...(result.trajectoryProblem ? { trajectory_problem: result.trajectoryProblem } : {}),
        ...(result.answerCut
          ? { answer_cut: { source: result.answerCut.source, kept_bytes: result.answerCut.keptBytes, total_bytes: result.answerCut.totalBytes } }
          : {}),
        duration_ms: result.durationMs,
      };
      if (result.answerCut) notes.push(`${id} ${condition}: ${answerCutMessage(result.answerCut)}`);
    } catch (error) {
      if (isAbortError(error) || o.signal?.aborted) {
        aborted = true;
        return;
      }
      const message = (error as Error).message.split('\n')[0];
      appendJsonLine(resumesPath, { ...base, answer: null, trajectory: null, error: message });
      failed.push({ key: resumeKey(unit), error: message });
      o.onProgress?.({ done: finished + failed.length, total: todo.length, skipped, message: `${id} ${condition}: failed — ${message}` });
      return;
    }
    // Judged before the line is written, so the line carries its verdict; a judge that cannot answer
    // now leaves the line without one (trajaudit score judges it later).
    let verdict: boolean | undefined;
    const task = resumeJudgeTask(
      line,
      judge,
      (correct) => {
        verdict = correct;
      },
      () => undefined,
    );
    if (task) {
      try {
        await runTasks([task], cache, { signal: o.signal, concurrency: 1 });
      } catch (error) {
        if (!isAbortError(error)) notes.push(`${id} ${condition}: not judged now (${(error as Error).message.split('\n')[0]}); trajaudit score judges it`);
      }
    }
    appendJsonLine(resumesPath, verdict === undefined ? line : { ...line, correct: verdict });
    finished++;
    const outcome = verdict === undefined ? (task ? 'not judged' : 'no gold answer') : verdict ? 'correct' : 'incorrect';
    o.onProgress?.({
      done: finished + failed.length,
      total: todo.length,
      skipped,
      message: `${id} ${condition}: ${outcome} (${(line.duration_ms as number) / 1000} s)`,
    });
  });
  return { folder, total: units.length, skipped, completed: finished, failed, aborted, notes };
}
