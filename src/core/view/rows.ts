import type { RowSummary } from '../../shared/protocol';
import type { ToolCall, Trajectory } from '../model/trajectory';
import { callKind, type ToolNames } from '../stats/toolKinds';
import { summarizeCall, truncatedPrefix } from '../stats/outline';

const PREVIEW_CHARS = 200;

/** The call a tool return answers (by id, else the issuing step's only call). */
export function toolCallOf(trajectory: Trajectory, position: number): ToolCall | undefined {
  const message = trajectory.messages[position];
  if (message.role !== 'tool' || message.issuedBy === undefined) return undefined;
  const calls = trajectory.messages[message.issuedBy].toolCalls;
  return (message.toolCallId ? calls.find((c) => c.id === message.toolCallId) : undefined) ?? (calls.length === 1 ? calls[0] : undefined);
}

/** Name of the tool whose call a tool return answers. */
export function toolNameOf(trajectory: Trajectory, position: number): string | undefined {
  return toolCallOf(trajectory, position)?.name;
}

/**
 * A lower bound on one row's JSON length (the keys every row carries, empty values), so the
 * host can tell a view is too big to embed in its page without building it.
 */
export const MIN_ROW_JSON_CHARS = 100;

/** The timeline rows: what each message is, without its body; call kinds as `names` classify them. `limit`: only the first rows. */
export function buildRows(trajectory: Trajectory, names: ToolNames = {}, limit?: number): RowSummary[] {
  const decision = new Set(trajectory.decisionSteps);
  const messages = limit === undefined || limit >= trajectory.messages.length ? trajectory.messages : trajectory.messages.slice(0, limit);
  return messages.map((m) => {
    const text = m.content.length > 0 ? m.content : (m.reasoning ?? '');
    const row: RowSummary = {
      position: m.position,
      role: m.role,
      calls: m.toolCalls.map((c) => summarizeCall(c, 160)),
      preview: truncatedPrefix(text, PREVIEW_CHARS),
      chars: m.content.length + (m.reasoning?.length ?? 0),
      hasReasoning: Boolean(m.reasoning),
      isDecision: decision.has(m.position),
      isFinalAnswer: m.position === trajectory.finalAnswerStep,
    };
    if (m.toolCalls.length) row.callKinds = m.toolCalls.map((c) => callKind(c, names));
    if (m.agent) row.agent = m.agent;
    if (m.issuedBy !== undefined) row.issuedBy = m.issuedBy;
    const tool = toolNameOf(trajectory, m.position);
    if (tool) row.toolName = tool;
    if (m.isError) row.isError = true;
    return row;
  });
}
