// `trajaudit build nuggets`: static golden nuggets from archived intent-query runs (seed 004,
// Prompt D; prompts/builders/nuggets/v1/extract.md). One model call per trajectory (again, with the
// problems, when no nugget survives validation); the reply is validated against the trajectory's
// evidence pool, repaired where a rule can (an unknown evidence id is dropped, a whole-number weight
// written as text or 2.0 is read as the number) and a nugget that stays invalid is rejected with why.
import { z } from 'zod';
import type { ModelClient } from '../../providers/types';
import type { Trajectory } from '../../model/trajectory';
import type { ToolNames } from '../../stats/statistics';
import { askBuilder, modelLabel, type BuilderUsage } from '../items/prompts';
import { evidencePool, normalizeEvidenceId, type EvidenceEntry } from './evidence';

export const NUGGET_PROMPT = 'nuggets/v1/extract';
/** The most characters of one evidence result shown to the model (long pages are cut; the id still resolves). */
export const EVIDENCE_CHARS = 2_000;

const lax = z.union([z.string(), z.number()]);
/** What the model may reply: lax where a rule can repair (weights, ids), validated below. */
export const nuggetReplySchema = z.object({
  nuggets: z.array(z.object({ text: z.string(), weight: lax, evidence_ids: z.array(lax) })),
  required_subquestions: z.array(z.string()).default([]),
  missing_evidence: z.array(z.string()).default([]),
  unsupported_claims: z.array(z.string()).default([]),
});
export type NuggetReply = z.infer<typeof nuggetReplySchema>;

export interface GoldNugget {
  text: string;
  weight: 1 | 2 | 3;
  evidence_ids: string[];
}

export interface ValidatedNuggets {
  nuggets: GoldNugget[];
  /** What was repaired, one line each (`nugget 2: dropped unknown evidence id m9`). */
  repairs: string[];
  /** Nuggets left out, with why. */
  rejected: { text: string; reason: string }[];
}

function weightOf(raw: string | number): 1 | 2 | 3 | undefined {
  const n = typeof raw === 'number' ? raw : /^\s*\d+(\.0+)?\s*$/.test(raw) ? Number(raw) : NaN;
  return n === 1 || n === 2 || n === 3 ? n : undefined;
}

/** Checks a reply against the evidence ids of the trace (pure). */
export function validateNuggets(reply: NuggetReply, evidenceIds: ReadonlySet<string>): ValidatedNuggets {
  const out: ValidatedNuggets = { nuggets: [], repairs: [], rejected: [] };
  const seen = new Set<string>();
  reply.nuggets.forEach((n, i) => {
    const label = `nugget ${i + 1}`;
    const text = n.text.replace(/\s+/g, ' ').trim();
    const reject = (reason: string) => out.rejected.push({ text, reason: `${label}: ${reason}` });
    if (!text) return reject('empty text');
    if (seen.has(text.toLowerCase())) return reject('the same text as an earlier nugget');
    const weight = weightOf(n.weight);
    if (weight === undefined) return reject(`weight ${JSON.stringify(n.weight)} is not an integer 1, 2 or 3`);
    // A rejected nugget's repairs are not reported: only its rejection is.
    const repairs: string[] = [];
    if (typeof n.weight !== 'number') repairs.push(`${label}: weight ${JSON.stringify(n.weight)} read as ${weight}`);
    const ids: string[] = [];
    for (const raw of n.evidence_ids) {
      const id = normalizeEvidenceId(raw);
      if (!evidenceIds.has(id)) repairs.push(`${label}: dropped evidence id ${JSON.stringify(raw)}, which is no search or visit result of the trace`);
      else if (!ids.includes(id)) ids.push(id);
    }
    if (ids.length === 0) return reject('no supporting evidence id resolves in the trace');
    seen.add(text.toLowerCase());
    out.repairs.push(...repairs);
    out.nuggets.push({ text, weight, evidence_ids: ids });
  });
  return out;
}

/** The evidence blocks the prompt shows. */
export function evidenceBlocks(pool: readonly EvidenceEntry[]): string {
  return pool
    .map((e) => {
      const text = e.text.length > EVIDENCE_CHARS ? `${e.text.slice(0, EVIDENCE_CHARS)} […cut]` : e.text;
      return `[${e.id}] (${e.kind} result of ${e.tool}, message ${e.position})\n${text}`;
    })
    .join('\n\n');
}

export interface GoldNuggetLine {
  id: string;
  fused_query: string;
  nuggets: GoldNugget[];
  required_subquestions: string[];
  missing_evidence: string[];
  unsupported_claims: string[];
  /** Where the nuggets come from and who made them. */
  provenance: { prompt: string; model: string; trajectory: string; record: string; repairs: string[]; rejected: { text: string; reason: string }[] };
}

export interface NuggetSource {
  /** The instance id of the gold line. */
  id: string;
  file: string;
  trajectory: Trajectory;
}

export interface BuildNuggetsOptions {
  client: ModelClient;
  usage: BuilderUsage;
  names?: ToolNames;
  /** Model calls per trajectory in all (default 2). */
  attempts?: number;
  maxOutputTokens?: number;
  signal?: AbortSignal;
  promptsRoot?: string;
}

export class NuggetBuildError extends Error {}

/** One gold line from one archived run; throws NuggetBuildError (with the reasons) when nothing valid comes back. */
export async function buildNuggetLine(source: NuggetSource, o: BuildNuggetsOptions): Promise<GoldNuggetLine> {
  const t = source.trajectory;
  const query = t.query?.trim();
  if (!query) throw new NuggetBuildError('the trajectory has no query (the intent query the nuggets answer)');
  const pool = evidencePool(t, o.names);
  if (pool.length === 0) throw new NuggetBuildError('the trajectory has no search or visit results to ground nuggets in');
  const ids = new Set(pool.map((e) => e.id));
  const values = {
    query,
    answer: t.predictedAnswer?.trim() || '(none)',
    evidence: evidenceBlocks(pool),
    evidence_count: pool.length,
    evidence_ids: pool.map((e) => e.id).join(', '),
  };
  const attempts = o.attempts ?? 2;
  let problems: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const feedback = problems.length ? `Your previous reply had no valid nugget: ${problems.join('; ')}. Reply again following the rules.` : '';
    const reply = await askBuilder(o.client, NUGGET_PROMPT, { ...values, feedback }, nuggetReplySchema, o.usage, {
      maxOutputTokens: o.maxOutputTokens,
      signal: o.signal,
      promptsRoot: o.promptsRoot,
    });
    const checked = validateNuggets(reply, ids);
    if (checked.nuggets.length > 0)
      return {
        id: source.id,
        fused_query: query,
        nuggets: checked.nuggets,
        required_subquestions: reply.required_subquestions,
        missing_evidence: reply.missing_evidence,
        unsupported_claims: reply.unsupported_claims,
        provenance: {
          prompt: NUGGET_PROMPT,
          model: modelLabel(o.client),
          trajectory: source.file,
          record: t.id,
          repairs: checked.repairs,
          rejected: checked.rejected,
        },
      };
    problems = checked.rejected.length ? checked.rejected.map((r) => r.reason) : ['the reply held no nuggets'];
  }
  throw new NuggetBuildError(`no valid nugget after ${attempts} model call(s): ${problems.join('; ')}`);
}
