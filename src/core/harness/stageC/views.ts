// Stage-C verifier views C1–C4 (seed 000), each under its own controlled context:
//   C1  query ⊕ golden_docs                       → answer + localized evidence, then compared with golden_answer
//   C2  query only (no documents, no browsing)     → answer + confidence, then compared with golden_answer
//   C3  query ⊕ ONE irrelevant doc (+ golden answer and evidence points, never the golden documents)
//   C4  query ⊕ distractor_docs with their audit fields (golden documents withheld)
// Documents are rendered from their model-visible fields only (docs.ts visibleFields); the audit
// fields reach C4 alone. Several verifiers form a pool; a view passes when every verifier passes
// it (aggregate "all", the default) or more than half do ("majority").
import { z } from 'zod';
import type { DelegationItem } from '../../items/schemas';
import { completeStructured } from '../../providers/structured';
import type { ModelClient } from '../../providers/types';
import { itemPool, serializeDocument, visibleFields, type PoolDoc } from '../delegation/docs';
import { renderRolePrompt, rolePrompt } from '../prompts';
import { normalizeText } from '../text';
import { emptyHarnessUsage, type HarnessUsage } from '../wire';
import { precheckItem, type PrecheckFinding } from './precheck';

export const STAGE_C_PROMPT_VERSION = 'stage-c/v1';
export const VIEWS = ['C1', 'C2', 'C3', 'C4'] as const;
export type ViewName = (typeof VIEWS)[number];
export type Aggregate = 'all' | 'majority';

/** C2 rejects a query-only answer equivalent to the golden answer at this confidence or above. */
export const C2_CONFIDENCE_THRESHOLD = 0.7;

export interface Verifier {
  label: string;
  client: ModelClient;
}

export interface VerifierVerdict {
  verifier: string;
  passed: boolean;
  reasons: string[];
  /** The verifier's structured outputs (answers, per-document flags). */
  detail?: unknown;
  error?: string;
  usage: HarnessUsage;
}

export interface ViewResult {
  view: ViewName;
  passed: boolean;
  verdicts: VerifierVerdict[];
  note?: string;
}

const c1Schema = z.object({
  answer: z.string(),
  evidence: z.array(z.object({ doc_id: z.string(), quote: z.string() })),
  needs_outside_information: z.boolean(),
  multiple_incompatible_answers: z.boolean(),
  notes: z.string().default(''),
});
const compareSchema = z.object({ equivalent: z.boolean(), reason: z.string().default('') });
const c2Schema = z.object({
  can_answer: z.boolean(),
  answer: z.string().default(''),
  confidence: z.number().min(0).max(1),
  shortcut_cues: z.array(z.string()).default([]),
});
const c3Schema = z.object({
  answer_bearing: z.boolean(),
  intermediate_fact: z.boolean(),
  duplicates_evidence: z.boolean(),
  metadata_cue: z.boolean(),
  severity: z.enum(['none', 'remove_document', 'discard_item']),
  reason: z.string().default(''),
});
const c4Entry = z.object({
  index: z.number().int(),
  topically_relevant: z.boolean(),
  plausibly_misleading: z.boolean(),
  invalid_by_query_constraint: z.boolean(),
  unconstrained_dimension: z.boolean(),
  needs_private_knowledge: z.boolean(),
  leaks_artificial: z.boolean(),
  too_strong: z.boolean(),
  arbitrary_fabrication: z.boolean(),
  reason: z.string().default(''),
});
const c4Schema = z.object({ distractors: z.array(c4Entry) });

export interface StageCOptions {
  documentTemplate: string;
  maxOutputTokens?: number;
  signal?: AbortSignal;
  promptsRoot?: string;
}

const goldenAnswerText = (item: DelegationItem): string =>
  Array.isArray(item.golden_answer) ? item.golden_answer.map(String).join('; ') : String(item.golden_answer);

function evidenceSpansText(item: DelegationItem): string {
  const spans = item.evidence_spans.map((s) =>
    typeof s === 'string' ? s : typeof (s as { text?: unknown })?.text === 'string' ? (s as { text: string }).text : JSON.stringify(s),
  );
  return spans.length ? spans.map((s, i) => `${i + 1}. ${s}`).join('\n') : '(none given)';
}

function renderDocs(docs: readonly PoolDoc[], template: string): string {
  return docs.map((d, i) => serializeDocument(template, i + 1, d.original, d.fields)).join('\n\n');
}

async function ask<T>(
  client: ModelClient,
  template: string,
  values: Record<string, string | number>,
  schema: z.ZodType<T>,
  usage: HarnessUsage,
  options: StageCOptions,
): Promise<T> {
  const { system, user } = renderRolePrompt(rolePrompt(`stage-c/v1/${template}.md`, options.promptsRoot), values);
  const result = await completeStructured(
    client,
    { system, messages: [{ role: 'user', content: user }], ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}) },
    schema,
    { name: template.replace(/[^A-Za-z0-9_-]/g, '_'), signal: options.signal },
  );
  usage.calls += result.attempts;
  usage.inputTokens += result.usage.inputTokens;
  usage.outputTokens += result.usage.outputTokens;
  usage.cachedInputTokens += result.usage.cachedInputTokens;
  return result.value;
}

const squash = (s: string) => normalizeText(s).replace(/\s+/g, ' ').trim();

async function viewC1(item: DelegationItem, v: Verifier, o: StageCOptions, usage: HarnessUsage): Promise<Omit<VerifierVerdict, 'verifier' | 'usage'>> {
  const golden = itemPool(item).filter((d) => d.group === 'golden');
  const answer = await ask(v.client, 'c1-answer', { query: item.query, documents: renderDocs(golden, o.documentTemplate) }, c1Schema, usage, o);
  const reasons: string[] = [];
  const byId = new Map(item.golden_docs.map((d) => [String(d.doc_id), String(d.content ?? '')]));
  const localized = answer.evidence.filter(
    (e) => e.quote.trim() && squash(byId.get(e.doc_id) ?? '').includes(squash(e.quote).replace(/^["“”']+|["“”']+$/g, '')),
  );
  if (!answer.answer.trim()) reasons.push('the verifier found no answer in the golden documents');
  if (answer.needs_outside_information) reasons.push('answering needs information outside golden_docs');
  if (answer.multiple_incompatible_answers) reasons.push('the verifier reports several incompatible answers');
  if (localized.length === 0) reasons.push('no cited quote was found verbatim in a golden document (no localized support)');
  let compare: z.infer<typeof compareSchema> | undefined;
  if (answer.answer.trim()) {
    compare = await ask(
      v.client,
      'compare',
      { query: item.query, golden_answer: goldenAnswerText(item), evidence_spans: evidenceSpansText(item), candidate: answer.answer },
      compareSchema,
      usage,
      o,
    );
    if (!compare.equivalent) reasons.push(`the verifier's answer is not equivalent to the golden answer: ${compare.reason}`);
  }
  return {
    passed: reasons.length === 0,
    reasons: reasons.length ? reasons : ['answerable from golden_docs with localized support; equivalent to the golden answer'],
    detail: { answer, localized_quotes: localized.length, compare },
  };
}

async function viewC2(
  item: DelegationItem,
  v: Verifier,
  o: StageCOptions,
  usage: HarnessUsage,
  prechecks: readonly PrecheckFinding[],
): Promise<Omit<VerifierVerdict, 'verifier' | 'usage'>> {
  const answer = await ask(v.client, 'c2-query-only', { query: item.query }, c2Schema, usage, o);
  const reasons: string[] = [];
  let compare: z.infer<typeof compareSchema> | undefined;
  if (answer.can_answer && answer.answer.trim()) {
    compare = await ask(
      v.client,
      'compare',
      { query: item.query, golden_answer: goldenAnswerText(item), evidence_spans: '(not shown in this view)', candidate: answer.answer },
      compareSchema,
      usage,
      o,
    );
    if (compare.equivalent && answer.confidence >= C2_CONFIDENCE_THRESHOLD)
      reasons.push(`answered correctly from the query alone with confidence ${answer.confidence} (memorized or leaked): ${compare.reason}`);
  }
  for (const f of prechecks.filter((p) => p.check === 'shortcut_leakage' && p.severity === 'error')) reasons.push(`shortcut cue (pre-check): ${f.message}`);
  return {
    passed: reasons.length === 0,
    reasons: reasons.length
      ? reasons
      : [
          answer.can_answer
            ? `query-only answer ${compare?.equivalent ? 'equivalent but with low confidence' : 'not equivalent to the golden answer'}`
            : 'not answerable from the query alone',
        ],
    detail: { answer, compare },
  };
}

async function viewC3(item: DelegationItem, v: Verifier, o: StageCOptions, usage: HarnessUsage): Promise<Omit<VerifierVerdict, 'verifier' | 'usage'>> {
  const reasons: string[] = [];
  const docs: unknown[] = [];
  for (const doc of item.irrelevant_docs) {
    const rendered = serializeDocument(o.documentTemplate, 1, String(doc.doc_id), visibleFields(doc));
    const r = await ask(
      v.client,
      'c3-irrelevant',
      { query: item.query, golden_answer: goldenAnswerText(item), evidence_spans: evidenceSpansText(item), document: rendered },
      c3Schema,
      usage,
      o,
    );
    docs.push({ doc_id: String(doc.doc_id), ...r });
    const flags = (['answer_bearing', 'intermediate_fact', 'duplicates_evidence', 'metadata_cue'] as const).filter((k) => r[k]);
    if (flags.length || r.severity !== 'none')
      reasons.push(
        `irrelevant document ${doc.doc_id}: ${flags.join(', ') || 'flagged'} (suggested: ${r.severity === 'none' ? 'remove_document' : r.severity}) — ${r.reason}`,
      );
  }
  return {
    passed: reasons.length === 0,
    reasons: reasons.length ? reasons : [`${item.irrelevant_docs.length} irrelevant document(s) are non-supporting`],
    detail: { documents: docs },
  };
}

function renderDistractors(item: DelegationItem, template: string): string {
  return item.distractor_docs
    .map((doc, i) => {
      const d = doc as Record<string, unknown>;
      const audit = ['distractor_type', 'target_info_point', 'conflict_hint', 'discriminating_constraint']
        .map((k) => `- ${k}: ${d[k] === undefined || d[k] === null || d[k] === '' ? '(missing)' : typeof d[k] === 'string' ? d[k] : JSON.stringify(d[k])}`)
        .join('\n');
      return `Distractor ${i + 1}\n${serializeDocument(template, i + 1, String(doc.doc_id), visibleFields(doc))}\nAudit fields:\n${audit}`;
    })
    .join('\n\n');
}

async function viewC4(item: DelegationItem, v: Verifier, o: StageCOptions, usage: HarnessUsage): Promise<Omit<VerifierVerdict, 'verifier' | 'usage'>> {
  const count = item.distractor_docs.length;
  const r = await ask(v.client, 'c4-distractors', { query: item.query, distractors: renderDistractors(item, o.documentTemplate), count }, c4Schema, usage, o);
  const reasons: string[] = [];
  item.distractor_docs.forEach((doc, i) => {
    const e = r.distractors.find((x) => x.index === i + 1) ?? r.distractors[i];
    if (!e) {
      reasons.push(`distractor ${doc.doc_id}: no verdict`);
      return;
    }
    const bad = [
      !e.topically_relevant && 'obviously irrelevant',
      !e.plausibly_misleading && 'not misleading',
      !e.invalid_by_query_constraint && 'invalid for no query-constrained reason',
      e.unconstrained_dimension && 'contradicts on an unconstrained dimension',
      e.needs_private_knowledge && 'needs private annotation knowledge to reject',
      e.leaks_artificial && 'leaks that it is artificial',
      e.too_strong && 'too strong (underdetermined)',
      e.arbitrary_fabrication && 'arbitrary fabricated facts',
    ].filter(Boolean);
    if (bad.length) reasons.push(`distractor ${doc.doc_id}: ${bad.join(', ')} — ${e.reason}`);
  });
  return {
    passed: reasons.length === 0,
    reasons: reasons.length ? reasons : [`${count} distractor(s) are plausible and invalid for query-constrained reasons`],
    detail: r,
  };
}

/** Runs one view with every verifier. A verifier call that fails makes the view undetermined (error). */
export async function runView(
  view: ViewName,
  item: DelegationItem,
  verifiers: readonly Verifier[],
  aggregate: Aggregate,
  options: StageCOptions,
  prechecks = precheckItem(item),
): Promise<ViewResult> {
  if (view === 'C3' && item.irrelevant_docs.length === 0) return { view, passed: true, verdicts: [], note: 'no irrelevant documents' };
  if (view === 'C4' && item.distractor_docs.length === 0) return { view, passed: true, verdicts: [], note: 'no distractor documents' };
  const verdicts: VerifierVerdict[] = [];
  for (const v of verifiers) {
    const usage = emptyHarnessUsage();
    const run =
      view === 'C1'
        ? viewC1(item, v, options, usage)
        : view === 'C2'
          ? viewC2(item, v, options, usage, prechecks)
          : view === 'C3'
            ? viewC3(item, v, options, usage)
            : viewC4(item, v, options, usage);
    const verdict = await run;
    verdicts.push({ verifier: v.label, ...verdict, usage });
  }
  const passes = verdicts.filter((x) => x.passed).length;
  const passed = aggregate === 'all' ? passes === verdicts.length : passes * 2 > verdicts.length;
  return { view, passed, verdicts };
}
