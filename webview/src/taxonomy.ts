// The six root causes of SearchAuditBench (Appendix A, "Category definitions" and
// "Boundary summary"), shown in the annotation panel. Order follows ROOT_CAUSE_IDS, which is
// also the order of the 1–6 shortcuts.
import { ROOT_CAUSE_IDS, type RootCauseId } from '../../src/shared/protocol';

export interface RootCauseInfo {
  id: RootCauseId;
  label: string;
  /** One-line criterion applied at annotation time (first sentence of the definition). */
  criterion: string;
  /** The full Appendix A definition. */
  definition: string;
}

const INFO: Record<RootCauseId, { label: string; definition: string }> = {
  candidate_mismanagement: {
    label: 'Candidate Mismanagement',
    definition:
      'The agent fails to maintain, compare, or update candidate answers correctly after candidates or candidate-relevant evidence have entered the trajectory. ' +
      'Typical cases include prematurely locking onto a candidate that matches only a salient subset of the clues, discarding a still-viable candidate without adequate comparison, failing to compare multiple candidates systematically, failing to update the answer after stronger evidence appears, and searching extensively without converting accumulated evidence into a candidate decision. ' +
      'The defining failure concerns the state and comparison of the candidate set; if the decisive candidate or evidence path never appears because it was never searched, the label is Search Coverage Gap instead.',
  },
  search_coverage_gap: {
    label: 'Search Coverage Gap',
    definition:
      'The agent does not search for or inspect a key evidence path needed to solve the problem. ' +
      'Typical cases include an overly narrow search direction, failure to explore obvious candidates, failure to inspect a key data source, omission of a key evidence table or official source, never seeking the evidence that a decisive query constraint requires, and terminating before the relevant portion of the search space is examined. ' +
      'The defining property is the absence of the necessary evidence from the trajectory; if the source or candidate was found but subsequently mishandled, a source- or candidate-related category applies instead.',
  },
  constraint_neglect: {
    label: 'Constraint Neglect',
    definition:
      'The agent accepts a candidate that does not satisfy a hard query constraint. ' +
      'Typical cases include ignoring a known contradiction, relaxing an explicit condition, treating a mismatch as acceptable, and rationalizing contradictory evidence so that the preferred candidate can be retained. ' +
      'A failed constraint alone is not sufficient for this label: if the information needed to evaluate the constraint was never retrieved, the cause is normally Search Coverage Gap; if that information was attached to the wrong entity or relation, it is Entity–Relation Misbinding.',
  },
  unverified_source_reliance: {
    label: 'Unverified Source Reliance',
    definition:
      'The agent finds an apparently relevant source but does not verify source reliability or original content before relying on it. ' +
      'Typical cases include trusting snippets or titles as conclusive, relying on a secondary or low-quality source where primary evidence is required, accepting a claim from an inaccessible page, and committing to a candidate without opening the underlying primary source. ' +
      'The defining failure is insufficient verification of a source that was found, rather than the absence of a relevant search path.',
  },
  entity_relation_misbinding: {
    label: 'Entity–Relation Misbinding',
    definition:
      'The agent finds relevant facts but binds them to the wrong entity, relation, role, time, work, person, organization, or answer slot. ' +
      'Typical cases include conflating same-name entities, transferring an attribute from one person or organization to another, reversing a relation, and combining facts drawn from different candidate chains. ' +
      'The core problem is that the fact, possibly correct in itself, was attached to the wrong target rather than that no fact was found: the needed information is present, which separates this category from Search Coverage Gap, and source reliability is not the central problem, which separates it from Unverified Source Reliance.',
  },
  unsupported_answer: {
    label: 'Unsupported Answer',
    definition:
      'The final answer lacks support from the trajectory evidence, and no more specific search coverage, source verification, candidate management, constraint neglect, or entity–relation binding failure explains it. ' +
      'Typical cases include guessing, memory-based completion, asserting a value not extracted from any inspected source, and extracting an answer from partial observations without an evidence chain. ' +
      'It is a residual category rather than a default label, assigned only after the other five mechanisms have been ruled out.',
  },
};

export const ROOT_CAUSES: RootCauseInfo[] = ROOT_CAUSE_IDS.map((id) => {
  const { label, definition } = INFO[id];
  const criterion = definition.slice(0, definition.indexOf('. ') + 1);
  return { id, label, criterion, definition };
});

export const BOUNDARY_SUMMARY =
  'Applied at the critical step, the categories are separated by the state of the decisive evidence. ' +
  'If it was never sought or inspected, the failure is a Search Coverage Gap; if it was found but not verified, Unverified Source Reliance; ' +
  'if candidates were surfaced but improperly maintained or compared, Candidate Mismanagement; ' +
  'if an explicit hard-constraint mismatch was available yet accepted or rationalized, Constraint Neglect; ' +
  'if a relevant fact was attached to the wrong target, Entity–Relation Misbinding. ' +
  'Only when none of these earlier mechanisms accounts for the failure do we assign Unsupported Answer.';

/** Labeling policy (Appendix A) and the critical-step rule (§3.2–3.3), shown as a reminder. */
export const LABELING_POLICY = [
  'Critical step: the earliest decision step at which the failure mechanism becomes established, so that correcting it would make a correct final answer attainable. Tool returns are never candidate steps.',
  'Tolerance span: the smallest contiguous window whose decision steps are all acceptable localizations; it contains the critical step and both ends are decision steps.',
  'When problematic evidence first appears in a tool return, label the decision step that issued the call if the call itself was erroneous, otherwise the first decision step that misinterpreted or misused the evidence.',
  'One primary root cause: the earliest, most direct mechanism; downstream symptoms never override an earlier causal error.',
  'Repair rubrics: three to five atomic, case-specific, process-level requirements.',
];

const BY_ID = new Map<string, RootCauseInfo>(ROOT_CAUSES.map((r) => [r.id, r]));

/** Human label of a root-cause id; unknown ids (e.g. from other taxonomies) are shown as given. */
export function rootCauseLabel(id: string | null | undefined): string {
  if (!id) return '—';
  return BY_ID.get(id)?.label ?? id;
}

/** Soft-hyphen points in the labels' long words, for narrow columns (no hyphenation dictionary here). */
const BREAKS: Record<string, string> = {
  Mismanagement: 'Mis\u00admanage\u00adment',
  Misbinding: 'Mis\u00adbinding',
  Unverified: 'Un\u00adveri\u00adfied',
  Unsupported: 'Un\u00adsup\u00adport\u00aded',
  Constraint: 'Con\u00adstraint',
  Candidate: 'Candi\u00addate',
};

/** rootCauseLabel with soft hyphens, so a narrow table cell breaks "Mis-management", not "Mismanagem-ent". */
export function rootCauseLabelHyphenated(id: string | null | undefined): string {
  return rootCauseLabel(id).replace(/[A-Za-z]{9,}/g, (word) => BREAKS[word] ?? word);
}

export function rootCauseInfo(id: string | null | undefined): RootCauseInfo | undefined {
  return id ? BY_ID.get(id) : undefined;
}

/** Normalizes labels such as "Search Coverage Gap" or "search-coverage-gap" to an id. */
export function normalizeRootCause(value: string | null | undefined): string | null {
  if (!value) return null;
  const key = value.trim().toLowerCase().replace(/[–—-]/g, '_').replace(/\s+/g, '_');
  for (const r of ROOT_CAUSES) if (r.id === key || r.label.toLowerCase().replace(/[–—-]/g, '_').replace(/\s+/g, '_') === key) return r.id;
  return value;
}
