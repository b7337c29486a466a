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
//   {resume_file}     `trajaudit resume` only: a JSON file holding the resume payload (its `messages`)
// The same values are in the environment as TRAJAUDIT_QUERY, TRAJAUDIT_QUERY_FILE, TRAJAUDIT_ID,
// TRAJAUDIT_CONDITION, TRAJAUDIT_OUT_ANSWER, TRAJAUDIT_OUT_TRAJECTORY and TRAJAUDIT_WORKDIR.
// A placeholder must be a plain shell word: one inside quotes of any kind, $(…), backticks, ${…},
// a here-document, after a backslash or $, or as the argument of eval / sh -c is refused (the
// shell would parse the value again), with the safe form in the message.
// The answer is the {out_answer} file; when the template does not use {out_answer}, it is the
// command's standard output (at most maxAnswerBytes of either are kept; a cut is recorded). The
// run ends when the command's process exits, even if a background process holds its output. A
// non-zero exit, a signal, a timeout (the process group is killed), or a missing {out_answer} file
// fails the run (nothing is recorded, so a resumed run tries it again).
// The product's API keys are not in the agent's environment unless passApiKeys is set; every
// registered key is redacted from the answer, the stderr line of a failure and the trajectory.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { dirname, join } from 'node:path';
import { MAX_TEXT_BYTES } from '../../input/readText';
import { loadFile } from '../../load/loadFile';
import type { TrajectoryFormat } from '../../model/trajectory';
import { oneLine } from '../../providers/errors';
import { redactSecrets, registeredSecrets, withoutProviderKeys } from '../../secrets/redact';

export const TEMPLATE_VARIABLES = ['query', 'query_file', 'id', 'condition', 'out_answer', 'out_trajectory', 'workdir'] as const;
/** `trajaudit resume` also offers {resume_file}: the run starts from a resume payload. */
export const RESUME_TEMPLATE_VARIABLES = [...TEMPLATE_VARIABLES, 'resume_file'] as const;
export type TemplateVariable = (typeof RESUME_TEMPLATE_VARIABLES)[number];

export class AgentCommandError extends Error {}

/** The environment variable that carries each template variable's value. */
export const TEMPLATE_ENV: Record<TemplateVariable, string> = {
  query: 'TRAJAUDIT_QUERY',
  query_file: 'TRAJAUDIT_QUERY_FILE',
  id: 'TRAJAUDIT_ID',
  condition: 'TRAJAUDIT_CONDITION',
  out_answer: 'TRAJAUDIT_OUT_ANSWER',
  out_trajectory: 'TRAJAUDIT_OUT_TRAJECTORY',
  workdir: 'TRAJAUDIT_WORKDIR',
  resume_file: 'TRAJAUDIT_RESUME_FILE',
};

const isVariable = (name: string): name is TemplateVariable => (RESUME_TEMPLATE_VARIABLES as readonly string[]).includes(name);

/**
 * Where the shell would see a placeholder. A placeholder becomes one single-quoted word, which is
 * inert only where the shell reads words: unquoted, in a plain command. Everywhere else the quotes
 * of the value are literal text and the value itself is parsed again (double quotes, $(…),
 * backticks, ${…}, here-documents, eval) or its meaning changes (after a backslash or a $).
 */
type Context =
  | 'inside double quotes'
  | 'inside single quotes'
  | "inside $'…' quotes"
  | 'inside backticks'
  | 'inside $(…)'
  | 'inside ${…}'
  | 'inside a here-document'
  | 'after a backslash'
  | 'after a $'
  | 'code to run (eval, sh -c, python -c, node -e, …)';

interface Placement {
  name: TemplateVariable;
  index: number;
  length: number;
  /** Undefined where the placeholder is a plain word (safe). */
  context?: Context;
  /** For quotes: where the quoted span opened, and its quote character(s). */
  quoteOpen?: number;
  quote?: string;
}

const PLACEHOLDER = /\{(\w+)\}/y;
/** Programs that run an argument as code, and the options that say so. */
const CODE_OPTIONS: Record<string, RegExp> = {
  sh: /^-\w*c/,
  bash: /^-\w*c/,
  dash: /^-\w*c/,
  zsh: /^-\w*c/,
  ksh: /^-\w*c/,
  ash: /^-\w*c/,
  fish: /^-\w*c|^--command$/,
  busybox: /^-\w*c/,
  python: /^-\w*c/,
  node: /^(-\w*[ep]|--eval|--print)$/,
  perl: /^-\w*[eE]/,
  ruby: /^-\w*e/,
  php: /^-\w*r/,
};

/** Whether the next word of a command with `words` so far is code it runs (eval x, sh -c x, node -e x). */
function isCodeArgument(words: readonly string[]): boolean {
  if (words.includes('eval')) return true;
  for (let k = 0; k < words.length; k++) {
    const option = CODE_OPTIONS[(words[k].split('/').pop() ?? '').replace(/\d+(\.\d+)*$/, '')]; // python3.11 → python
    if (!option) continue;
    const at = words.findIndex((w, j) => j > k && option.test(w));
    // The code is the first word after the option that is not itself an option.
    if (at >= 0 && words.slice(at + 1).every((w) => w.startsWith('-'))) return true;
  }
  return false;
}

/** Scans a template as a POSIX shell would (quotes, substitutions, here-documents) and places each placeholder. */
function placeholders(template: string): Placement[] {
  const out: Placement[] = [];
  type Frame = { kind: 'double' | 'backtick' | 'subst' | 'param' | 'paren'; open: number };
  const stack: Frame[] = [];
  const heredocs: { delimiter: string; stripTabs: boolean }[] = [];
  let words: string[] = []; // the words of the current simple command so far (code context only)
  let word = '';
  const endWord = () => {
    if (word) words.push(word);
    word = '';
  };
  const codeContext = (): boolean => stack.every((f) => f.kind === 'paren');
  const innermost = (): Frame | undefined => [...stack].reverse().find((f) => f.kind !== 'paren');
  const contextOfStack = (): Pick<Placement, 'context' | 'quoteOpen' | 'quote'> => {
    const f = innermost();
    if (!f) return {};
    if (f.kind === 'double') return { context: 'inside double quotes', quoteOpen: f.open, quote: '"' };
    return { context: f.kind === 'backtick' ? 'inside backticks' : f.kind === 'subst' ? 'inside $(…)' : 'inside ${…}' };
  };
  const tryPlaceholder = (i: number, context: Pick<Placement, 'context' | 'quoteOpen' | 'quote'>): number => {
    PLACEHOLDER.lastIndex = i;
    const m = PLACEHOLDER.exec(template);
    if (!m || !isVariable(m[1])) return 0;
    let where = context;
    if (!where.context) {
      if (!word && isCodeArgument(words)) where = { context: 'code to run (eval, sh -c, python -c, node -e, …)' };
    }
    out.push({ name: m[1], index: i, length: m[0].length, ...where });
    return m[0].length;
  };
  /** A backslash at `i` before a placeholder: the placeholder's length + 1, else 0. */
  const escaped = (i: number, context: Pick<Placement, 'context' | 'quoteOpen' | 'quote'>): number => {
    PLACEHOLDER.lastIndex = i + 1;
    const m = PLACEHOLDER.exec(template);
    if (!m || !isVariable(m[1])) return 0;
    out.push({ name: m[1], index: i + 1, length: m[0].length, ...(context.context ? context : { context: 'after a backslash' as const }) });
    return m[0].length + 1;
  };
  /** A $ at `i` right before a placeholder (`${query}` would become `$'…'`): its length + 1, else 0. */
  const dollar = (i: number): number => {
    if (template[i] !== '$') return 0;
    PLACEHOLDER.lastIndex = i + 1;
    const m = PLACEHOLDER.exec(template);
    if (!m || !isVariable(m[1])) return 0;
    out.push({ name: m[1], index: i + 1, length: m[0].length, context: 'after a $' });
    return m[0].length + 1;
  };
  let i = 0;
  while (i < template.length) {
    const c = template[i];
    const top = stack[stack.length - 1];
    if (top?.kind === 'double' || top?.kind === 'backtick') {
      const skip = tryPlaceholder(i, contextOfStack()) || dollar(i);
      if (skip) {
        i += skip;
        continue;
      }
      if (c === '\\') i += escaped(i, contextOfStack()) || 2;
      else if (c === (top.kind === 'double' ? '"' : '`')) {
        stack.pop();
        i++;
      } else if (c === '`' && top.kind === 'double') {
        stack.push({ kind: 'backtick', open: i });
        i++;
      } else if (c === '$' && template[i + 1] === '(') {
        stack.push({ kind: 'subst', open: i });
        i += 2;
      } else if (c === '$' && template[i + 1] === '{') {
        stack.push({ kind: 'param', open: i });
        i += 2;
      } else i++;
      continue;
    }
    // Code context: the top level, a ( … ) subshell, $( … ) or ${ … }.
    const skip = tryPlaceholder(i, contextOfStack()) || dollar(i);
    if (skip) {
      word += 'x';
      i += skip;
      continue;
    }
    if (c === '\\') {
      i += escaped(i, {}) || 2;
      word += 'x';
    } else if (c === "'" || (c === '$' && template[i + 1] === "'")) {
      const ansi = c === '$';
      const open = i;
      let j = i + (ansi ? 2 : 1);
      while (j < template.length && template[j] !== "'") {
        PLACEHOLDER.lastIndex = j;
        const m = PLACEHOLDER.exec(template);
        if (m && isVariable(m[1])) {
          out.push({
            name: m[1],
            index: j,
            length: m[0].length,
            context: ansi ? "inside $'…' quotes" : 'inside single quotes',
            quoteOpen: open,
            quote: ansi ? "$'" : "'",
          });
          j += m[0].length;
          continue;
        }
        j += ansi && template[j] === '\\' ? 2 : 1;
      }
      word += template.slice(i, j + 1);
      i = j + 1;
    } else if (c === '"' || (c === '$' && template[i + 1] === '"')) {
      stack.push({ kind: 'double', open: i + (c === '$' ? 1 : 0) });
      word += c;
      i += c === '$' ? 2 : 1;
    } else if (c === '`') {
      stack.push({ kind: 'backtick', open: i });
      word += c;
      i++;
    } else if (c === '$' && template[i + 1] === '(') {
      stack.push({ kind: 'subst', open: i });
      word += '$(';
      i += 2;
    } else if (c === '$' && template[i + 1] === '{') {
      stack.push({ kind: 'param', open: i });
      word += '${';
      i += 2;
    } else if (c === '(') {
      stack.push({ kind: 'paren', open: i });
      endWord();
      words = [];
      i++;
    } else if (c === ')' && (top?.kind === 'subst' || top?.kind === 'paren')) {
      stack.pop();
      if (top.kind === 'paren') {
        endWord();
        words = [];
      }
      i++;
    } else if (c === '}' && top?.kind === 'param') {
      stack.pop();
      i++;
    } else if (c === '#' && !word && codeContext()) {
      while (i < template.length && template[i] !== '\n') i++; // a comment
    } else if (c === '<' && template.startsWith('<<', i) && template[i + 2] !== '<') {
      let j = i + 2;
      const stripTabs = template[j] === '-';
      if (stripTabs) j++;
      while (template[j] === ' ' || template[j] === '\t') j++;
      const m = /^(?:'([^']*)'|"([^"]*)"|([^\s;&|<>()]+))/.exec(template.slice(j));
      if (m) {
        heredocs.push({ delimiter: (m[1] ?? m[2] ?? m[3]).replace(/\\/g, ''), stripTabs });
        j += m[0].length;
      }
      endWord();
      i = j;
    } else if (c === '\n' && heredocs.length) {
      // Here-document bodies follow the line of their operators, one after the other.
      let j = i + 1;
      for (const h of heredocs.splice(0)) {
        while (j < template.length) {
          const lineEnd = template.indexOf('\n', j) === -1 ? template.length : template.indexOf('\n', j);
          const line = template.slice(j, lineEnd);
          if ((h.stripTabs ? line.replace(/^\t+/, '') : line) === h.delimiter) {
            j = lineEnd + 1;
            break;
          }
          for (const m of line.matchAll(/\{(\w+)\}/g))
            if (isVariable(m[1])) out.push({ name: m[1], index: j + (m.index ?? 0), length: m[0].length, context: 'inside a here-document' });
          j = lineEnd + 1;
        }
      }
      endWord();
      words = [];
      i = j;
    } else if (/[\s]/.test(c)) {
      endWord();
      if (c === '\n') words = [];
      i++;
    } else if (/[;&|]/.test(c)) {
      endWord();
      words = [];
      i++;
    } else {
      word += c;
      i++;
    }
  }
  return out;
}

/** The safe way to write a placeholder that sits in `p.context`. */
function saferForm(template: string, p: Placement): string {
  const env = `"$${TEMPLATE_ENV[p.name]}"`;
  const placeholder = `{${p.name}}`;
  if (p.context === 'inside double quotes' || p.context === 'inside single quotes' || p.context === "inside $'…' quotes") {
    const quote = p.quote ?? '"';
    const close = quote === '"' ? '"' : "'";
    let before = template.slice(0, p.index);
    let after = template.slice(p.index + p.length);
    // Close the quotes before the placeholder and reopen them after it; drop a pair left empty.
    if (p.index === (p.quoteOpen ?? -1) + quote.length) before = before.slice(0, -quote.length);
    else before += close;
    if (after.startsWith(close)) after = after.slice(1);
    else after = quote + after;
    const fixed = `${before}${placeholder}${after}`;
    const envForm =
      p.quote === '"'
        ? `, or use its environment variable inside the quotes: ${template.slice(0, p.index)}$${TEMPLATE_ENV[p.name]}${template.slice(p.index + p.length)}`
        : '';
    return `close the quotes around it: ${fixed}${envForm}`;
  }
  if (p.context === 'after a backslash') return `remove the backslash before ${placeholder}`;
  if (p.context === 'after a $') return `remove the $ before ${placeholder} (for the shell variable write ${env})`;
  return `read the value from the environment instead: ${env}`;
}

/** Problems of a template (unknown variables, placeholders the shell would parse again); empty when it is usable. */
export function templateProblems(template: string, known: readonly TemplateVariable[] = TEMPLATE_VARIABLES): string[] {
  const problems: string[] = [];
  if (!template.trim()) problems.push('the agent command is empty');
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    if (!(known as readonly string[]).includes(m[1])) problems.push(`unknown template variable {${m[1]}} (known: ${known.map((v) => `{${v}}`).join(' ')})`);
  }
  for (const p of placeholders(template)) {
    if (!p.context) continue;
    problems.push(
      `{${p.name}} at column ${p.index + 1} is ${p.context}, where the shell would parse its value again (a value holding $(…) or backticks would run); variables are replaced by single-quoted values, so ${saferForm(template, p)}`,
    );
  }
  return [...new Set(problems)];
}

/** Quotes a value for the platform shell (POSIX sh: single quotes; Windows cmd: double quotes). */
export function shellQuote(value: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return `"${value.replace(/"/g, '""').replace(/[\r\n]+/g, ' ')}"`;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function renderCommand(template: string, values: Partial<Record<TemplateVariable, string>>, platform: NodeJS.Platform = process.platform): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (isVariable(name) && values[name] !== undefined ? shellQuote(values[name], platform) : whole));
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
  /**
   * Pass the product's API keys (OPENAI_API_KEY, ANTHROPIC_API_KEY, … and every configured key)
   * to the agent. Off by default: an agent is someone else's program.
   */
  passApiKeys?: boolean;
  /** The most of the answer kept (UTF-8 bytes); the rest is cut and the cut recorded. */
  maxAnswerBytes?: number;
  /** `trajaudit resume`: the payload written to {resume_file} (as JSON). */
  resumePayload?: unknown;
  /** Read the trajectory the agent writes with this reader, skipping detection (`--format`). */
  trajectoryFormat?: TrajectoryFormat;
}

export interface AgentRunResult {
  answer: string;
  /** Set when the answer was longer than maxAnswerBytes and was cut to it. */
  answerCut?: { source: 'stdout' | 'out_answer'; keptBytes: number; totalBytes: number };
  /** Set when the agent wrote a trajectory (moved to trajectoryTarget). */
  trajectory?: string;
  /** Format detected by loadFile, or why the file is not a readable trajectory. */
  trajectoryFormat?: string;
  trajectoryProblem?: string;
  durationMs: number;
}

export const DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** After the agent exits: how long output still arriving is read before the pipes are closed. */
const DRAIN_QUIET_MS = 150;
const DRAIN_MAX_MS = 2_000;
const STDERR_TAIL_BYTES = 8_192;

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    if (process.platform === 'win32') spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' });
    else process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** "1.5 MB" */
function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

/** The first `max` bytes of `bytes` as UTF-8, never ending in part of a character. */
function utf8Prefix(bytes: Buffer, max: number): string {
  if (bytes.length <= max) return bytes.toString('utf8');
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--; // back to the start of the cut character
  return bytes.subarray(0, end).toString('utf8');
}

/** Why a process ended, in words: an exit code (and the signal a shell's 128+n stands for) or a signal. */
export function exitDescription(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `was killed by signal ${signal}${signal === 'SIGKILL' ? ' (out of memory, or killed by another process)' : ''}`;
  const shellSignal = code !== null && code > 128 ? Object.entries(osConstants.signals).find(([, n]) => n === code - 128)?.[0] : undefined;
  return `exited with code ${code}${shellSignal ? ` (128 + ${shellSignal}: a process it ran was killed by that signal)` : ''}`;
}

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stdoutTotal: number;
  stderr: string;
}

/**
 * Runs the shell command in its own process group. The run ends when the command's process
 * exits — not when its output pipes close, since a background process it started may hold them
 * for ever: output still arriving is read for a moment, then the rest of the group is killed and
 * the pipes are closed. On timeout or abort the whole group is killed.
 */
function runShell(command: string, o: AgentRunOptions, env: NodeJS.ProcessEnv, maxStdout: number): Promise<Finished> {
  return new Promise<Finished>((resolve, reject) => {
    if (o.signal?.aborted) {
      reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
      return;
    }
    const child = spawn(command, {
      shell: true,
      cwd: o.cwd,
      env,
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let stdoutTotal = 0;
    let stderrTail = Buffer.alloc(0);
    let drainTimer: NodeJS.Timeout | undefined;
    let drainDeadline: NodeJS.Timeout | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    const closePipes = () => {
      child.stdout.destroy();
      child.stderr.destroy();
    };
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      clearTimeout(drainDeadline);
      o.signal?.removeEventListener('abort', onAbort);
      killGroup(child.pid);
      closePipes();
      fn();
    };
    const done = () =>
      finish(() => resolve({ ...(exit ?? { code: null, signal: null }), stdout: Buffer.concat(kept), stdoutTotal, stderr: stderrTail.toString('utf8') }));
    const quiet = () => {
      if (!exit) return;
      clearTimeout(drainTimer);
      drainTimer = setTimeout(done, DRAIN_QUIET_MS);
    };
    child.stdout.on('data', (b: Buffer) => {
      stdoutTotal += b.length;
      if (keptBytes < maxStdout) {
        const part = b.subarray(0, maxStdout + 4 - keptBytes); // a few bytes more, to end on a whole character
        kept.push(part);
        keptBytes += part.length;
      }
      quiet();
    });
    child.stderr.on('data', (b: Buffer) => {
      stderrTail = Buffer.concat([stderrTail, b]);
      if (stderrTail.length > STDERR_TAIL_BYTES) stderrTail = stderrTail.subarray(stderrTail.length - STDERR_TAIL_BYTES);
      quiet();
    });
    const onAbort = () => finish(() => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
    const timer = o.timeoutMs
      ? setTimeout(
          () =>
            finish(() =>
              reject(new AgentCommandError(`the agent command timed out after ${Math.round((o.timeoutMs as number) / 1000)} s (its process group was killed)`)),
            ),
          o.timeoutMs,
        )
      : undefined;
    o.signal?.addEventListener('abort', onAbort, { once: true });
    child.once('error', (e) => finish(() => reject(new AgentCommandError(`cannot start the agent command: ${e.message}`))));
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      drainDeadline = setTimeout(done, DRAIN_MAX_MS);
      quiet();
    });
    // Both pipes closed after the exit: everything was read.
    child.once('close', (code, signal) => {
      exit ??= { code, signal };
      done();
    });
  });
}

export async function runAgentCommand(o: AgentRunOptions): Promise<AgentRunResult> {
  const started = Date.now();
  const maxAnswer = o.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  rmSync(o.workdir, { recursive: true, force: true });
  mkdirSync(o.workdir, { recursive: true });
  const queryFile = join(o.workdir, 'query.txt');
  const outAnswer = join(o.workdir, 'answer.txt');
  const outTrajectory = join(o.workdir, 'trajectory.json');
  writeFileSync(queryFile, o.query);
  const resumeFile = join(o.workdir, 'resume.json');
  if (o.resumePayload !== undefined) writeFileSync(resumeFile, `${JSON.stringify(o.resumePayload, null, 2)}\n`);
  const values: Partial<Record<TemplateVariable, string>> = {
    query: o.query,
    query_file: queryFile,
    id: o.id,
    condition: o.condition,
    out_answer: outAnswer,
    out_trajectory: outTrajectory,
    workdir: o.workdir,
    ...(o.resumePayload !== undefined ? { resume_file: resumeFile } : {}),
  };
  const command = renderCommand(o.template, values);
  const env: NodeJS.ProcessEnv = {
    ...(o.passApiKeys ? process.env : withoutProviderKeys(process.env, registeredSecrets())),
    ...Object.fromEntries(RESUME_TEMPLATE_VARIABLES.flatMap((v) => (values[v] === undefined ? [] : [[TEMPLATE_ENV[v], values[v]]]))),
  };
  try {
    const { code, signal, stdout, stdoutTotal, stderr } = await runShell(command, o, env, maxAnswer);
    if (code !== 0) {
      const last = redactSecrets(stderr).trim().split('\n').pop()?.trim() ?? '';
      throw new AgentCommandError(`the agent command ${exitDescription(code, signal)}${last ? `: ${oneLine(last, 300)}` : ''}`);
    }
    let answer: string;
    let answerCut: AgentRunResult['answerCut'];
    if (existsSync(outAnswer)) {
      const { text, totalBytes } = readPrefix(outAnswer, maxAnswer);
      answer = text.replace(/\s+$/, '');
      if (totalBytes > maxAnswer) answerCut = { source: 'out_answer', keptBytes: Buffer.byteLength(text), totalBytes };
    } else if (o.template.includes('{out_answer}')) throw new AgentCommandError('the agent command exited 0 but did not write {out_answer}');
    else {
      const text = utf8Prefix(stdout, maxAnswer);
      answer = text.trim();
      if (stdoutTotal > maxAnswer) answerCut = { source: 'stdout', keptBytes: Buffer.byteLength(text), totalBytes: stdoutTotal };
    }
    const result: AgentRunResult = { answer: redactSecrets(answer), durationMs: Date.now() - started };
    if (answerCut) result.answerCut = answerCut;
    if (existsSync(outTrajectory)) {
      mkdirSync(dirname(o.trajectoryTarget), { recursive: true });
      renameSync(outTrajectory, o.trajectoryTarget);
      result.trajectory = o.trajectoryTarget;
      redactFileInPlace(o.trajectoryTarget);
      try {
        result.trajectoryFormat = loadFile(o.trajectoryTarget, { format: o.trajectoryFormat }).detection.kind;
      } catch (error) {
        result.trajectoryProblem = redactSecrets((error as Error).message.split('\n')[0]);
      }
    }
    return result;
  } finally {
    rmSync(o.workdir, { recursive: true, force: true });
  }
}

/** How a cut answer is described to the user. */
export function answerCutMessage(cut: NonNullable<AgentRunResult['answerCut']>): string {
  const where = cut.source === 'stdout' ? 'standard output' : '{out_answer}';
  return `the answer was cut to its first ${megabytes(cut.keptBytes)} of ${megabytes(cut.totalBytes)} written to ${where}`;
}

/** The first `max` bytes of a file as UTF-8, and the file's size. */
function readPrefix(path: string, max: number): { text: string; totalBytes: number } {
  const fd = openSync(path, 'r');
  try {
    const totalBytes = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(totalBytes, max + 4));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return { text: utf8Prefix(buffer.subarray(0, read), max), totalBytes };
  } finally {
    closeSync(fd);
  }
}

/** Redacts keys from a file the agent wrote (only rewritten when it held one). */
function redactFileInPlace(path: string): void {
  // A file too large to be read as text is reported unreadable by loadFile and never shown.
  if (registeredSecrets().length === 0 || statSync(path).size > MAX_TEXT_BYTES) return;
  const text = readFileSync(path, 'utf8');
  const clean = redactSecrets(text);
  if (clean !== text) writeFileSync(path, clean);
}
