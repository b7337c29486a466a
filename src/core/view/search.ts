import type { SearchRequest } from '../../shared/protocol';
import type { Trajectory } from '../model/trajectory';
import { toolNameOf } from './rows';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Compiles a search; throws a one-line Error for an invalid regular expression. */
export function compileSearch(request: SearchRequest): RegExp {
  const flags = request.caseSensitive ? 'u' : 'iu';
  try {
    return new RegExp(request.regex ? request.text : escapeRegExp(request.text), flags);
  } catch (error) {
    throw new Error(`invalid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`);
  }
}

/**
 * Positions of every message whose content, reasoning or tool-call arguments match — collapsed
 * and off-screen messages included — filtered by role and tool name.
 */
export function searchMessages(trajectory: Trajectory, request: SearchRequest): number[] {
  if (!request.text) return [];
  const pattern = compileSearch(request);
  const roles = request.roles?.length ? new Set(request.roles) : undefined;
  const tools = request.tools?.length ? new Set(request.tools) : undefined;
  const out: number[] = [];
  for (const m of trajectory.messages) {
    if (roles && !roles.has(m.role)) continue;
    if (tools) {
      const names = m.role === 'tool' ? [toolNameOf(trajectory, m.position)] : m.toolCalls.map((c) => c.name);
      if (!names.some((n) => n && tools.has(n))) continue;
    }
    if (
      pattern.test(m.content) ||
      (m.reasoning !== undefined && pattern.test(m.reasoning)) ||
      m.toolCalls.some((c) => pattern.test(c.rawArguments) || pattern.test(c.name)) ||
      (m.agent !== undefined && pattern.test(m.agent))
    ) {
      out.push(m.position);
    }
  }
  return out;
}
