#!/usr/bin/env node
// Runs every benchmark under test/bench/ and writes BENCHMARKS.md: one table of figure, target,
// measured value, baseline measured in the same run, and their ratio. `npm run bench`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const benches = [
  { name: 'load', issue: '#2', cmd: ['node', '--expose-gc', '--max-old-space-size=8192', '-r', 'tsx/cjs', 'test/bench/load.ts'] },
  { name: 'editor', issue: '#3', cmd: ['node', 'test/bench/editor.mjs'], optional: 'test/bench/editor.mjs' },
  { name: 'timeline', issue: '#3', cmd: ['node', 'test/bench/timeline.mjs'] },
  { name: 'audit', issue: '#4', cmd: ['node', '-r', 'tsx/cjs', 'test/bench/audit.ts'] },
  { name: 'score', issue: '#5', cmd: ['node', '-r', 'tsx/cjs', 'test/bench/score.ts'] },
  // The cold half indexes 1,243 files (~480 MiB, tokenized): about a minute and a half on 2 cores.
  { name: 'collection', issue: '#16', cmd: ['node', '--expose-gc', '--max-old-space-size=8192', '-r', 'tsx/cjs', 'test/bench/collection.ts'] },
];

const sections = [];
let failures = 0;
for (const bench of benches) {
  if (bench.optional && !existsSync(join(root, bench.optional))) continue;
  process.stderr.write(`[bench] ${bench.name}…\n`);
  const started = Date.now();
  const result = spawnSync(bench.cmd[0], bench.cmd.slice(1), {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, BENCH_JSON: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = (result.stdout ?? '')
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{') && l.includes('"bench"'));
  // A bench that measured but missed a target exits 1 and still prints its figures.
  if (!line) {
    failures++;
    sections.push({ bench, rows: [], error: `exit ${result.status}: ${(result.stderr || result.stdout || '').trim().split('\n').slice(-3).join(' / ')}` });
    continue;
  }
  sections.push({ bench, rows: JSON.parse(line).rows, seconds: (Date.now() - started) / 1000 });
}

const fmt = (r) => (typeof r === 'number' && Number.isFinite(r) ? `${r.toFixed(2)}×` : '—');
const lines = [
  '# Benchmarks',
  '',
  `Produced by \`npm run bench\` (scripts/benchmarks.mjs) on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}.`,
  'Every baseline is measured in the same run as the figure; the ratio is measured / baseline.',
  '',
  '| issue | bench | figure | target | measured | baseline | ratio |',
  '| --- | --- | --- | --- | --- | --- | --- |',
];
for (const s of sections) {
  if (s.error) lines.push(`| ${s.bench.issue} | ${s.bench.name} | FAILED | — | ${s.error.replace(/\|/g, '/')} | — | — |`);
  for (const r of s.rows) lines.push(`| ${s.bench.issue} | ${s.bench.name} | ${r.figure} | ${r.target} | ${r.measured} | ${r.baseline} | ${fmt(r.ratio)} |`);
}
// The hand-written "## History" section (the runs and what was tried) survives a regeneration.
const previous = existsSync(join(root, 'BENCHMARKS.md')) ? readFileSync(join(root, 'BENCHMARKS.md'), 'utf8') : '';
const history = previous.indexOf('\n## History');
writeFileSync(join(root, 'BENCHMARKS.md'), `${lines.join('\n')}\n${history === -1 ? '' : previous.slice(history)}`);
process.stdout.write(`${lines.join('\n')}\n`);
process.exitCode = failures ? 1 : 0;
