// The stated Stage-A constraints (seed 000) that a rule can decide, checked on every synthesized
// item before it is written:
// - the query copies no answer token (the whole answer, a value of it, or a distinctive word of it);
// - the query carries no source-identifying clue: a golden document's title, a run of four words
//   of a title (six characters of a CJK title) that the seed query does not already have, the
//   URL's host or the host's name (`nbim` of www.nbim.no);
// - no relative-time expression in the query (the seed's queries are "free of relative-time expressions");
// - every evidence span is a verbatim substring of the golden document it cites;
// - the document groups are well formed (golden ids from the evidence candidates, no overlap).
// "A unique real-world answer" is no rule's to decide: Stage C (C1) asks verifiers for it.
import { hasCjk, normalizeText, tokenize, contentTokens } from '../../harness/text';

export interface SourceDoc {
  doc_id: string;
  title?: string | null;
  url?: string | null;
  site_name?: string | null;
  content: string;
}

export interface EvidenceSpan {
  doc_id: string;
  text: string;
}

const YEAR = /^(1[5-9]|20|21)\d{2}$/;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{2,}/gu;

const squash = (s: string): string => normalizeText(s).replace(/\s+/g, ' ').trim();

/**
 * The answer tokens a query must not contain. A numeric answer's tokens are its values (the words
 * beside them name the quantity the query asks for: "49 seconds", "40 turbines"); its years count
 * only when the answer is no more than a year. Any other answer's tokens are its content words of
 * three letters or more and its CJK runs of two characters or more ("Hanna Lind", "北京").
 */
export function answerTokens(answer: string): string[] {
  const tokens = contentTokens(answer).filter((t) => !hasCjk(t));
  const numbers = tokens.filter((t) => /\d/.test(t));
  const values = numbers.filter((n) => !YEAR.test(n));
  if (values.length) return [...new Set(values)];
  const words = [...new Set([...tokens.filter((t) => !/\d/.test(t) && t.length >= 3), ...[...normalizeText(answer).matchAll(CJK_RUN)].map((m) => m[0])])];
  return words.length ? words : [...new Set(numbers)];
}

/** The registrable name of a host: `nbim` of www.nbim.no, `bbc` of news.bbc.co.uk. */
function hostLabel(host: string): string | undefined {
  const labels = host.split('.').filter(Boolean);
  if (labels.length < 2) return undefined;
  const second = labels[labels.length - 2];
  const label = ['co', 'com', 'gov', 'org', 'net', 'edu', 'ac'].includes(second) && labels.length >= 3 ? labels[labels.length - 3] : second;
  return label.length >= 3 ? label : undefined;
}

export function hostOf(url: string | null | undefined): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]+)/i.exec(String(url ?? '').trim());
  return m?.[1].toLowerCase().replace(/^www\./, '');
}

function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * A phrase of the title the query repeats: four consecutive words (two of them content words), or
 * six CJK characters. A phrase the seed query already has names the topic (the user asked about
 * "Kestrel Bay Offshore Wind Farm"), not the source, and is allowed.
 */
function titlePhraseInQuery(query: string, title: string, seedQuery: string): string | undefined {
  if (hasCjk(title)) {
    const q = squash(query);
    const seed = squash(seedQuery);
    const chars = Array.from(squash(title));
    for (let i = 0; i + 6 <= chars.length; i++) {
      const piece = chars.slice(i, i + 6).join('');
      if (hasCjk(piece) && q.includes(piece) && !seed.includes(piece)) return piece;
    }
  }
  const queryTokens = tokenize(query).filter((t) => !hasCjk(t));
  const seedTokens = tokenize(seedQuery).filter((t) => !hasCjk(t));
  const titleTokens = tokenize(title).filter((t) => !hasCjk(t));
  const content = new Set(contentTokens(title));
  for (let i = 0; i + 4 <= titleTokens.length; i++) {
    const run = titleTokens.slice(i, i + 4);
    if (run.filter((t) => content.has(t)).length >= 2 && containsRun(queryTokens, run) && !containsRun(seedTokens, run)) return run.join(' ');
  }
  return undefined;
}

const RELATIVE_TIME =
  /\b(?:last|this|next|past|previous|coming) (?:year|month|week|quarter|season|decade)\b|\b(?:recently|currently|nowadays|yesterday|today|tomorrow|lately)\b|\bthe (?:latest|most recent)\b|\bso far this\b|\b(?:ago)\b|今年|去年|明年|前年|本月|上个月|下个月|最近|近期|目前|如今|上周|本周/iu;

/** Why the query breaks the Stage-A query constraints (empty: it keeps them). */
export function queryViolations(query: string, goldenAnswer: string | readonly string[], goldenDocs: readonly SourceDoc[], seedQuery = ''): string[] {
  const out: string[] = [];
  const q = squash(query);
  const queryTokens = new Set(tokenize(query));
  const seed = squash(seedQuery);
  for (const answer of (Array.isArray(goldenAnswer) ? goldenAnswer : [goldenAnswer]).map(String)) {
    const core = squash(answer).replace(/[.。!！]+$/u, '');
    if (core.length >= 2 && q.includes(core)) {
      out.push(`the query contains the golden answer "${answer.trim()}"`);
      continue;
    }
    const copied = answerTokens(answer).filter((t) => (hasCjk(t) ? q.includes(t) : queryTokens.has(t)));
    if (copied.length)
      out.push(
        `the query contains answer token${copied.length > 1 ? 's' : ''} ${copied.map((t) => `"${t}"`).join(', ')} of the golden answer "${answer.trim()}"`,
      );
  }
  for (const doc of goldenDocs) {
    const title = String(doc.title ?? '').trim();
    if (title) {
      const wholeTitle = squash(title);
      if ((wholeTitle.length >= 8 || tokenize(title).length >= 2) && q.includes(wholeTitle) && !seed.includes(wholeTitle))
        out.push(`the query contains the title of golden document ${doc.doc_id} ("${title}")`);
      else {
        const phrase = titlePhraseInQuery(query, title, seedQuery);
        if (phrase) out.push(`the query repeats "${phrase}" from the title of golden document ${doc.doc_id} ("${title}"), a source-identifying clue`);
      }
    }
    const host = hostOf(doc.url);
    if (host && q.includes(host)) out.push(`the query names the host ${host} of golden document ${doc.doc_id}`);
    else {
      const label = host ? hostLabel(host) : undefined;
      if (label && queryTokens.has(label)) out.push(`the query names "${label}", the site of golden document ${doc.doc_id} (${host})`);
    }
  }
  const relative = RELATIVE_TIME.exec(query);
  if (relative) out.push(`the query uses the relative-time expression "${relative[0]}"; name the year or date`);
  return out;
}

/** Whether `span` occurs verbatim in `content` (runs of whitespace compared as one space: line wraps differ). */
export function isVerbatim(span: string, content: string): boolean {
  const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
  return span.trim() !== '' && flat(content).includes(flat(span));
}

/** Why the evidence spans cannot be used (empty: each is verbatim in a golden document it cites). */
export function evidenceSpanViolations(spans: readonly EvidenceSpan[], goldenDocs: readonly SourceDoc[]): string[] {
  const out: string[] = [];
  if (spans.length === 0) out.push('no evidence span is given');
  const byId = new Map(goldenDocs.map((d) => [d.doc_id, d]));
  spans.forEach((span, i) => {
    const doc = byId.get(span.doc_id);
    if (!doc) out.push(`evidence span ${i + 1} cites "${span.doc_id}", which is not a golden document (golden: ${[...byId.keys()].join(', ') || 'none'})`);
    else if (!isVerbatim(span.text, doc.content))
      out.push(`evidence span ${i + 1} ("${span.text.slice(0, 80)}") is not a verbatim substring of golden document ${span.doc_id}`);
  });
  for (const doc of goldenDocs) if (!spans.some((s) => s.doc_id === doc.doc_id)) out.push(`golden document ${doc.doc_id} has no evidence span`);
  return out;
}
