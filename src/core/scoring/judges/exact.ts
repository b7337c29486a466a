// The deterministic `exact` DeepSearchQA judge (docs/metrics.md §2): no model, same output shape as the
// Appendix A grader.
//
// Normalization (both sides): Unicode NFKC; case-fold (lower case); numbers compared as numbers
// ("3,422" = "3422", "15.20" = "15.2"); punctuation and symbols removed; the articles a / an / the
// removed; whitespace collapsed and trimmed. Han/kana characters are compared one by one, so
// Chinese and Japanese text matches without word segmentation.
//
// Gold items: a Single Answer is one item. A Set Answer is split on commas (not inside numbers
// such as 1,000), semicolons, newlines, "、", and a final "and"/"or" ("A, B and C", "A or B").
// A gold item is found when the normalized response contains it as a whole-word phrase.
//
// Excessive answers: the response is read as a list when every segment (split like the gold,
// plus sentence ends) has at most LIST_ITEM_MAX_WORDS words, e.g. "Brazil, Italy" or
// "Canberra or Sydney". Then each segment that matches no gold item is an excessive answer. A
// prose response is matched by containment only and yields no excessive answers: the exact judge
// cannot tell a candidate from commentary in prose — use the `llm` judge for prose responses.
import type { Judge } from './judge';
import type { AnswerCorrectness, DeepSearchQaJudgeInput } from './answerCorrectness';

export const EXACT_JUDGE_ID = 'exact/v1';
export const LIST_ITEM_MAX_WORDS = 6;

const ARTICLES = new Set(['a', 'an', 'the']);
const TOKEN = /(?<![\p{L}\p{N}])-?\d[\d,]*(?:\.\d+)?|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}\p{M}]+/gu;
const THOUSANDS = /^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

function numberTokens(raw: string): string[] {
  if (THOUSANDS.test(raw)) return [String(Number(raw.replace(/,/g, '')))];
  return raw
    .split(',')
    .filter((p) => p !== '' && p !== '-')
    .map((p) => {
      const n = Number(p);
      return Number.isFinite(n) ? String(n) : p;
    });
}

/** Tokens of a text after NFKC, case folding, number canonicalization, punctuation and article removal. */
export function answerTokens(text: string): string[] {
  const folded = text.normalize('NFKC').toLowerCase();
  const out: string[] = [];
  for (const match of folded.matchAll(TOKEN)) {
    const token = match[0];
    if (/^-?\d/.test(token)) out.push(...numberTokens(token));
    else if (!ARTICLES.has(token)) out.push(token);
  }
  return out;
}

export function normalizeAnswer(text: string): string {
  return answerTokens(text).join(' ');
}

/** Whole-token containment of a normalized needle in a normalized haystack. */
export function containsPhrase(haystack: string, needle: string): boolean {
  if (needle === '') return false;
  return ` ${haystack} `.includes(` ${needle} `);
}

/** Splits a list on commas (not inside numbers), semicolons, newlines, "、" and a final "and"/"or". */
export function splitList(text: string): string[] {
  const parts = text
    .normalize('NFKC')
    .split(/(?<!\d),|,(?!\d)|;|\n|、/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return [];
  const last = parts.pop() as string;
  const m = /^(.*\S)\s+(?:and|or)\s+(\S.*)$/is.exec(last);
  if (m) parts.push(m[1], m[2]);
  else parts.push(last);
  return parts.map((p) => p.replace(/^(?:and|or)\s+/i, '').trim()).filter(Boolean);
}

/** Gold items of a DeepSearchQA answer. */
export function goldItems(answer: string, answerType: DeepSearchQaJudgeInput['answerType']): string[] {
  const items = answerType === 'Set Answer' ? splitList(answer) : [answer.trim()];
  const seen = new Set<string>();
  return items.filter((item) => {
    if (seen.has(item) || normalizeAnswer(item) === '') return false;
    seen.add(item);
    return true;
  });
}

function responseSegments(response: string): string[] {
  const sentences = response.split(/(?<=[.!?。！？])\s+|\n/);
  return sentences.flatMap((s) => splitList(s.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').replace(/[.!?。！？]+$/, '')));
}

export function exactJudgment(input: DeepSearchQaJudgeInput): AnswerCorrectness {
  const gold = goldItems(input.answer, input.answerType);
  const normalizedGold = gold.map(normalizeAnswer);
  const normalizedResponse = normalizeAnswer(input.response);
  const details: Record<string, boolean> = {};
  gold.forEach((item, i) => {
    details[item] = containsPhrase(normalizedResponse, normalizedGold[i]);
  });
  const segments = responseSegments(input.response)
    .map((s) => ({ text: s, norm: normalizeAnswer(s) }))
    .filter((s) => s.norm !== '');
  const listShaped = segments.length > 0 && segments.every((s) => s.norm.split(' ').length <= LIST_ITEM_MAX_WORDS);
  const excessive: string[] = [];
  if (listShaped) {
    for (const s of segments) {
      const matches = normalizedGold.some((g) => s.norm === g || containsPhrase(s.norm, g) || containsPhrase(g, s.norm));
      if (!matches && !excessive.includes(s.text)) excessive.push(s.text);
    }
  }
  const found = Object.values(details).filter(Boolean).length;
  const explanation =
    `exact match: ${found} of ${gold.length} expected item(s) found` +
    (excessive.length ? `; ${excessive.length} excessive answer(s): ${excessive.join('; ')}` : '') +
    (listShaped ? '' : '; prose response (excessive answers not assessed by the exact judge)');
  return { Explanation: explanation, CorrectnessDetails: details, ExcessiveAnswers: excessive };
}

/** The exact judge as a Judge (synchronous underneath). */
export const exactJudge: Judge<DeepSearchQaJudgeInput, AnswerCorrectness> = {
  id: EXACT_JUDGE_ID,
  usesModel: false,
  judge: (input, signal) => {
    if (signal?.aborted) return Promise.reject(new Error('aborted'));
    return Promise.resolve(exactJudgment(input));
  },
  judgeSync: exactJudgment,
};
