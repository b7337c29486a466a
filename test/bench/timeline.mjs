#!/usr/bin/env node
// bench:timeline: the timeline's speed in Chromium against the fake host (test/bench/webview/
// timeline.spec.ts, run as the Playwright project `webview-bench`, one worker): first rows of a
// 5,000-message view, scrolling and jumping through it, expanding a 1 MB tool return, each with a
// baseline from the same run. Prints a table (BENCH_JSON=1: the JSON line scripts/benchmarks.mjs
// reads); exit code 1 when a target is missed. TRAJAUDIT_BENCH_RUNS=N sets the repetitions (5).
// Prerequisites: npm run build; Debian's Chromium (node scripts/setup-vscode.mjs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'trajaudit-bench-timeline-'));
const out = join(dir, 'figures.json');
const run = spawnSync('npx', ['playwright', 'test', '--project=webview-bench', '--reporter=line'], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, TRAJAUDIT_BENCH_OUT: out },
});
let figures;
try {
  figures = JSON.parse(readFileSync(out, 'utf8'));
} catch {
  process.stderr.write(`bench:timeline: the Playwright run wrote no figures (exit ${run.status})\n`);
  process.exit(2);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const show = (value, unit) => (unit === 'count' ? String(value) : `${value.toFixed(1)} ms`);
const rows = figures.map((f) => ({
  figure: f.figure,
  target: f.target,
  measured: show(f.measured, f.unit),
  baseline: `${show(f.baseline, f.unit)} (${f.baselineOf})`,
  ratio: f.baseline > 0 ? f.measured / f.baseline : null,
  met: f.limit === undefined || (f.unit === 'count' ? f.measured <= f.limit : f.measured < f.limit),
}));
process.stdout.write(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}\n`,
);
process.stdout.write('| figure | target | measured | baseline | ratio |\n| --- | --- | --- | --- | --- |\n');
for (const r of rows)
  process.stdout.write(
    `| ${r.figure} | ${r.target}${r.met ? '' : ' (missed)'} | ${r.measured} | ${r.baseline} | ${r.ratio === null ? '—' : `${r.ratio.toFixed(2)}×`} |\n`,
  );
if (process.env.BENCH_JSON) process.stdout.write(`${JSON.stringify({ bench: 'timeline', rows: rows.map(({ met: _met, ...r }) => r) })}\n`);
process.exitCode = run.status !== 0 ? 2 : rows.every((r) => r.met) ? 0 : 1;
