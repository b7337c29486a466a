// The offline auditor's signals: deterministic observations on each decision step that exist in
// any agent's trace (tool errors, empty results, loops, instructions not carried out, claims
// with no earlier support, where the final answer first appears), each naming its evidence as
// message positions with quotes that are exact substrings of those messages (messageText).
import type { Message, Trajectory } from '../../model/trajectory';
import { claimsIn, contentWords, messageText, openingQuote, quoteAround, supportKeys, type Claim } from './text';

export const SIGNAL_IDS = [
  'tool_error',
  'after_error',
  'ignored_error',
  'empty_result',
  'fabrication',
  'unsupported_claims',
  'repeated_action',
  'instruction_not_followed',
  'answers_instruction',
  'answer_first_stated',
  'answer_unsupported',
  'issues_action',
  'search_audit',
  'executor_output',
  'termination',
] as const;
export type SignalId = (typeof SIGNAL_IDS)[number];

/** What each signal means, for evidence lists and the README. */
export const SIGNAL_DESCRIPTIONS: Record<SignalId, string> = {
  tool_error: 'its tool call or code failed (error, exception, non-zero exit, timeout)',
  after_error: 'it is the next decision after a failed result',
  ignored_error: 'it goes on after a failed result without acknowledging the failure',
  empty_result: 'its call returned nothing usable (empty, no results, not found)',
  fabrication: 'it substitutes assumed, simulated or placeholder data for evidence',
  unsupported_claims: 'it states numbers, URLs, paths or names that no earlier message contains',
  repeated_action: 'it repeats an earlier action of the same agent (a loop)',
  answers_instruction: 'it is the reply of an agent to an instruction addressed to it',
  instruction_not_followed: 'it answers an instruction addressed to its agent with little of what was asked',
  answer_first_stated: 'the final answer first appears here, before the final message',
  answer_unsupported: 'the final answer first appears here, in the agent’s own text, with no earlier message containing it',
  issues_action: 'it issues a tool call or code',
  search_audit: 'the search-agent audit (answer trace, constraint checks, unverified snippets, early stopping) puts the critical step here',
  executor_output: 'it is the output of an executor (terminal), not a decision',
  termination: 'it only ends the conversation',
};

export interface Evidence {
  step: number;
  quote: string;
}
export interface SignalHit {
  id: SignalId;
  /** In [0, 1]: how strongly the signal fires. */
  value: number;
  evidence: Evidence[];
}
export interface StepSignals {
  step: number;
  agent?: string;
  /** 0-based index among the decision steps, and the number of decision steps. */
  ordinal: number;
  count: number;
  hits: SignalHit[];
  /** The step's opening line (an exact quote): the evidence of the position prior. */
  opening: string;
}

export interface SearchAuditPick {
  step: number;
  evidence: Evidence[];
}

const ERROR_RE =
  /exitcode:\s*[1-9]\d*|\btraceback \(most recent call last\)|\b(?:[A-Z]\w*Error|Exception)\b:?|\berror:|\bexecution failed\b|\btimed? ?out\b|\bfailed to\b|\bpermission denied\b|\bcommand not found\b|\bno such file\b|\b(?:404|500|503) (?:not found|error|internal)/i;
const EMPTY_RE =
  /^\s*(?:\[\s*\]|\{\s*\}|none|null|nan|n\/a)?\s*$|\bno (?:results?|matches|information|data|color information|relevant)\b|\bnot found\b|\bcould not (?:find|locate|retrieve)\b|\bnothing (?:was )?found\b|\bthere is no code\b|\bempty (?:result|response|dataframe)\b|\b0 results\b/i;
const ACKNOWLEDGE_RE = /\b(?:error|fail|failed|failure|issue|problem|fix|fixed|correct(?:ed)?|retry|again|instead|timeout|timed out|exception|not work)/i;
const FABRICATION_RE =
  /\b(?:simulat(?:e|ed|ing|ion)|hypothetical(?:ly)?|placeholder|dummy|mock(?:ed)?|made-up|fictional|sample data|example data|synthetic data|for (?:the sake of )?(?:demonstration|illustration|example)|let'?s (?:assume|say|suppose)|assum(?:e|ed|ing) (?:that|the|a)|we(?:'ll| will) assume|without (?:access|actual)|typical values?|approximat(?:e|ely) (?:value|number)|based on (?:my|general) knowledge|from memory)\b/i;
const TERMINATION_RE = /^\s*(?:terminate|exit|done|end|stop|\[?done\]?)\.?\s*$/i;
const EXECUTOR_AGENT_RE = /(?:terminal|executor|interpreter|console|shell|^tool$|_tool$|code_?runner)/i;
const EXECUTOR_TEXT_RE = /^\s*(?:exitcode:|there is no code from the last)/i;
const INSTRUCTION_RE = /^(.*?)\(\s*->\s*([^)]+)\)\s*$/;
/** How much of one message the claim and failure scans read (pasted pages run to megabytes). */
const SCAN_CHARS = 8000;
const FINAL_ANSWER_RE = /final answer\s*[:：]\s*([^\n]{1,200})/i;

function normalizeAgent(name: string | undefined): string {
  return (name ?? '')
    .replace(/\s*\(.*\)\s*$/, '')
    .trim()
    .toLowerCase();
}

/** The agent a message speaks for, without a role suffix: "Orchestrator (thought)" → "orchestrator". */
export function agentOf(m: Message): string {
  return normalizeAgent(m.agent) || m.role;
}

/** Executor output written as a decision step (Who&When's Computer_terminal): a result, not a decision. */
function isExecutorOutput(m: Message): boolean {
  return m.role !== 'tool' && (EXECUTOR_AGENT_RE.test(m.agent ?? '') || EXECUTOR_TEXT_RE.test(m.content));
}

function firstMatch(re: RegExp, text: string): { index: number; length: number } | undefined {
  const m = re.exec(text);
  return m ? { index: m.index, length: m[0].length } : undefined;
}

/** Normalized form of an action for loop detection: tool name and arguments, else the opening line without digits. */
function actionKey(m: Message): string | undefined {
  if (m.toolCalls.length) return m.toolCalls.map((c) => `${c.name}:${c.rawArguments.replace(/\s+/g, ' ').trim().toLowerCase()}`).join('|');
  // The head of the message, not only its first line: reports such as "Updated Ledger:" share their first line.
  const head = m.content.slice(0, 300).toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
  return head.length >= 12 ? head : undefined;
}

/** The final answer the run gives: the trajectory's predicted answer, else the last `FINAL ANSWER:` line. */
function finalAnswerOf(t: Trajectory): { text: string; step?: number } | undefined {
  if (t.predictedAnswer?.trim()) return { text: t.predictedAnswer.trim().slice(0, 200), step: t.finalAnswerStep };
  for (let i = t.messages.length - 1; i >= 0; i--) {
    const m = FINAL_ANSWER_RE.exec(t.messages[i].content);
    if (m && m[1].trim().length >= 1) return { text: m[1].trim().replace(/[*_`"]+/g, ''), step: i };
  }
  return undefined;
}

/**
 * Computes every signal on every decision step in one pass (a set of claims seen so far, the
 * last action per agent, the pending instruction per agent), so a long trajectory stays linear.
 */
export function computeSignals(t: Trajectory, searchPick?: SearchAuditPick): StepSignals[] {
  const decisions = new Set(t.decisionSteps);
  const out: StepSignals[] = [];
  const byStep = new Map<number, StepSignals>();
  const seenClaims = new Set<string>();
  const seenWords = new Set<string>();
  const actionsByAgent = new Map<string, Map<string, number>>();
  const pendingInstruction = new Map<string, { position: number; words: Set<string>; quote: string }>();
  let lastDecision: StepSignals | undefined;
  let lastError: Evidence | undefined;
  let ordinal = 0;
  const answer = finalAnswerOf(t);
  const answerRe = answer && answer.text.length >= 1 ? answerPattern(answer.text) : undefined;
  let answerSeen: Evidence | undefined;
  let answerStated = false;

  const remember = (text: string) => {
    const head = text.slice(0, SCAN_CHARS);
    for (const key of supportKeys(head)) seenClaims.add(key);
    for (const w of head.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) seenWords.add(w);
  };
  const supported = (c: Claim) => {
    if (seenClaims.has(c.key)) return true;
    if (c.kind === 'entity') return c.key.split(' ').every((w) => w.length < 3 || seenWords.has(w));
    if (c.kind === 'number') return seenWords.has(c.key.toLowerCase());
    return false;
  };
  const hit = (s: StepSignals, id: SignalId, value: number, evidence: Evidence[]) => {
    const existing = s.hits.find((h) => h.id === id);
    if (existing) existing.value = Math.max(existing.value, value);
    else s.hits.push({ id, value, evidence });
  };
  const resultOf = (result: Message, issuer: StepSignals) => {
    // A failure shows at the head of a result or at the end of a traceback: bounded work on long pages.
    const text = result.content.length > 2 * SCAN_CHARS ? result.content.slice(0, SCAN_CHARS) : result.content;
    const error = result.isError ? { index: 0, length: Math.min(text.length, 80) } : firstMatch(ERROR_RE, text);
    const quote = (found: { index: number; length: number }) => quoteAround(text, found.index, found.length) || openingQuote(text);
    if (error) {
      const evidence = { step: result.position, quote: quote(error) };
      hit(issuer, 'tool_error', 1, [evidence]);
      lastError = evidence;
      return;
    }
    const empty = firstMatch(EMPTY_RE, text);
    if (empty) {
      const evidence = { step: result.position, quote: quote(empty) };
      if (evidence.quote) hit(issuer, 'empty_result', 1, [evidence]);
      lastError = evidence.quote ? evidence : undefined;
    }
  };

  for (const m of t.messages) {
    const text = messageText(m);
    const isDecision = decisions.has(m.position);
    if (!isDecision || m.role === 'tool') {
      // Tool returns and user/system messages: results of the last decision, and support for later claims.
      if (m.role === 'tool' && lastDecision) resultOf(m, byStep.get(m.issuedBy ?? lastDecision.step) ?? lastDecision);
      if (answerRe && !answerSeen && answerRe.test(text)) answerSeen = { step: m.position, quote: exactMatch(answerRe, text) };
      remember(text);
      continue;
    }
    const s: StepSignals = { step: m.position, agent: m.agent, ordinal: ordinal++, count: t.decisionSteps.length, hits: [], opening: openingQuote(text) };
    out.push(s);
    byStep.set(m.position, s);
    const agent = agentOf(m);

    if (isExecutorOutput(m)) {
      hit(s, 'executor_output', 1, [{ step: m.position, quote: openingQuote(m.content) }]);
      if (lastDecision && !isExecutorStep(lastDecision, t)) resultOf(m, lastDecision);
      if (answerRe && !answerSeen && answerRe.test(text)) answerSeen = { step: m.position, quote: exactMatch(answerRe, text) };
      remember(text);
      continue;
    }
    if (TERMINATION_RE.test(m.content) && m.toolCalls.length === 0) hit(s, 'termination', 1, [{ step: m.position, quote: m.content.trim() }]);

    // A failure seen since the previous decision: this step reacts to it, or ignores it.
    if (lastError) {
      hit(s, 'after_error', 1, [lastError]);
      if (!ACKNOWLEDGE_RE.test(m.content.slice(0, 600))) hit(s, 'ignored_error', 1, [lastError, { step: m.position, quote: openingQuote(m.content) }]);
      lastError = undefined;
    }
    if (m.toolCalls.length || /```/.test(m.content)) {
      const at = m.toolCalls.length ? undefined : m.content.indexOf('```');
      hit(s, 'issues_action', 1, [
        { step: m.position, quote: at === undefined ? m.toolCalls[0].rawArguments.slice(0, 160) || m.toolCalls[0].name : quoteAround(m.content, at, 3) },
      ]);
    }
    const fabrication = firstMatch(FABRICATION_RE, text.slice(0, SCAN_CHARS));
    if (fabrication) hit(s, 'fabrication', 1, [{ step: m.position, quote: quoteAround(text, fabrication.index, fabrication.length) }]);

    // Claims made in the agent's own text that nothing earlier contains.
    const ownClaims = claimsIn(m.content.slice(0, SCAN_CHARS));
    const novel = ownClaims.filter((c) => !supported(c));
    const distinct = [...new Map(novel.map((c) => [c.key, c])).values()];
    if (distinct.length) {
      const evidence = distinct.slice(0, 3).map((c) => ({ step: m.position, quote: c.text }));
      hit(s, 'unsupported_claims', Math.min(1, distinct.length / 8), evidence);
    }

    // Loops: the same action by the same agent again.
    const key = actionKey(m);
    if (key) {
      const actions = actionsByAgent.get(agent) ?? new Map<string, number>();
      actionsByAgent.set(agent, actions);
      const earlier = actions.get(key);
      if (earlier !== undefined)
        hit(s, 'repeated_action', 1, [
          { step: earlier, quote: actionQuote(t.messages[earlier]) },
          { step: m.position, quote: actionQuote(m) },
        ]);
      else actions.set(key, m.position);
    }

    // An instruction addressed to this agent ("Orchestrator (-> WebSurfer)") and how much of it the reply carries out.
    const instruction = pendingInstruction.get(agent);
    if (instruction) {
      pendingInstruction.delete(agent);
      hit(s, 'answers_instruction', 1, [{ step: instruction.position, quote: instruction.quote }]);
      // The reply's head: what the agent did, not the page text it pasted after it.
      const reply = contentWords(m.content.slice(0, 400));
      const asked = [...instruction.words];
      const covered = asked.filter((w) => reply.has(w)).length;
      const share = asked.length ? covered / asked.length : 1;
      if (asked.length >= 3 && share < 0.35)
        hit(s, 'instruction_not_followed', 1 - share, [
          { step: instruction.position, quote: instruction.quote },
          { step: m.position, quote: openingQuote(m.content) },
        ]);
    }
    const addressed = INSTRUCTION_RE.exec(m.agent ?? '');
    if (addressed) {
      pendingInstruction.set(normalizeAgent(addressed[2]), {
        position: m.position,
        words: contentWords(m.content.slice(0, 1000)),
        quote: openingQuote(m.content),
      });
    }

    // Where the final answer first appears, and whether anything earlier contained it.
    if (answerRe && !answerStated && answerRe.test(m.content)) {
      answerStated = true;
      const quote = exactMatch(answerRe, m.content);
      // Stated first in the final message itself says nothing the position does not; earlier, it marks the commitment.
      // Its evidence: the statement, and the earlier message the answer came from, if any.
      if (m.position !== answer?.step) hit(s, 'answer_first_stated', 1, [{ step: m.position, quote }, ...(answerSeen ? [answerSeen] : [])]);
      if (!answerSeen) hit(s, 'answer_unsupported', 1, [{ step: m.position, quote }]);
    }
    if (answerRe && !answerSeen && answerRe.test(text)) answerSeen = { step: m.position, quote: exactMatch(answerRe, text) };
    if (searchPick && searchPick.step === m.position) hit(s, 'search_audit', 1, searchPick.evidence);

    remember(text);
    lastDecision = s;
  }
  for (const s of out) for (const h of s.hits) h.evidence = h.evidence.filter((e) => e.quote.length > 0);
  return out;
}

function isExecutorStep(s: StepSignals, t: Trajectory): boolean {
  return isExecutorOutput(t.messages[s.step]);
}

function actionQuote(m: Message): string {
  return m.toolCalls.length ? m.toolCalls[0].rawArguments.slice(0, 160) || m.toolCalls[0].name : openingQuote(m.content);
}

function answerPattern(answer: string): RegExp | undefined {
  const words = answer.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return undefined;
  const body = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+');
  // Short answers ("8", "CUB") only as whole words.
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'iu');
}

function exactMatch(re: RegExp, text: string): string {
  const m = re.exec(text);
  return m ? m[0] : '';
}
