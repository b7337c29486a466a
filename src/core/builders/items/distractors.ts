// Stage B of seed 000: distractor synthesis from the Stage-A record. Each generated distractor
// carries the seed's audit fields and is kept only if it satisfies the five validity constraints:
//   1 anchored to an evidence information point of the query and golden answer   (rule)
//   2 differs from the golden evidence on a dimension the query constrains       (verifier)
//   3 topically plausible and retrievable with similar terms                     (rule + verifier)
//   4 an explicit audit trail: conflict_hint, discriminating_constraint, type    (rule)
//   5 leaks neither its synthetic nature nor the answer, nor which doc is right  (rule + verifier)
// A rule decides what it can; the verifier model is asked only about a distractor every rule
// passed. Every constraint's outcome is recorded per distractor in provenance.stage_b.
import { z } from 'zod';
import { mapWithConcurrency } from '../../audit/runAudit';
import { serializeDocument, visibleFields } from '../../harness/delegation/docs';
import { precheckItem } from '../../harness/stageC/precheck';
import { contentTokens, normalizeText, tokenize } from '../../harness/text';
import type { DelegationItem } from '../../items/schemas';
import type { ModelClient } from '../../providers/types';
import type { PoolDocument } from './documents';
import { askBuilder, emptyBuilderUsage, modelLabel, STAGE_B_PROMPTS, type BuilderCallOptions, type BuilderFailure, type BuilderUsage } from './prompts';
import { isAbortError } from '../../providers/errors';
import { answerTokens, isVerbatim } from './queryConstraints';
import type { TrailEntry } from './trail';

/** The seed's distractor types, with what each perturbs (shown to the generator). */
export const DISTRACTOR_TYPES: Record<string, string> = {
  slot_mismatch: 'nearly identical to the golden source, but a key factual slot (date, location, version, event or numerical value) is changed',
  source_downgrade:
    'the official or high-authority source replaced by a lower-credibility one (forum post, personal blog, self-media article), topic and wording superficially close',
  recency_trap: 'a later publication time, so it looks newer, while it keeps an incorrect or second-hand claim',
  timeliness: 'information valid for another period than the one the query asks about',
  authority_challenge: 'a source that disputes the official figure without comparable authority',
  logical_one_sided: 'a one-sided argument that draws a conclusion the evidence does not support',
  entity_confusion: 'a closely related but different entity (a sister company, a namesake, another fund)',
  numeric_distortion: 'the same statement with a distorted number (scale, unit, rounding or sign)',
  causal_narrative: 'a plausible causal story that attributes the result to a wrong cause or period',
};

export const CONSTRAINTS = ['1_anchored', '2_query_constrained_difference', '3_topically_plausible', '4_audit_trail', '5_no_leakage'] as const;
export type ConstraintName = (typeof CONSTRAINTS)[number];

export interface ConstraintOutcome {
  passed: boolean;
  by: 'rule' | 'verifier' | 'rule+verifier' | 'not checked';
  reasons: string[];
}

export interface DistractorRecord {
  doc_id: string;
  distractor_type: string;
  kept: boolean;
  constraints: Record<ConstraintName, ConstraintOutcome>;
  verifier?: unknown;
}

/** Length bounds of a distractor's content, relative to the golden document it perturbs. */
export const LENGTH_BOUNDS = { minChars: 80, maxChars: 4000, minRatio: 1 / 3, maxRatio: 3 } as const;

const distractorSchema = z.object({
  distractor_type: z.string(),
  source_doc_key: z.string(),
  target_info_point: z.string(),
  target_evidence_text: z.string(),
  title: z.string(),
  content: z.string(),
  site_name: z.string().default(''),
  synthetic_url: z.string().default(''),
  pseudo_publish_time: z.string().default(''),
  discriminating_constraint: z.string(),
  conflict_hint: z.string(),
});
type GeneratedDistractor = z.infer<typeof distractorSchema>;
const generationSchema = z.object({ distractor_docs: z.array(distractorSchema) });
const verifySchema = z.object({
  query_constrained_difference: z.boolean(),
  dimension: z.string().default(''),
  topically_plausible: z.boolean(),
  rejectable_from_visible_evidence: z.boolean(),
  reveals_correct_document: z.boolean(),
  reason: z.string().default(''),
});

export interface StageBOptions extends BuilderCallOptions {
  generator: ModelClient;
  verifier: ModelClient;
  documentTemplate: string;
  /** Distractors asked for per item. */
  perItem?: number;
  types?: string[];
  /** The workspace pool: distractor ids never collide with it, and a copy of a pool document is no distractor. */
  pool?: readonly PoolDocument[];
  concurrency?: number;
  onProgress?: (message: string) => void;
}

export interface StageBResult {
  items: DelegationItem[];
  trail: TrailEntry[];
  usage: BuilderUsage;
  /** Items whose model calls failed (key: the item id); they are not in `items`. */
  failed: BuilderFailure[];
  aborted: boolean;
}

const flat = (s: string) => normalizeText(s).replace(/\s+/g, ' ').trim();
const answerList = (item: DelegationItem): string[] => (Array.isArray(item.golden_answer) ? item.golden_answer : [item.golden_answer]).map(String);

/** Whether the text states the golden answer: the whole answer, or every answer token of it. */
export function statesAnswer(text: string, answer: string): boolean {
  const t = flat(text);
  const core = flat(answer).replace(/[.。!！]+$/u, '');
  if (core.length >= 2 && t.includes(core)) return true;
  const tokens = answerTokens(answer);
  const have = new Set(tokenize(text));
  return tokens.length > 0 && tokens.every((tok) => have.has(tok) || (/[^\x00-\x7f]/.test(tok) && t.includes(tok)));
}

/** The rule-decidable parts of the five constraints for one distractor of `item`. */
export function ruleChecks(item: DelegationItem, d: GeneratedDistractor, pool: readonly PoolDocument[] = []): Record<ConstraintName, ConstraintOutcome> {
  const golden = new Map(item.golden_docs.map((g) => [String(g.doc_id), g]));
  const source = golden.get(d.source_doc_key.trim());
  const anchored: string[] = [];
  if (!source) anchored.push(`source_doc_key "${d.source_doc_key}" is not a golden document (golden: ${[...golden.keys()].join(', ')})`);
  if (!d.target_info_point.trim()) anchored.push('target_info_point is empty');
  if (source && !isVerbatim(d.target_evidence_text, String(source.content)))
    anchored.push(`target_evidence_text is not verbatim in golden document ${d.source_doc_key}`);

  const plausible: string[] = [];
  const queryWords = [...new Set(contentTokens(item.query))];
  const distractorWords = new Set(contentTokens(`${d.title}\n${d.content}`));
  const shared = queryWords.filter((w) => distractorWords.has(w));
  if (shared.length < Math.min(2, queryWords.length) || shared.length < queryWords.length / 4)
    plausible.push(`shares ${shared.length} of the query's ${queryWords.length} content words; a distractor must be retrievable with similar search terms`);
  const pointWords = contentTokens(d.target_info_point);
  if (pointWords.length && !pointWords.some((w) => distractorWords.has(w)))
    plausible.push(`shares no word with its target_info_point "${d.target_info_point}"`);
  const length = d.content.trim().length;
  const sourceLength = source ? String(source.content).trim().length : 0;
  if (length < LENGTH_BOUNDS.minChars || length > LENGTH_BOUNDS.maxChars)
    plausible.push(`content is ${length} characters; expected ${LENGTH_BOUNDS.minChars}–${LENGTH_BOUNDS.maxChars}`);
  else if (sourceLength && (length < sourceLength * LENGTH_BOUNDS.minRatio || length > sourceLength * LENGTH_BOUNDS.maxRatio))
    plausible.push(`content is ${length} characters against ${sourceLength} of its golden document; expected between a third and three times that`);
  const copy = pool.find((p) => flat(p.content) === flat(d.content)) ?? item.golden_docs.find((g) => flat(String(g.content)) === flat(d.content));
  if (copy) plausible.push(`content is a copy of document ${copy.doc_id}, not a perturbation of it`);

  const audit: string[] = [];
  if (!(d.distractor_type in DISTRACTOR_TYPES)) audit.push(`distractor_type "${d.distractor_type}" is none of ${Object.keys(DISTRACTOR_TYPES).join(', ')}`);
  if (!d.conflict_hint.trim()) audit.push('conflict_hint is empty (the golden-side fact and the distractor-side alteration)');
  if (!d.discriminating_constraint.trim()) audit.push('discriminating_constraint is empty (the authority, time or source-type difference)');

  const leak: string[] = [];
  for (const answer of answerList(item)) if (statesAnswer(`${d.title}\n${d.content}`, answer)) leak.push(`states the golden answer "${answer}"`);
  const probe = { ...item, distractor_docs: [toItemDoc(d, 'probe')], irrelevant_docs: [], golden_docs: item.golden_docs } as DelegationItem;
  for (const f of precheckItem(probe))
    if (f.check === 'self_reference' && f.severity === 'error' && f.path[0] === 'distractor_docs')
      leak.push(f.message.replace(/^distractor document probe: /, ''));

  const outcome = (reasons: string[]): ConstraintOutcome => ({ passed: reasons.length === 0, by: 'rule', reasons });
  return {
    '1_anchored': outcome(anchored),
    '2_query_constrained_difference': { passed: false, by: 'not checked', reasons: [] },
    '3_topically_plausible': outcome(plausible),
    '4_audit_trail': outcome(audit),
    '5_no_leakage': outcome(leak),
  };
}

function toItemDoc(d: GeneratedDistractor, docId: string): DelegationItem['distractor_docs'][number] {
  return {
    doc_id: docId,
    title: d.title.trim(),
    url: d.synthetic_url.trim() || null,
    site_name: d.site_name.trim() || null,
    publish_time: d.pseudo_publish_time.trim() || null,
    content: d.content.trim(),
    distractor_type: d.distractor_type,
    source_doc_key: d.source_doc_key.trim(),
    target_info_point: d.target_info_point,
    target_evidence_text: d.target_evidence_text,
    synthetic_url: d.synthetic_url.trim() || null,
    pseudo_publish_time: d.pseudo_publish_time.trim() || null,
    discriminating_constraint: d.discriminating_constraint,
    conflict_hint: d.conflict_hint,
  };
}

/**
 * Ids for new distractors in the form of the item's own ids (`p07` → `p08`, `p09`, …), so the
 * ids do not tell the groups apart; never one the item or the pool already uses.
 */
export function distractorIds(item: DelegationItem, count: number, pool: readonly PoolDocument[] = []): string[] {
  const used = new Set([...item.golden_docs, ...item.irrelevant_docs, ...item.distractor_docs].map((d) => String(d.doc_id)));
  for (const p of pool) used.add(p.doc_id);
  const first = String(item.golden_docs[0]?.doc_id ?? 'doc1');
  const m = /^(.*?)(\d+)$/.exec(first);
  const prefix = m ? m[1] : `${first}-`;
  const width = m ? m[2].length : 1;
  let n = Math.max(0, ...[...used].map((id) => (id.startsWith(prefix) && /^\d+$/.test(id.slice(prefix.length)) ? Number(id.slice(prefix.length)) : 0)));
  const out: string[] = [];
  while (out.length < count) {
    n++;
    const id = `${prefix}${String(n).padStart(width, '0')}`;
    if (!used.has(id)) out.push(id);
  }
  return out;
}

function goldenAnswerText(item: DelegationItem): string {
  return answerList(item).join('; ');
}

async function distractorsFor(item: DelegationItem, options: StageBOptions, usage: BuilderUsage): Promise<{ item: DelegationItem; trail: TrailEntry[] }> {
  const types = options.types?.length ? options.types : Object.keys(DISTRACTOR_TYPES);
  const count = options.perItem ?? 3;
  const spans = item.evidence_spans.map((s, i) => {
    const span = s as { doc_id?: unknown; text?: unknown };
    return typeof s === 'string' ? `${i + 1}. ${s}` : `${i + 1}. [${String(span.doc_id ?? '')}] ${String(span.text ?? '')}`;
  });
  const generated = await askBuilder(
    options.generator,
    STAGE_B_PROMPTS.distractors,
    {
      query: item.query,
      golden_answer: goldenAnswerText(item),
      golden_documents: item.golden_docs.map((d, i) => serializeDocument(options.documentTemplate, i + 1, String(d.doc_id), visibleFields(d))).join('\n\n'),
      evidence_spans: spans.join('\n') || '(none given)',
      types: types.map((t) => `- ${t}: ${DISTRACTOR_TYPES[t] ?? '(a mode-specific perturbation)'}`).join('\n'),
      count,
    },
    generationSchema,
    usage,
    options,
  );
  const candidates = generated.distractor_docs.slice(0, count);
  const ids = distractorIds(item, candidates.length, options.pool);
  const records: DistractorRecord[] = [];
  const kept: DelegationItem['distractor_docs'] = [];
  const trail: TrailEntry[] = [];
  for (const [i, d] of candidates.entries()) {
    const docId = ids[i];
    const constraints = ruleChecks(item, d, options.pool);
    const rulesPass = CONSTRAINTS.filter((c) => c !== '2_query_constrained_difference').every((c) => constraints[c].passed);
    let verdict: z.infer<typeof verifySchema> | undefined;
    if (rulesPass) {
      const doc = toItemDoc(d, docId);
      verdict = await askBuilder(
        options.verifier,
        STAGE_B_PROMPTS.verify,
        {
          query: item.query,
          golden_answer: goldenAnswerText(item),
          target_evidence_text: d.target_evidence_text,
          distractor: serializeDocument(options.documentTemplate, 1, docId, visibleFields(doc)),
          audit: ['distractor_type', 'target_info_point', 'conflict_hint', 'discriminating_constraint']
            .map((k) => `- ${k}: ${String(d[k as keyof GeneratedDistractor])}`)
            .join('\n'),
        },
        verifySchema,
        usage,
        options,
      );
      const why = verdict.reason ? ` — ${verdict.reason}` : '';
      constraints['2_query_constrained_difference'] = {
        passed: verdict.query_constrained_difference,
        by: 'verifier',
        reasons: verdict.query_constrained_difference
          ? [`differs on: ${verdict.dimension || 'a query-constrained dimension'}`]
          : [`the difference lies on no dimension the query constrains${why}`],
      };
      constraints['3_topically_plausible'] = verdict.topically_plausible
        ? { passed: true, by: 'rule+verifier', reasons: [] }
        : { passed: false, by: 'rule+verifier', reasons: [`the verifier finds it off the query's topic${why}`] };
      const leaks = [
        ...(verdict.reveals_correct_document ? [`the verifier finds that it reveals its nature or which document is correct${why}`] : []),
        ...(verdict.rejectable_from_visible_evidence ? [] : [`it cannot be rejected without private annotation knowledge${why}`]),
      ];
      constraints['5_no_leakage'] = { passed: leaks.length === 0, by: 'rule+verifier', reasons: leaks };
    }
    const passed = CONSTRAINTS.every((c) => constraints[c].passed);
    records.push({ doc_id: docId, distractor_type: d.distractor_type, kept: passed, constraints, ...(verdict ? { verifier: verdict } : {}) });
    if (passed) kept.push(toItemDoc(d, docId));
    else
      trail.push({
        stage: 'stage-b',
        action: 'drop_distractor',
        item_id: String(item.id),
        doc_id: docId,
        reasons: CONSTRAINTS.filter((c) => !constraints[c].passed && constraints[c].by !== 'not checked').flatMap((c) =>
          constraints[c].reasons.map((r) => `constraint ${c}: ${r}`),
        ),
      });
  }
  const provenance = (item.provenance ?? {}) as { fields?: Record<string, unknown> } & Record<string, unknown>;
  const next: DelegationItem = {
    ...item,
    distractor_docs: [...item.distractor_docs, ...kept],
    provenance: {
      ...provenance,
      stage_b: { generated: candidates.length, kept: kept.length, distractors: records },
      fields: {
        ...(provenance.fields ?? {}),
        distractor_docs: {
          prompt: STAGE_B_PROMPTS.distractors,
          model: modelLabel(options.generator),
          verifier: { prompt: STAGE_B_PROMPTS.verify, model: modelLabel(options.verifier) },
        },
      },
    },
  };
  return { item: next, trail };
}

/** Stage B over every item, in order. */
export async function synthesizeDistractors(items: readonly DelegationItem[], options: StageBOptions): Promise<StageBResult> {
  const usage = emptyBuilderUsage();
  const failed: BuilderFailure[] = [];
  let aborted = false;
  const results = await mapWithConcurrency([...items], Math.max(1, options.concurrency ?? 2), async (item) => {
    if (options.signal?.aborted) {
      aborted = true;
      return undefined;
    }
    try {
      const result = await distractorsFor(item, options, usage);
      const stageB = (result.item.provenance as { stage_b: { generated: number; kept: number } }).stage_b;
      options.onProgress?.(`${item.id}: ${stageB.kept} of ${stageB.generated} distractor(s) kept`);
      return result;
    } catch (error) {
      // Not written without its distractors (it would read as "none kept"): reported, and a rerun makes them.
      if (isAbortError(error) || options.signal?.aborted) aborted = true;
      else failed.push({ key: String(item.id), error: (error as Error).message.split('\n')[0] });
      options.onProgress?.(`${item.id}: failed — ${(error as Error).message.split('\n')[0]}`);
      return undefined;
    }
  });
  const done = results.filter((r): r is NonNullable<typeof r> => r !== undefined);
  return { items: done.map((r) => r.item), trail: done.flatMap((r) => r.trail), usage, failed, aborted };
}
