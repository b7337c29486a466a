// Benchmark: scoring run folders. Generates, in a temp folder, 1,243 audit cases (gold.jsonl +
// predictions.jsonl with repair grades) and 900 DeepSearchQA items (CSV dataset + responses.jsonl),
// judges the DeepSearchQA responses once with a counting fake model judge (filling judgments.jsonl),
// then times each scoring against a baseline measured in the same run: reading and parsing the
// same files (readFileSync + JSON.parse per line / csv-parse). Target: < 1 s per scoring.
// Also reports the model calls the judgment cache saves on a re-score (must be all of them).
// Run: node -r tsx/cjs test/bench/score.ts   (BENCH_JSON=1 also prints JSON)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { ROOT_CAUSES } from '../../src/core/model/rootCauses';
import type { AnswerCorrectness, DeepSearchQaJudgeInput } from '../../src/core/scoring/judges/answerCorrectness';
import { exactJudgment } from '../../src/core/scoring/judges/exact';
import type { Judge } from '../../src/core/scoring/judges/judge';
import { scoreRunFolder, scoreRunFolderSync } from '../../src/core/scoring/scoreRunFolder';
import { mulberry32 } from '../../src/core/random';

const AUDIT_CASES = 1243;
const DSQA_ITEMS = 900;
const RUNS = 5;

function time(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function timeAsync(fn: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function best(fn: () => void): { first: number; best: number } {
  const times = Array.from({ length: RUNS }, () => time(fn));
  return { first: times[0], best: Math.min(...times) };
}

const root = mkdtempSync(join(tmpdir(), 'trajaudit-bench-score-'));
const random = mulberry32(42);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

// ---- 1,243 audit cases -----------------------------------------------------------------------
const auditDir = join(root, 'audit');
const gold: unknown[] = [];
const predictions: unknown[] = [];
for (let i = 0; i < AUDIT_CASES; i++) {
  const messages = 20 + Math.floor(random() * 120);
  const k = 2 + Math.floor(random() * (messages - 3));
  const s = Math.max(0, k - Math.floor(random() * 3));
  const e = Math.min(messages - 1, k + Math.floor(random() * 3));
  const rubrics = Array.from({ length: 3 + Math.floor(random() * 3) }, (_, j) => `rubric ${j + 1} of case ${i}`);
  const cause = pick(ROOT_CAUSES);
  gold.push({ id: `case-${i}`, critical_step: k, tolerance_span: [s, e], root_cause: cause, repair_rubrics: rubrics, messages });
  if (random() < 0.97) {
    const step = random() < 0.5 ? k : Math.max(0, k + Math.floor(random() * 9) - 4);
    predictions.push({
      id: `case-${i}`,
      critical_step: step,
      root_cause: random() < 0.6 ? cause : pick(ROOT_CAUSES),
      repair_directive: `Before committing, verify the candidate of case ${i} against a primary source.`,
      repair_grades: rubrics.map(() => random() < 0.85),
    });
  }
}
mkdirSync(auditDir);
writeFileSync(join(auditDir, 'gold.jsonl'), jsonl(gold));
writeFileSync(join(auditDir, 'predictions.jsonl'), jsonl(predictions));

// ---- 900 DeepSearchQA items ------------------------------------------------------------------
const dsqaDir = join(root, 'deepsearchqa');
mkdirSync(dsqaDir);
const categories = ['Politics & Government', 'Finance & Economics', 'Science', 'Health', 'History', 'Geography', 'Media'];
const names = ['Brazil', 'Germany', 'Italy', 'Argentina', 'France', 'Uruguay', 'Spain', 'England', 'Japan', 'Chile', 'Peru', 'Norway'];
const csvRows = ['id,problem,problem_category,answer,answer_type'];
const responses: unknown[] = [];
for (let i = 0; i < DSQA_ITEMS; i++) {
  const set = random() < 0.65;
  const gold = set ? [...new Set(Array.from({ length: 2 + Math.floor(random() * 5) }, () => pick(names)))] : [pick(names)];
  const found = gold.filter(() => random() < 0.8);
  const extra = random() < 0.25 ? [pick(names.filter((n) => !gold.includes(n)))] : [];
  const answer = set ? gold.join(', ') : gold[0];
  csvRows.push(`q${i},"Which countries satisfy constraint ${i}?",${pick(categories)},"${answer}",${set ? 'Set Answer' : 'Single Answer'}`);
  responses.push({ id: `q${i}`, response: [...found, ...extra].join(', ') || 'I could not find an answer.' });
}
writeFileSync(join(dsqaDir, 'dataset.csv'), `${csvRows.join('\n')}\n`);
writeFileSync(join(dsqaDir, 'responses.jsonl'), jsonl(responses));

/** A model-backed judge stand-in: the exact judgment, counted as a model call. */
const fake = { calls: 0 };
const fakeJudge: Judge<DeepSearchQaJudgeInput, AnswerCorrectness> = {
  id: 'llm/bench-fake/v1',
  usesModel: true,
  judge: async (input) => {
    fake.calls++;
    return exactJudgment(input);
  },
};

const readParseLines = (path: string) => {
  for (const line of readFileSync(path, 'utf8').split('\n')) if (line.trim()) JSON.parse(line);
};

async function main(): Promise<void> {
  const rows: { figure: string; target: string; measured: string; baseline: string; ratio: number; ok: boolean }[] = [];

  // Audit.
  const auditBase = best(() => {
    readParseLines(join(auditDir, 'gold.jsonl'));
    readParseLines(join(auditDir, 'predictions.jsonl'));
  });
  let auditN = 0;
  const auditScore = best(() => {
    const r = scoreRunFolderSync(auditDir);
    auditN = r.score.kind === 'audit' ? r.score.n : 0;
  });
  if (auditN !== AUDIT_CASES) throw new Error(`scored ${auditN} audit cases`);
  rows.push({
    figure: `audit: ${AUDIT_CASES} cases (gold.jsonl + predictions.jsonl, repair grades)`,
    target: '< 1 s',
    measured: `${auditScore.best.toFixed(0)} ms (first ${auditScore.first.toFixed(0)} ms)`,
    baseline: `${auditBase.best.toFixed(1)} ms`,
    ratio: auditScore.best / auditBase.best,
    ok: auditScore.first < 1000,
  });

  // DeepSearchQA: judge once (fills judgments.jsonl), then re-score from the cache.
  const judgeOnce = await timeAsync(async () => {
    await scoreRunFolder(dsqaDir, { answerJudge: fakeJudge, concurrency: 8 });
  });
  const callsFirst = fake.calls;
  const dsqaBase = best(() => {
    parseCsv(readFileSync(join(dsqaDir, 'dataset.csv'), 'utf8'), { columns: true, bom: true, skip_empty_lines: true });
    readParseLines(join(dsqaDir, 'responses.jsonl'));
    readParseLines(join(dsqaDir, 'judgments.jsonl'));
  });
  let cached = 0;
  let judged = -1;
  const rescoreTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    rescoreTimes.push(
      await timeAsync(async () => {
        const r = await scoreRunFolder(dsqaDir, { answerJudge: fakeJudge });
        cached = r.judging.cached;
        judged = r.judging.judged;
      }),
    );
  }
  const rescore = { first: rescoreTimes[0], best: Math.min(...rescoreTimes) };
  rows.push({
    figure: `deepsearchqa: ${DSQA_ITEMS} items, re-score from cached judgments`,
    target: '< 1 s',
    measured: `${rescore.best.toFixed(0)} ms (first ${rescore.first.toFixed(0)} ms)`,
    baseline: `${dsqaBase.best.toFixed(1)} ms`,
    ratio: rescore.best / dsqaBase.best,
    ok: rescore.first < 1000,
  });
  const syncPath = best(() => {
    scoreRunFolderSync(dsqaDir);
  });
  rows.push({
    figure: `deepsearchqa: ${DSQA_ITEMS} items, re-score from cached judgments (sync path, the offline CLI)`,
    target: '< 1 s',
    measured: `${syncPath.best.toFixed(0)} ms (first ${syncPath.first.toFixed(0)} ms)`,
    baseline: `${dsqaBase.best.toFixed(1)} ms`,
    ratio: syncPath.best / dsqaBase.best,
    ok: syncPath.first < 1000,
  });

  // The exact judge on every item (no cache: a folder without judgments.jsonl).
  const exactDir = join(root, 'deepsearchqa-exact');
  mkdirSync(exactDir);
  writeFileSync(join(exactDir, 'dataset.csv'), readFileSync(join(dsqaDir, 'dataset.csv')));
  writeFileSync(join(exactDir, 'responses.jsonl'), readFileSync(join(dsqaDir, 'responses.jsonl')));
  const exactBase = best(() => {
    parseCsv(readFileSync(join(exactDir, 'dataset.csv'), 'utf8'), { columns: true, bom: true, skip_empty_lines: true });
    readParseLines(join(exactDir, 'responses.jsonl'));
  });
  const exactJudged = best(() => {
    scoreRunFolderSync(exactDir);
  });
  rows.push({
    figure: `deepsearchqa: ${DSQA_ITEMS} items, exact judge on every response`,
    target: '< 1 s',
    measured: `${exactJudged.best.toFixed(0)} ms (first ${exactJudged.first.toFixed(0)} ms)`,
    baseline: `${exactBase.best.toFixed(1)} ms`,
    ratio: exactJudged.best / exactBase.best,
    ok: exactJudged.first < 1000,
  });

  console.log(`bench folder: ${root} (best of ${RUNS}; "first" is the first, cold run; baseline = read + parse the same files)`);
  console.log('\n| figure | target | measured | baseline (read+parse) | ratio | met |\n| --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.figure} | ${r.target} | ${r.measured} | ${r.baseline} | ${r.ratio.toFixed(1)}× | ${r.ok ? 'yes' : 'NO'} |`);
  const saved = cached;
  console.log(
    `\njudge calls: first scoring ${callsFirst} model calls (${(judgeOnce / 1000).toFixed(2)} s with the fake judge); ` +
      `re-score: ${judged} calls, ${saved} of ${DSQA_ITEMS} saved by the judgment cache${saved === DSQA_ITEMS && judged === 0 ? ' (all)' : ' — NOT ALL'}`,
  );
  if (process.env.BENCH_JSON) console.log(JSON.stringify({ bench: 'score', rows, callsFirst, rescoreCalls: judged, saved }));
  rmSync(root, { recursive: true, force: true });
  if (saved !== DSQA_ITEMS || judged !== 0 || rows.some((r) => !r.ok)) process.exitCode = 1;
}

void main();
