// The six-way root-cause taxonomy of SearchAuditBench (seed 002, Appendix A).
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
  const key = value.trim().toLowerCase().replace(/[^a-z]+/g, '_').replace(/^_|_$/g, '');
  return (ROOT_CAUSES as readonly string[]).includes(key) ? (key as RootCause) : undefined;
}
