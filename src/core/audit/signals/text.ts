// Text helpers for the offline signals: what a message says, exact quotes from it, and the
// claims (numbers, URLs, file paths, named entities) an agent's text makes. Pure and linear in
// the text length: a 5,000-message trajectory is read once.
import type { Message } from '../../model/trajectory';

/** Every text a message carries, in the order the signals read it; quotes are substrings of this. */
export function messageText(m: Message): string {
  const parts = [m.content];
  if (m.reasoning) parts.push(m.reasoning);
  for (const call of m.toolCalls) parts.push(call.rawArguments);
  return parts.join('\n');
}

const QUOTE_CHARS = 160;

/** An exact excerpt of `text` around `index` (at most QUOTE_CHARS), cut at the line. */
export function quoteAround(text: string, index: number, length = 0): string {
  const lineStart = text.lastIndexOf('\n', Math.max(0, index - 1)) + 1;
  let from = Math.max(lineStart, index - 40);
  // Start on a word: back up to the previous space (a few characters at most).
  for (let k = 0; k < 20 && from > lineStart && /\S/.test(text[from - 1]); k++) from--;
  let to = text.indexOf('\n', index + length);
  if (to < 0) to = text.length;
  to = Math.min(to, from + Math.max(QUOTE_CHARS, length));
  const quote = text.slice(from, to).trim();
  return quote || text.slice(index, index + Math.max(1, length)).trim() || text.slice(0, QUOTE_CHARS).trim();
}

/** The first non-empty line of a message (its opening), as an exact quote. */
export function openingQuote(text: string): string {
  const match = /\S[^\n]*/.exec(text);
  return match ? match[0].slice(0, QUOTE_CHARS).trim() : '';
}

const STOP_WORDS = new Set(
  'the a an and or of to in on for with by at from as is are was were be been it its this that these those please can could would should will you your we our i me my they them their he she his her not no yes do does did have has had if then than so but about into over after before also any all each more most some such only other which who whom what when where why how there here up down out just like use using make sure provide find list note next step task information'.split(
    ' ',
  ),
);

/** Lower-cased content words of at least three letters (stop words removed). */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}][\p{L}\p{N}_-]{2,}/gu)) if (!STOP_WORDS.has(match[0])) out.add(match[0]);
  return out;
}

export type ClaimKind = 'url' | 'path' | 'number' | 'entity';
export interface Claim {
  kind: ClaimKind;
  /** Normalized form used to find earlier support. */
  key: string;
  index: number;
  text: string;
}

const URL_RE = /\bhttps?:\/\/[^\s)\]>"'`]+/g;
// A token ending in ".ext" that has a directory or a data/code extension. One greedy run per token
// start (the look-behind), so long texts stay linear.
const PATH_RE = /(?<![\w./-])[\w./-]*[\w-]\.[A-Za-z][A-Za-z0-9]{0,4}(?![\w/-])/g;
const FILE_EXTENSION_RE = /\.(?:csv|xlsx?|json|jsonl|txt|pdf|py|ts|js|md|docx?|pptx?|png|jpe?g|zip|mp3|wav|html?|xml|ya?ml)$/i;
// Numbers with at least two significant characters ("1928", "3.14", "610"): single digits are list markers and counts.
const NUMBER_RE = /(?<![\w.,])\d+(?:,\d{3})*(?:\.\d+)?(?![\w])/g;
// Two or more capitalized words in a row ("Renzo Gracie", "New York Stock Exchange").
const ENTITY_RE = /\b[A-Z][\p{L}'’-]+(?:\s+(?:of|de|the|and|van|von|la|le|du)?\s*[A-Z][\p{L}'’-]+)+/gu;

/** The claims a text makes, each with its index in the text. */
export function claimsIn(text: string): Claim[] {
  const out: Claim[] = [];
  for (const m of text.matchAll(URL_RE)) out.push({ kind: 'url', key: m[0].replace(/[.,;:]+$/, '').toLowerCase(), index: m.index, text: m[0] });
  for (const m of text.matchAll(PATH_RE)) {
    const path = m[0];
    if (path.includes('//') || !(path.includes('/') || FILE_EXTENSION_RE.test(path))) continue;
    out.push({ kind: 'path', key: path.toLowerCase(), index: m.index, text: path });
  }
  for (const m of text.matchAll(NUMBER_RE)) {
    const key = m[0].replace(/,/g, '');
    if (key.replace(/\D/g, '').length < 2) continue;
    out.push({ kind: 'number', key, index: m.index, text: m[0] });
  }
  for (const m of text.matchAll(ENTITY_RE)) out.push({ kind: 'entity', key: m[0].toLowerCase().replace(/\s+/g, ' '), index: m.index, text: m[0] });
  return out;
}

const COMPOUND_NUMBER_RE = /\d+(?:[.,]\d+)+/g;

/**
 * The claim keys a text supports beyond its words (URLs, paths, numbers with a point or
 * commas): with the text's words, enough to tell whether a later claim was seen before, at a
 * fraction of claimsIn's cost (entities and plain numbers are checked word by word).
 */
export function supportKeys(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(URL_RE)) out.push(m[0].replace(/[.,;:]+$/, '').toLowerCase());
  if (text.includes('.'))
    for (const m of text.matchAll(PATH_RE)) if (!m[0].includes('//') && (m[0].includes('/') || FILE_EXTENSION_RE.test(m[0]))) out.push(m[0].toLowerCase());
  for (const m of text.matchAll(COMPOUND_NUMBER_RE)) out.push(m[0].replace(/,/g, ''));
  return out;
}
