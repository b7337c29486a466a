import type { Message, Trajectory } from '../model/trajectory';
import { buildOutline, formatOutline, summarizeCall } from '../stats/outline';
import { evidenceWindow } from '../stats/evidenceWindow';
import { tokenCount, truncateToTokens } from '../stats/tokens';

export interface RenderBudget {
  /** Total token budget for the rendered trajectory (the context limit minus room for prompts and output). */
  maxTokens: number;
}

export interface RenderedTrajectory {
  text: string;
  tokens: number;
  /** Tool returns cut to fit, with how many tokens each lost. Decision steps are never cut or dropped. */
  cuts: { position: number; cutTokens: number }[];
}

function header(m: Message): string {
  const who = m.agent ? `${m.role}:${m.agent}` : m.role;
  return `[${m.position}] ${who}`;
}

function renderMessage(m: Message, content: string): string {
  const parts = [header(m)];
  if (m.reasoning) parts.push(`<reasoning>\n${m.reasoning}\n</reasoning>`);
  if (content) parts.push(content);
  for (const call of m.toolCalls) parts.push(`<tool_call> ${summarizeCall(call, 2000)}`);
  return parts.join('\n');
}

/**
 * The trajectory as the auditor sees it: every message at its position. When it exceeds the
 * budget, tool returns are cut deterministically (head and tail kept, a marker with the cut size)
 * under one shared per-message allowance; decision steps are kept whole.
 */
export function renderTrajectory(t: Trajectory, budget: RenderBudget): RenderedTrajectory {
  const full = t.messages.map((m) => renderMessage(m, m.content));
  const sizes = full.map((text) => tokenCount(text));
  const total = sizes.reduce((s, n) => s + n, 0);
  if (total <= budget.maxTokens) return { text: full.join('\n\n'), tokens: total, cuts: [] };
  const toolPositions = t.messages.filter((m) => m.role === 'tool').map((m) => m.position);
  const fixed = total - toolPositions.reduce((s, p) => s + sizes[p], 0);
  const available = Math.max(0, budget.maxTokens - fixed);
  // The largest per-message allowance that fits: tool returns under it stay whole.
  const toolSizes = toolPositions.map((p) => sizes[p]).sort((a, b) => a - b);
  let allowance = 0;
  let used = 0;
  for (let i = 0; i < toolSizes.length; i++) {
    const remaining = toolSizes.length - i;
    const fair = Math.floor((available - used) / remaining);
    if (toolSizes[i] <= fair) {
      used += toolSizes[i];
      allowance = toolSizes[i];
    } else {
      allowance = Math.max(fair, 64);
      break;
    }
  }
  const cuts: { position: number; cutTokens: number }[] = [];
  const texts = t.messages.map((m, i) => {
    if (m.role !== 'tool' || sizes[i] <= allowance) return full[i];
    const cut = truncateToTokens(m.content, Math.max(32, allowance - 16));
    cuts.push({ position: m.position, cutTokens: cut.cutTokens });
    return renderMessage(m, cut.text);
  });
  const text = texts.join('\n\n');
  return { text, tokens: tokenCount(text), cuts };
}

export function renderOutline(t: Trajectory): string {
  return formatOutline(buildOutline(t));
}

export function renderWindows(t: Trajectory, anchors: number[], radius = 2, tokenBudget = 4000): string {
  return anchors
    .map((anchor) => {
      const w = evidenceWindow(t, anchor, { radius, tokenBudget });
      const body = w.messages
        .map((m) => `[${m.position}] ${m.agent ? `${m.role}:${m.agent}` : m.role}${m.cutTokens ? ` (cut ${m.cutTokens} tokens)` : ''}\n${m.text}`)
        .join('\n\n');
      return `### Window around message ${anchor} (messages ${w.start}–${w.end})\n${body}`;
    })
    .join('\n\n');
}
