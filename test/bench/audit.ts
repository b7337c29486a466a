// Benchmark: each audit method on the sample trajectories against the local mock model server
// (real SDKs, simulated latency and prompt caching). Prints calls, input tokens, the share of
// input served from the cached prefix, and wall time; and checks that SearchAuditor's three
// branches overlap: stage-1 wall time against the sum of the three branch latencies.
// Run: npm run bench:audit
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runHeuristicAudit, runModelAudit } from '../../src/core/audit/runAudit';
import type { AuditMethod } from '../../src/core/audit/types';
import { loadFile } from '../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../src/core/load/loadRecord';
import type { Trajectory } from '../../src/core/model/trajectory';
import { createModelClient } from '../../src/core/providers/factory';
import { startMockModelServer, type MockRequest } from '../mock/mockModelServer';
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
  if (process.env.BENCH_JSON) console.log(JSON.stringify({ bench: 'audit', rows: jsonRows }));
  console.log(
    `\nSearchAuditor stage 1: wall ${(overlap.wall / samples.length).toFixed(0)} ms vs sum of the three branches ${(overlap.sum / samples.length).toFixed(0)} ms per case → ratio ${(overlap.wall / overlap.sum).toFixed(2)} (1/3 = perfectly parallel, 1 = sequential)`,
  );
}

void main();
