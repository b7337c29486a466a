// Backbone stability (seed 004, Appendix Table 11): the same clarification questions answered and
// rewritten by two supporting backbones (two `harness clarify` runs with another --answerer /
// --rewriter), compared. Pure but for `readStabilityLines`.
// - ua_agreement: over the turns paired across the runs (same instance, condition, turn index and
//   question after normalization), the share where both User Answerers agree on known vs unknown.
// - rewrite_similarity: over the (instance, condition) pairs, the mean of 1 − Levenshtein distance /
//   the longer length, on the rewrites normalized (NFKC, lower case, whitespace and punctuation
//   removed; compared by code point, so Han text compares character by character).
// - unknown_preservation, per run: over its lines with at least one unknown answer and a recorded
//   leakage check, the share whose rewrite adds no constraint the answers did not give (the
//   Rewriter did not concretize an unknown).
import { z } from 'zod';
import { readJsonLines } from './jsonl';
import { isUnknownAnswer } from './cqRegion';
import { meanOrNull } from './stats';

export interface StabilityLine {
  id: string;
  condition: string;
  turns: { question: string; answer: string | null }[];
  rewritten_query?: string | null;
  leakage?: { unelicited?: string[] | null } | null;
}

export interface BackboneStability {
  paired_turns: number;
  ua_agreement: number | null;
  paired_rewrites: number;
  rewrite_similarity: number | null;
  unknown_preservation: { a: number | null; b: number | null };
  /** (instance, condition) lines present in one run only. */
  unpaired: number;
}

const normalized = (text: string) => [
  ...text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, ''),
];

/** 1 − Levenshtein(a, b) / max(|a|, |b|) over normalized text; 1 for two empty texts. */
export function rewriteSimilarity(a: string, b: string): number {
  const x = normalized(a);
  const y = normalized(b);
  if (x.length === 0 && y.length === 0) return 1;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    previous = row;
  }
  return 1 - previous[y.length] / Math.max(x.length, y.length);
}

function preservation(lines: readonly StabilityLine[]): number | null {
  const checked = lines.filter((l) => l.turns.some((t) => isUnknownAnswer(t.answer)) && Array.isArray(l.leakage?.unelicited));
  return checked.length === 0 ? null : checked.filter((l) => (l.leakage?.unelicited ?? []).length === 0).length / checked.length;
}

export function backboneStability(a: readonly StabilityLine[], b: readonly StabilityLine[]): BackboneStability {
  const key = (l: StabilityLine) => `${l.id}#${l.condition}`;
  const byKey = new Map(b.map((l) => [key(l), l]));
  const question = (q: string) => normalized(q).join('');
  const agreements: boolean[] = [];
  const similarities: number[] = [];
  let paired = 0;
  for (const left of a) {
    const right = byKey.get(key(left));
    if (!right) continue;
    paired++;
    left.turns.forEach((turn, i) => {
      const other = right.turns[i];
      if (other && question(other.question) === question(turn.question)) agreements.push(isUnknownAnswer(turn.answer) === isUnknownAnswer(other.answer));
    });
    if (typeof left.rewritten_query === 'string' && typeof right.rewritten_query === 'string')
      similarities.push(rewriteSimilarity(left.rewritten_query, right.rewritten_query));
  }
  return {
    paired_turns: agreements.length,
    ua_agreement: agreements.length === 0 ? null : agreements.filter(Boolean).length / agreements.length,
    paired_rewrites: similarities.length,
    rewrite_similarity: meanOrNull(similarities),
    unknown_preservation: { a: preservation(a), b: preservation(b) },
    unpaired: a.length + b.length - 2 * paired,
  };
}

const idLike = z.union([z.string().min(1), z.number()]).transform(String);
const stabilityLineSchema = z.looseObject({
  id: idLike,
  condition: idLike,
  turns: z.array(z.looseObject({ question: z.string(), answer: z.string().nullable() })),
  rewritten_query: z.string().nullish(),
  leakage: z.looseObject({ unelicited: z.array(z.string()).nullish() }).nullish(),
});

/** The clarifications.jsonl of a clarify run (file errors name the file and line). */
export function readStabilityLines(path: string): StabilityLine[] {
  return readJsonLines(path, path, stabilityLineSchema, 'a clarification line {id, condition, turns: [{question, answer}], rewritten_query?, leakage?}').map(
    (l) => l.value as StabilityLine,
  );
}
