// Answer correctness for Delegation outputs (seed 000 items carry `golden_answer`).
//
// `exact` (default): the golden answer without parenthetical remarks ("15.2 percentage points
// (equities 21.3% vs …)" → "15.2 percentage points") must appear in the answer as a whole-word
// phrase after the exact judge's normalization (NFKC, case-fold, punctuation and articles removed,
// numbers compared as numbers). An array golden answer needs every element. `llm`: the DeepSearchQA
// grader (Single Answer, or Set Answer for an array) — correct when every detail is found.
import type { AnswerCorrectness, DeepSearchQaJudgeInput } from './answerCorrectness';
import { containsPhrase, normalizeAnswer } from './exact';
import type { Judge } from './judge';

export interface DelegationAnswerInput {
  query: string;
  goldenAnswer: string | string[];
  answer: string;
}

export const DELEGATION_EXACT_ID = 'exact-delegation/v1';

export function goldenParts(golden: string | string[]): string[] {
  const list = Array.isArray(golden) ? golden : [golden];
  return list
    .map((g) =>
      String(g)
        .replace(/\s*[(（][^()（）]*[)）]/g, '')
        .trim(),
    )
    .filter((g) => normalizeAnswer(g) !== '');
}

export function exactDelegationCorrect(input: DelegationAnswerInput): boolean {
  const parts = goldenParts(input.goldenAnswer);
  if (parts.length === 0) return false;
  const answer = normalizeAnswer(input.answer);
  return parts.every((p) => containsPhrase(answer, normalizeAnswer(p)));
}

export const exactDelegationJudge: Judge<DelegationAnswerInput, boolean> = {
  id: DELEGATION_EXACT_ID,
  usesModel: false,
  judge: (input) => Promise.resolve(exactDelegationCorrect(input)),
  judgeSync: exactDelegationCorrect,
};

/** Wraps a DeepSearchQA judge (e.g. the llm grader) as a Delegation answer judge. */
export function delegationJudgeFrom(grader: Judge<DeepSearchQaJudgeInput, AnswerCorrectness>): Judge<DelegationAnswerInput, boolean> {
  const toInput = (input: DelegationAnswerInput): DeepSearchQaJudgeInput => ({
    problem: input.query,
    answer: Array.isArray(input.goldenAnswer) ? input.goldenAnswer.join(', ') : input.goldenAnswer,
    answerType: Array.isArray(input.goldenAnswer) && input.goldenAnswer.length > 1 ? 'Set Answer' : 'Single Answer',
    response: input.answer,
  });
  const correct = (j: AnswerCorrectness) => {
    const details = Object.values(j.CorrectnessDetails);
    return details.length > 0 && details.every(Boolean);
  };
  return {
    id: `delegation:${grader.id}`,
    usesModel: grader.usesModel,
    ...(grader.identity ? { identity: grader.identity } : {}),
    judge: async (input, signal) => correct(await grader.judge(toInput(input), signal)),
    ...(grader.judgeSync
      ? { judgeSync: (input: DelegationAnswerInput) => correct((grader.judgeSync as (i: DeepSearchQaJudgeInput) => AnswerCorrectness)(toInput(input))) }
      : {}),
  };
}
