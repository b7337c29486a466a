// The judge abstraction and the runner that resolves judge tasks through the judgment cache.
import { createHash } from 'node:crypto';
import type { JudgmentCache } from './cache';
import type { JudgeIdentity } from './judgeIdentity';

/**
 * A judge turns an input into a structured verdict. Judges are asynchronous and cancellable;
 * deterministic ones (the `exact` judge) also answer synchronously, which lets the CLI score
 * offline without an event-loop round trip per item.
 */
export interface Judge<I, O> {
  /** Identity and version, written into cached judgments: "exact/v1", "llm/deepsearchqa-grader/v1". */
  readonly id: string;
  /** True when a verdict costs a model call (what the cache saves). */
  readonly usesModel: boolean;
  /** Model judges: provider, model and prompt version. The cache serves a model judge only its own verdicts. */
  readonly identity?: JudgeIdentity;
  judge(input: I, signal?: AbortSignal): Promise<O>;
  judgeSync?(input: I): O;
}

export type CacheLine = Record<string, unknown>;

/** One verdict a scorer needs: looked up in the cache first, else asked of the judge. */
export interface JudgeTask<I, O> {
  /** Cache identity of the verdict (e.g. item id and sample). */
  key: string;
  input: I;
  /** sha256 of the input; a cached line with another hash is stale and is judged again. */
  inputHash: string;
  judge?: Judge<I, O>;
  /** The cache line to append for a fresh verdict. */
  toLine(output: O, judgeId: string, inputHash: string): CacheLine;
  fromLine(line: CacheLine): O;
  accept(output: O, source: 'cache' | 'judge'): void;
  /** Called when there is neither a cached verdict nor a judge; may throw (InputError) or record a fallback. */
  unavailable(): void;
}

export interface JudgingSummary {
  tasks: number;
  /** Verdicts read from the cache: judge calls saved. */
  cached: number;
  /** Fresh verdicts (judge calls made). */
  judged: number;
  /** Of those, calls that cost a model call. */
  modelCalls: number;
  /** Verdicts that could not be obtained (no judge configured). */
  unavailable: number;
  /** Verdicts the judge failed to give (malformed output after its retries); left out of the score. */
  failed: number;
  /** The first failures, one line each: `<task key>: <problem>`. */
  failures: string[];
  judges: string[];
  /** Set when fresh verdicts could not be appended to the cache file. */
  cacheWriteError?: string;
}

export function emptySummary(): JudgingSummary {
  return { tasks: 0, cached: 0, judged: 0, modelCalls: 0, unavailable: 0, failed: 0, failures: [], judges: [] };
}

export function mergeSummaries(a: JudgingSummary, b: JudgingSummary): JudgingSummary {
  return {
    tasks: a.tasks + b.tasks,
    cached: a.cached + b.cached,
    judged: a.judged + b.judged,
    modelCalls: a.modelCalls + b.modelCalls,
    unavailable: a.unavailable + b.unavailable,
    failed: a.failed + b.failed,
    failures: [...a.failures, ...b.failures].slice(0, MAX_LISTED_FAILURES),
    judges: [...new Set([...a.judges, ...b.judges])],
    ...((a.cacheWriteError ?? b.cacheWriteError) ? { cacheWriteError: a.cacheWriteError ?? b.cacheWriteError } : {}),
  };
}

const MAX_LISTED_FAILURES = 20;

/** A judge's "malformed output" (after its own retries): one verdict lost, not the whole run. */
export function isMalformedOutput(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return (
    name === 'MalformedOutputError' || name === 'StructuredOutputError' || (name === 'ModelError' && (error as { kind?: string }).kind === 'invalid_output')
  );
}

export function recordFailure(task: JudgeTask<unknown, unknown>, error: unknown, summary: JudgingSummary): void {
  summary.failed++;
  if (summary.failures.length < MAX_LISTED_FAILURES) summary.failures.push(`${task.key}: ${(error as Error).message.split('\n')[0].slice(0, 500)}`);
}

export function hashInput(input: unknown): string {
  return createHash('sha256').update(JSON.stringify(input)).digest('hex');
}

export class AbortedError extends Error {
  constructor() {
    super('scoring was cancelled');
    this.name = 'AbortError';
  }
}

/** Accepts the task's cached verdict, if the cache has one for its judge and input. */
export function takeFromCache<I, O>(task: JudgeTask<I, O>, cache: JudgmentCache | undefined): boolean {
  // A model judge gets its own verdicts only; deterministic judges (or none) take any judge's.
  const identity = task.judge?.usesModel ? task.judge.identity : undefined;
  const line = cache?.lookup(task.key, task.inputHash, identity);
  if (!line) return false;
  task.accept(task.fromLine(line), 'cache');
  return true;
}

/** Accepts a fresh verdict, counts it, and appends it to the cache when a model gave it. */
export function recordVerdict<I, O>(task: JudgeTask<I, O>, judge: Judge<I, O>, output: O, cache: JudgmentCache | undefined, summary: JudgingSummary): void {
  task.accept(output, 'judge');
  summary.judged++;
  if (judge.usesModel) summary.modelCalls++;
  if (!summary.judges.includes(judge.id)) summary.judges.push(judge.id);
  // Only model verdicts are cached: deterministic judges are free to re-run, and scoring with them
  // never writes into the run folder.
  if (!cache || !judge.usesModel) return;
  try {
    const line = task.toLine(output, judge.id, task.inputHash);
    cache.append(task.key, judge.identity ? { ...line, judge_identity: judge.identity } : line, judge.identity);
  } catch (error) {
    summary.cacheWriteError ??= `${cache.file}: ${(error as Error).message}`;
  }
}

/** Resolves tasks with synchronous judges only (deterministic judges); throws if a task needs an async one. */
export function runTasksSync(tasks: readonly JudgeTask<unknown, unknown>[], cache?: JudgmentCache): JudgingSummary {
  const summary = emptySummary();
  summary.tasks = tasks.length;
  for (const task of tasks) {
    if (takeFromCache(task, cache)) {
      summary.cached++;
      continue;
    }
    const judge = task.judge;
    if (!judge) {
      summary.unavailable++;
      task.unavailable();
      continue;
    }
    if (!judge.judgeSync) throw new Error(`judge ${judge.id} is asynchronous; use scoreRunFolder (async)`);
    recordVerdict(task, judge, judge.judgeSync(task.input), cache, summary);
  }
  return summary;
}

/**
 * The tasks a judge must still answer: cached verdicts accepted and tasks without a judge marked
 * unavailable (both counted). Refused before any model call when fresh verdicts would be written
 * outside the run folder.
 */
export function tasksToJudge(
  tasks: readonly JudgeTask<unknown, unknown>[],
  cache: JudgmentCache | undefined,
): { summary: JudgingSummary; pending: JudgeTask<unknown, unknown>[] } {
  const summary = emptySummary();
  summary.tasks = tasks.length;
  const pending: JudgeTask<unknown, unknown>[] = [];
  for (const task of tasks) {
    if (takeFromCache(task, cache)) summary.cached++;
    else if (!task.judge) {
      summary.unavailable++;
      task.unavailable();
    } else pending.push(task);
  }
  if (pending.some((t) => t.judge?.usesModel)) cache?.checkWritable();
  return { summary, pending };
}

/** Resolves tasks: cache first, then the judges with bounded concurrency; cancellable. */
export async function runTasks(
  tasks: readonly JudgeTask<unknown, unknown>[],
  cache: JudgmentCache | undefined,
  options: { signal?: AbortSignal; concurrency?: number } = {},
): Promise<JudgingSummary> {
  const { summary, pending } = tasksToJudge(tasks, cache);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < pending.length) {
      if (options.signal?.aborted) throw new AbortedError();
      const task = pending[next++];
      const judge = task.judge as Judge<unknown, unknown>;
      let output: unknown;
      try {
        output = await judge.judge(task.input, options.signal);
      } catch (error) {
        if (options.signal?.aborted || !isMalformedOutput(error)) throw error;
        recordFailure(task, error, summary);
        continue;
      }
      // A verdict that arrived is kept (and cached) even if the run is being cancelled: it was paid for.
      recordVerdict(task, judge, output, cache, summary);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, pending.length)) }, worker);
  await Promise.all(workers);
  return summary;
}
