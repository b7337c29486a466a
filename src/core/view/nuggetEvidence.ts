// The gold nuggets of the record an editor shows, each mapped to its evidence in the trajectory
// (issue 18 item 4): the gold_nuggets.jsonl that `trajaudit build nuggets` writes is found beside
// the trajectory (goldNuggetsFileFor) or given, its line for this record is picked by instance id (the record id, or
// the file name up to its first `.` as build nuggets writes it for a one-trajectory file), and
// every evidence id (`m<p>`, `m<p>.r<k>`: src/core/builders/nuggets/evidence.ts) is resolved
// against the trajectory's search and visit results. An id that no longer resolves is kept and
// marked unresolved, never dropped. Pure but for reading the gold file.
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { Trajectory } from '../model/trajectory';
import type { ToolNames } from '../stats/statistics';
import { evidencePool, normalizeEvidenceId } from '../builders/nuggets/evidence';
import { readJsonLines } from '../scoring/jsonl';
import type { NuggetEvidence, NuggetsView } from '../../shared/protocol';

export const GOLD_NUGGETS_FILE = 'gold_nuggets.jsonl';
/** The most characters of a result shown as its quote (a visited page can be long). */
export const QUOTE_CHARS = 240;

const idLike = z.union([z.string().min(1), z.number()]).transform(String);
const goldLineSchema = z.looseObject({
  id: idLike,
  nuggets: z.array(
    z.looseObject({
      text: z.string(),
      weight: z.number(),
      evidence_ids: z.array(z.union([z.string(), z.number()])).default([]),
    }),
  ),
});
const GOLD_WHAT = 'a gold nuggets line {id, nuggets: [{text, weight, evidence_ids}]}';

const stemOf = (file: string) => basename(file).replace(/\..*$/, '');

/** How a gold file for one trajectory is named beside it: `<stem>.gold_nuggets.jsonl` (stem: the name up to its first `.`). */
export const goldNuggetsNameFor = (trajectoryFile: string): string => `${stemOf(trajectoryFile)}.${GOLD_NUGGETS_FILE}`;

/**
 * The gold file for a trajectory: the one given (a setting or command), else
 * `<stem>.gold_nuggets.jsonl` beside it (one trajectory's gold; it does not make the folder a
 * nuggets run folder), else the folder's gold_nuggets.jsonl (build nuggets' usual --out), else none.
 */
export function goldNuggetsFileFor(trajectoryFile: string, given?: string): string | undefined {
  if (given) return given;
  const folder = dirname(trajectoryFile);
  return [join(folder, goldNuggetsNameFor(trajectoryFile)), join(folder, GOLD_NUGGETS_FILE)].find((path) => existsSync(path));
}

/** The instance ids a record may have in a gold file, in the order they are tried. */
export function instanceIdsOf(trajectoryFile: string, recordId: string, oneTrajectoryFile: boolean): string[] {
  const stem = stemOf(trajectoryFile);
  return oneTrajectoryFile && stem !== recordId ? [recordId, stem] : [recordId];
}

/** A quote of an evidence text: whitespace squeezed, cut at QUOTE_CHARS. */
function quoteOf(text: string): string {
  const squeezed = text.replace(/\s+/g, ' ').trim();
  return squeezed.length > QUOTE_CHARS ? `${squeezed.slice(0, QUOTE_CHARS)}…` : squeezed;
}

/** Resolves evidence ids against the trajectory's search and visit results. */
export function resolveEvidence(trajectory: Trajectory, ids: readonly (string | number)[], names: ToolNames = {}): NuggetEvidence[] {
  const pool = new Map(evidencePool(trajectory, names).map((e) => [e.id, e]));
  return ids.map((raw) => {
    const id = normalizeEvidenceId(raw);
    const entry = pool.get(id);
    if (!entry) return { id, resolved: false };
    const result = /\.r(\d+)$/.exec(id);
    return {
      id,
      resolved: true,
      position: entry.position,
      kind: entry.kind,
      ...(result ? { result: Number(result[1]) } : {}),
      quote: quoteOf(entry.text),
    };
  });
}

export interface NuggetsViewOptions {
  /** The gold file named by a setting or command; else the one beside the trajectory. */
  goldFile?: string;
  /** The file holds this one trajectory (its file stem is then an instance id too). */
  oneTrajectoryFile: boolean;
  names?: ToolNames;
  /** How to name the gold file in the view and in errors (default: its path). */
  displayName?: (path: string) => string;
}

/**
 * The nuggets of one record with their evidence. No gold file: `goldFile` absent. A gold file
 * that cannot be read throws its one-line InputError (file, line:column, what was expected).
 */
export function buildNuggetsView(trajectoryFile: string, recordId: string, trajectory: Trajectory, options: NuggetsViewOptions): NuggetsView {
  const goldPath = goldNuggetsFileFor(trajectoryFile, options.goldFile);
  const candidates = instanceIdsOf(trajectoryFile, recordId, options.oneTrajectoryFile);
  if (!goldPath) return { candidates, nuggets: [] };
  const shown = options.displayName?.(goldPath) ?? goldPath;
  const lines = readJsonLines(goldPath, shown, goldLineSchema, GOLD_WHAT);
  for (const instanceId of candidates) {
    const line = lines.find((l) => l.value.id === instanceId);
    if (!line) continue;
    return {
      goldFile: shown,
      instanceId,
      line: line.line,
      candidates,
      nuggets: line.value.nuggets.map((n) => ({ text: n.text, weight: n.weight, evidence: resolveEvidence(trajectory, n.evidence_ids, options.names) })),
    };
  }
  return { goldFile: shown, candidates, nuggets: [] };
}
