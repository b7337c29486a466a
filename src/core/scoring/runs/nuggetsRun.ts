// The `nuggets` run kind: gold_nuggets.jsonl + judgments.jsonl (coverage per nugget, also the
// judgment cache) and/or answers.jsonl (judged by the nugget coverage judge), optional clarifications.jsonl.
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from '../../input/inputError';
import { JudgmentCache } from '../judges/cache';
import { manifestJudgeOf } from '../judges/judgeIdentity';
import { hashInput, type CacheLine, type JudgeTask } from '../judges/judge';
import { COVERAGE_LABELS, nuggetCoverageJudge, type CoverageLabel, type NuggetJudgeInput } from '../judges/nuggetCoverage';
import { readJsonLines, rejectDuplicates } from '../jsonl';
import { restoreScore100, scoreNuggets, DEFAULT_PARTIAL_CREDIT, type Clarification, type NuggetResult } from '../nuggets';
import type { RunDetection, RunPlan, ScoreOptions } from './types';
import { judgmentsWriteTarget } from './detect';

const idLike = z.union([z.string().min(1), z.number()]).transform(String);
const goldLineSchema = z.looseObject({
  id: idLike,
  nuggets: z
    .array(
      z.looseObject({
        text: z.string(),
        weight: z.union([z.literal(1), z.literal(2), z.literal(3)], { message: 'expected weight 1, 2 or 3' }),
      }),
    )
    .min(1, { message: 'expected at least one nugget' }),
  fused_query: z.string().nullish(),
  blurred_query: z.string().nullish(),
});
const GOLD_WHAT = 'a gold line {id, nuggets: [{text, weight}]}';

const judgmentLineSchema = z.looseObject({
  id: idLike,
  condition: idLike,
  coverage: z.array(z.enum(COVERAGE_LABELS, { message: 'expected "full", "partial" or "none"' })),
}) as unknown as z.ZodType<CacheLine>;

const answerLineSchema = z.looseObject({ id: idLike, condition: idLike, answer: z.string() });
const clarificationLineSchema = z.looseObject({
  id: idLike,
  condition: idLike,
  turns: z.array(z.looseObject({ question: z.string(), answer: z.string().nullable(), dimension: z.string().nullish() })),
});

export function planNuggets(detection: RunDetection, options: ScoreOptions): RunPlan {
  const notes: string[] = [];
  const partial = options.partialCredit ?? DEFAULT_PARTIAL_CREDIT;
  if (!(partial >= 0 && partial <= 1)) throw new InputError('score', `partial credit must be between 0 and 1, got ${partial}`);
  const goldPath = detection.files.gold as string;
  const gold = readJsonLines(goldPath, goldPath, goldLineSchema, GOLD_WHAT);
  rejectDuplicates(
    gold,
    (g) => g.id,
    goldPath,
    (id) => `instance "${id}"`,
  );
  const nuggets = new Map(gold.map((g) => [g.value.id, g.value]));

  const judgmentsPath = detection.files.judgments as string;
  const cache = new JudgmentCache(
    judgmentsPath,
    judgmentsPath,
    judgmentLineSchema,
    'a judgment line {id, condition, coverage: ["full"|"partial"|"none", …]}',
    (line) => `${String(line.id)}#${String(line.condition)}`,
    judgmentsWriteTarget(detection),
    {
      legacyJudge: manifestJudgeOf(detection),
      labelsOf: (line) => Object.fromEntries((line.coverage as string[]).map((label, i) => [`nugget ${i + 1}`, label])),
    },
  );
  const answersPath = detection.files.answers;
  if (cache.size === 0 && !answersPath)
    throw new InputError(detection.folder, 'nuggets run has neither judgments.jsonl (coverage per nugget) nor answers.jsonl (answers to judge)');

  const results = new Map<string, NuggetResult>();
  const record = (id: string, condition: string, coverage: CoverageLabel[], where: { file: string; line?: number }) => {
    const g = nuggets.get(id);
    if (!g) throw new InputError(where.file, `instance "${id}" is not in ${goldPath}`, { line: where.line, column: 1 });
    if (coverage.length !== g.nuggets.length) {
      throw new InputError(where.file, `coverage has ${coverage.length} label(s) but instance "${id}" has ${g.nuggets.length} nugget(s)`, {
        line: where.line,
        column: 1,
      });
    }
    results.set(`${id}#${condition}`, {
      id,
      condition,
      score: restoreScore100(
        coverage,
        g.nuggets.map((n) => n.weight),
        partial,
      ),
    });
  };

  const tasks: JudgeTask<NuggetJudgeInput, CoverageLabel[]>[] = [];
  const answerKeys = new Set<string>();
  let unjudged = 0;
  if (answersPath) {
    const answers = readJsonLines(answersPath, answersPath, answerLineSchema, 'an answer line {id, condition, answer}');
    rejectDuplicates(
      answers,
      (a) => `${a.id}#${a.condition}`,
      answersPath,
      (key) => `answer ${key.replace('#', ' / condition ')}`,
    );
    const judge = options.model ? nuggetCoverageJudge(options.model, { promptsRoot: options.promptsRoot }) : undefined;
    for (const { value: a, line } of answers) {
      const g = nuggets.get(a.id);
      if (!g) throw new InputError(answersPath, `instance "${a.id}" is not in ${goldPath}`, { line, column: 1 });
      const key = `${a.id}#${a.condition}`;
      answerKeys.add(key);
      const input: NuggetJudgeInput = {
        query: g.fused_query ?? g.blurred_query ?? '',
        nuggets: g.nuggets.map((n) => ({ text: n.text, weight: n.weight })),
        answer: a.answer,
      };
      tasks.push({
        key,
        input,
        inputHash: hashInput(input),
        judge,
        toLine: (coverage, judgeId, inputHash) => ({ id: a.id, condition: a.condition, coverage, judge: judgeId, input_sha256: inputHash }),
        fromLine: (l) => l.coverage as CoverageLabel[],
        accept: (coverage) => record(a.id, a.condition, coverage, { file: answersPath, line }),
        unavailable: () => {
          unjudged++;
        },
      });
    }
  }

  const clarifications: Clarification[] = [];
  const clarPath = detection.files.clarifications;
  if (clarPath && existsSync(clarPath)) {
    const lines = readJsonLines(clarPath, clarPath, clarificationLineSchema, 'a clarification line {id, condition, turns: [{question, answer, dimension?}]}');
    rejectDuplicates(
      lines,
      (c) => `${c.id}#${c.condition}`,
      clarPath,
      (key) => `clarification ${key.replace('#', ' / condition ')}`,
    );
    for (const { value } of lines) clarifications.push({ id: value.id, condition: value.condition, turns: value.turns });
  }

  return {
    tasks,
    cache,
    finish: () => {
      if (unjudged) {
        throw new InputError(
          answersPath ?? detection.folder,
          `${unjudged} answer(s) have no cached coverage in judgments.jsonl and the nugget coverage judge (an LLM) needs a model; none is configured`,
        );
      }
      // Cached coverage for (id, condition) pairs that have no answer line (judgments given directly).
      for (const { key, value, line } of cache.lines()) {
        if (answerKeys.has(key)) continue;
        record(String(value.id), String(value.condition), value.coverage as CoverageLabel[], { file: judgmentsPath, line: line || undefined });
      }
      const list = [...results.values()].sort((a, b) => a.condition.localeCompare(b.condition) || a.id.localeCompare(b.id, undefined, { numeric: true }));
      const score = scoreNuggets(list, clarifications, { partialCredit: partial, resamples: options.resamples, seed: options.seed });
      for (const [name, pairs] of Object.entries(score.improvement_pairs)) {
        const n = score.conditions[name]?.n ?? 0;
        if (pairs < n) notes.push(`improvement of ${name}: ${pairs} of ${n} instance(s) are paired with orig; unpaired ones are left out`);
      }
      if (Object.keys(score.conditions).length > 0 && !score.conditions.orig) notes.push('no "orig" condition: improvements are not computed');
      return { score, notes };
    },
  };
}
