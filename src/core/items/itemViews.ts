// Pure builders of what the item view shows, from the loaded records (src/core/items/schemas.ts).
// The blind view of a Delegation item is built from an ALLOWLIST of the fields a blind reviewer
// may see (seed 000, human validation): nothing else can reach the webview in blind mode.
import type { ClarifyInstance, DeepSearchQaRow, DelegationItem, ScenarioSet } from './schemas';
import type {
  ClarifyView,
  CriterionView,
  DelegationBlindView,
  DelegationFullView,
  DistractorAudit,
  DsqaRow,
  Field,
  FullDistractorDoc,
  FullDoc,
  ScenarioSetView,
  ScenarioView,
  VisibleDoc,
} from '../../shared/itemProtocol';
import { locateEvidence } from './evidenceSpans';

/** Document fields an evaluated model sees (seed 000, evaluation protocol). */
export const MODEL_VISIBLE_DOC_FIELDS = ['doc_id', 'title', 'url', 'site_name', 'publish_time', 'content'] as const;

/** Stage-B audit fields of a distractor. */
export const DISTRACTOR_AUDIT_FIELDS = [
  'distractor_type',
  'source_doc_key',
  'target_info_point',
  'target_evidence_text',
  'synthetic_url',
  'pseudo_publish_time',
  'discriminating_constraint',
  'conflict_hint',
] as const;

/**
 * Pipeline-generated fields withheld from blind reviewers. Informational: the blind view is an
 * allowlist, so these (and any other field) are left out whether or not they are listed here.
 */
export const PIPELINE_FIELDS = [
  'conflict_hint',
  'discriminating_constraint',
  'target_info_point',
  'distractor_type',
  'target_evidence_text',
  'source_doc_key',
  'reasoning_steps',
  'evidence_spans',
  'synthetic_url',
  'pseudo_publish_time',
  'mode',
] as const;

const ITEM_FIELDS = new Set([
  'id',
  'query',
  'golden_answer',
  'golden_docs',
  'irrelevant_docs',
  'distractor_docs',
  'evidence_spans',
  'reasoning_steps',
  'mode',
  'language',
  'domain',
]);

/** Any JSON value as display text; undefined for null/undefined/empty. */
export function textOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value, null, 2);
}

function optionalText(value: unknown): string | undefined {
  const t = textOf(value);
  return t === undefined || t === '' ? undefined : t;
}

function extraFields(obj: Record<string, unknown>, known: ReadonlySet<string>): Field[] {
  const out: Field[] = [];
  for (const [key, value] of Object.entries(obj)) {
    if (known.has(key)) continue;
    const text = optionalText(value);
    if (text !== undefined) out.push({ key, value: text });
  }
  return out;
}

export function goldenAnswerList(answer: DelegationItem['golden_answer']): string[] {
  return Array.isArray(answer) ? answer.map(String) : [String(answer)];
}

type Doc = DelegationItem['golden_docs'][number] & Record<string, unknown>;

/**
 * The model-visible fields of a document, by allowlist. A distractor without its own `url` /
 * `publish_time` is shown with `synthetic_url` / `pseudo_publish_time`, which is what a model
 * evaluated on it would be given as its address and date.
 */
export function visibleDoc(doc: Doc): VisibleDoc {
  const out: VisibleDoc = { doc_id: String(doc.doc_id), content: typeof doc.content === 'string' ? doc.content : String(doc.content ?? '') };
  const title = optionalText(doc.title);
  const url = optionalText(doc.url) ?? optionalText(doc.synthetic_url);
  const site = optionalText(doc.site_name);
  const time = optionalText(doc.publish_time) ?? optionalText(doc.pseudo_publish_time);
  if (title !== undefined) out.title = title;
  if (url !== undefined) out.url = url;
  if (site !== undefined) out.site_name = site;
  if (time !== undefined) out.publish_time = time;
  return out;
}

/** What a blind reviewer sees of an item. Allowlist only: id, query, golden answer, visible docs by group. */
export function blindItemView(item: DelegationItem): DelegationBlindView {
  return {
    mode: 'blind',
    id: String(item.id),
    query: String(item.query),
    goldenAnswer: goldenAnswerList(item.golden_answer),
    golden: item.golden_docs.map((d) => visibleDoc(d as Doc)),
    irrelevant: item.irrelevant_docs.map((d) => visibleDoc(d as Doc)),
    distractors: item.distractor_docs.map((d) => visibleDoc(d as Doc)),
  };
}

const VISIBLE = new Set<string>(MODEL_VISIBLE_DOC_FIELDS);
const AUDIT = new Set<string>(DISTRACTOR_AUDIT_FIELDS);

/** Everything in the item, evidence spans located in the documents. */
export function fullItemView(item: DelegationItem): DelegationFullView {
  const docs = [
    ...item.golden_docs.map((d) => ({ doc_id: String(d.doc_id), content: d.content, golden: true })),
    ...item.irrelevant_docs.map((d) => ({ doc_id: String(d.doc_id), content: d.content, golden: false })),
    ...item.distractor_docs.map((d) => ({ doc_id: String(d.doc_id), content: d.content, golden: false })),
  ];
  const { spans, ranges } = locateEvidence(docs, item.evidence_spans);
  const full = (d: Doc, skip: ReadonlySet<string>): FullDoc => ({
    ...visibleRaw(d),
    highlights: ranges.get(String(d.doc_id)) ?? [],
    extra: extraFields(d, skip),
  });
  const distractor = (d: Doc): FullDistractorDoc => {
    const audit: DistractorAudit = {};
    for (const key of DISTRACTOR_AUDIT_FIELDS) {
      const t = optionalText(d[key]);
      if (t !== undefined) audit[key] = t;
    }
    return { ...full(d, new Set([...VISIBLE, ...AUDIT])), audit };
  };
  const meta: Field[] = [];
  for (const key of ['mode', 'language', 'domain'] as const) {
    const t = optionalText(item[key]);
    if (t !== undefined) meta.push({ key, value: t });
  }
  return {
    mode: 'full',
    id: String(item.id),
    query: String(item.query),
    goldenAnswer: goldenAnswerList(item.golden_answer),
    meta,
    golden: item.golden_docs.map((d) => full(d as Doc, VISIBLE)),
    irrelevant: item.irrelevant_docs.map((d) => full(d as Doc, VISIBLE)),
    distractors: item.distractor_docs.map((d) => distractor(d as Doc)),
    evidence: spans,
    reasoning: item.reasoning_steps.map((s) => textOf(s) ?? ''),
    extra: extraFields(item as Record<string, unknown>, ITEM_FIELDS),
  };
}

/** The document's own visible fields (no synthetic fallbacks: the full view shows those separately). */
function visibleRaw(doc: Doc): VisibleDoc {
  const out: VisibleDoc = { doc_id: String(doc.doc_id), content: doc.content };
  const title = optionalText(doc.title);
  const url = optionalText(doc.url);
  const site = optionalText(doc.site_name);
  const time = optionalText(doc.publish_time);
  if (title !== undefined) out.title = title;
  if (url !== undefined) out.url = url;
  if (site !== undefined) out.site_name = site;
  if (time !== undefined) out.publish_time = time;
  return out;
}

export function itemLabel(item: DelegationItem): string {
  const q = String(item.query).replace(/\s+/g, ' ').trim();
  return q.length > 120 ? `${q.slice(0, 119)}…` : q;
}

// ── DeepSearchQA, Clarify-Then-Search ───────────────────────────────────────────────────────

export function dsqaRow(row: DeepSearchQaRow): DsqaRow {
  return { id: row.id, problem: row.problem, category: row.problem_category ?? '', answerType: row.answer_type, answer: row.answer };
}

const CLARIFY_FIELDS = new Set(['id', 'blurred_query', 'fused_query', 'nuggets']);

export function clarifyView(instance: ClarifyInstance): ClarifyView {
  return {
    id: String(instance.id),
    blurred: instance.blurred_query,
    fused: instance.fused_query,
    nuggets: instance.nuggets.map((n) => ({ text: n.text, weight: n.weight, evidenceIds: (n.evidence_ids ?? []).map(String) })),
    extra: extraFields(instance as Record<string, unknown>, CLARIFY_FIELDS),
  };
}

// ── Scenario sets ───────────────────────────────────────────────────────────────────────────

const SCENARIO_FIELDS = new Set(['id', 'type', 'difficulty', 'input', 'trap', 'expected_deliverable', 'criteria']);

function fieldsOf(value: unknown): Field[] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => {
      const t = optionalText(v);
      return t === undefined ? [] : [{ key, value: t }];
    });
  }
  const t = optionalText(value);
  return t === undefined ? [] : [{ key: '', value: t }];
}

export function scenarioSetView(set: ScenarioSet): ScenarioSetView {
  const meta = set.meta as Record<string, unknown>;
  const scoring = (meta.scoring ?? {}) as Record<string, unknown>;
  const scoringFields: Field[] = [];
  const tracks = scoring.tracks;
  if (tracks && typeof tracks === 'object') for (const f of fieldsOf(tracks)) scoringFields.push({ key: `Track ${f.key}`, value: f.value });
  for (const [key, value] of Object.entries(scoring)) {
    if (key === 'tracks') continue;
    const t = optionalText(value);
    if (t !== undefined) scoringFields.push({ key, value: t });
  }
  const metaFields: Field[] = [];
  for (const key of ['date', 'generated_by', 'task', 'based_on', 'companion', 'url_discipline']) {
    const t = optionalText(meta[key]);
    if (t !== undefined) metaFields.push({ key, value: t });
  }
  return {
    name: optionalText(meta.name),
    meta: metaFields,
    scoring: scoringFields,
    sources: (set.registered_sources ?? []).map((s) => ({
      id: s.id,
      url: optionalText(s.url),
      tier: optionalText(s.tier),
      grade: optionalText(s.grade),
    })),
    scenarios: set.scenarios.map((s): ScenarioView => {
      const obj = s as Record<string, unknown>;
      return {
        id: s.id,
        type: optionalText(obj.type),
        difficulty: optionalText(obj.difficulty),
        input: optionalText(obj.input),
        trap: optionalText(obj.trap),
        expected: fieldsOf(obj.expected_deliverable),
        criteria: s.criteria.map((c): CriterionView => {
          const co = c as Record<string, unknown>;
          return {
            id: c.id,
            track: c.track,
            dim: c.dim,
            text: c.text,
            check: c.check,
            points: c.points,
            evidence: optionalText(co.evidence),
            source: optionalText(co.source),
            rationale: optionalText(co.rationale),
          };
        }),
        extra: extraFields(obj, SCENARIO_FIELDS),
      };
    }),
  };
}
