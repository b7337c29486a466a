// A user-configured agent command: a shell command template run once per query.
//
// Template variables (each replaced by a shell-quoted value — do not put quotes around them):
//   {query}           the query text
//   {query_file}      a UTF-8 file holding the query (safer for long or multi-line queries)
//   {id}              the item / instance / row id
//   {condition}       the condition (clarify: orig, k1, k2, k3; run-agent: e.g. orig, intent, agent)
//   {out_answer}      where the agent writes its final answer (plain UTF-8 text)
//   {out_trajectory}  where the agent writes its trajectory (any format `trajaudit inspect` reads)
//   {workdir}         a scratch folder for this run, removed afterwards
// The same values are in the environment as TRAJAUDIT_QUERY, TRAJAUDIT_QUERY_FILE, TRAJAUDIT_ID,
// TRAJAUDIT_CONDITION, TRAJAUDIT_OUT_ANSWER, TRAJAUDIT_OUT_TRAJECTORY and TRAJAUDIT_WORKDIR.
// The answer is the {out_answer} file; when the template does not use {out_answer}, it is the
// command's standard output. A non-zero exit, a timeout, or a missing {out_answer} file fails the
// run (nothing is recorded, so a resumed run tries it again).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadFile } from '../../load/loadFile';

export const TEMPLATE_VARIABLES = ['query', 'query_file', 'id', 'condition', 'out_answer', 'out_trajectory', 'workdir'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

export class AgentCommandError extends Error {}

/** Problems of a template (unknown variables, quoted placeholders); empty when it is usable. */
export function templateProblems(template: string): string[] {
  const problems: string[] = [];
  if (!template.trim()) problems.push('the agent command is empty');
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    if (!(TEMPLATE_VARIABLES as readonly string[]).includes(m[1])) problems.push(`unknown template variable {${m[1]}} (known: ${TEMPLATE_VARIABLES.map((v) => `{${v}}`).join(' ')})`);
  }
  for (const m of template.matchAll(/(['"])\{(\w+)\}\1/g)) problems.push(`do not quote ${m[0]}: variables are replaced by shell-quoted values already`);
  return [...new Set(problems)];
}

/** Quotes a value for the platform shell (POSIX sh: single quotes; Windows cmd: double quotes). */
export function shellQuote(value: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return `"${value.replace(/"/g, '""').replace(/[\r\n]+/g, ' ')}"`;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function renderCommand(template: string, values: Record<TemplateVariable, string>, platform: NodeJS.Platform = process.platform): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => ((TEMPLATE_VARIABLES as readonly string[]).includes(name) ? shellQuote(values[name as TemplateVariable], platform) : whole));
}

export interface AgentRunOptions {
  template: string;
  query: string;
  id: string;
  condition: string;
  /** Scratch folder for this run (created, then removed). */
  workdir: string;
  /** Where a trajectory the agent wrote is moved to. */
  trajectoryTarget: string;
  cwd?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface AgentRunResult {
  answer: string;
  /** Set when the agent wrote a trajectory (moved to trajectoryTarget). */
  trajectory?: string;
  /** Format detected by loadFile, or why the file is not a readable trajectory. */
  trajectoryFormat?: string;
  trajectoryProblem?: string;
  durationMs: number;
}

function killTree(pid: number | undefined): void {
  if (!pid) return;
  try {
    if (process.platform === 'win32') spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' });
    else process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

export async function runAgentCommand(o: AgentRunOptions): Promise<AgentRunResult> {
  const started = Date.now();
  rmSync(o.workdir, { recursive: true, force: true });
  mkdirSync(o.workdir, { recursive: true });
  const queryFile = join(o.workdir, 'query.txt');
  const outAnswer = join(o.workdir, 'answer.txt');
  const outTrajectory = join(o.workdir, 'trajectory.json');
  writeFileSync(queryFile, o.query);
  const values: Record<TemplateVariable, string> = { query: o.query, query_file: queryFile, id: o.id, condition: o.condition, out_answer: outAnswer, out_trajectory: outTrajectory, workdir: o.workdir };
  const command = renderCommand(o.template, values);
  const env = {
    ...process.env,
    TRAJAUDIT_QUERY: o.query, TRAJAUDIT_QUERY_FILE: queryFile, TRAJAUDIT_ID: o.id, TRAJAUDIT_CONDITION: o.condition,
    TRAJAUDIT_OUT_ANSWER: outAnswer, TRAJAUDIT_OUT_TRAJECTORY: outTrajectory, TRAJAUDIT_WORKDIR: o.workdir,
  };
  try {
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      if (o.signal?.aborted) {
        reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
        return;
      }
      const child = spawn(command, { shell: true, cwd: o.cwd, env, detached: process.platform !== 'win32', stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      let out = '';
      let err = '';
      child.stdout.on('data', (b: Buffer) => {
        if (out.length < 4_000_000) out += b.toString('utf8');
      });
      child.stderr.on('data', (b: Buffer) => {
        err = (err + b.toString('utf8')).slice(-4000);
      });
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        o.signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const onAbort = () => {
        killTree(child.pid);
        finish(() => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
      };
      const timer = o.timeoutMs
        ? setTimeout(() => {
            killTree(child.pid);
            finish(() => reject(new AgentCommandError(`the agent command timed out after ${Math.round((o.timeoutMs as number) / 1000)} s`)));
          }, o.timeoutMs)
        : undefined;
      o.signal?.addEventListener('abort', onAbort, { once: true });
      child.once('error', (e) => finish(() => reject(new AgentCommandError(`cannot start the agent command: ${e.message}`))));
      child.once('close', (code) => finish(() => resolve({ code, stdout: out, stderr: err })));
    });
    if (code !== 0) {
      const last = stderr.trim().split('\n').pop() ?? '';
      throw new AgentCommandError(`the agent command exited with code ${code}${last ? `: ${last.slice(0, 300)}` : ''}`);
    }
    let answer: string;
    if (existsSync(outAnswer)) answer = readFileSync(outAnswer, 'utf8').replace(/\s+$/, '');
    else if (o.template.includes('{out_answer}')) throw new AgentCommandError('the agent command exited 0 but did not write {out_answer}');
    else answer = stdout.trim();
    const result: AgentRunResult = { answer, durationMs: Date.now() - started };
    if (existsSync(outTrajectory)) {
      mkdirSync(dirname(o.trajectoryTarget), { recursive: true });
      renameSync(outTrajectory, o.trajectoryTarget);
      result.trajectory = o.trajectoryTarget;
      try {
        result.trajectoryFormat = loadFile(o.trajectoryTarget).detection.kind;
      } catch (error) {
        result.trajectoryProblem = (error as Error).message.split('\n')[0];
      }
    }
    return result;
  } finally {
    rmSync(o.workdir, { recursive: true, force: true });
  }
}
