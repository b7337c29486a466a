// The evidence pool of an archived intent-query run (seed 004 "static golden nuggets"): the results
// of its search and visit calls, each with an evidence id a nugget cites. Pure.
//
// Evidence ids (docs/cli.md `build nuggets`), from source positions so that an id points at the
// same message in the editor and in the file:
//   m<p>       the whole tool return at message position p of a search or visit call;
//   m<p>.r<k>  result k (1-based) of a search return whose content is a JSON list of results
//              (an array, or an object with one array under results / organic / items / data).
import type { Trajectory } from '../../model/trajectory';
import { callKind, type ToolNames } from '../../stats/statistics';
import { toolCallOf } from '../../view/rows';

export interface EvidenceEntry {
  id: string;
  /** The source position of the tool return. */
  position: number;
  kind: 'search' | 'visit';
  tool: string;
  text: string;
}

const RESULT_LIST_KEYS = ['results', 'organic', 'items', 'data'];

/** The result list of a search return written as JSON, or undefined when it is not one. */
function resultList(content: string): unknown[] | undefined {
  const trimmed = content.trim();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') {
    const lists = RESULT_LIST_KEYS.map((k) => (value as Record<string, unknown>)[k]).filter(Array.isArray);
    if (lists.length === 1) return lists[0] as unknown[];
  }
  return undefined;
}

const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** Every search and visit result of the trajectory, in source order. */
export function evidencePool(trajectory: Trajectory, names: ToolNames = {}): EvidenceEntry[] {
  const out: EvidenceEntry[] = [];
  for (const m of trajectory.messages) {
    if (m.role !== 'tool') continue;
    const call = toolCallOf(trajectory, m.position);
    if (!call) continue;
    const kind = callKind(call, names);
    if (kind !== 'search' && kind !== 'visit') continue;
    const base = { position: m.position, kind, tool: call.name } as const;
    out.push({ ...base, id: `m${m.position}`, text: m.content });
    if (kind === 'search') resultList(m.content)?.forEach((r, i) => out.push({ ...base, id: `m${m.position}.r${i + 1}`, text: asText(r) }));
  }
  return out;
}

/** `[M3.R2]`, ` m3.r2 ` → `m3.r2`: the forms a model writes an id in. */
export function normalizeEvidenceId(id: string | number): string {
  return String(id)
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .trim()
    .toLowerCase();
}
