// Delegation outputs (seed 000, settings I `full` and II `search`). Pure.
//
// Definitions (the product's; the seed defines none; documented in docs/metrics.md §5):
// - golden_citation_recall: mean over outputs of |cited ∩ golden| / |golden|.
// - distractor_citation_rate: cited distractor documents / distractor documents shown, summed
//   over outputs (a document-level rate); outputs_citing_distractor: share of outputs that cite
//   at least one distractor.
// - irrelevant_citation_rate: cited irrelevant documents / irrelevant documents, summed over outputs.
// - withheld_recovery (setting `search`): cited withheld golden documents / withheld golden
//   documents, over outputs whose line lists `withheld_doc_ids` — the only way a withheld
//   document can be cited is by finding it with a search.
// - searches_mean: mean `searches` over outputs that report it.
// - answer_accuracy: share of outputs judged correct (judge: `exact` by default).
// Each figure is also given by setting, order, and the item's mode, language and domain.
// Rates with an empty denominator are null.
import type { DelegationItem } from '../items/schemas';
import { meanOrNull } from './stats';

export interface DelegationOutput {
  id: string;
  setting: string;
  order?: string;
  answer: string;
  cited: string[];
  searches?: number;
  withheld?: string[];
  /** Judged answer correctness; undefined when not judged. */
  correct?: boolean;
}

export interface DelegationGroup {
  n: number;
  golden_citation_recall: number | null;
  distractor_citation_rate: number | null;
  outputs_citing_distractor: number | null;
  irrelevant_citation_rate: number | null;
  withheld_recovery: number | null;
  searches_mean: number | null;
  answer_accuracy: number | null;
}

export interface DelegationScore {
  kind: 'delegation';
  n: number;
  metrics: Omit<DelegationGroup, 'n'>;
  by_setting: Record<string, DelegationGroup>;
  by_order: Record<string, DelegationGroup>;
  /** By the item's optional `mode`, `language` and `domain` fields (seed 000); `(unspecified)` when absent. */
  by_mode: Record<string, DelegationGroup>;
  by_language: Record<string, DelegationGroup>;
  by_domain: Record<string, DelegationGroup>;
  by_distractor_type: Record<string, { documents: number; cited: number; rate: number | null }>;
  /** Cited ids that are none of the item's documents (e.g. unmapped run-local ids such as rs1). */
  unknown_citations: number;
}

const ids = (docs: readonly { doc_id: string }[]) => new Set(docs.map((d) => d.doc_id));

function group(outputs: readonly DelegationOutput[], items: ReadonlyMap<string, DelegationItem>): DelegationGroup {
  const recalls: number[] = [];
  let dShown = 0,
    dCited = 0,
    iShown = 0,
    iCited = 0,
    wShown = 0,
    wCited = 0,
    withDistractors = 0,
    citingDistractor = 0;
  const searches: number[] = [];
  const judged: boolean[] = [];
  for (const o of outputs) {
    const item = items.get(o.id) as DelegationItem;
    const cited = new Set(o.cited);
    const golden = ids(item.golden_docs);
    if (golden.size > 0) recalls.push([...golden].filter((d) => cited.has(d)).length / golden.size);
    const distractors = ids(item.distractor_docs);
    if (distractors.size > 0) {
      withDistractors++;
      const c = [...distractors].filter((d) => cited.has(d)).length;
      dShown += distractors.size;
      dCited += c;
      if (c > 0) citingDistractor++;
    }
    const irrelevant = ids(item.irrelevant_docs);
    iShown += irrelevant.size;
    iCited += [...irrelevant].filter((d) => cited.has(d)).length;
    if (o.setting === 'search' && o.withheld?.length) {
      wShown += o.withheld.length;
      wCited += o.withheld.filter((d) => cited.has(d)).length;
    }
    if (o.searches !== undefined) searches.push(o.searches);
    if (o.correct !== undefined) judged.push(o.correct);
  }
  const rate = (a: number, b: number) => (b === 0 ? null : a / b);
  return {
    n: outputs.length,
    golden_citation_recall: meanOrNull(recalls),
    distractor_citation_rate: rate(dCited, dShown),
    outputs_citing_distractor: rate(citingDistractor, withDistractors),
    irrelevant_citation_rate: rate(iCited, iShown),
    withheld_recovery: rate(wCited, wShown),
    searches_mean: meanOrNull(searches),
    answer_accuracy: rate(judged.filter(Boolean).length, judged.length),
  };
}

function by(
  outputs: readonly DelegationOutput[],
  key: (o: DelegationOutput) => string,
  items: ReadonlyMap<string, DelegationItem>,
): Record<string, DelegationGroup> {
  const groups = new Map<string, DelegationOutput[]>();
  for (const o of outputs) {
    const k = key(o);
    groups.set(k, [...(groups.get(k) ?? []), o]);
  }
  return Object.fromEntries([...groups.keys()].sort().map((k) => [k, group(groups.get(k) as DelegationOutput[], items)]));
}

/** An item's `mode` / `language` / `domain` as a group name. */
function itemField(items: ReadonlyMap<string, DelegationItem>, field: 'mode' | 'language' | 'domain'): (o: DelegationOutput) => string {
  return (o) => {
    const value = (items.get(o.id) as Record<string, unknown> | undefined)?.[field];
    return typeof value === 'string' && value.trim() ? value.trim() : '(unspecified)';
  };
}

export function scoreDelegation(outputs: readonly DelegationOutput[], items: ReadonlyMap<string, DelegationItem>): DelegationScore {
  const { n, ...metrics } = group(outputs, items);
  const byType = new Map<string, { documents: number; cited: number }>();
  let unknown = 0;
  for (const o of outputs) {
    const item = items.get(o.id) as DelegationItem;
    const cited = new Set(o.cited);
    for (const d of item.distractor_docs) {
      const t = d.distractor_type ?? '(untyped)';
      const entry = byType.get(t) ?? { documents: 0, cited: 0 };
      entry.documents++;
      if (cited.has(d.doc_id)) entry.cited++;
      byType.set(t, entry);
    }
    const known = new Set([...item.golden_docs, ...item.irrelevant_docs, ...item.distractor_docs].map((d) => d.doc_id));
    unknown += [...cited].filter((c) => !known.has(c)).length;
  }
  return {
    kind: 'delegation',
    n,
    metrics,
    by_setting: by(outputs, (o) => o.setting, items),
    by_order: by(outputs, (o) => o.order ?? '(unspecified)', items),
    by_mode: by(outputs, itemField(items, 'mode'), items),
    by_language: by(outputs, itemField(items, 'language'), items),
    by_domain: by(outputs, itemField(items, 'domain'), items),
    by_distractor_type: Object.fromEntries(
      [...byType.keys()].sort().map((t) => {
        const e = byType.get(t) as { documents: number; cited: number };
        return [t, { ...e, rate: e.documents === 0 ? null : e.cited / e.documents }];
      }),
    ),
    unknown_citations: unknown,
  };
}
