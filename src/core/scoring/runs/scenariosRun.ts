// The `scenarios` run kind: the seed-003 scenario set + results.jsonl (+ optional weights.json).
// Mechanical criteria left out of a results line are judged by the scenario-criterion judge when
// the line carries the agent's `deliverable` and a model is configured; otherwise they count as
// not hit. Human criteria always come from the results file.
import { z } from 'zod';
import { idKeyedRecord } from '../../input/idKeyed';
import { InputError } from '../../input/inputError';
import { parseJson } from '../../input/jsonText';
import { readTextFile } from '../../input/readText';
import { checkSchema } from '../../input/schemaCheck';
import { loadFile } from '../../load/loadFile';
import type { ScenarioSet } from '../../items/schemas';
import { JudgmentCache } from '../judges/cache';
import { manifestJudgeOf } from '../judges/judgeIdentity';
import { hashInput, type CacheLine, type JudgeTask } from '../judges/judge';
import { scenarioCriterionJudge, type CriterionJudgeInput } from '../judges/scenarioCriterion';
import { readJsonLines, rejectDuplicates } from '../jsonl';
import { checkDeliverable, scoreScenarios, type ScenarioResult, type ScenarioWeights } from '../scenarios';
import type { RunDetection, RunPlan, ScoreOptions } from './types';
import { judgmentsWriteTarget } from './detect';

const resultLineSchema = z.looseObject({
  scenario: z.string().min(1),
  criteria: idKeyedRecord(z.boolean({ message: 'expected true (hit) or false per criterion' })), // criterion ids come from data
  silent_citations: z.number().int().nonnegative().nullish(),
  deliverable: z.string().nullish(),
});
const RESULT_WHAT = 'a results line {scenario, criteria: {<criterion id>: bool}, silent_citations?}';

const weightsSchema = z.looseObject({
  dimensions: z.record(z.string(), z.number().nonnegative()).nullish(),
  evidence: z.record(z.string(), z.number().nonnegative()).nullish(),
});

const cacheLineSchema = z.looseObject({}) as unknown as z.ZodType<CacheLine>;

export function loadScenarioSet(path: string): ScenarioSet {
  const loaded = loadFile(path);
  const record = loaded.records[0];
  if (!record || record.kind !== 'scenario-set')
    throw new InputError(path, `expected a scenario set (an object with meta and scenarios[].criteria[]), found ${loaded.detection.kind}`, { path: '$' });
  return record.scenarioSet;
}

export function planScenarios(detection: RunDetection, options: ScoreOptions): RunPlan {
  const notes: string[] = [];
  const set = loadScenarioSet(detection.files.scenarios as string);
  const resultsPath = detection.files.results as string;
  const lines = readJsonLines(resultsPath, resultsPath, resultLineSchema, RESULT_WHAT);
  rejectDuplicates(
    lines,
    (l) => l.scenario,
    resultsPath,
    (id) => `scenario "${id}"`,
  );
  const scenarios = new Map(set.scenarios.map((s) => [s.id, s]));
  const results = new Map<string, ScenarioResult>();
  const cachePath = detection.files.judgments as string;
  const cache = new JudgmentCache(
    cachePath,
    cachePath,
    cacheLineSchema,
    'a judgment line',
    (line) =>
      typeof line.scenario === 'string' && typeof line.criterion === 'string' && typeof line.hit === 'boolean'
        ? `${line.scenario}#${line.criterion}`
        : undefined,
    judgmentsWriteTarget(detection),
    { legacyJudge: manifestJudgeOf(detection), labelsOf: (line) => ({ hit: String(line.hit) }) },
  );
  const judge = options.model ? scenarioCriterionJudge(options.model, { promptsRoot: options.promptsRoot }) : undefined;
  const tasks: JudgeTask<CriterionJudgeInput, boolean>[] = [];
  for (const { value, line } of lines) {
    const scenario = scenarios.get(value.scenario);
    if (!scenario)
      throw new InputError(resultsPath, `scenario "${value.scenario}" is not in the scenario set (${[...scenarios.keys()].join(', ')})`, { line, column: 1 });
    const ids = new Set(scenario.criteria.map((c) => c.id));
    const unknown = Object.keys(value.criteria).find((id) => !ids.has(id));
    if (unknown) throw new InputError(resultsPath, `criterion "${unknown}" is not a criterion of ${scenario.id}`, { line, column: 1 });
    const result: ScenarioResult = { criteria: { ...value.criteria }, silent_citations: value.silent_citations ?? undefined };
    results.set(scenario.id, result);
    if (!value.deliverable) continue;
    // A deterministic failure (an unregistered citation, a cross-grade label) wins over a mark.
    const checked = checkDeliverable(set, scenario, value.deliverable);
    for (const f of checked.failures) {
      if (result.criteria[f.criterion] === true)
        notes.push(`${scenario.id}: ${f.criterion} is marked hit in ${resultsPath}, but the deliverable ${f.reason}; counted as not hit`);
      result.criteria[f.criterion] = false;
    }
    if (checked.failures.length) result.mechanical = checked.failures;
    if (checked.silentCitations.length) {
      result.silent = checked.silentCitations;
      result.silent_citations = Math.max(result.silent_citations ?? 0, checked.silentCitations.length);
    }
    for (const c of scenario.criteria) {
      if (c.check !== 'mechanical' || typeof result.criteria[c.id] === 'boolean') continue;
      const input: CriterionJudgeInput = {
        scenarioId: scenario.id,
        scenarioInput: scenario.input ?? '',
        trap: typeof scenario.trap === 'string' ? scenario.trap : '',
        criterionId: c.id,
        criterionText: c.text,
        deliverable: value.deliverable,
      };
      tasks.push({
        key: `${scenario.id}#${c.id}`,
        input,
        inputHash: hashInput(input),
        judge,
        toLine: (hit, judgeId, inputHash) => ({ scenario: scenario.id, criterion: c.id, hit, judge: judgeId, input_sha256: inputHash }),
        fromLine: (l) => l.hit as boolean,
        accept: (hit) => {
          result.criteria[c.id] = hit;
        },
        unavailable: () => undefined,
      });
    }
  }
  let weights: ScenarioWeights = {};
  const weightsPath = detection.files.weights;
  if (weightsPath) {
    const text = readTextFile(weightsPath);
    const w = checkSchema(
      weightsSchema,
      parseJson(text, weightsPath),
      { file: weightsPath, text },
      'a weights file {dimensions: {D1: w, …}, evidence: {E1: w, …}}',
    );
    weights = { dimensions: w.dimensions ?? undefined, evidence: w.evidence ?? undefined };
  }
  return {
    tasks,
    cache,
    finish: () => {
      const score = scoreScenarios(set, results, weights);
      notes.push(score.weights.note);
      for (const [id, list] of Object.entries(score.missing)) notes.push(`${id}: no result for ${list.join(', ')} (counted as not hit)`);
      return { score, notes };
    },
  };
}
