// Benchmark: load + normalize + statistics against bare JSON.parse of the same bytes, in the same run.
// Target (issue #2): ≤ 2.0× JSON.parse. Tokenizing (o200k_base) is reported separately.
// Run: npm run bench:load   (prints a table; BENCH_JSON=1 prints JSON too; `-- --readers` runs only the readers section, `-- --readers=atif,codex` only those formats)
import { loadText } from '../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../src/core/load/loadRecord';
import { countTokens, countTrajectory } from '../../src/core/stats/statistics';
import { hugeTrajectory, searchAuditBenchCorpus } from './corpus';
import { readerRows } from './loadReaders';
import { best, time } from './timing';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

const quick = process.argv.includes('--quick');
const rows: { figure: string; target: string; measured: string; baseline: string; ratio: number }[] = [];

function printTable(): void {
  console.log('\n| figure | target | measured | baseline (JSON.parse) | ratio |\n| --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.figure} | ${r.target} | ${r.measured} | ${r.baseline} | ${r.ratio.toFixed(2)}× |`);
  if (process.env.BENCH_JSON) console.log(JSON.stringify({ bench: 'load', rows }));
}

const readersArg = process.argv.find((arg) => arg === '--readers' || arg.startsWith('--readers='));
if (readersArg) {
  const only = readersArg.includes('=') ? readersArg.slice('--readers='.length).split(',').filter(Boolean) : undefined;
  rows.push(...readerRows(quick ? 1 : 3, console.log, only));
  printTable();
  process.exit(0);
}

// 1. SearchAuditBench-shaped corpus.
const count = quick ? 200 : 1243;
const corpus = searchAuditBenchCorpus(count);
const bytes = corpus.reduce((s, t) => s + Buffer.byteLength(t), 0);
let messages = 0;
const tokensPerTrajectory: number[] = [];
const runs = quick ? 1 : 3;
const parseMs = best(runs, () => {
  for (const text of corpus) JSON.parse(text);
});
const loadMs = best(runs, () => {
  messages = 0;
  for (const text of corpus) {
    const loaded = loadText(text, 'bench.json');
    const record = loaded.records[0];
    if (!isTrajectoryRecord(record)) throw new Error('not a trajectory');
    messages += countTrajectory(record.trajectory).messages;
  }
});
const tokenizeMs = time(() => {
  for (const text of corpus) {
    const record = loadText(text, 'bench.json').records[0];
    if (isTrajectoryRecord(record)) tokensPerTrajectory.push(countTokens(record.trajectory).total);
  }
});
tokensPerTrajectory.sort((a, b) => a - b);
const meanTokens = tokensPerTrajectory.reduce((s, t) => s + t, 0) / tokensPerTrajectory.length;
console.log(
  `corpus: ${count} trajectories, ${(bytes / 2 ** 20).toFixed(0)} MiB, mean ${(messages / count).toFixed(1)} messages, ` +
    `tokens mean ${(meanTokens / 1000).toFixed(1)}K / median ${(percentile(tokensPerTrajectory, 0.5) / 1000).toFixed(1)}K / P90 ${(percentile(tokensPerTrajectory, 0.9) / 1000).toFixed(1)}K`,
);
rows.push({
  figure: `load+normalize+stats, ${count} SearchAuditBench-shaped trajectories`,
  target: '≤ 2.0× JSON.parse',
  measured: `${loadMs.toFixed(0)} ms`,
  baseline: `${parseMs.toFixed(0)} ms`,
  ratio: loadMs / parseMs,
});
rows.push({
  figure: `tokenize (o200k_base), same corpus`,
  target: 'reported',
  measured: `${(tokenizeMs / 1000).toFixed(1)} s (${((meanTokens * count) / (tokenizeMs / 1000) / 1e6).toFixed(2)} M tokens/s)`,
  baseline: `${parseMs.toFixed(0)} ms`,
  ratio: tokenizeMs / parseMs,
});

// 2. One 120 MB trajectory with 5,000 messages.
const hugeMb = quick ? 20 : 120;
const huge = hugeTrajectory(hugeMb, 5000);
const hugeParse = best(runs, () => JSON.parse(huge));
const hugeLoad = best(runs, () => {
  const record = loadText(huge, 'huge.json').records[0];
  if (isTrajectoryRecord(record)) countTrajectory(record.trajectory);
});
rows.push({
  figure: `load+normalize+stats, one ${(Buffer.byteLength(huge) / 2 ** 20).toFixed(0)} MiB / 5,000-message trajectory`,
  target: '≤ 2.0× JSON.parse',
  measured: `${hugeLoad.toFixed(0)} ms`,
  baseline: `${hugeParse.toFixed(0)} ms`,
  ratio: hugeLoad / hugeParse,
});

// 3. Every format reader on a large file of its format.
rows.push(...readerRows(runs));

printTable();
