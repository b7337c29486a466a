import type { AnswerOccurrence, AnswerSource, AnswerTrace } from '../../shared/protocol';
import type { Message, Trajectory } from '../model/trajectory';
import type { ToolNames } from '../stats/statistics';
import { toolNameOf } from './rows';

function pattern(answer: string): RegExp | undefined {
  const words = answer.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  // Whitespace-insensitive and case-insensitive: "New  York" matches "new york".
  return new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'), 'iu');
}

function sourceOf(trajectory: Trajectory, m: Message, names: ToolNames, inReasoning: boolean): AnswerSource {
  if (m.role === 'user' || m.role === 'system') return 'user';
  if (m.role === 'tool') {
    const tool = toolNameOf(trajectory, m.position);
    if (tool && (names.searchNames ?? ['search']).includes(tool)) return 'search snippet';
    if (tool && (names.visitNames ?? ['visit']).includes(tool)) return 'visited page';
    return 'tool return';
  }
  if (m.position === trajectory.finalAnswerStep && !inReasoning) return 'answer';
  return 'reasoning';
}

/** Every message where `answer` occurs, with the kind of source; the first occurrence is flagged. */
export function traceText(trajectory: Trajectory, answer: string, names: ToolNames = {}): { text: string; occurrences: AnswerOccurrence[]; first?: AnswerOccurrence } {
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

export function answerTrace(trajectory: Trajectory, names: ToolNames = {}): AnswerTrace {
  const trace: AnswerTrace = {};
  if (trajectory.predictedAnswer) trace.predicted = traceText(trajectory, trajectory.predictedAnswer, names);
  if (trajectory.goldAnswer) trace.gold = traceText(trajectory, trajectory.goldAnswer, names);
  return trace;
}
