// Splitting a text into runs by highlight ranges (evidence spans, search matches). Pure: no DOM,
// so the unit tests run it in Node. The view turns each run into a text node, or a text node
// inside a <mark>; content is never parsed as HTML.

export interface HighlightRange {
  start: number;
  end: number;
  /** Which highlight (an evidence span index, or 0 for search matches). */
  span: number;
}

export interface Segment {
  start: number;
  end: number;
  text: string;
  /** Highlights covering this run, ascending; empty for plain text. */
  spans: number[];
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** Moves an offset off the middle of a surrogate pair. */
function snap(text: string, offset: number): number {
  if (offset > 0 && offset < text.length && isHigh(text.charCodeAt(offset - 1))) return offset - 1;
  return offset;
}

/**
 * Runs of `text` cut at every range boundary; overlapping ranges give runs covered by several
 * spans. Out-of-range, empty or reversed ranges are ignored; adjacent runs with the same spans
 * are merged. The runs' texts concatenate back to `text`.
 */
export function segmentsOf(text: string, ranges: readonly HighlightRange[]): Segment[] {
  const valid = ranges
    .map((r) => ({ start: snap(text, Math.max(0, Math.min(text.length, r.start))), end: snap(text, Math.max(0, Math.min(text.length, r.end))), span: r.span }))
    .filter((r) => Number.isFinite(r.start) && Number.isFinite(r.end) && r.end > r.start);
  if (!valid.length) return text ? [{ start: 0, end: text.length, text, spans: [] }] : [];
  const cuts = [...new Set([0, text.length, ...valid.flatMap((r) => [r.start, r.end])])].sort((a, b) => a - b);
  const out: Segment[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const start = cuts[i];
    const end = cuts[i + 1];
    if (end <= start) continue;
    const spans = [...new Set(valid.filter((r) => r.start <= start && r.end >= end).map((r) => r.span))].sort((a, b) => a - b);
    const last = out[out.length - 1];
    if (last && last.end === start && last.spans.join(',') === spans.join(',')) {
      last.end = end;
      last.text = text.slice(last.start, end);
    } else out.push({ start, end, text: text.slice(start, end), spans });
  }
  return out;
}

/** Ranges of every occurrence of `query` (case-insensitive unless told), for search highlighting. */
export function searchRanges(text: string, query: string, caseSensitive = false): HighlightRange[] {
  const q = caseSensitive ? query : query.toLowerCase();
  if (!q) return [];
  const hay = caseSensitive ? text : text.toLowerCase();
  // toLowerCase can change the length of some characters; fall back to no highlight then.
  if (hay.length !== text.length) return [];
  const out: HighlightRange[] = [];
  for (let i = hay.indexOf(q); i >= 0; i = hay.indexOf(q, i + q.length)) out.push({ start: i, end: i + q.length, span: 0 });
  return out;
}
