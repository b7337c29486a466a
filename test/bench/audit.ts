// Benchmark: each audit method on the sample trajectories against the local mock model server
// (real SDKs, simulated latency and prompt caching). Prints calls, input tokens, the share of
// input served from the cached prefix, and wall time; and checks that SearchAuditor's three
// branches overlap: stage-1 wall time against the sum of the three branch latencies.
// Run: npm run bench:audit
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHeuristicAudit, runModelAudit } from '../../src/core/audit/runAudit';
import type { AuditMethod } from '../../src/core/audit/types';
import { loadFile } from '../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../src/core/load/loadRecord';
import type { Trajectory } from '../../src/core/model/trajectory';
import { createModelClient } from '../../src/core/providers/factory';
import { estimateTokens, startMockModelServer, type MockModelServer, type MockRequest } from '../mock/mockModelServer';
import { runSearchAuditorBatch } from '../../src/core/audit/batch/searchAuditorBatch';
import { planSearchAuditor } from '../../src/core/audit/searchAuditor';
import { createBatchProvider } from '../../src/core/providers/batch';
import { kindOf, searchAuditorScript } from '../unit/audit/fixtures';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 300);
const samplesDir = join(__dirname, '..', '..', 'samples', 'trajectories');

function sampleTrajectories(): { name: string; t: Trajectory }[] {
  const out: { name: string; t: Trajectory }[] = [];
  for (const format of readdirSync(samplesDir)) {
    if (format === 'who-and-when') continue;
    for (const file of readdirSync(join(samplesDir, format)).filter((f) => f.endsWith('.traj.json'))) {
      const record = loadFile(join(samplesDir, format, file)).records.find(isTrajectoryRecord);
      if (record) out.push({ name: file, t: record.trajectory });
    }
  }
  return out;
}

/** A sample's messages repeated to `length` messages (positions renumbered, tool returns issued by their copy's step). */
function longTrajectory(t: Trajectory, length: number): Trajectory {
  const messages: Trajectory['messages'] = [];
  while (messages.length < length) {
    const offset = messages.length;
    for (const m of t.messages) {
      if (messages.length >= length) break;
      messages.push({ ...m, position: messages.length, ...(m.issuedBy !== undefined ? { issuedBy: m.issuedBy + offset } : {}) });
    }
  }
  const decisionSteps = messages.filter((m) => m.role === 'assistant').map((m) => m.position);
  return { ...t, messages, decisionSteps, finalAnswerStep: decisionSteps.at(-1) };
}

function baselineReply(t: Trajectory) {
  const step = t.decisionSteps[Math.floor(t.decisionSteps.length / 3)];
  // Step-by-Step: decisive at the chosen step; Binary Search: always "first" half.
  return (request: MockRequest) => {
    const decisive = request.userText.includes(`up to decision step ${step} `) || request.userText.includes('final decision step');
    return {
      delayMs: LATENCY_MS,
      text: JSON.stringify({
        critical_step: step,
        root_cause: 'candidate_mismanagement',
        rationale: 'bench',
        directives: ['Compare the candidates.'],
        decisive,
        half: 'first',
      }),
    };
  };
}

const ECONOMY_CASES = 6;
/** Cached input ÷ input price (OpenAI gpt-5 family $0.125 / $1.25; Anthropic cache reads are 0.1× too). */
const CACHED_PRICE_RATIO = 0.1;
/** SearchAuditBench trajectories average 65.1K tokens (seed 002). */
const TAU_TOKENS = 65_100;

/**
 * Billed-equivalent input per SearchAuditor case on long trajectories: sync (all three branches
 * at once, and --warm-cache) and batch, each case a distinct query so no prefix is shared across cases.
 */
async function cacheEconomy(server: MockModelServer, sample: Trajectory) {
  const settings = { provider: 'openai' as const, model: 'mock-gpt', baseUrl: server.openaiBaseUrl, timeoutMs: 30_000 };
  const client = createModelClient(settings);
  let length = sample.messages.length;
  const chars = (n: number) => longTrajectory(sample, n).messages.reduce((sum, m) => sum + m.content.length + (m.reasoning?.length ?? 0), 0);
  while (chars(length) < TAU_TOKENS * 4) length += sample.messages.length;
  // A query of its own per case and mode: the mock's prompt cache lives as long as the server, and
  // one mode must not read the prefixes another wrote.
  const long = longTrajectory(sample, length);
  const casesFor = (mode: string) => Array.from({ length: ECONOMY_CASES }, (_, i) => ({ ...long, query: `${long.query ?? ''} (case ${i}, ${mode})` }));
  const cases = casesFor('tau');
  // τ in the mock's token unit (4 characters), the unit of the usage it reports.
  const tau = cases.reduce((n, t) => n + estimateTokens(planSearchAuditor(t, { client }).context.text), 0) / cases.length;
  server.script((r) => ({ ...searchAuditorScript({}, LATENCY_MS)(r), delayMs: LATENCY_MS }));
  const rows: { mode: string; calls: number; input: number; cached: number; billed: number }[] = [];
  const row = (mode: string, usages: { calls: number; inputTokens: number; cachedInputTokens: number }[]) => {
    const sum = (f: (u: (typeof usages)[number]) => number) => usages.reduce((n, u) => n + f(u), 0) / usages.length;
    const input = sum((u) => u.inputTokens);
    const cached = sum((u) => u.cachedInputTokens);
    rows.push({ mode, calls: sum((u) => u.calls), input, cached, billed: input - cached + cached * CACHED_PRICE_RATIO });
  };
  for (const warmCacheFirst of [false, true]) {
    const usages = [];
    for (const t of casesFor(warmCacheFirst ? 'warm' : 'sync')) usages.push((await runModelAudit(t, 'searchauditor', { client, warmCacheFirst })).usage);
    row(warmCacheFirst ? 'sync, --warm-cache' : 'sync', usages);
  }
  const jobDir = mkdtempSync(join(tmpdir(), 'trajaudit-bench-batch-'));
  try {
    const result = await runSearchAuditorBatch(
      casesFor('batch').map((t, i) => ({ caseId: String(i), trajectory: t })),
      { search: { client }, provider: createBatchProvider(settings), jobDir, pollIntervalMs: 0 },
    );
    const audits = [...result.cases.values()].map((o) => {
      if (!('audit' in o)) throw new Error(`bench batch case failed: ${o.error}`);
      return o.audit.usage;
    });
    row('batch', audits);
  } finally {
    rmSync(jobDir, { recursive: true, force: true });
  }
  return { tau, rows };
}

async function main(): Promise<void> {
  const server = await startMockModelServer();
  const client = createModelClient({ provider: 'openai', model: 'mock-gpt', baseUrl: server.openaiBaseUrl, timeoutMs: 30_000 });
  const samples = sampleTrajectories();
  const methods: AuditMethod[] = ['heuristic', 'searchauditor', 'all-at-once', 'binary-search', 'step-by-step'];
  const rows: string[] = [];
  const jsonRows: { figure: string; target: string; measured: string; baseline: string; ratio: number | null }[] = [];
  let overlap = { wall: 0, sum: 0 };
  for (const method of methods) {
    let calls = 0;
    let input = 0;
    let cached = 0;
    let wall = 0;
    for (const { t } of samples) {
      const first = server.requests.length;
      server.script(method === 'searchauditor' ? (r) => ({ ...searchAuditorScript({}, LATENCY_MS)(r), delayMs: LATENCY_MS }) : baselineReply(t));
      const started = Date.now();
      const audit = method === 'heuristic' ? runHeuristicAudit(t) : await runModelAudit(t, method, { client });
      wall += Date.now() - started;
      calls += audit.usage.calls;
      input += audit.usage.inputTokens;
      cached += audit.usage.cachedInputTokens;
      if (method === 'searchauditor') {
        const branches = server.requests.slice(first).filter((r) => ['holistic', 'backward', 'forward'].includes(kindOf(r)));
        const start = Math.min(...branches.map((r) => r.startedAt));
        const end = Math.max(...branches.map((r) => r.endedAt ?? r.startedAt));
        overlap = { wall: overlap.wall + (end - start), sum: overlap.sum + branches.reduce((s, r) => s + ((r.endedAt ?? r.startedAt) - r.startedAt), 0) };
      }
    }
    const n = samples.length;
    rows.push(
      `| ${method} | ${(calls / n).toFixed(2)} | ${(input / n / 1000).toFixed(1)}K | ${input ? ((100 * cached) / input).toFixed(1) : '0.0'}% | ${(wall / n).toFixed(0)} ms |`,
    );
    jsonRows.push({
      figure: `audit ${method} on the samples (mock, ${LATENCY_MS} ms/call): calls / input tokens / cached-prefix share per case`,
      target: method === 'searchauditor' ? 'exactly 5 calls' : 'reported',
      measured: `${(calls / n).toFixed(2)} calls, ${(input / n / 1000).toFixed(1)}K tokens, ${input ? ((100 * cached) / input).toFixed(1) : '0.0'}% cached, ${(wall / n).toFixed(0)} ms`,
      baseline: '—',
      ratio: null,
    });
  }
  const economy = await cacheEconomy(server, samples[0].t);
  await server.close();
  console.log(`${samples.length} sample trajectories, mock latency ${LATENCY_MS} ms per call\n`);
  console.log('| method | calls / case | input tokens / case | cached-prefix share | wall time / case |\n| --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(r);
  jsonRows.push({
    figure: 'SearchAuditor stage 1: wall time vs the sum of the three branch latencies',
    target: 'well under the sum (< 0.5×)',
    measured: `${(overlap.wall / samples.length).toFixed(0)} ms`,
    baseline: `${(overlap.sum / samples.length).toFixed(0)} ms`,
    ratio: overlap.wall / overlap.sum,
  });
  const long = longTrajectory(samples[0].t, 5000);
  const heuristicStarted = Date.now();
  runHeuristicAudit(long);
  const heuristicMs = Date.now() - heuristicStarted;
  jsonRows.push({
    figure: 'offline heuristic audit of a 5,000-message trajectory',
    target: '< 2 s',
    measured: `${heuristicMs} ms`,
    baseline: '—',
    ratio: null,
  });
  console.log(`\nOffline heuristic on a 5,000-message trajectory: ${heuristicMs} ms (target < 2 s)`);
  console.log(
    `\nSearchAuditor prompt-cache economy on ${ECONOMY_CASES} SearchAuditBench-sized cases (τ ≈ ${(economy.tau / 1000).toFixed(1)}K tokens; cached input billed at ${CACHED_PRICE_RATIO}× the input price, as OpenAI's gpt-5 family; target ≤ 2.5 τ, the paper ≈ 4.2 τ)\n`,
  );
  console.log('| mode | calls / case | input tokens / case | cached share | billed-equivalent input / case | ÷ τ |\n| --- | --- | --- | --- | --- | --- |');
  for (const row of economy.rows) {
    console.log(
      `| ${row.mode} | ${row.calls.toFixed(2)} | ${(row.input / 1000).toFixed(1)}K | ${((100 * row.cached) / row.input).toFixed(1)}% | ${(row.billed / 1000).toFixed(1)}K | ${(row.billed / economy.tau).toFixed(2)} τ |`,
    );
    jsonRows.push({
      figure: `SearchAuditor billed-equivalent input tokens per case, ${row.mode} (mock cache simulation, cached at ${CACHED_PRICE_RATIO}×)`,
      target: '≤ 2.5 τ',
      measured: `${(row.billed / economy.tau).toFixed(2)} τ`,
      baseline: 'paper ≈ 4.2 τ',
      ratio: row.billed / economy.tau / 2.5,
    });
  }
  console.log(
    "(--warm-cache does not apply to batch mode: a batch runs its requests in no set order; the mock answers them one after another, so later items read the prefix the first wrote, as the providers' batch caching may)",
  );
  if (process.env.BENCH_JSON) console.log(JSON.stringify({ bench: 'audit', rows: jsonRows }));
  console.log(
    `\nSearchAuditor stage 1: wall ${(overlap.wall / samples.length).toFixed(0)} ms vs sum of the three branches ${(overlap.sum / samples.length).toFixed(0)} ms per case → ratio ${(overlap.wall / overlap.sum).toFixed(2)} (1/3 = perfectly parallel, 1 = sequential)`,
  );
}

void main();
