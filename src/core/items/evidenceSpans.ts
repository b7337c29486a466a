// Locating a Delegation item's evidence spans (seed 000, `evidence_spans`) inside its documents.
// Pure: no VS Code, no Node. Offsets are UTF-16 code units, as the webview's strings use.
import type { EvidenceSpanView, HighlightRange } from '../../shared/itemProtocol';

export interface SpanSpec {
  docId?: string;
  text: string;
  start?: number;
  end?: number;
}

const DOC_KEYS = ['doc_id', 'docId', 'doc', 'document_id', 'source_doc_id', 'source'];
const TEXT_KEYS = ['text', 'span', 'quote', 'evidence', 'evidence_text', 'content', 'snippet'];

function intOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** Reads one `evidence_spans` entry: a string, or an object with a doc id, a text and/or offsets. */
export function parseSpan(value: unknown): SpanSpec {
  if (typeof value === 'string') return { text: value };
  if (typeof value === 'number') return { text: String(value) };
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { text: value === undefined || value === null ? '' : JSON.stringify(value) };
  const obj = value as Record<string, unknown>;
  const spec: SpanSpec = { text: '' };
  for (const key of DOC_KEYS) {
    const v = obj[key];
    if (typeof v === 'string' || typeof v === 'number') {
      spec.docId = String(v);
      break;
    }
  }
  for (const key of TEXT_KEYS) {
    const v = obj[key];
    if (typeof v === 'string') {
      spec.text = v;
      break;
    }
    // `span: [start, end]`
    if (key === 'span' && Array.isArray(v) && v.length === 2) {
      spec.start = intOf(v[0]);
      spec.end = intOf(v[1]);
    }
  }
  spec.start ??= intOf(obj.start ?? obj.char_start ?? obj.begin);
  spec.end ??= intOf(obj.end ?? obj.char_end);
  return spec;
}

const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032\uFF07]/;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033\uFF02]/;
const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/;

function normChar(ch: string): string {
  if (/\s/.test(ch)) return ' ';
  if (SINGLE_QUOTES.test(ch)) return "'";
  if (DOUBLE_QUOTES.test(ch)) return '"';
  if (DASHES.test(ch)) return '-';
  return ch.normalize('NFKC').toLowerCase();
}

/** Normalized text (case, width, quotes, dashes, runs of whitespace) with a map back to the source. */
export function normalizeWithMap(text: string): { norm: string; starts: number[]; ends: number[] } {
  let norm = '';
  const starts: number[] = [];
  const ends: number[] = [];
  let offset = 0;
  for (const ch of text) {
    const n = normChar(ch);
    const end = offset + ch.length;
    if (n === ' ' && (norm.endsWith(' ') || norm === '')) {
      offset = end;
      continue;
    }
    for (const unit of n) {
      norm += unit;
      starts.push(offset);
      ends.push(end);
    }
    offset = end;
  }
  return { norm, starts, ends };
}

export function normalizeText(text: string): string {
  return normalizeWithMap(text).norm.trim();
}

/** Every non-overlapping occurrence of `needle` in `haystack`: exact first, else normalized. */
export function findOccurrences(haystack: string, needle: string): { ranges: [number, number][]; how: 'exact' | 'normalized' } | undefined {
  const trimmed = needle.trim();
  if (!trimmed) return undefined;
  const exact: [number, number][] = [];
  for (let i = haystack.indexOf(trimmed); i >= 0; i = haystack.indexOf(trimmed, i + trimmed.length)) exact.push([i, i + trimmed.length]);
  if (exact.length) return { ranges: exact, how: 'exact' };
  const target = normalizeText(trimmed);
  if (!target) return undefined;
  const { norm, starts, ends } = normalizeWithMap(haystack);
  const found: [number, number][] = [];
  for (let i = norm.indexOf(target); i >= 0; i = norm.indexOf(target, i + target.length)) found.push([starts[i], ends[i + target.length - 1]]);
  return found.length ? { ranges: found, how: 'normalized' } : undefined;
}

export interface SpanDoc {
  doc_id: string;
  content: string;
  golden: boolean;
}

export interface LocatedEvidence {
  spans: EvidenceSpanView[];
  /** doc_id → highlight ranges, sorted by start. */
  ranges: Map<string, HighlightRange[]>;
}

/**
 * Finds each evidence span in the document it names (or, without a doc id, in every golden
 * document). Explicit offsets win when they are in range and agree with the span's text.
 */
export function locateEvidence(docs: readonly SpanDoc[], rawSpans: readonly unknown[]): LocatedEvidence {
  const byId = new Map(docs.map((d) => [d.doc_id, d]));
  const ranges = new Map<string, HighlightRange[]>();
  const add = (docId: string, start: number, end: number, span: number) => {
    const list = ranges.get(docId) ?? [];
    list.push({ start, end, span });
    ranges.set(docId, list);
  };
  const spans = rawSpans.map((raw, index): EvidenceSpanView => {
    const spec = parseSpan(raw);
    const view: EvidenceSpanView = { index, text: spec.text, status: 'missing', foundIn: [], outsideGolden: false };
    if (spec.docId !== undefined) view.docId = spec.docId;
    let targets: SpanDoc[];
    if (spec.docId !== undefined) {
      const doc = byId.get(spec.docId);
      if (!doc) {
        view.note = `no document "${spec.docId}" in this item`;
        return view;
      }
      view.outsideGolden = !doc.golden;
      if (!doc.golden) view.note = `"${spec.docId}" is not a golden document`;
      targets = [doc];
    } else {
      targets = docs.filter((d) => d.golden);
    }
    // Explicit offsets.
    if (spec.start !== undefined && spec.end !== undefined && targets.length === 1) {
      const doc = targets[0];
      const { start, end } = spec;
      if (start < end && end <= doc.content.length && (!spec.text.trim() || normalizeText(doc.content.slice(start, end)) === normalizeText(spec.text))) {
        if (!spec.text) view.text = doc.content.slice(start, end);
        view.status = 'offsets';
        view.foundIn.push(doc.doc_id);
        add(doc.doc_id, start, end, index);
        return view;
      }
    }
    let how: 'exact' | 'normalized' | undefined;
    for (const doc of targets) {
      const found = findOccurrences(doc.content, spec.text);
      if (!found) continue;
      how = how === 'normalized' || found.how === 'normalized' ? 'normalized' : 'exact';
      view.foundIn.push(doc.doc_id);
      for (const [start, end] of found.ranges) add(doc.doc_id, start, end, index);
    }
    if (how) view.status = how;
    else if (!view.note) view.note = spec.text.trim() ? `not found in ${spec.docId ?? 'any golden document'}` : 'empty span';
    return view;
  });
  for (const list of ranges.values()) list.sort((a, b) => a.start - b.start || a.end - b.end);
  return { spans, ranges };
}
