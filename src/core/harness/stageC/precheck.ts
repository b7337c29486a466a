// Stage-C deterministic pre-checks of a Delegation item (seed 000): what can be checked without a
// model. Every finding names the JSON path it is about (and, inside a string, the span), so the
// editor can put it on the right place of the item file.
//
// - shortcut_leakage (C2 "shortcut cues"; Stage A "avoid copying answer tokens, exact result
//   values, or source-identifying clues into the query"): the golden answer, one of its numeric
//   values, or all content words of a short answer appear in the query; a golden document's title
//   or URL in the query; a long run of words copied from an evidence span.
// - distractor_structure (Stage B validity constraints 1 and 4): target_info_point present and
//   anchored (source_doc_key is a golden document, target_evidence_text is found in it, the point
//   shares words with the query / answer / evidence), conflict_hint and discriminating_constraint present.
// - self_reference (Stage B constraint 5): phrases such as "synthetic document" or "test sample"
//   in any model-visible field.
// - doc_ids: ids that reveal the document group (the harness renames them run-locally in setting I).
// - duplicate_doc_id, evidence_span: bookkeeping that would make citations or C1 unauditable.
import type { JsonPath } from '../../input/jsonText';
import type { DelegationItem } from '../../items/schemas';
import { idsRevealGroups, itemPool } from '../delegation/docs';
import { contentTokens, hasCjk, normalizeText } from '../text';

export type PrecheckCode = 'shortcut_leakage' | 'distractor_structure' | 'self_reference' | 'doc_ids' | 'duplicate_doc_id' | 'evidence_span';

export interface PrecheckFinding {
  check: PrecheckCode;
  severity: 'error' | 'warning';
  message: string;
  /** JSON path from the item's root. */
  path: JsonPath;
  /** [start, end) in the decoded string at `path`, when the finding is about part of a string. */
  span?: [number, number];
  docId?: string;
}

/** Whether findings reject the item (any error). */
export const precheckPassed = (findings: readonly PrecheckFinding[]): boolean => !findings.some((f) => f.severity === 'error');

const text = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'string' ? v : typeof v === 'number' ? String(v) : JSON.stringify(v));
const blank = (v: unknown): boolean => text(v).trim() === '';

/** Case-insensitive (NFKC) search that returns indices in the original string (NFKC can change lengths; then the match is approximate). */
function findInsensitive(haystack: string, needle: string): [number, number] | undefined {
  if (!needle) return undefined;
  const i = haystack.toLowerCase().indexOf(needle.toLowerCase());
  if (i !== -1) return [i, i + needle.length];
  const j = normalizeText(haystack).indexOf(normalizeText(needle));
  return j === -1 ? undefined : [j, Math.min(haystack.length, j + needle.length)];
}

function squash(s: string): string {
  return normalizeText(s).replace(/\s+/g, ' ').trim();
}

const NUMBER = /\d+(?:[.,]\d+)*/g;
const isYear = (n: string) => /^(1[5-9]|20|21)\d{2}$/.test(n);

function findNumber(query: string, value: string): [number, number] | undefined {
  const escaped = value.replace(/[.,]/g, (c) => `\\${c}`);
  const m = new RegExp(`(?<![\\d.,])${escaped}(?![\\d]|[.,]\\d)`).exec(query);
  return m ? [m.index, m.index + m[0].length] : undefined;
}

function shortcutFindings(item: DelegationItem): PrecheckFinding[] {
  const out: PrecheckFinding[] = [];
  const query = item.query;
  const answers = (Array.isArray(item.golden_answer) ? item.golden_answer : [item.golden_answer]).map(String);
  for (const answer of answers) {
    const core = answer.trim().replace(/[.。!！]+$/u, '');
    const minLength = hasCjk(core) ? 2 : 3;
    const whole = core.length >= minLength ? findInsensitive(query, core) : undefined;
    if (whole) {
      out.push({
        check: 'shortcut_leakage',
        severity: 'error',
        message: `the query contains the golden answer "${core}" (answer tokens copied into the query)`,
        path: ['query'],
        span: whole,
      });
      continue;
    }
    const answerTokens = contentTokens(core);
    const short = answerTokens.length <= 4;
    const numbers = [...new Set(core.match(NUMBER) ?? [])];
    const onlyYear = numbers.length === 1 && isYear(numbers[0]) && answerTokens.length <= 2;
    for (const n of numbers) {
      if (isYear(n) && !onlyYear) continue;
      if (/^\d$/.test(n) && !short) continue;
      const at = findNumber(query, n);
      if (at) {
        out.push({
          check: 'shortcut_leakage',
          severity: short ? 'error' : 'warning',
          message: `the query contains the value ${n} of the golden answer "${oneLineText(core)}" (an exact result value copied into the query)`,
          path: ['query'],
          span: at,
        });
      }
    }
    const words = answerTokens.filter((t) => !/\d/.test(t) && (hasCjk(t) ? t.length >= 2 : t.length >= 3));
    if (short && words.length > 0 && numbers.length === 0) {
      const queryTokens = new Set(contentTokens(query));
      if (words.every((w) => queryTokens.has(w))) {
        out.push({
          check: 'shortcut_leakage',
          severity: 'error',
          message: `every content word of the golden answer "${oneLineText(core)}" appears in the query`,
          path: ['query'],
        });
      }
    }
  }
  item.golden_docs.forEach((doc, i) => {
    const title = text(doc.title).trim();
    if (title.length >= 20) {
      const at = findInsensitive(query, title);
      if (at)
        out.push({
          check: 'shortcut_leakage',
          severity: 'warning',
          message: `the query contains the title of golden document ${doc.doc_id} (a source-identifying clue)`,
          path: ['query'],
          span: at,
          docId: String(doc.doc_id),
        });
    }
    const url = text(doc.url).trim();
    const host = /^https?:\/\/([^/]+)/i.exec(url)?.[1]?.replace(/^www\./i, '');
    const at = url && findInsensitive(query, url) ? findInsensitive(query, url) : host && host.includes('.') ? findInsensitive(query, host) : undefined;
    if (at)
      out.push({
        check: 'shortcut_leakage',
        severity: 'warning',
        message: `the query names the source of golden document ${doc.doc_id} (${host ?? url})`,
        path: ['query'],
        span: at,
        docId: String(doc.doc_id),
      });
    void i;
  });
  // A long run copied from an evidence span: ≥ 8 consecutive words, or ≥ 12 CJK characters.
  const spans = item.evidence_spans.map((s) => (typeof s === 'string' ? s : text((s as { text?: unknown })?.text))).filter(Boolean);
  for (const span of spans) {
    const run = longestSharedRun(query, span);
    if (run) {
      out.push({
        check: 'shortcut_leakage',
        severity: 'warning',
        message: `the query copies "${oneLineText(run.text)}" from an evidence span (overly specific phrasing copied from the evidence)`,
        path: ['query'],
        span: run.at,
      });
      break;
    }
  }
  return out;
}

function oneLineText(s: string, max = 80): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function longestSharedRun(query: string, evidence: string): { text: string; at: [number, number] } | undefined {
  const ev = squash(evidence);
  if (hasCjk(query)) {
    const chars = Array.from(query);
    for (let len = Math.min(chars.length, 40); len >= 12; len--) {
      for (let i = 0; i + len <= chars.length; i++) {
        const piece = chars.slice(i, i + len).join('');
        if (ev.includes(normalizeText(piece))) {
          const start = chars.slice(0, i).join('').length;
          return { text: piece, at: [start, start + piece.length] };
        }
      }
    }
    return undefined;
  }
  const words = [...query.matchAll(/\S+/g)];
  for (let len = Math.min(words.length, 30); len >= 8; len--) {
    for (let i = 0; i + len <= words.length; i++) {
      const start = words[i].index as number;
      const last = words[i + len - 1];
      const end = (last.index as number) + last[0].length;
      const piece = query.slice(start, end);
      if (ev.includes(squash(piece).replace(/[,.;:?!]+$/, ''))) return { text: piece, at: [start, end] };
    }
  }
  return undefined;
}

const STRONG_SELF_REFERENCE =
  /synthetic (?:document|article|text|page|post|report|news|source)|synthetically generated|test (?:sample|document|item|case)|this (?:document|article|page|text) is (?:fake|fictional|fabricated|synthetic|generated)|distractor (?:document|doc)|generated for (?:this |the )?(?:benchmark|evaluation|test|testing)|for testing purposes|合成文档|合成文章|合成的文档|测试样本|测试文档|干扰文档|干扰项|虚构文档|本文为虚构|人工合成/iu;
const WEAK_SELF_REFERENCE = /\bsynthetic\b|\bfictional\b|\bfabricated\b|虚构|伪造/iu;

function selfReferenceFindings(item: DelegationItem): PrecheckFinding[] {
  const out: PrecheckFinding[] = [];
  const groups = [
    ['golden_docs', item.golden_docs],
    ['distractor_docs', item.distractor_docs],
    ['irrelevant_docs', item.irrelevant_docs],
  ] as const;
  for (const [group, docs] of groups) {
    docs.forEach((doc, i) => {
      const d = doc as Record<string, unknown>;
      for (const field of ['title', 'content', 'site_name', 'url', 'synthetic_url']) {
        const value = d[field];
        if (typeof value !== 'string') continue;
        const strong = STRONG_SELF_REFERENCE.exec(value);
        const weak = strong ? null : group === 'distractor_docs' ? WEAK_SELF_REFERENCE.exec(value) : null;
        const m = strong ?? weak;
        if (!m) continue;
        out.push({
          check: 'self_reference',
          severity: strong ? 'error' : 'warning',
          message: `${group.replace(/_docs$/, '')} document ${String(d.doc_id)}: the ${field} says "${m[0]}", which leaks that the document is artificial (seed 000, Stage B: no self-referential phrases such as "synthetic document" or "test sample")`,
          path: [group, i, field],
          span: [m.index, m.index + m[0].length],
          docId: String(d.doc_id),
        });
      }
    });
  }
  return out;
}

function distractorFindings(item: DelegationItem): PrecheckFinding[] {
  const out: PrecheckFinding[] = [];
  const golden = new Map(item.golden_docs.map((d) => [String(d.doc_id), d]));
  const evidenceTexts = item.evidence_spans.map((s) => (typeof s === 'string' ? s : text((s as { text?: unknown })?.text)));
  const anchorWords = new Set(contentTokens([item.query, text(item.golden_answer), ...evidenceTexts].join('\n')));
  item.distractor_docs.forEach((doc, i) => {
    const d = doc as Record<string, unknown>;
    const id = String(d.doc_id);
    const at = (field?: string): JsonPath => (field ? ['distractor_docs', i, field] : ['distractor_docs', i]);
    const missing = (field: string, why: string) =>
      out.push({
        check: 'distractor_structure',
        severity: 'error',
        message: `distractor ${id}: ${field} is missing — ${why}`,
        path: at(field in d ? field : undefined),
        docId: id,
      });
    if (blank(d.target_info_point))
      missing('target_info_point', 'the distractor is not anchored to an evidence information point (Stage B validity constraint 1)');
    else if (![...contentTokens(text(d.target_info_point))].some((t) => anchorWords.has(t))) {
      out.push({
        check: 'distractor_structure',
        severity: 'warning',
        message: `distractor ${id}: target_info_point "${oneLineText(text(d.target_info_point))}" shares no word with the query, the golden answer or the evidence spans; is it anchored to an information point the query uses?`,
        path: at('target_info_point'),
        docId: id,
      });
    }
    if (blank(d.conflict_hint))
      missing('conflict_hint', 'no audit trail of the golden-side fact and the distractor-side alteration (Stage B validity constraint 4)');
    if (blank(d.discriminating_constraint))
      missing('discriminating_constraint', 'no stated authority, time or source-type difference (Stage B validity constraint 4)');
    const source = blank(d.source_doc_key) ? undefined : text(d.source_doc_key).trim();
    if (source === undefined) {
      out.push({
        check: 'distractor_structure',
        severity: 'warning',
        message: `distractor ${id}: source_doc_key is missing; which golden document does it perturb?`,
        path: at(),
        docId: id,
      });
    } else if (!golden.has(source)) {
      out.push({
        check: 'distractor_structure',
        severity: 'error',
        message: `distractor ${id}: source_doc_key "${source}" is not a golden document (golden: ${[...golden.keys()].join(', ') || 'none'})`,
        path: at('source_doc_key'),
        docId: id,
      });
    }
    const evidence = text(d.target_evidence_text).trim();
    if (evidence) {
      const inSource = source && golden.has(source) ? squash(text(golden.get(source)?.content)).includes(squash(evidence)) : false;
      const anywhere =
        inSource ||
        item.golden_docs.some((g) => squash(text(g.content)).includes(squash(evidence))) ||
        evidenceTexts.some((e) => squash(e).includes(squash(evidence)));
      if (!anywhere)
        out.push({
          check: 'distractor_structure',
          severity: 'warning',
          message: `distractor ${id}: target_evidence_text is found in no golden document or evidence span`,
          path: at('target_evidence_text'),
          docId: id,
        });
    }
  });
  return out;
}

function bookkeepingFindings(item: DelegationItem): PrecheckFinding[] {
  const out: PrecheckFinding[] = [];
  const seen = new Map<string, string>();
  const groups = [
    ['golden_docs', item.golden_docs],
    ['distractor_docs', item.distractor_docs],
    ['irrelevant_docs', item.irrelevant_docs],
  ] as const;
  for (const [group, docs] of groups) {
    docs.forEach((doc, i) => {
      const id = String(doc.doc_id);
      const first = seen.get(id);
      if (first)
        out.push({
          check: 'duplicate_doc_id',
          severity: 'error',
          message: `doc_id "${id}" is used twice (${first} and ${group}[${i}]); citations could not be mapped back`,
          path: [group, i, 'doc_id'],
          docId: id,
        });
      else seen.set(id, `${group}[${i}]`);
    });
  }
  if (!out.length) {
    try {
      const reason = idsRevealGroups(itemPool(item));
      if (reason)
        out.push({
          check: 'doc_ids',
          severity: 'warning',
          message: `doc_ids reveal the document groups: ${reason}. The harness shows run-local ids instead (web1…, rs1…)`,
          path: ['golden_docs', 0, 'doc_id'],
        });
    } catch {
      /* reported above */
    }
  }
  const golden = new Map(item.golden_docs.map((d) => [String(d.doc_id), d]));
  item.evidence_spans.forEach((s, i) => {
    if (!s || typeof s !== 'object') return;
    const span = s as { doc_id?: unknown; text?: unknown };
    if (span.doc_id === undefined) return;
    const id = String(span.doc_id);
    const doc = golden.get(id);
    if (!doc) {
      out.push({
        check: 'evidence_span',
        severity: 'warning',
        message: `evidence span ${i + 1} cites "${id}", which is not a golden document`,
        path: ['evidence_spans', i, 'doc_id'],
        docId: id,
      });
    } else if (typeof span.text === 'string' && span.text.trim() && !squash(text(doc.content)).includes(squash(span.text))) {
      out.push({
        check: 'evidence_span',
        severity: 'warning',
        message: `evidence span ${i + 1} is not found verbatim in golden document ${id} (localized evidence cannot be checked)`,
        path: ['evidence_spans', i, 'text'],
        docId: id,
      });
    }
  });
  return out;
}

/** All deterministic pre-checks of an item. */
export function precheckItem(item: DelegationItem): PrecheckFinding[] {
  return [...shortcutFindings(item), ...distractorFindings(item), ...selfReferenceFindings(item), ...bookkeepingFindings(item)];
}
