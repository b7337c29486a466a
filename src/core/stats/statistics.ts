import type { Message, ToolCall, Trajectory } from '../model/trajectory';
import { tokenCount } from './tokens';
import { callKind, isSearchOrVisit, type ToolNames } from './toolKinds';

export { callKind, DEFAULT_SEARCH_NAMES, DEFAULT_VISIT_NAMES, resolvedToolNames, toolKind, type ToolKind, type ToolNames } from './toolKinds';

export interface TrajectoryCounts {
  messages: number;
  decisionSteps: number[];
  finalAnswerStep: number | null;
  toolCalls: number;
  atomicOps: number;
  searchCalls: number;
  visitCalls: number;
}

export interface TokenCounts {
  total: number;
  toolReturns: number;
  reasoning: number;
  predictedAnswer: number;
}

function argumentList(call: ToolCall, keys: string[]): unknown[] | undefined {
  const args = call.arguments;
  if (typeof args !== 'object' || args === null) return undefined;
  for (const key of keys) {
    const v = (args as Record<string, unknown>)[key];
    if (Array.isArray(v)) return v;
  }
  return undefined;
}

/**
 * Atomic operations per Appendix C: a search/visit call whose query/url is a list counts one
 * operation per element (an empty list counts zero); every other call counts one.
 */
export function atomicOperations(call: ToolCall, names: ToolNames = {}): number {
  const kind = callKind(call, names);
  if (!isSearchOrVisit(kind)) return 1;
  const list = argumentList(call, kind === 'search' ? ['query', 'queries'] : ['url', 'urls']);
  return list ? list.length : 1;
}

export function countTrajectory(trajectory: Trajectory, names: ToolNames = {}): TrajectoryCounts {
  let toolCalls = 0;
  let atomicOps = 0;
  let searchCalls = 0;
  let visitCalls = 0;
  for (const position of trajectory.decisionSteps) {
    for (const call of trajectory.messages[position].toolCalls) {
      toolCalls++;
      atomicOps += atomicOperations(call, names);
      const kind = callKind(call, names);
      if (kind === 'search') searchCalls++;
      else if (kind === 'visit') visitCalls++;
    }
  }
  return {
    messages: trajectory.messages.length,
    decisionSteps: trajectory.decisionSteps,
    finalAnswerStep: trajectory.finalAnswerStep ?? null,
    toolCalls,
    atomicOps,
    searchCalls,
    visitCalls,
  };
}

/** Tokens of one message as Appendix C counts them: content plus reasoning. */
export function messageTokens(message: Message): number {
  return tokenCount(message.content) + tokenCount(message.reasoning);
}

/** o200k_base tokens: all content and reasoning, tool returns, assistant reasoning, predicted answer. */
export function countTokens(trajectory: Trajectory): TokenCounts {
  let total = 0;
  let toolReturns = 0;
  let reasoning = 0;
  for (const message of trajectory.messages) {
    const content = tokenCount(message.content);
    const thought = tokenCount(message.reasoning);
    total += content + thought;
    if (message.role === 'tool') toolReturns += content;
    if (message.role === 'assistant') reasoning += thought;
  }
  return { total, toolReturns, reasoning, predictedAnswer: tokenCount(trajectory.predictedAnswer) };
}

/** Critical message index over the final message index (0 = first, 1 = last); null when there is none or it lies outside the trajectory (`validate` reports that). */
export function criticalPosition(criticalStep: number | undefined, messageCount: number): number | null {
  if (criticalStep === undefined || messageCount === 0 || criticalStep < 0 || criticalStep > messageCount - 1) return null;
  if (messageCount === 1) return 0;
  return criticalStep / (messageCount - 1);
}
