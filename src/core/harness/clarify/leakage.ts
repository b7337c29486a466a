// Clarify-Then-Search leakage checks (seed 004: "Any added rewritten-query constraint must be
// grounded in observed question-answer pairs rather than copied from the hidden intent").
//
// unelicitedConstraints: the words (Latin/number tokens; CJK character bigrams grouped back into
// the substrings they come from) of the rewritten query that are neither in the blurred query nor
// in an answer other than "unknown". Those that also occur in the hidden intent are reported
// separately (`from_intent`): they can only have leaked. Question text does not license a
// constraint: an option offered by a question and answered "unknown" must not appear.
// Function words and generic request words are ignored. A deliberately simple, documented check.
import { isUnknownAnswer } from '../../scoring/cqRegion';
import { hasCjk, normalizeText } from '../text';

const LATIN = /[\p{L}\p{M}\p{N}]+(?:[.,'’][\p{L}\p{M}\p{N}]+)*/gu;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const CJK_FUNCTION = new Set(Array.from('的了是在和与及或吗呢吧请问如何什么哪些多少怎么样个这那有要想为对于被把从到中上下也都就还并且而其之以所等些该此'));
const GENERIC = new Set(
  (
    'a an the of in on at to for from by with and or not is are was were be it its this that these those as into what which who when where why how do does did ' +
    'can could should would will please find search information info details detail about want know looking tell give provide list show me my i you your'
  ).split(' '),
);

function stem(word: string): string {
  return word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

function latinWords(text: string): string[] {
  return [...normalizeText(text).replace(CJK_RUN, ' ').matchAll(LATIN)].map((m) => stem(m[0].replace(/,/g, ''))).filter((w) => !GENERIC.has(w));
}

function cjkBigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of normalizeText(text).matchAll(CJK_RUN)) {
    const chars = Array.from(m[0]);
    for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i] + chars[i + 1]);
    if (chars.length === 1) out.add(chars[0]);
  }
  return out;
}

/**
 * New CJK substrings of `text`: runs of characters every adjacent bigram of which is absent from
 * `allowed` (bigrams with a function character are neutral). A bigram that only spans the joint of
 * two allowed pieces ("旺季" + "故宫" → "季故") marks no character as new.
 */
function newCjkSpans(text: string, allowed: Set<string>): string[] {
  const spans: string[] = [];
  const allowedChars = new Set([...allowed].flatMap((b) => Array.from(b)));
  for (const m of normalizeText(text).matchAll(CJK_RUN)) {
    const chars = Array.from(m[0]);
    const isNew = chars.map((c, i) => {
      if (CJK_FUNCTION.has(c)) return false;
      const around = [i > 0 ? chars[i - 1] + c : undefined, i + 1 < chars.length ? c + chars[i + 1] : undefined].filter(
        (b): b is string => b !== undefined && !Array.from(b).some((x) => CJK_FUNCTION.has(x)),
      );
      return around.length ? around.every((b) => !allowed.has(b)) : !allowedChars.has(c);
    });
    let current = '';
    const flush = () => {
      if (current && (Array.from(current).length > 1 || !allowedChars.has(current))) spans.push(current);
      current = '';
    };
    chars.forEach((c, i) => {
      if (isNew[i]) current += c;
      else flush();
    });
    flush();
  }
  return spans;
}

export interface Turn {
  question: string;
  answer: string | null;
}

export interface LeakageReport {
  /** Constraints of the rewrite that no non-unknown answer (nor the blurred query) gives. */
  unelicited: string[];
  /** Those of them found in the hidden intent query. */
  from_intent: string[];
}

export function unelicitedConstraints(blurred: string, turns: readonly Turn[], rewritten: string, intent?: string): LeakageReport {
  const sources = [blurred, ...turns.filter((t) => !isUnknownAnswer(t.answer)).map((t) => t.answer as string)].join('\n');
  const allowedWords = new Set(latinWords(sources));
  const allowedBigrams = cjkBigrams(sources);
  const unelicited = new Set<string>();
  for (const w of latinWords(rewritten)) if (!allowedWords.has(w)) unelicited.add(w);
  if (hasCjk(rewritten)) for (const span of newCjkSpans(rewritten, allowedBigrams)) unelicited.add(span);
  const intentText = intent ? normalizeText(intent) : '';
  const intentWords = new Set(intent ? latinWords(intent) : []);
  const fromIntent = [...unelicited].filter((u) => (hasCjk(u) ? intentText.includes(u) : intentWords.has(u)));
  return { unelicited: [...unelicited], from_intent: fromIntent };
}

/** Words of a User Answerer answer that its intent does not contain (the answer should only restate the intent). */
export function ungroundedAnswerWords(answer: string | null, intent: string): string[] {
  if (isUnknownAnswer(answer)) return [];
  const words = new Set(latinWords(intent));
  const bigrams = cjkBigrams(intent);
  const out = latinWords(answer as string).filter((w) => !words.has(w));
  if (hasCjk(answer as string)) out.push(...newCjkSpans(answer as string, bigrams));
  return [...new Set(out)];
}
