// Scenario-set scoring (seed 003 `meta.scoring`; docs/metrics.md §4). Pure. Scores 0..100.
import type { ScenarioSet } from '../items/schemas';
import { meanOrNull } from './stats';

export const A_MEAN_GATE = 90;
export const B_GATE = 85;

export interface ScenarioResult {
  /** Criterion id → hit. A criterion without a result counts as not hit (listed in `missing`). */
  criteria: Record<string, boolean>;
  silent_citations?: number;
  /** Criteria the mechanical checks failed (checkDeliverable), with why; they are also in `criteria` as false. */
  mechanical?: MechanicalFailure[];
  /** The silent citations the mechanical checks found (counted in silent_citations). */
  silent?: string[];
}

export interface ScenarioWeights {
  dimensions?: Record<string, number>;
  /** Track-B evidence weights (E1…E5): multiply the points of non-veto B criteria; an unlisted E keeps weight 1. */
  evidence?: Record<string, number>;
}

export interface ScenarioScore {
  kind: 'scenarios';
  /** a / b: null when the scenario has no criteria on that track or no results line. */
  scenarios: Record<string, { a: number | null; b: number | null; veto_failed: boolean }>;
  dimensions: Record<string, number>;
  a_total: number | null;
  a_mean: number | null;
  gate: { passed: boolean; reasons: string[] };
  weights: { source: 'file' | 'default-equal'; dimensions: Record<string, number>; note: string };
  /** Criteria with no result, per scenario (counted as not hit). */
  missing: Record<string, string[]>;
  /** Scenarios with no results line (not scored; they fail the gate). */
  unscored: string[];
  silent_citations: number;
  /** Per scenario: the criteria its deliverable failed mechanically, each with the citation that failed it. */
  mechanical: Record<string, MechanicalFailure[]>;
}

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2));

export function scoreScenarios(set: ScenarioSet, results: ReadonlyMap<string, ScenarioResult>, weights: ScenarioWeights = {}): ScenarioScore {
  const scenarios: ScenarioScore['scenarios'] = {};
  const missing: Record<string, string[]> = {};
  const unscored: string[] = [];
  const dimHit = new Map<string, number>();
  const dimAll = new Map<string, number>();
  const reasons: string[] = [];
  const mechanical: Record<string, MechanicalFailure[]> = {};
  const silentNamed: string[] = [];
  let silent = 0;
  for (const scenario of set.scenarios) {
    const result = results.get(scenario.id);
    if (!result) {
      unscored.push(scenario.id);
      scenarios[scenario.id] = { a: null, b: null, veto_failed: false };
      continue;
    }
    silent += result.silent_citations ?? 0;
    if (result.mechanical?.length) mechanical[scenario.id] = result.mechanical;
    for (const c of result.silent ?? []) silentNamed.push(`${scenario.id}: ${c}`);
    const hit = (id: string) => result.criteria[id] === true;
    const absent = scenario.criteria.filter((c) => typeof result.criteria[c.id] !== 'boolean').map((c) => c.id);
    if (absent.length) missing[scenario.id] = absent;

    const aCriteria = scenario.criteria.filter((c) => c.track === 'A' && typeof c.points === 'number');
    const aTotal = aCriteria.reduce((s, c) => s + (c.points as number), 0);
    const aHit = aCriteria.filter((c) => hit(c.id)).reduce((s, c) => s + (c.points as number), 0);
    for (const c of aCriteria) {
      dimAll.set(c.dim, (dimAll.get(c.dim) ?? 0) + (c.points as number));
      dimHit.set(c.dim, (dimHit.get(c.dim) ?? 0) + (hit(c.id) ? (c.points as number) : 0));
    }

    const vetoes = scenario.criteria.filter((c) => c.points === 'veto');
    const vetoFailed = vetoes.some((c) => !hit(c.id));
    const bCriteria = scenario.criteria.filter((c) => c.track === 'B' && typeof c.points === 'number');
    const w = (dim: string) => weights.evidence?.[dim] ?? 1;
    const bTotal = bCriteria.reduce((s, c) => s + (c.points as number) * w(c.dim), 0);
    const bHit = bCriteria.filter((c) => hit(c.id)).reduce((s, c) => s + (c.points as number) * w(c.dim), 0);
    let b: number | null;
    if (vetoFailed) b = 0;
    else if (bCriteria.length === 0) b = vetoes.length > 0 ? 100 : null;
    else b = bTotal === 0 ? 0 : (100 * bHit) / bTotal;

    scenarios[scenario.id] = { a: aTotal === 0 ? null : (100 * aHit) / aTotal, b, veto_failed: vetoFailed };
  }

  const dimensions: Record<string, number> = {};
  for (const dim of [...dimAll.keys()].sort()) {
    const all = dimAll.get(dim) as number;
    dimensions[dim] = all === 0 ? 0 : (100 * (dimHit.get(dim) as number)) / all;
  }
  const present = Object.keys(dimensions);
  let weightInfo: ScenarioScore['weights'];
  if (weights.dimensions && Object.keys(weights.dimensions).length > 0) {
    const used = Object.fromEntries(present.map((d) => [d, weights.dimensions?.[d] ?? 0]));
    const sum = Object.values(used).reduce((s, x) => s + x, 0);
    const unlisted = present.filter((d) => weights.dimensions?.[d] === undefined);
    weightInfo = {
      source: 'file',
      dimensions: used,
      note: `dimension weights from the weights file${unlisted.length ? `; ${unlisted.join(', ')} not listed (weight 0)` : ''}${Math.abs(sum - 1) > 1e-9 ? `; weights sum to ${fmt(sum)}, not 1` : ''}`,
    };
  } else {
    weightInfo = {
      source: 'default-equal',
      dimensions: Object.fromEntries(present.map((d) => [d, 1 / present.length])),
      note: `no weights file: equal weights (1/${present.length}) over the ${present.length} dimensions present (${present.join(', ')})`,
    };
  }
  const aTotal = present.length === 0 ? null : present.reduce((s, d) => s + dimensions[d] * weightInfo.dimensions[d], 0);
  const aScores = Object.values(scenarios)
    .map((s) => s.a)
    .filter((a): a is number => a !== null);
  const aMean = meanOrNull(aScores);

  if (aMean === null) reasons.push('a_mean unavailable: no scenario has track-A results');
  else if (aMean < A_MEAN_GATE) reasons.push(`a_mean ${fmt(aMean)} < ${A_MEAN_GATE}`);
  for (const id of unscored) reasons.push(`${id}: no results line`);
  for (const [id, s] of Object.entries(scenarios)) {
    if (s.b !== null && s.b < B_GATE) reasons.push(`${id}: B ${fmt(s.b)} < ${B_GATE}${s.veto_failed ? ' (E4 veto failed)' : ''}`);
  }
  for (const [id, list] of Object.entries(mechanical)) for (const f of list) reasons.push(`${id}: ${f.criterion} failed: ${f.reason}`);
  if (silent !== 0) reasons.push(`silent_citations total ${silent} ≠ 0${silentNamed.length ? ` (${silentNamed.join('; ')})` : ''}`);

  return {
    kind: 'scenarios',
    scenarios,
    dimensions,
    a_total: aTotal,
    a_mean: aMean,
    gate: { passed: reasons.length === 0, reasons },
    weights: weightInfo,
    missing,
    unscored,
    silent_citations: silent,
    mechanical,
  };
}

// ---- Mechanical checks of a deliverable against the set's registered sources (seed 003 meta) ----
//
// A citation is a URL (http/https) or a source id (`S<n>`, as the set's registered_sources name
// them) in the deliverable. A URL is registered when it is, after normalization (scheme, `www.`,
// host case, a trailing slash and the fragment ignored), the URL of a registered source that
// `meta.registered_sources_allowed` allows (all registered sources when it is absent).
// - Zero fabrication (the E4 criteria): an unregistered URL or an unknown source id fails them,
//   unless its line flags it as not verified (blocked / unverified / 未复检 …): recording a blocked
//   source is what the set asks for, citing it as usable is fabrication.
// - Silent citations: each such unflagged unregistered citation is one (the gate wants zero).
// - Evidence grades (`meta.evidence_grading`, "no cross-grade citation"): a line that labels a
//   grade (`A 级`, `grade B`, `证据级别 C`, `[B级]`) and cites a registered source of another grade,
//   or labels A or B while citing an unregistered URL, fails the E3 criteria (no laundering).
// Only failures are decided here; a criterion with no mechanical failure stays for the marks in
// results.jsonl or the criterion judge.

export interface MechanicalFailure {
  criterion: string;
  reason: string;
}

export interface DeliverableCheck {
  failures: MechanicalFailure[];
  /** Unflagged citations of unregistered URLs and unknown source ids. */
  silentCitations: string[];
}

interface RegisteredSource {
  id: string;
  url?: string;
  grade?: string;
}

const URL_PATTERN = /https?:\/\/[^\s<>"'`()[\]{}，。；、）》」』]+/giu;
const SOURCE_ID_PATTERN = /(?<![A-Za-z0-9_])S(\d{1,3})(?![A-Za-z0-9_])/g;
const UNVERIFIED_FLAG =
  /blocked|unverified|not verified|unreachable|inaccessible|\b40[134]\b|timed? ?out|未复检|未验证|未核实|存疑|不可达|无信源|无法访问|D ?级/iu;
const GRADE_LABEL = /(?:证据级别|证据等级|evidence grade|grade|级别)\s*[:：为]?\s*([ABCD])(?![A-Za-z])|(?<![A-Za-z])([ABCD])\s*级/giu;

/** `https://www.Example.com/a/#x` → `example.com/a`: the form registered URLs are compared in. */
export function normalizeUrl(url: string): string {
  const trimmed = url.replace(/[.,;:!?]+$/u, '');
  try {
    const u = new URL(trimmed);
    const host = u.hostname.toLowerCase().replace(/^www\./, '');
    const path = u.pathname.replace(/\/+$/, '');
    return `${host}${path}${u.search}`;
  } catch {
    return trimmed.toLowerCase();
  }
}

function hostOf(url: string): string {
  return normalizeUrl(url).split('/')[0];
}

function registeredSources(set: ScenarioSet): RegisteredSource[] {
  const meta = set.meta as { registered_sources_allowed?: unknown };
  const allowed = Array.isArray(meta.registered_sources_allowed) ? new Set(meta.registered_sources_allowed.map(String)) : undefined;
  return (set.registered_sources ?? [])
    .map((s) => ({ id: s.id, url: typeof s.url === 'string' ? s.url : undefined, grade: typeof s.grade === 'string' ? s.grade : undefined }))
    .filter((s) => !allowed || allowed.has(s.id));
}

interface Citation {
  text: string;
  line: string;
  source?: RegisteredSource;
  /** Why an unregistered citation is not registered, e.g. "domain openai.com is not registered". */
  unregistered?: string;
}

function citationsOf(deliverable: string, sources: readonly RegisteredSource[]): Citation[] {
  const byUrl = new Map(sources.filter((s) => s.url).map((s) => [normalizeUrl(s.url as string), s]));
  const byId = new Map(sources.map((s) => [s.id, s]));
  const hosts = new Set(sources.filter((s) => s.url).map((s) => hostOf(s.url as string)));
  const out: Citation[] = [];
  for (const line of deliverable.split(/\r?\n/)) {
    for (const m of line.matchAll(URL_PATTERN)) {
      const url = m[0].replace(/[.,;:!?]+$/u, '');
      const source = byUrl.get(normalizeUrl(url));
      out.push(
        source
          ? { text: url, line, source }
          : {
              text: url,
              line,
              unregistered: hosts.has(hostOf(url)) ? 'a page of a registered domain that is not itself registered' : `domain ${hostOf(url)} is not registered`,
            },
      );
    }
    // Source ids only when the set names its sources S<n>; a URL's path is not searched for ids.
    const withoutUrls = line.replace(URL_PATTERN, ' ');
    if (sources.some((s) => /^S\d+$/.test(s.id))) {
      for (const m of withoutUrls.matchAll(SOURCE_ID_PATTERN)) {
        const source = byId.get(m[0]);
        out.push(source ? { text: m[0], line, source } : { text: m[0], line, unregistered: 'no registered source has this id' });
      }
    }
  }
  return out;
}

function gradeLabels(line: string): string[] {
  return [...line.matchAll(GRADE_LABEL)].map((m) => (m[1] ?? m[2]).toUpperCase());
}

/** The mechanical verdicts of one scenario's deliverable (see above). */
export function checkDeliverable(set: ScenarioSet, scenario: ScenarioSet['scenarios'][number], deliverable: string): DeliverableCheck {
  const citations = citationsOf(deliverable, registeredSources(set));
  const fabricated = citations.filter((c) => c.unregistered && !UNVERIFIED_FLAG.test(c.line));
  const unique = (list: string[]) => [...new Set(list)];
  const fabricationReasons = unique(fabricated.map((c) => `cites ${c.text}, not a registered source (${c.unregistered})`));
  const laundering: string[] = [];
  for (const c of citations) {
    for (const grade of gradeLabels(c.line)) {
      if (c.source?.grade && grade !== c.source.grade)
        laundering.push(`labels ${c.text} grade ${grade}, but ${c.source.id} is registered as grade ${c.source.grade}`);
      else if (c.unregistered && (grade === 'A' || grade === 'B')) laundering.push(`labels ${c.text} grade ${grade}, but it is not a registered source`);
    }
  }
  const failures: MechanicalFailure[] = [];
  for (const c of scenario.criteria) {
    if (c.check !== 'mechanical') continue;
    const reasons = c.dim === 'E4' ? fabricationReasons : c.dim === 'E3' ? unique(laundering) : [];
    if (reasons.length) failures.push({ criterion: c.id, reason: reasons.join('; ') });
  }
  return { failures, silentCitations: unique(fabricated.map((c) => c.text)) };
}
