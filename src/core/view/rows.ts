import type { RowSummary } from '../../shared/protocol';
import type { Trajectory } from '../model/trajectory';
import { summarizeCall, truncatedPrefix } from '../stats/outline';

const PREVIEW_CHARS = 200;

/** Name of the tool whose call a tool return answers (by id, else the issuing step's only call). */
export function toolNameOf(trajectory: Trajectory, position: number): string | undefined {
  const message = trajectory.messages[position];
  if (message.role !== 'tool' || message.issuedBy === undefined) return undefined;
  const calls = trajectory.messages[message.issuedBy].toolCalls;
  return (message.toolCallId ? calls.find((c) => c.id === message.toolCallId) : undefined)?.name ?? (calls.length === 1 ? calls[0].name : undefined);
}

/** The timeline rows: what each message is, without its body. */
export function buildRows(trajectory: Trajectory): RowSummary[] {
  const decision = new Set(trajectory.decisionSteps);
  return trajectory.messages.map((m) => {
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
    if (m.agent) row.agent = m.agent;
    if (m.issuedBy !== undefined) row.issuedBy = m.issuedBy;
    const tool = toolNameOf(trajectory, m.position);
    if (tool) row.toolName = tool;
    if (m.isError) row.isError = true;
    return row;
  });
}
