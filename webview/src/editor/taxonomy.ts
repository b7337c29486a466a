// The six root causes of SearchAuditBench as the annotation and audit panels show them. The
// ids, labels, definitions and normalization are the core's (src/core/model/rootCauses.ts);
// this file only arranges them for display. Order follows ROOT_CAUSES, which is also the order
// of the 1–6 shortcuts.
import {
  normalizeRootCause,
  ROOT_CAUSE_DEFINITIONS,
  ROOT_CAUSE_LABELS,
  ROOT_CAUSES as ROOT_CAUSE_IDS,
  rootCauseCriterion,
  type RootCause,
} from '../../../src/core/model/rootCauses';

export { BOUNDARY_SUMMARY, LABELING_POLICY } from '../../../src/core/model/rootCauses';

export interface RootCauseInfo {
  id: RootCause;
  label: string;
  /** One-line criterion applied at annotation time (first sentence of the definition). */
  criterion: string;
  /** The full Appendix A definition. */
  definition: string;
}

export const ROOT_CAUSES: RootCauseInfo[] = ROOT_CAUSE_IDS.map((id) => ({
  id,
  label: ROOT_CAUSE_LABELS[id],
  criterion: rootCauseCriterion(id),
  definition: ROOT_CAUSE_DEFINITIONS[id],
}));

const BY_ID = new Map<string, RootCauseInfo>(ROOT_CAUSES.map((r) => [r.id, r]));

/** Human label of a root cause given as id or display name; unknown values (e.g. from other taxonomies) are shown as given. */
export function rootCauseLabel(value: string | null | undefined): string {
  if (!value) return '—';
  const id = normalizeRootCause(value);
  return id ? ROOT_CAUSE_LABELS[id] : value;
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

/** The taxonomy entry of an id as stored (the sidecar schema normalizes names to ids). */
export function rootCauseInfo(id: string | null | undefined): RootCauseInfo | undefined {
  return id ? BY_ID.get(id) : undefined;
}
