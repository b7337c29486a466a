// The `delegation` run kind: Delegation items + the harness's outputs.jsonl.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../../input/inputError';
import { loadFile } from '../../load/loadFile';
import type { DelegationItem } from '../../items/schemas';
import { JudgmentCache } from '../judges/cache';
import { manifestJudgeOf } from '../judges/judgeIdentity';
import { delegationJudgeFrom, exactDelegationJudge, type DelegationAnswerInput } from '../judges/delegationAnswer';
import { deepSearchQaLlmJudge } from '../judges/deepsearchqaGrader';
import { hashInput, type CacheLine, type Judge, type JudgeTask } from '../judges/judge';
import { readJsonLines, rejectDuplicates } from '../jsonl';
import { scoreDelegation, type DelegationOutput } from '../delegation';
import type { RunDetection, RunPlan, ScoreOptions } from './types';
import { judgmentsWriteTarget } from './detect';

const idLike = z.union([z.string().min(1), z.number()]).transform(String);
const outputLineSchema = z.looseObject({
  id: idLike,
  setting: z.string().min(1),
  order: z.string().nullish(),
  answer: z.string().nullable(),
  cited_doc_ids: z.array(idLike),
  searches: z.union([z.number().int().nonnegative(), z.array(z.unknown())]).nullish(),
  withheld_doc_ids: z.array(idLike).nullish(),
  withheld: z.array(idLike).nullish(),
  sample: z.number().int().nonnegative().nullish(),
});
const OUTPUT_WHAT = 'an output line {id, setting, order?, answer, cited_doc_ids, searches?, withheld_doc_ids?}';

const cacheLineSchema = z.looseObject({}) as unknown as z.ZodType<CacheLine>;
const RUN_FILES = new Set(['outputs.jsonl', 'judgments.jsonl', 'trajaudit.run.json', 'weights.json']);

/** Delegation items from a file (JSON, JSON array, JSONL) or every JSON/JSONL file of a folder. */
export function loadDelegationItems(path: string): Map<string, DelegationItem> {
  const folder = statSync(path).isDirectory();
  // In a folder, every JSON/JSONL file except the run's own files must load; files of another kind are skipped.
  const files = folder
    ? readdirSync(path)
        .sort()
        .filter((n) => /\.jsonl?$/i.test(n) && !n.endsWith('.audit.json') && !RUN_FILES.has(n))
        .map((n) => join(path, n))
    : [path];
  const items = new Map<string, DelegationItem>();
  for (const file of files) {
    const loaded = loadFile(file);
    if (loaded.detection.kind !== 'delegation-item') {
      if (folder) continue;
      throw new InputError(file, `expected Delegation items (id, query, golden_answer, golden_docs, …), found ${loaded.detection.kind}`);
    }
    if (loaded.problems.length) {
      const p = loaded.problems[0];
      throw new InputError(p.file, p.message, p);
    }
    for (const r of loaded.records) if (r.kind === 'delegation-item') items.set(String(r.item.id), r.item);
  }
  if (items.size === 0) throw new InputError(path, 'no Delegation items found');
  return items;
}

function delegationJudgeFor(options: ScoreOptions): Judge<DelegationAnswerInput, boolean> {
  if (options.delegationJudge) return options.delegationJudge;
  if (options.judge === 'llm') {
    if (!options.model) throw new InputError('score', 'the llm judge needs a model provider; none is configured (use the exact judge)');
    return delegationJudgeFrom(deepSearchQaLlmJudge(options.model, { promptsRoot: options.promptsRoot }));
  }
  return exactDelegationJudge;
}

export function planDelegation(detection: RunDetection, options: ScoreOptions): RunPlan {
  const notes: string[] = [];
  const items = loadDelegationItems(detection.files.items as string);
  const outputsPath = detection.files.outputs as string;
  const lines = readJsonLines(outputsPath, outputsPath, outputLineSchema, OUTPUT_WHAT);
  const keyOf = (o: { id: string; setting: string; order?: string | null; sample?: number | null }) => `${o.id}#${o.setting}#${o.order ?? ''}#${o.sample ?? 0}`;
  rejectDuplicates(lines, keyOf, outputsPath, (k) => `output ${k.split('#').filter(Boolean).join(' / ')}`);
  const cachePath = detection.files.judgments as string;
  const cache = new JudgmentCache(
    cachePath,
    cachePath,
    cacheLineSchema,
    'a judgment line',
    (l) =>
      typeof l.correct === 'boolean' && l.id !== undefined && typeof l.setting === 'string'
        ? keyOf({ id: String(l.id), setting: l.setting, order: l.order as string | undefined, sample: l.sample as number | undefined })
        : undefined,
    judgmentsWriteTarget(detection),
    { legacyJudge: manifestJudgeOf(detection), labelsOf: (line) => ({ correct: String(line.correct) }) },
  );
  const judge = delegationJudgeFor(options);
  const outputs: DelegationOutput[] = [];
  const tasks: JudgeTask<DelegationAnswerInput, boolean>[] = [];
  for (const { value: o, line } of lines) {
    const item = items.get(o.id);
    if (!item) throw new InputError(outputsPath, `item "${o.id}" is not among the Delegation items`, { line, column: 1 });
    const withheld = o.withheld_doc_ids ?? o.withheld ?? undefined;
    const output: DelegationOutput = {
      id: o.id,
      setting: o.setting,
      order: o.order ?? undefined,
      answer: o.answer ?? '',
      cited: o.cited_doc_ids,
      searches: Array.isArray(o.searches) ? o.searches.length : (o.searches ?? undefined),
      withheld,
    };
    outputs.push(output);
    if (!output.answer.trim()) {
      output.correct = false;
      continue;
    }
    const golden = item.golden_answer;
    const input: DelegationAnswerInput = {
      query: item.query,
      goldenAnswer: Array.isArray(golden) ? golden.map(String) : String(golden),
      answer: output.answer,
    };
    tasks.push({
      key: keyOf(o),
      input,
      inputHash: hashInput(input),
      judge,
      toLine: (correct, judgeId, inputHash) => ({
        id: o.id,
        setting: o.setting,
        ...(o.order ? { order: o.order } : {}),
        ...(typeof o.sample === 'number' ? { sample: o.sample } : {}),
        correct,
        judge: judgeId,
        input_sha256: inputHash,
      }),
      fromLine: (l) => l.correct as boolean,
      accept: (correct) => {
        output.correct = correct;
      },
      unavailable: () => undefined,
    });
  }
  return {
    tasks,
    cache,
    finish: () => {
      const score = scoreDelegation(outputs, items);
      if (score.unknown_citations)
        notes.push(`${score.unknown_citations} cited id(s) are none of their item's documents (run-local ids such as rs1 must be mapped back by the harness)`);
      if (outputs.some((o) => o.setting === 'search') && !outputs.some((o) => o.withheld?.length))
        notes.push('setting search: no output lists withheld_doc_ids, so withheld-document recovery is not computed');
      return { score, notes };
    },
  };
}
