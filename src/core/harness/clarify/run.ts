// `trajaudit harness clarify`: Clarify-Then-Search (seed 004), closed book, per instance and budget k:
//   Clarifier (blurred query only) → k questions, a strict JSON array
//   User Answerer (intent only to answer; "unknown" unless the intent states it), one call per question
//   Rewriter (blurred query + Q–A pairs only) → the rewritten query; leakage check of the rewrite
//   the agent command (deep search) on the rewritten query — and on the blurred query as is (`orig`)
// into a `nuggets` run folder: gold_nuggets.jsonl, clarifications.jsonl {id, condition, turns,
// rewritten_query, leakage, …}, answers.jsonl {id, condition, answer}, trajectories/.
// Resumable per (instance, condition) and per stage: a finished clarification is reused when only
// its deep search is missing.
import { join } from 'node:path';
import { z } from 'zod';
import type { ClarifyInstance } from '../../items/schemas';
import type { TrajectoryFormat } from '../../model/trajectory';
import { isAbortError, StructuredOutputError } from '../../providers/errors';
import { extractJson } from '../../providers/json';
import { completeStructured } from '../../providers/structured';
import type { ChatMessage, ModelClient } from '../../providers/types';
import { mapWithConcurrency } from '../../audit/runAudit';
import { answerCutMessage, runAgentCommand, templateProblems } from '../agent/command';
import type { HarnessRunSummary } from '../delegation/run';
import { renderRolePrompt, rolePrompt } from '../prompts';
import { appendJsonLine, checkSameConfig, ensureFolder, readForResume, readManifest, writeJsonLines, writeManifest, type ProgressSink } from '../runFolder';
import { InputError } from '../../input/inputError';
import { safeNameComponent } from '../../files/safeName';
import { addCall, emptyHarnessUsage, sumUsage, usageLine, type HarnessUsage, type Pricing } from '../wire';
import { ungroundedAnswerWords, unelicitedConstraints, type LeakageReport } from './leakage';

export const CLARIFY_PROMPT_VERSION = 'clarify/v1';
export const BASELINE = 'orig';

export interface ClarifyRoles {
  clarifier: ModelClient;
  answerer: ModelClient;
  rewriter: ModelClient;
}

export interface ClarifyOptions {
  maxOutputTokens?: number;
  signal?: AbortSignal;
  promptsRoot?: string;
  /** Model-level attempts for the clarifier's JSON array (default 3). */
  attempts?: number;
}

export interface ClarificationResult {
  turns: { question: string; answer: string }[];
  rewritten_query: string;
  leakage: LeakageReport;
  ua_ungrounded: { turn: number; words: string[] }[];
  usage: HarnessUsage;
}

/** The clarifier's reply: a JSON array of exactly k non-empty strings (a ```json fence is tolerated). */
export function parseQuestions(text: string, k: number): { ok: true; questions: string[] } | { ok: false; problem: string } {
  // extractJson is linear in the reply (lazy regexes over fences and brackets were quadratic).
  const extracted = extractJson(text, { container: 'array' });
  const value: unknown = extracted.ok ? extracted.value : undefined;
  if (!Array.isArray(value)) return { ok: false, problem: 'the reply is not a JSON array of question strings' };
  if (!value.every((q) => typeof q === 'string' && q.trim())) return { ok: false, problem: 'every element must be a non-empty question string' };
  if (value.length !== k) return { ok: false, problem: `expected exactly ${k} question(s), got ${value.length}` };
  return { ok: true, questions: value.map((q: string) => q.trim()) };
}

async function askQuestions(client: ModelClient, blurred: string, k: number, usage: HarnessUsage, o: ClarifyOptions): Promise<string[]> {
  const { system, user } = renderRolePrompt(rolePrompt('clarify/v1/clarifier.md', o.promptsRoot), { blurred_query: blurred, k });
  let messages: ChatMessage[] = [{ role: 'user', content: user }];
  let problem = '';
  const attempts = o.attempts ?? 3;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const result = await client.complete({ system, messages, temperature: 0, ...(o.maxOutputTokens ? { maxOutputTokens: o.maxOutputTokens } : {}) }, o.signal);
    addCall(usage, result.usage);
    const parsed = parseQuestions(result.text, k);
    if (parsed.ok) return parsed.questions;
    problem = parsed.problem;
    messages = [
      ...messages,
      { role: 'assistant', content: result.text || '(empty reply)' },
      { role: 'user', content: `Your reply could not be used: ${problem}. Reply with only a JSON array of exactly ${k} question string(s).` },
    ];
  }
  throw new StructuredOutputError({
    provider: client.provider,
    model: client.model,
    attempts,
    schemaName: 'clarifier questions',
    usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cachedInputTokens: usage.cachedInputTokens, cacheWriteInputTokens: 0 },
    lastOutput: '',
    lastProblem: problem,
  });
}

async function structured<T>(
  client: ModelClient,
  template: string,
  values: Record<string, string | number>,
  schema: z.ZodType<T>,
  usage: HarnessUsage,
  o: ClarifyOptions,
): Promise<T> {
  const { system, user } = renderRolePrompt(rolePrompt(`clarify/v1/${template}.md`, o.promptsRoot), values);
  const r = await completeStructured(
    client,
    { system, messages: [{ role: 'user', content: user }], temperature: 0, ...(o.maxOutputTokens ? { maxOutputTokens: o.maxOutputTokens } : {}) },
    schema,
    { name: template.replace(/-/g, '_'), signal: o.signal },
  );
  usage.calls += r.attempts;
  usage.inputTokens += r.usage.inputTokens;
  usage.outputTokens += r.usage.outputTokens;
  usage.cachedInputTokens += r.usage.cachedInputTokens;
  return r.value;
}

/** One clarification at budget k: questions, closed-book answers, the rewrite and its leakage check. */
export async function clarify(instance: ClarifyInstance, k: number, roles: ClarifyRoles, o: ClarifyOptions = {}): Promise<ClarificationResult> {
  const usage = emptyHarnessUsage();
  const questions = await askQuestions(roles.clarifier, instance.blurred_query, k, usage, o);
  const turns: { question: string; answer: string }[] = [];
  for (const question of questions) {
    // The User Answerer sees the intent and the current question only.
    const { answer } = await structured(
      roles.answerer,
      'user-answerer',
      { intent_query: instance.fused_query, question },
      z.object({ answer: z.string() }),
      usage,
      o,
    );
    turns.push({ question, answer: answer.trim() || 'unknown' });
  }
  // The Rewriter sees the blurred query and the Q–A pairs only.
  const qaPairs = turns.map((t, i) => `Q${i + 1}: ${t.question}\nA${i + 1}: ${t.answer}`).join('\n');
  const { rewritten_query } = await structured(
    roles.rewriter,
    'rewriter',
    { blurred_query: instance.blurred_query, qa_pairs: qaPairs },
    z.object({ rewritten_query: z.string().min(1) }),
    usage,
    o,
  );
  const leakage = unelicitedConstraints(instance.blurred_query, turns, rewritten_query, instance.fused_query);
  const ua_ungrounded = turns.map((t, i) => ({ turn: i + 1, words: ungroundedAnswerWords(t.answer, instance.fused_query) })).filter((x) => x.words.length);
  return { turns, rewritten_query, leakage, ua_ungrounded, usage };
}

export interface ClarifyRunOptions extends ClarifyOptions {
  instances: ClarifyInstance[];
  out: string;
  roles: ClarifyRoles;
  budgets: number[];
  template: string;
  concurrency: number;
  timeoutMs?: number;
  cwd?: string;
  onProgress?: ProgressSink;
  pricing?: Pricing;
  /** Give the agent the product's API keys (off by default; see runAgentCommand). */
  passApiKeys?: boolean;
  /** The reader of the trajectories the agent writes (default: detected). */
  trajectoryFormat?: TrajectoryFormat;
}

interface ClarificationLine extends ClarificationResult {
  id: string;
  condition: string;
}

export async function runClarify(o: ClarifyRunOptions): Promise<HarnessRunSummary & { leaks: number }> {
  const problems = templateProblems(o.template);
  if (problems.length) throw new InputError('--command', problems.join('; '));
  const folder = o.out;
  ensureFolder(folder);
  const manifest = readManifest(folder) ?? {};
  const config = {
    prompt_version: CLARIFY_PROMPT_VERSION,
    clarifier: `${o.roles.clarifier.provider}:${o.roles.clarifier.model}`,
    answerer: `${o.roles.answerer.provider}:${o.roles.answerer.model}`,
    rewriter: `${o.roles.rewriter.provider}:${o.roles.rewriter.model}`,
    command: o.template,
  };
  checkSameConfig(folder, 'clarify', (manifest.harness as { config?: unknown } | undefined)?.config, config);
  writeManifest(folder, {
    ...manifest,
    kind: 'nuggets',
    gold: 'gold_nuggets.jsonl',
    answers: 'answers.jsonl',
    clarifications: 'clarifications.jsonl',
    harness: { tool: 'trajaudit harness clarify', config, budgets: o.budgets },
  });
  writeJsonLines(
    join(folder, 'gold_nuggets.jsonl'),
    o.instances.map((i) => ({ id: String(i.id), nuggets: i.nuggets, fused_query: i.fused_query, blurred_query: i.blurred_query })),
  );

  const clarPath = join(folder, 'clarifications.jsonl');
  const answersPath = join(folder, 'answers.jsonl');
  const clarPrev = readForResume<ClarificationLine>(clarPath);
  const ansPrev = readForResume<{ id: string; condition: string }>(answersPath);
  const notes: string[] = [];
  if (clarPrev.repaired) notes.push('clarifications.jsonl: a partial last line (an interrupted write) was removed');
  if (ansPrev.repaired) notes.push('answers.jsonl: a partial last line (an interrupted write) was removed');
  const clarified = new Map(clarPrev.lines.map((l) => [`${l.id}#${l.condition}`, l]));
  const answered = new Set(ansPrev.lines.map((l) => `${l.id}#${l.condition}`));
  const conditions = [BASELINE, ...o.budgets.map((k) => `k${k}`)];
  const units = o.instances.flatMap((instance) => conditions.map((condition) => ({ instance, condition })));
  const todo = units.filter((u) => !answered.has(`${u.instance.id}#${u.condition}`));
  const skipped = units.length - todo.length;
  const failed: HarnessRunSummary['failed'] = [];
  const session: HarnessUsage[] = [];
  let finished = 0;
  let aborted = false;
  o.onProgress?.({
    done: 0,
    total: todo.length,
    skipped,
    message: `${todo.length} (instance, condition) pair(s) to run, ${skipped} already done; conditions ${conditions.join(', ')}`,
  });
  await mapWithConcurrency(todo, Math.max(1, o.concurrency), async ({ instance, condition }) => {
    const key = `${instance.id}#${condition}`;
    if (o.signal?.aborted) {
      aborted = true;
      return;
    }
    try {
      let query = instance.blurred_query;
      let usage = emptyHarnessUsage();
      let leakNote = '';
      if (condition !== BASELINE) {
        let line = clarified.get(key);
        if (!line) {
          const result = await clarify(instance, Number(condition.slice(1)), o.roles, o);
          line = { id: String(instance.id), condition, ...result };
          appendJsonLine(clarPath, line);
          usage = result.usage;
          session.push(usage);
        }
        query = line.rewritten_query;
        if (line.leakage.unelicited.length)
          leakNote = `; unelicited in the rewrite: ${line.leakage.unelicited.join(', ')}${line.leakage.from_intent.length ? ` (from the intent: ${line.leakage.from_intent.join(', ')})` : ''}`;
      }
      const name = `${safeNameComponent(String(instance.id))}.${condition}`;
      const trajectoryRel = `trajectories/${name}.traj.json`;
      const agent = await runAgentCommand({
        template: o.template,
        query,
        id: String(instance.id),
        condition,
        workdir: join(folder, '.work', name),
        trajectoryTarget: join(folder, trajectoryRel),
        cwd: o.cwd,
        timeoutMs: o.timeoutMs,
        signal: o.signal,
        passApiKeys: o.passApiKeys,
        trajectoryFormat: o.trajectoryFormat,
      });
      appendJsonLine(answersPath, {
        id: String(instance.id),
        condition,
        answer: agent.answer,
        query,
        ...(agent.trajectory ? { trajectory: trajectoryRel } : {}),
        ...(agent.trajectoryProblem ? { trajectory_problem: agent.trajectoryProblem } : {}),
        ...(agent.answerCut
          ? { answer_cut: { source: agent.answerCut.source, kept_bytes: agent.answerCut.keptBytes, total_bytes: agent.answerCut.totalBytes } }
          : {}),
        duration_ms: agent.durationMs,
      });
      if (agent.answerCut) notes.push(`${instance.id} ${condition}: ${answerCutMessage(agent.answerCut)}; the line records answer_cut`);
      finished++;
      o.onProgress?.({
        done: finished + failed.length,
        total: todo.length,
        skipped,
        message: `${instance.id} ${condition}: answered${leakNote}${usage.calls ? ` — ${usageLine(usage, o.pricing)}` : ''}`,
      });
    } catch (error) {
      if (isAbortError(error) || o.signal?.aborted) {
        aborted = true;
        return;
      }
      const message = (error as Error).message.split('\n')[0];
      failed.push({ key, error: message });
      o.onProgress?.({ done: finished + failed.length, total: todo.length, skipped, message: `${instance.id} ${condition}: failed — ${message}` });
    }
  });
  const all = readForResume<ClarificationLine>(clarPath).lines;
  const leaks = all.filter((l) => l.leakage?.unelicited?.length).length;
  if (leaks) notes.push(`${leaks} rewrite(s) add constraints no answer elicited (see "leakage" in clarifications.jsonl)`);
  return {
    folder,
    total: units.length,
    skipped,
    completed: finished,
    failed,
    aborted,
    usage: sumUsage(session),
    runUsage: sumUsage(all.map((l) => l.usage)),
    notes,
    leaks,
  };
}
