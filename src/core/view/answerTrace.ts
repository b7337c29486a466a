import type { AnswerOccurrence, AnswerSource, AnswerTrace } from '../../shared/protocol';
import type { Message, Trajectory } from '../model/trajectory';
import { callKind, type ToolNames } from '../stats/statistics';
import { toolCallOf } from './rows';

function pattern(answer: string): RegExp | undefined {
  const words = answer.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  // Whitespace-insensitive and case-insensitive: "New  York" matches "new york".
  return new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'), 'iu');
}

function sourceOf(trajectory: Trajectory, m: Message, names: ToolNames, inReasoning: boolean): AnswerSource {
  if (m.role === 'user' || m.role === 'system') return 'user';
  if (m.role === 'tool') {
    const call = toolCallOf(trajectory, m.position);
    const kind = call ? callKind(call, names) : 'other';
    if (kind === 'search') return 'search snippet';
    if (kind === 'visit') return 'visited page';
    return 'tool return';
  }
  if (m.position === trajectory.finalAnswerStep && !inReasoning) return 'answer';
  return 'reasoning';
}

/**
 * Forms of a predicted answer worth looking for, most specific first: the text after
 * "Final answer:", the whole answer, and its head before a parenthesis, " by " or a comma
 * ("Sare și stuf (Salt and Reed) by Irina Munteanu" → "Sare și stuf").
 */
export function answerVariants(answer: string): string[] {
  const out: string[] = [];
  const add = (v: string | undefined) => {
    const clean = v?.replace(/^[\s*_"'“”]+|[\s*_"'“”.]+$/g, '').trim();
    if (clean && clean.length >= 2 && !out.includes(clean)) out.push(clean);
  };
  const final = /final answer\s*[:：]\s*([^\n]+)/i.exec(answer);
  if (final) add(final[1]);
  if (answer.length <= 200) add(answer);
  const head = (final ? final[1] : answer).trim();
  add(head.split(/\s*[(（]/)[0]);
  add(head.split(/\s+by\s+/i)[0]);
  add(head.split(/\s*[,;]\s*/)[0]);
  return out;
}

/** Every message where `answer` occurs, with the kind of source; the first occurrence is flagged. */
export function traceText(
  trajectory: Trajectory,
  answer: string,
  names: ToolNames = {},
): { text: string; occurrences: AnswerOccurrence[]; first?: AnswerOccurrence } {
  const re = pattern(answer);
  const occurrences: AnswerOccurrence[] = [];
  if (re) {
    for (const m of trajectory.messages) {
      const inReasoning = m.reasoning !== undefined && re.test(m.reasoning);
      const inContent = re.test(m.content) || m.toolCalls.some((c) => re.test(c.rawArguments));
      if (inReasoning || inContent) occurrences.push({ position: m.position, source: sourceOf(trajectory, m, names, inReasoning && !inContent) });
    }
  }
  // The question itself is not evidence: the first occurrence counts from the agent's first step on.
  const first = occurrences.find((o) => o.source !== 'user');
  return first ? { text: answer, occurrences, first } : { text: answer, occurrences };
}

/** Trace of the first variant of `answer` found outside the question (else of the first variant). */
export function traceAnswer(trajectory: Trajectory, answer: string, names: ToolNames = {}): ReturnType<typeof traceText> {
  const variants = answerVariants(answer);
  const traces = variants.map((v) => traceText(trajectory, v, names));
  return traces.find((t) => t.occurrences.some((o) => o.source !== 'user' && o.source !== 'answer')) ?? traces[0] ?? { text: answer, occurrences: [] };
}

export function answerTrace(trajectory: Trajectory, names: ToolNames = {}): AnswerTrace {
  const trace: AnswerTrace = {};
  if (trajectory.predictedAnswer) trace.predicted = traceAnswer(trajectory, trajectory.predictedAnswer, names);
  if (trajectory.goldAnswer) trace.gold = traceAnswer(trajectory, trajectory.goldAnswer, names);
  return trace;
}
