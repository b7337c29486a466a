// The six-way root-cause taxonomy of SearchAuditBench (seed 002, Appendix A): ids, labels,
// definitions, the boundary summary and the labeling policy. Pure data: the webview bundles it.
export const ROOT_CAUSES = [
  'candidate_mismanagement',
  'search_coverage_gap',
  'constraint_neglect',
  'unverified_source_reliance',
  'entity_relation_misbinding',
  'unsupported_answer',
] as const;

export type RootCause = (typeof ROOT_CAUSES)[number];

export const ROOT_CAUSE_LABELS: Record<RootCause, string> = {
  candidate_mismanagement: 'Candidate Mismanagement',
  search_coverage_gap: 'Search Coverage Gap',
  constraint_neglect: 'Constraint Neglect',
  unverified_source_reliance: 'Unverified Source Reliance',
  entity_relation_misbinding: 'Entity–Relation Misbinding',
  unsupported_answer: 'Unsupported Answer',
};

/** Accepts ids and display names in any case, with any dash, space or underscore between words. */
export function normalizeRootCause(value: unknown): RootCause | undefined {
  if (typeof value !== 'string') return undefined;
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[^a-z]+/g, '_')
    .replace(/^_|_$/g, '');
  return (ROOT_CAUSES as readonly string[]).includes(key) ? (key as RootCause) : undefined;
}

/** The Appendix A definition of each root cause ("Category definitions"). */
export const ROOT_CAUSE_DEFINITIONS: Record<RootCause, string> = {
  candidate_mismanagement:
    'The agent fails to maintain, compare, or update candidate answers correctly after candidates or candidate-relevant evidence have entered the trajectory. ' +
    'Typical cases include prematurely locking onto a candidate that matches only a salient subset of the clues, discarding a still-viable candidate without adequate comparison, failing to compare multiple candidates systematically, failing to update the answer after stronger evidence appears, and searching extensively without converting accumulated evidence into a candidate decision. ' +
    'The defining failure concerns the state and comparison of the candidate set; if the decisive candidate or evidence path never appears because it was never searched, the label is Search Coverage Gap instead.',
  search_coverage_gap:
    'The agent does not search for or inspect a key evidence path needed to solve the problem. ' +
    'Typical cases include an overly narrow search direction, failure to explore obvious candidates, failure to inspect a key data source, omission of a key evidence table or official source, never seeking the evidence that a decisive query constraint requires, and terminating before the relevant portion of the search space is examined. ' +
    'The defining property is the absence of the necessary evidence from the trajectory; if the source or candidate was found but subsequently mishandled, a source- or candidate-related category applies instead.',
  constraint_neglect:
    'The agent accepts a candidate that does not satisfy a hard query constraint. ' +
    'Typical cases include ignoring a known contradiction, relaxing an explicit condition, treating a mismatch as acceptable, and rationalizing contradictory evidence so that the preferred candidate can be retained. ' +
    'A failed constraint alone is not sufficient for this label: if the information needed to evaluate the constraint was never retrieved, the cause is normally Search Coverage Gap; if that information was attached to the wrong entity or relation, it is Entity–Relation Misbinding.',
  unverified_source_reliance:
    'The agent finds an apparently relevant source but does not verify source reliability or original content before relying on it. ' +
    'Typical cases include trusting snippets or titles as conclusive, relying on a secondary or low-quality source where primary evidence is required, accepting a claim from an inaccessible page, and committing to a candidate without opening the underlying primary source. ' +
    'The defining failure is insufficient verification of a source that was found, rather than the absence of a relevant search path.',
  entity_relation_misbinding:
    'The agent finds relevant facts but binds them to the wrong entity, relation, role, time, work, person, organization, or answer slot. ' +
    'Typical cases include conflating same-name entities, transferring an attribute from one person or organization to another, reversing a relation, and combining facts drawn from different candidate chains. ' +
    'The core problem is that the fact, possibly correct in itself, was attached to the wrong target rather than that no fact was found: the needed information is present, which separates this category from Search Coverage Gap, and source reliability is not the central problem, which separates it from Unverified Source Reliance.',
  unsupported_answer:
    'The final answer lacks support from the trajectory evidence, and no more specific search coverage, source verification, candidate management, constraint neglect, or entity–relation binding failure explains it. ' +
    'Typical cases include guessing, memory-based completion, asserting a value not extracted from any inspected source, and extracting an answer from partial observations without an evidence chain. ' +
    'It is a residual category rather than a default label, assigned only after the other five mechanisms have been ruled out.',
};

/** The criterion applied at annotation time: the first sentence of the definition. */
export function rootCauseCriterion(id: RootCause): string {
  const definition = ROOT_CAUSE_DEFINITIONS[id];
  return definition.slice(0, definition.indexOf('. ') + 1);
}

/** Appendix A, "Boundary summary". */
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
