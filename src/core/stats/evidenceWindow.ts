import type { Role, Trajectory } from '../model/trajectory';
import { summarizeCall } from './outline';
import { tokenCount, truncateToTokens } from './tokens';

export interface WindowMessage {
  position: number;
  role: Role;
  agent?: string;
  text: string;
  /** Tokens removed from this message to fit the budget (0 when whole). */
  cutTokens: number;
}

export interface EvidenceWindow {
  anchor: number;
  start: number;
  end: number;
  messages: WindowMessage[];
}

export interface WindowOptions {
  /** Messages on each side of the anchor. */
  radius?: number;
  /** Token budget for the whole window. */
  tokenBudget?: number;
}

function fullText(trajectory: Trajectory, position: number): string {
  const m = trajectory.messages[position];
  const parts: string[] = [];
  if (m.reasoning) parts.push(`<reasoning>\n${m.reasoning}\n</reasoning>`);
  if (m.content) parts.push(m.content);
  for (const call of m.toolCalls) parts.push(`<call> ${summarizeCall(call, 400)}`);
  return parts.join('\n');
}

/**
 * Shares a budget among sizes so that small items keep everything and the rest split what is
 * left equally (water-filling); returns each item's allowance.
 */
export function shareBudget(sizes: number[], budget: number): number[] {
  const allowance = sizes.map(() => 0);
  const order = sizes.map((size, i) => ({ size, i })).sort((a, b) => a.size - b.size || a.i - b.i);
  let left = budget;
  order.forEach(({ size, i }, k) => {
    const fair = Math.floor(left / (order.length - k));
    allowance[i] = Math.min(size, fair);
    left -= allowance[i];
  });
  return allowance;
}

/** The original messages in [anchor − radius, anchor + radius], cut to a token budget. */
export function evidenceWindow(trajectory: Trajectory, anchor: number, options: WindowOptions = {}): EvidenceWindow {
  const radius = options.radius ?? 2;
  const budget = options.tokenBudget ?? 6000;
  const last = trajectory.messages.length - 1;
  const center = Math.min(Math.max(anchor, 0), Math.max(last, 0));
  const start = Math.max(0, center - radius);
  const end = Math.min(last, center + radius);
  const texts: string[] = [];
  for (let p = start; p <= end; p++) texts.push(fullText(trajectory, p));
  const sizes = texts.map((t) => tokenCount(t));
  const allowance = shareBudget(sizes, budget);
  const messages = texts.map((text, i): WindowMessage => {
    const position = start + i;
    const m = trajectory.messages[position];
    const cut = sizes[i] > allowance[i] ? truncateToTokens(text, allowance[i]) : { text, cutTokens: 0 };
    const out: WindowMessage = { position, role: m.role, text: cut.text, cutTokens: cut.cutTokens };
    if (m.agent) out.agent = m.agent;
    return out;
  });
  return { anchor: center, start, end, messages };
}
