// The `deepsearchqa` run kind: dataset + responses.jsonl (+ judgments.jsonl, the judgment cache).
import { z } from 'zod';
import { InputError } from '../../input/inputError';
import { loadFile } from '../../load/loadFile';
import type { DeepSearchQaRow } from '../../items/schemas';
import { answerCorrectnessSchema, type AnswerCorrectness, type DeepSearchQaJudgeInput } from '../judges/answerCorrectness';
import { JudgmentCache } from '../judges/cache';
import { manifestJudgeOf } from '../judges/judgeIdentity';
import { deepSearchQaLlmJudge } from '../judges/deepsearchqaGrader';
import { exactJudge, goldItems } from '../judges/exact';
import { hashInput, type CacheLine, type Judge, type JudgeTask } from '../judges/judge';
import { readJsonLines, rejectDuplicates } from '../jsonl';
import { scoreDeepSearchQa, type DsqaItem } from '../deepsearchqa';
import type { RunDetection, RunPlan, ScoreOptions } from './types';
import { judgmentsWriteTarget } from './detect';

const idLike = z.union([z.string().min(1), z.number()]).transform(String);
const responseLineSchema = z.looseObject({
  id: idLike,
  response: z.string({ message: 'expected the response text as a string' }).nullable(),
  sample: z.number().int().nonnegative().nullish(),
});
const RESPONSE_WHAT = 'a response line {id, response, sample?}';

/** `{id, sample?, AnswerCorrectness:{Explanation, CorrectnessDetails:{item: bool}, ExcessiveAnswers:[…]}}`; Explanation may be left out. */
export const dsqaJudgmentLineSchema = z.looseObject({
  id: idLike,
  sample: z.number().int().nonnegative().nullish(),
  AnswerCorrectness: answerCorrectnessSchema.extend({ Explanation: z.string().default('') }),
}) as unknown as z.ZodType<CacheLine>;

export function answerJudgeFor(options: ScoreOptions): Judge<DeepSearchQaJudgeInput, AnswerCorrectness> {
  if (options.answerJudge) return options.answerJudge;
  if (options.judge === 'llm') {
    if (!options.model) throw new InputError('score', 'the llm judge needs a model provider; none is configured (use the exact judge)');
    return deepSearchQaLlmJudge(options.model, { promptsRoot: options.promptsRoot });
  }
  return exactJudge;
}

export function planDeepSearchQa(detection: RunDetection, options: ScoreOptions): RunPlan {
  const notes: string[] = [];
  const datasetPath = detection.files.dataset as string;
  const dataset = loadFile(datasetPath);
  if (dataset.problems.length) {
    const p = dataset.problems[0];
    throw new InputError(p.file, p.message, p);
  }
  const rows = new Map<string, DeepSearchQaRow>();
  for (const r of dataset.records) {
    if (r.kind !== 'deepsearchqa')
      throw new InputError(datasetPath, `expected DeepSearchQA rows (problem, problem_category, answer, answer_type), found ${r.kind}`, { line: r.line });
    rows.set(r.id, r.row);
  }
  const responsesPath = detection.files.responses as string;
  const responses = readJsonLines(responsesPath, responsesPath, responseLineSchema, RESPONSE_WHAT);
  rejectDuplicates(
    responses,
    (r) => `${r.id}#${r.sample ?? 0}`,
    responsesPath,
    (key) => `response ${key.replace('#', ' sample ')}`,
  );
  for (const { value, line } of responses) {
    if (!rows.has(value.id))
      throw new InputError(
        responsesPath,
        `response id "${value.id}" is not in the dataset ${datasetPath} (ids are the id column, else the 0-based row number)`,
        { line, column: 1 },
      );
  }
  const cachePath = detection.files.judgments as string;
  const cache = new JudgmentCache(
    cachePath,
    cachePath,
    dsqaJudgmentLineSchema,
    'a judgment line {id, AnswerCorrectness: {Explanation, CorrectnessDetails, ExcessiveAnswers}}',
    (line) => `${String(line.id)}#${typeof line.sample === 'number' ? line.sample : 0}`,
    judgmentsWriteTarget(detection),
    {
      legacyJudge: manifestJudgeOf(detection),
      labelsOf: (line) =>
        Object.fromEntries(Object.entries((line.AnswerCorrectness as AnswerCorrectness).CorrectnessDetails).map(([item, found]) => [item, String(found)])),
    },
  );
  const judge = answerJudgeFor(options);
  const items = new Map<string, DsqaItem>();
  const tasks: JudgeTask<DeepSearchQaJudgeInput, AnswerCorrectness>[] = [];
  for (const { value: r } of responses) {
    const row = rows.get(r.id) as DeepSearchQaRow;
    const item = items.get(r.id) ?? { id: r.id, answerType: row.answer_type, category: row.problem_category, samples: [] };
    items.set(r.id, item);
    const sample = r.sample ?? 0;
    const response = r.response ?? '';
    if (response.trim() === '') {
      // An empty response finds nothing; no judge call (the grader would return NULL).
      const details = Object.fromEntries(goldItems(row.answer, row.answer_type).map((g) => [g, false]));
      item.samples.push({ sample, judgment: { Explanation: 'empty response', CorrectnessDetails: details, ExcessiveAnswers: [] } });
      continue;
    }
    const input: DeepSearchQaJudgeInput = { problem: row.problem, answer: row.answer, answerType: row.answer_type, response };
    tasks.push({
      key: `${r.id}#${sample}`,
      input,
      inputHash: hashInput(input),
      judge,
      toLine: (judgment, judgeId, inputHash) => ({
        id: r.id,
        ...(r.sample !== undefined && r.sample !== null ? { sample } : {}),
        AnswerCorrectness: judgment,
        judge: judgeId,
        input_sha256: inputHash,
      }),
      fromLine: (line) => line.AnswerCorrectness as AnswerCorrectness,
      accept: (judgment) => {
        item.samples.push({ sample, judgment });
      },
      unavailable: () => {
        throw new InputError(responsesPath, `response "${r.id}" has no cached judgment and no judge is configured`);
      },
    });
  }
  return {
    tasks,
    cache,
    finish: () => {
      const unanswered = rows.size - items.size;
      if (unanswered > 0) notes.push(`${unanswered} of ${rows.size} dataset item(s) have no response and are not scored`);
      return { score: scoreDeepSearchQa([...items.values()]), notes };
    },
  };
}
