// Stage A of seed 000: item synthesis from retrieved documents, in the seed's three steps —
//   1. seed-query expansion (optional) from the domain's real seed queries;
//   2. document-to-subquery analysis of each high-authority document, one document per call;
//   3. the final reverse-engineering step: query, golden answer, golden and irrelevant documents,
//      evidence spans, reasoning steps.
// Each synthesized item is checked against the Stage-A constraints a rule can decide
// (queryConstraints.ts); one that breaks a constraint is regenerated with the broken constraints
// named, and dropped with its reasons once the attempts are spent. Items are written in the
// Delegation item shape `validate` reads; `provenance` records, for every generated field, the
// prompt version and the model that produced it.
import { z } from 'zod';
import { mapWithConcurrency } from '../../audit/runAudit';
import { Bm25Index } from '../../harness/bm25';
import { serializeDocument, visibleFields } from '../../harness/delegation/docs';
import { hasCjk, normalizeText } from '../../harness/text';
import type { DelegationItem } from '../../items/schemas';
import { hash32 } from '../../random';
import type { ModelClient } from '../../providers/types';
import type { PoolDocument, SeedQuery } from './documents';
import { askBuilder, emptyBuilderUsage, modelLabel, STAGE_A_PROMPTS, type BuilderCallOptions, type BuilderFailure, type BuilderUsage } from './prompts';
import { isAbortError } from '../../providers/errors';
import { evidenceSpanViolations, queryViolations, type EvidenceSpan } from './queryConstraints';
import type { TrailEntry } from './trail';

export interface StageATargets {
  goldenDocs: number;
  hops: number;
  infoPoints: number;
}

export interface StageAOptions extends BuilderCallOptions {
  client: ModelClient;
  seeds: SeedQuery[];
  /** Documents for a seed query: BM25 over the workspace pool, or the user's retrieval command. */
  retrieve: (query: string) => Promise<PoolDocument[]>;
  documentTemplate: string;
  /** New seed queries per domain from seed-query expansion (0: none). */
  expand?: number;
  subqueriesPerDocument?: number;
  targets?: StageATargets;
  /** Synthesis calls per seed query before an item that breaks a constraint is dropped. */
  attempts?: number;
  idPrefix?: string;
  concurrency?: number;
  onProgress?: (message: string) => void;
}

export interface StageAResult {
  items: DelegationItem[];
  trail: TrailEntry[];
  seeds: SeedQuery[];
  usage: BuilderUsage;
  /** Seed queries whose model or retrieval calls failed (key: the seed query); a rerun builds them. */
  failed: BuilderFailure[];
  aborted: boolean;
}

const expansionSchema = z.object({ queries: z.array(z.object({ query: z.string(), intent: z.string().default('') })) });
const subquerySchema = z.object({ subqueries: z.array(z.string()) });
const synthesisSchema = z.object({
  query: z.string(),
  golden_answer: z.string(),
  golden_doc_ids: z.array(z.string()),
  irrelevant_doc_ids: z.array(z.string()).default([]),
  evidence_spans: z.array(z.object({ doc_id: z.string(), text: z.string() })),
  reasoning_steps: z.array(z.string()),
});
type Synthesis = z.infer<typeof synthesisSchema>;

/** Retrieval over a workspace pool: the top `k` documents by BM25 over title and content. */
export function poolRetriever(pool: readonly PoolDocument[], k: number): (query: string) => Promise<PoolDocument[]> {
  const index = new Bm25Index(pool.map((d) => ({ key: d.doc_id, text: `${d.title}\n${d.content}` })));
  const byId = new Map(pool.map((d) => [d.doc_id, d]));
  return (query) => Promise.resolve(index.search(query, k).map((hit) => byId.get(hit.key) as PoolDocument));
}

/** The item's copy of a pool document: the model-visible fields only (authority and other pool labels stay out). */
function itemDocument(doc: PoolDocument): DelegationItem['golden_docs'][number] {
  return {
    doc_id: doc.doc_id,
    title: doc.title,
    url: doc.url,
    ...(doc.site_name !== undefined ? { site_name: doc.site_name } : {}),
    ...(doc.publish_time !== undefined ? { publish_time: doc.publish_time } : {}),
    content: doc.content,
  };
}

const squashKey = (s: string) => normalizeText(s).replace(/\s+/g, ' ').trim();

/** Stable item ids: the prefix and a hash of the seed query, so reordering the seed file keeps them. */
export function itemIdFor(prefix: string, seedQuery: string): string {
  return `${prefix}-${hash32(squashKey(seedQuery)).toString(16).padStart(8, '0')}`;
}

async function expandSeeds(options: StageAOptions, usage: BuilderUsage): Promise<{ seeds: SeedQuery[]; model: string }> {
  const count = options.expand ?? 0;
  const model = modelLabel(options.client);
  if (count <= 0) return { seeds: [], model };
  const byDomain = new Map<string, SeedQuery[]>();
  for (const s of options.seeds) byDomain.set(s.domain ?? 'general', [...(byDomain.get(s.domain ?? 'general') ?? []), s]);
  const known = new Set(options.seeds.map((s) => squashKey(s.query)));
  const out: SeedQuery[] = [];
  for (const [domain, real] of byDomain) {
    const reply = await askBuilder(
      options.client,
      STAGE_A_PROMPTS.seedExpansion,
      {
        domain,
        examples: real
          .slice(0, 8)
          .map((s, i) => `${i + 1}. ${s.query}`)
          .join('\n'),
        count,
      },
      expansionSchema,
      usage,
      options,
    );
    for (const q of reply.queries.slice(0, count)) {
      const key = squashKey(q.query);
      if (!q.query.trim() || known.has(key)) continue;
      known.add(key);
      out.push({
        query: q.query.trim(),
        domain,
        source: 'expanded',
        ...(q.intent ? { intent: q.intent } : {}),
        ...(real[0]?.mode ? { mode: real[0].mode } : {}),
      });
    }
    options.onProgress?.(`seed-query expansion (${domain}): ${out.filter((s) => s.domain === domain).length} new seed quer(ies)`);
  }
  return { seeds: out, model };
}

function render(docs: readonly PoolDocument[], template: string): string {
  return docs.length ? docs.map((d, i) => serializeDocument(template, i + 1, d.doc_id, visibleFields(d))).join('\n\n') : '(none)';
}

/** Why a synthesis cannot become an item (empty: it keeps every rule-checked constraint). */
function synthesisViolations(
  s: Synthesis,
  seedQuery: string,
  evidence: ReadonlyMap<string, PoolDocument>,
  candidates: ReadonlyMap<string, PoolDocument>,
): string[] {
  const out: string[] = [];
  if (!s.query.trim()) out.push('the query is empty');
  if (!s.golden_answer.trim()) out.push('the golden answer is empty');
  if (s.reasoning_steps.filter((r) => r.trim()).length === 0) out.push('no reasoning steps are given');
  if (s.golden_doc_ids.length === 0) out.push('no golden document is selected');
  for (const id of s.golden_doc_ids)
    if (!evidence.has(id)) out.push(`golden document "${id}" is not one of the high-authority candidate documents (${[...evidence.keys()].join(', ')})`);
  for (const id of s.irrelevant_doc_ids) {
    if (s.golden_doc_ids.includes(id)) out.push(`document "${id}" is both golden and irrelevant`);
    else if (!candidates.has(id)) out.push(`irrelevant document "${id}" is not one of the retrieved documents`);
  }
  if (new Set(s.golden_doc_ids).size !== s.golden_doc_ids.length) out.push('a golden document is selected twice');
  const golden = s.golden_doc_ids.filter((id) => evidence.has(id)).map((id) => evidence.get(id) as PoolDocument);
  if (s.query.trim() && s.golden_answer.trim()) out.push(...queryViolations(s.query, s.golden_answer, golden, seedQuery));
  out.push(...evidenceSpanViolations(s.evidence_spans, golden));
  return out;
}

function feedbackText(reasons: readonly string[]): string {
  return reasons.length
    ? `\nYour previous item broke these constraints; write a new item that keeps every constraint:\n${reasons.map((r) => `- ${r}`).join('\n')}\n`
    : '';
}

interface SeedOutcome {
  item?: DelegationItem;
  trail: TrailEntry[];
}

async function buildOne(
  seed: SeedQuery,
  options: StageAOptions,
  usage: BuilderUsage,
  subqueryCache: Map<string, Promise<string[]>>,
  expansionModel: string,
): Promise<SeedOutcome> {
  const model = modelLabel(options.client);
  const retrieved = await options.retrieve(seed.query);
  const evidenceDocs = retrieved.filter((d) => d.authority === 'high');
  const related = retrieved.filter((d) => d.authority !== 'high');
  if (evidenceDocs.length === 0)
    return {
      trail: [
        {
          stage: 'stage-a',
          action: 'drop_item',
          seed_query: seed.query,
          reasons: [`no high-authority document among the ${retrieved.length} retrieved (${retrieved.map((d) => d.doc_id).join(', ') || 'none'})`],
        },
      ],
    };
  const perDocument = options.subqueriesPerDocument ?? 4;
  const subqueries: Record<string, string[]> = {};
  for (const doc of evidenceDocs) {
    let pending = subqueryCache.get(doc.doc_id);
    if (!pending) {
      pending = askBuilder(
        options.client,
        STAGE_A_PROMPTS.subqueries,
        { document: render([doc], options.documentTemplate), count: perDocument },
        subquerySchema,
        usage,
        options,
      ).then((r) =>
        r.subqueries
          .map((q) => q.trim())
          .filter(Boolean)
          .slice(0, perDocument),
      );
      subqueryCache.set(doc.doc_id, pending);
    }
    subqueries[doc.doc_id] = await pending;
  }
  const targets = options.targets ?? { goldenDocs: Math.min(2, evidenceDocs.length), hops: 2, infoPoints: 2 };
  const evidence = new Map(evidenceDocs.map((d) => [d.doc_id, d]));
  const candidates = new Map(retrieved.map((d) => [d.doc_id, d]));
  const attempts = Math.max(1, options.attempts ?? 3);
  const rejected: { attempt: number; reasons: string[] }[] = [];
  const id = itemIdFor(options.idPrefix ?? 'built', seed.query);
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const s = await askBuilder(
      options.client,
      STAGE_A_PROMPTS.synthesize,
      {
        seed_query: seed.query,
        evidence_documents: render(evidenceDocs, options.documentTemplate),
        related_documents: render(related, options.documentTemplate),
        subqueries:
          Object.entries(subqueries)
            .flatMap(([docId, list]) => list.map((q) => `- [${docId}] ${q}`))
            .join('\n') || '(none)',
        target_golden_docs: targets.goldenDocs,
        target_hops: targets.hops,
        target_info_points: targets.infoPoints,
        feedback: feedbackText(rejected.at(-1)?.reasons ?? []),
      },
      synthesisSchema,
      usage,
      options,
    );
    const reasons = synthesisViolations(s, seed.query, evidence, candidates);
    if (reasons.length) {
      rejected.push({ attempt, reasons });
      continue;
    }
    const spans: EvidenceSpan[] = s.evidence_spans.map((e) => ({ doc_id: e.doc_id, text: e.text }));
    const byField = { prompt: STAGE_A_PROMPTS.synthesize, model };
    const item: DelegationItem = {
      id,
      query: s.query.trim(),
      golden_answer: s.golden_answer.trim(),
      golden_docs: s.golden_doc_ids.map((d) => itemDocument(evidence.get(d) as PoolDocument)),
      irrelevant_docs: s.irrelevant_doc_ids.map((d) => itemDocument(candidates.get(d) as PoolDocument)),
      distractor_docs: [],
      evidence_spans: spans,
      reasoning_steps: s.reasoning_steps.map((r) => r.trim()).filter(Boolean),
      language: seed.language ?? (hasCjk(s.query) ? 'zh' : 'en'),
      ...(seed.domain ? { domain: seed.domain } : {}),
      ...(seed.mode ? { mode: seed.mode } : {}),
      provenance: {
        stage_a: {
          seed_query: seed.query,
          seed_source: seed.source,
          ...(seed.source === 'expanded' ? { seed_prompt: { prompt: STAGE_A_PROMPTS.seedExpansion, model: expansionModel }, intent: seed.intent ?? '' } : {}),
          retrieved: retrieved.map((d) => d.doc_id),
          subqueries,
          subqueries_by: { prompt: STAGE_A_PROMPTS.subqueries, model },
          attempts: attempt,
          rejected_attempts: rejected,
        },
        fields: {
          query: byField,
          golden_answer: byField,
          golden_docs: byField,
          irrelevant_docs: byField,
          evidence_spans: byField,
          reasoning_steps: byField,
        },
      },
    };
    const trail: TrailEntry[] = rejected.map((r) => ({ stage: 'stage-a', action: 'regenerate_item', item_id: id, seed_query: seed.query, reasons: r.reasons }));
    return { item, trail };
  }
  return {
    trail: [
      ...rejected
        .slice(0, -1)
        .map((r): TrailEntry => ({ stage: 'stage-a', action: 'regenerate_item', item_id: id, seed_query: seed.query, reasons: r.reasons })),
      {
        stage: 'stage-a',
        action: 'drop_item',
        item_id: id,
        seed_query: seed.query,
        reasons: [`broke the Stage-A constraints in all ${attempts} attempt(s); last attempt:`, ...(rejected.at(-1)?.reasons ?? [])],
      },
    ],
  };
}

/** Stage A over every seed query (and the expanded ones); items and trail in seed order. */
export async function synthesizeItems(options: StageAOptions): Promise<StageAResult> {
  const usage = emptyBuilderUsage();
  const expanded = await expandSeeds(options, usage);
  const seeds = [...options.seeds, ...expanded.seeds];
  const subqueryCache = new Map<string, Promise<string[]>>();
  const ids = new Set<string>();
  const failed: BuilderFailure[] = [];
  let aborted = false;
  const outcomes = await mapWithConcurrency(seeds, Math.max(1, options.concurrency ?? 2), async (seed) => {
    if (options.signal?.aborted) {
      aborted = true;
      return { trail: [] } as SeedOutcome;
    }
    let outcome: SeedOutcome;
    try {
      outcome = await buildOne(seed, options, usage, subqueryCache, expanded.model);
    } catch (error) {
      // A model or retrieval failure is no decision about the seed: it is reported, and a rerun builds it.
      if (isAbortError(error) || options.signal?.aborted) aborted = true;
      else failed.push({ key: seed.query, error: (error as Error).message.split('\n')[0] });
      options.onProgress?.(`failed "${seed.query}": ${(error as Error).message.split('\n')[0]}`);
      return { trail: [] } as SeedOutcome;
    }
    options.onProgress?.(
      outcome.item ? `${outcome.item.id}: built from "${seed.query}"` : `dropped "${seed.query}": ${outcome.trail.at(-1)?.reasons.join(' ') ?? ''}`,
    );
    return outcome;
  });
  const items: DelegationItem[] = [];
  const trail: TrailEntry[] = [];
  outcomes.forEach((o, i) => {
    trail.push(...o.trail);
    if (!o.item) return;
    if (ids.has(String(o.item.id))) {
      trail.push({
        stage: 'stage-a',
        action: 'drop_item',
        item_id: String(o.item.id),
        seed_query: seeds[i].query,
        reasons: ['the same seed query was given twice'],
      });
      return;
    }
    ids.add(String(o.item.id));
    items.push(o.item);
  });
  return { items, trail, seeds, usage, failed, aborted };
}
