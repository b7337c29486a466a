import type { RootCause } from '../model/rootCauses';
import type { Trajectory } from '../model/trajectory';
import { callKind, type ToolNames } from '../stats/statistics';
import { traceAnswer } from '../view/answerTrace';
import { extractConstraints, supports, type QueryConstraint } from './constraints';
import { rankSuspects, type Suspect, type Weights } from './heuristic/rank';
import { HEURISTIC_WEIGHTS } from './heuristic/weights';
import { computeSignals, type SignalId, type StepSignals } from './signals/stepSignals';
import { messageText, openingQuote } from './signals/text';

export const HEURISTIC_VERSION = 'heuristic/v2';

export interface HeuristicFinding {
  criticalStep: number;
  rootCause: RootCause;
  rationale: string;
  directives: string[];
  /** The deterministic signals used, one line each. */
  evidence: string[];
  citedSteps: number[];
}

function answerPattern(answer: string): RegExp {
  return new RegExp(
    answer
      .trim()
      .split(/\s+/)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\s+'),
    'iu',
  );
}

function normalizeQuery(q: string): string {
  return q
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Search queries issued before (or at) a position, flattened. */
function queriesUpTo(t: Trajectory, names: ToolNames, upTo: number): string[] {
  const out: string[] = [];
  for (const p of t.decisionSteps) {
    if (p > upTo) break;
    for (const call of t.messages[p].toolCalls) {
      if (callKind(call, names) !== 'search') continue;
      const q = (call.arguments as { query?: unknown } | undefined)?.query;
      for (const item of Array.isArray(q) ? q : [q]) if (typeof item === 'string') out.push(item);
    }
  }
  return out;
}

/**
 * The search-agent audit (heuristic/v1, today one signal of the offline auditor): where the
 * predicted answer first appears and from what kind of source, whether the query's explicit
 * constraints (years, numbers, quoted phrases, names) are supported by the evidence up to the
 * commitment, whether a source was visited before answering, repeated queries, stopping early —
 * a step, a root cause and a templated repair, listing the evidence used.
 */
export function searchAgentAudit(t: Trajectory, names: ToolNames = {}): HeuristicFinding {
  const decisions = t.decisionSteps;
  if (decisions.length === 0) throw new Error('the trajectory has no decision step to audit');
  const final = t.finalAnswerStep ?? decisions[decisions.length - 1];
  const evidence: string[] = [];
  const toolCalls = decisions.reduce((s, p) => s + t.messages[p].toolCalls.length, 0);
  const visits = decisions.filter((p) => t.messages[p].toolCalls.some((c) => callKind(c, names) === 'visit'));
  const query = t.query ?? '';
  const answer = t.predictedAnswer?.trim();
  evidence.push(`${counted(decisions.length, 'decision step')}, ${counted(toolCalls, 'tool call')}, ${counted(visits.length, 'step')} with a visit`);

  if (!answer) {
    evidence.push('no predicted answer in the trajectory');
    return {
      criticalStep: final,
      rootCause: 'unsupported_answer',
      citedSteps: [final],
      evidence,
      rationale: `The run ends at step ${final} without a recoverable predicted answer.`,
      directives: [
        `At step ${final}, do not finish without stating an answer that is extracted from an inspected source; if none supports an answer, continue searching for the decisive constraint instead of stopping.`,
      ],
    };
  }

  const trace = traceAnswer(t, answer, names);
  const key = trace.text;
  const inEvidence = trace.occurrences.filter((o) => o.source === 'search snippet' || o.source === 'visited page' || o.source === 'tool return');
  const re = answerPattern(key);
  const commitment =
    decisions.find(
      (p) =>
        p < final && (re.test(t.messages[p].reasoning ?? '') || re.test(t.messages[p].content) || t.messages[p].toolCalls.some((c) => re.test(c.rawArguments))),
    ) ?? final;
  evidence.push(
    inEvidence.length
      ? `the predicted answer first appears at message ${inEvidence[0].position} (${inEvidence[0].source})`
      : 'the predicted answer appears in no tool return',
  );
  evidence.push(commitment === final ? `the answer is first stated at the final step ${final}` : `the agent first takes up the answer at step ${commitment}`);

  // 1. No evidence for the answer anywhere: the agent stopped early, or asserted it.
  if (inEvidence.length === 0) {
    if (toolCalls <= 3) {
      evidence.push(toolCalls === 0 ? 'no tool call before answering' : `only ${counted(toolCalls, 'tool call')} before answering`);
      return {
        criticalStep: final,
        rootCause: 'search_coverage_gap',
        citedSteps: [final],
        evidence,
        rationale: `The agent answered "${answer}" at step ${final} ${toolCalls === 0 ? 'without a single tool call' : `after only ${counted(toolCalls, 'tool call')}`}; the evidence the query needs was never sought.`,
        directives: [
          `At step ${final}, do not answer yet: list the query's constraints and search for each one that no result has covered.`,
          'Open at least one primary source that states the answer together with the constraints before committing.',
        ],
      };
    }
    return {
      criticalStep: final,
      rootCause: 'unsupported_answer',
      citedSteps: [final],
      evidence,
      rationale: `"${answer}" is not found in any search result or visited page; the final answer at step ${final} is not extracted from the trajectory's evidence.`,
      directives: [
        `At step ${final}, answer only with a value that appears in an inspected source, and cite the message where it appears.`,
        'If the gathered evidence does not determine the answer, run targeted searches for the missing link instead of completing it from memory.',
      ],
    };
  }

  const firstSource = inEvidence[0];
  const upToCommit = t.messages.filter((m) => m.role === 'tool' && m.position <= Math.max(commitment, firstSource.position));
  const evidenceText = upToCommit.map((m) => m.content).join('\n');
  const sourceText = t.messages[firstSource.position].content;
  const constraints = extractConstraints(query);
  const hard = constraints.filter((c) => c.kind !== 'entity');
  const unsupported = hard.filter((c) => !supports(evidenceText, c));
  const visitedWithAnswer = inEvidence.some((o) => o.source === 'visited page' && o.position <= commitment + 1);
  if (constraints.length) evidence.push(`query constraints: ${constraints.map((c) => `${c.kind} "${c.text}"`).join(', ')}`);
  if (unsupported.length) evidence.push(`not supported by any evidence up to step ${commitment}: ${unsupported.map((c) => c.text).join(', ')}`);

  // 2. Committed on a snippet without opening the page behind it.
  if (firstSource.source === 'search snippet' && !visitedWithAnswer) {
    evidence.push(`no visited page containing "${key}" at or before step ${commitment}`);
    return {
      criticalStep: commitment,
      rootCause: 'unverified_source_reliance',
      citedSteps: [firstSource.position, commitment],
      evidence,
      rationale: `At step ${commitment} the agent adopts "${answer}" from a search snippet (message ${firstSource.position}) without opening and verifying the underlying source.`,
      directives: [
        `At step ${commitment}, open the page behind the snippet in message ${firstSource.position} and confirm the claim in its original content before adopting the candidate.`,
        `Check the candidate against every explicit constraint of the query${hard.length ? ` (${hard.map((c) => c.text).join(', ')})` : ''} using the primary source, not the snippet.`,
        'Prefer an official or primary source; treat aggregator and SEO snippets as leads only.',
      ],
    };
  }

  // 3. A hard constraint the candidate's own source contradicts, or that evidence never covered.
  const mismatched = unsupported.filter((c) =>
    c.kind === 'year' || c.kind === 'year-range' ? /\b(1[5-9]\d\d|20\d\d)\b/.test(sourceText) : c.kind === 'number' ? /\b\d+\b/.test(sourceText) : false,
  );
  if (mismatched.length) {
    return {
      criticalStep: commitment,
      rootCause: 'constraint_neglect',
      citedSteps: [firstSource.position, commitment],
      evidence,
      rationale: `At step ${commitment} the agent keeps "${answer}" although its source (message ${firstSource.position}) states other values than the query's ${describe(mismatched)}.`,
      directives: [
        `At step ${commitment}, check ${describe(mismatched)} against the candidate's source before accepting it; a mismatch on a hard constraint rejects the candidate.`,
        'Write down each explicit constraint of the query and mark it verified or violated for the current candidate.',
        'When a constraint is violated, return to the candidate list and search for candidates that satisfy it instead of rationalizing the mismatch.',
      ],
    };
  }
  if (unsupported.length) {
    return {
      criticalStep: commitment,
      rootCause: 'search_coverage_gap',
      citedSteps: [commitment],
      evidence,
      rationale: `By step ${commitment} no search result or page covers the query's ${describe(unsupported)}, yet the agent commits to "${answer}".`,
      directives: [
        `Before committing at step ${commitment}, search specifically for ${describe(unsupported)} together with the candidate.`,
        'Inspect an official or primary source that can confirm or reject the decisive constraint.',
      ],
    };
  }

  // 4. The answer was in hand and the constraints were covered: the candidates were mismanaged.
  const queries = queriesUpTo(t, names, final).map(normalizeQuery);
  const repeated = queries.length - new Set(queries).size;
  if (repeated) evidence.push(`${repeated} repeated search queries`);
  return {
    criticalStep: commitment,
    rootCause: 'candidate_mismanagement',
    citedSteps: [firstSource.position, commitment],
    evidence,
    rationale: `The evidence for the query's constraints is in hand by step ${commitment}, where the agent settles on "${answer}" without comparing it systematically with the other candidates the results surfaced.`,
    directives: [
      `At step ${commitment}, list every candidate surfaced so far with the constraints each satisfies, and compare them before committing.`,
      'Keep still-viable candidates until a constraint rules them out; re-check the chosen one against every constraint at the end.',
      ...(repeated ? ['Stop repeating identical searches; turn the accumulated evidence into a candidate decision.'] : []),
    ],
  };
}

function describe(constraints: QueryConstraint[]): string {
  return constraints.map((c) => `${c.kind} "${c.text}"`).join(', ');
}

/** "1 tool call", "3 tool calls". */
function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The signals of every decision step, the search-agent audit's pick among them when the run states an answer. */
export function heuristicSignals(t: Trajectory, names: ToolNames = {}): { steps: StepSignals[]; search?: HeuristicFinding } {
  const search = t.predictedAnswer?.trim() ? searchAgentAudit(t, names) : undefined;
  const pick = search
    ? {
        step: search.criticalStep,
        evidence: [...new Set([...search.citedSteps, search.criticalStep])].map((p) => ({ step: p, quote: openingQuote(messageText(t.messages[p])) })),
      }
    : undefined;
  return { steps: computeSignals(t, pick), ...(search ? { search } : {}) };
}

// What a suspect's strongest signal says about the cause (SearchAuditBench's six), and the repair it calls for.
const CAUSE_OF: Partial<Record<SignalId, { rootCause: RootCause; why: string; repair: (step: number) => string }>> = {
  fabrication: {
    rootCause: 'unsupported_answer',
    why: 'substitutes assumed or simulated data for evidence',
    repair: (s) => `At step ${s}, do not assume or simulate data: obtain it from the task's files or a source, or say that it is unavailable.`,
  },
  answer_unsupported: {
    rootCause: 'unsupported_answer',
    why: 'states the final answer with nothing earlier supporting it',
    repair: (s) => `At step ${s}, state an answer only when a tool return or message in hand supports it, and cite where.`,
  },
  ignored_error: {
    rootCause: 'unverified_source_reliance',
    why: 'goes on after a failed result without acknowledging the failure',
    repair: (s) => `At step ${s}, read the failed result first: fix the call or its input and rerun before building on it.`,
  },
  tool_error: {
    rootCause: 'search_coverage_gap',
    why: 'issues a call that fails, so the evidence it was meant to obtain is never obtained',
    repair: (s) => `At step ${s}, check the call's inputs and handle its failure (retry with a corrected call, or another route to the same evidence).`,
  },
  empty_result: {
    rootCause: 'search_coverage_gap',
    why: 'issues a call that returns nothing usable',
    repair: (s) => `At step ${s}, when a call returns nothing, reformulate it or try another source before concluding.`,
  },
  after_error: {
    rootCause: 'unverified_source_reliance',
    why: 'reacts to a failed result',
    repair: (s) => `At step ${s}, make sure the failure is resolved before relying on any result derived from it.`,
  },
  instruction_not_followed: {
    rootCause: 'constraint_neglect',
    why: 'replies to an instruction addressed to its agent with little of what was asked',
    repair: (s) => `At step ${s}, carry out the instruction as given (each thing it asks for), or say why it cannot be done.`,
  },
  repeated_action: {
    rootCause: 'search_coverage_gap',
    why: 'repeats an earlier action of the same agent',
    repair: (s) => `At step ${s}, do not repeat an action that already failed to help; change the query, the tool or the plan.`,
  },
  unsupported_claims: {
    rootCause: 'unsupported_answer',
    why: 'states facts (numbers, names, paths, URLs) that no earlier message contains',
    repair: (s) => `At step ${s}, verify each stated fact against a source before using it, and mark what is not verified.`,
  },
  answer_first_stated: {
    rootCause: 'candidate_mismanagement',
    why: 'first states the final answer',
    repair: (s) => `At step ${s}, compare the candidate answer with the alternatives and the task's constraints before settling on it.`,
  },
};

/**
 * The offline heuristic auditor (no model): computes the signals of every decision step, scores
 * the steps with the fitted weights (heuristic/weights.ts) and ranks them; the top suspect is the
 * diagnosis and its strongest signal the root cause. When the search-agent audit's step wins, its
 * own root cause, rationale and repair are kept.
 */
export function heuristicAudit(t: Trajectory, names: ToolNames = {}, weights: Weights = HEURISTIC_WEIGHTS): HeuristicFinding & { suspects: Suspect[] } {
  if (t.decisionSteps.length === 0) throw new Error('the trajectory has no decision step to audit');
  return auditFromSignals(t, heuristicSignals(t, names), weights);
}

/** The audit from signals already computed (the evaluation computes them once and scores them with each fold's weights). */
export function auditFromSignals(
  t: Trajectory,
  { steps, search }: { steps: StepSignals[]; search?: HeuristicFinding },
  weights: Weights = HEURISTIC_WEIGHTS,
): HeuristicFinding & { suspects: Suspect[] } {
  const suspects = rankSuspects(steps, weights);
  const top = suspects[0];
  if (!top) {
    const last = t.decisionSteps[t.decisionSteps.length - 1];
    return {
      criticalStep: last,
      rootCause: 'unsupported_answer',
      rationale: `No decision step has any text to audit; the run ends at step ${last}.`,
      directives: [`At step ${last}, state the answer and the evidence behind it.`],
      evidence: ['no decision step has any text'],
      citedSteps: [last],
      suspects: [],
    };
  }
  const listed = suspects.slice(0, 3).map((s) => `suspect step ${s.step} (score ${s.score.toFixed(2)}): ${s.signals.join(', ') || 'no signal'}`);
  if (search && top.step === search.criticalStep) return { ...search, evidence: [...search.evidence, ...listed], suspects };
  const hits = steps.find((s) => s.step === top.step)?.hits ?? [];
  const strongest = hits
    .filter((h) => CAUSE_OF[h.id] && (weights[h.id] ?? 0) > 0)
    .sort((a, b) => (weights[b.id] ?? 0) * b.value - (weights[a.id] ?? 0) * a.value)
    .map((h) => ({ id: h.id, ...CAUSE_OF[h.id]! }));
  const agent = t.messages[top.step].agent;
  const who = agent ? `${agent} at step ${top.step}` : `Step ${top.step}`;
  const rootCause = strongest[0]?.rootCause ?? search?.rootCause ?? 'candidate_mismanagement';
  const rationale = strongest.length
    ? `${who} ${strongest
        .slice(0, 2)
        .map((c) => c.why)
        .join(', and ')}; it is the highest-scoring of ${t.decisionSteps.length} decision steps.`
    : `${who} is the highest-scoring of ${t.decisionSteps.length} decision steps, on the position prior alone (no other signal fired).`;
  const directives = strongest.length ? strongest.slice(0, 2).map((c) => c.repair(top.step)) : [`Review step ${top.step} against the task before continuing.`];
  return {
    criticalStep: top.step,
    rootCause,
    rationale,
    directives,
    evidence: [...listed, ...(search ? search.evidence : [])],
    citedSteps: [...new Set(top.evidence.map((e) => e.step).concat(top.step))].sort((a, b) => a - b),
    suspects,
  };
}
