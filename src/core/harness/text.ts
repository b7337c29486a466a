// Small text utilities shared by the harnesses: tokenization (BM25, leakage checks), seeded
// randomness (reproducible shuffles and choices), Python-style JSON, truncation. Pure.

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[\p{L}\p{M}\p{N}]+(?:[.,'’][\p{L}\p{M}\p{N}]+)*/gu;

/** NFKC, lower case. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/**
 * Tokens of a text: Latin/other words and numbers as they are (lower-cased, NFKC; "16.1" and
 * "2,222" stay one token), CJK runs as character unigrams plus bigrams (no word segmenter is needed
 * for Chinese/Japanese text to match).
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of normalizeText(text).matchAll(TOKEN)) {
    const run = match[0];
    if (CJK.test(run[0])) {
      const chars = Array.from(run);
      for (let i = 0; i < chars.length; i++) {
        out.push(chars[i]);
        if (i + 1 < chars.length) out.push(chars[i] + chars[i + 1]);
      }
    } else {
      out.push(run.replace(/,/g, ''));
    }
  }
  return out;
}

/** Whether a string contains CJK characters. */
export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

const STOPWORDS = new Set(
  (
    'a an the of in on at to for from by with and or but not no is are was were be been being it its this that these those as into than then so such ' +
    'what which who whom whose when where why how do does did has have had can could should would will shall may might must about over under ' +
    'according per vs versus via there their they them he she his her we our you your i me my any all each some more most other same own only ' +
    'also just very if else while during before after between among within without up down out off again further once here both few nor too'
  ).split(' '),
);

/** Content words: tokenize() without English stopwords and one-letter Latin tokens. */
export function contentTokens(text: string): string[] {
  return tokenize(text).filter((t) => !STOPWORDS.has(t) && (hasCjk(t) || t.length > 1 || /\d/.test(t)));
}

// ---- JSON as Python's json.dumps writes it -------------------------------------------

/**
 * JSON with Python `json.dumps` separators (", " and ": "), as the seed's tool payloads show
 * (`{"query": "…", "docs": [...]}`). Non-ASCII characters are kept (ensure_ascii=False).
 */
export function pyJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(pyJson).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${pyJson(v)}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** At most `max` characters (Unicode code points, so a surrogate pair is never split). */
export function truncateChars(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}
