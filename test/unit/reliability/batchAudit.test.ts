import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { faults, startMockModelServer, type MockModelServer, type MockReply } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';

function trajectoryLine(i: number): string {
  const call = (id: string, query: string) => ({ id, type: 'function', function: { name: 'search', arguments: JSON.stringify({ query: [query] }) } });
  return JSON.stringify({
    index: `case-${i}`,
    query: `Question ${i}: which river?`,
    predicted_answer: `River ${i}`,
    trajectory: [
      { role: 'user', content: `Question ${i}: which river?` },
      { role: 'assistant', content: '', tool_calls: [call(`a${i}`, `river ${i}`)] },
      { role: 'tool', tool_call_id: `a${i}`, content: `River ${i} is long.` },
      { role: 'assistant', content: `River ${i}` },
    ],
  });
}

const GOOD: MockReply = {
  text: JSON.stringify({ critical_step: 1, root_cause: 'search_coverage_gap', rationale: 'r', directives: ['Search more widely from step 1.'] }),
};

describe('a batch audit of 100 trajectories under random faults loses nothing, and a re-run does only what is missing', function () {
  this.timeout(120_000);
  let server: MockModelServer;
  after(async () => server?.close());

  it('every record ends with a result or a recorded error', async () => {
    const dir = tempDir('trajaudit-batch-');
    const file = join(dir, 'batch.traj.jsonl');
    writeFileSync(file, Array.from({ length: 100 }, (_, i) => trajectoryLine(i)).join('\n') + '\n');
    // Seeded random faults: 429, 500, timeouts, malformed JSON; some records are always malformed.
    const plan = fc.sample(fc.constantFrom('ok', 'ok', 'ok', '429', '500', 'timeout', 'malformed'), { numRuns: 400, seed: 42 });
    let n = 0;
    const alwaysBad = new Set(['Question 7:', 'Question 31:', 'Question 64:']);
    server = await startMockModelServer({
      script: (request) => {
        if ([...alwaysBad].some((q) => request.userText.includes(q))) return { text: '{"critical_step": 1, "root_cause": "nope"' };
        const kind = plan[n++ % plan.length];
        if (kind === '429') return { fault: faults.rateLimit(0) };
        if (kind === '500') return { fault: faults.serverError() };
        if (kind === 'timeout') return { fault: faults.hang() };
        if (kind === 'malformed') return { text: 'not json at all' };
        return GOOD;
      },
    });
    const args = [
      'audit',
      file,
      '--method',
      'all-at-once',
      '--model',
      'mock',
      '--base-url',
      server.openaiBaseUrl,
      '--concurrency',
      '8',
      '--timeout-ms',
      '300',
      '--json',
    ];
    const first = await runCli(args);
    const results = JSON.parse(first.out) as { record: string; audit?: unknown; error?: string }[];
    assert.equal(results.length, 100, 'one entry per record');
    assert.ok(
      results.every((r) => Boolean(r.audit) !== Boolean(r.error)),
      'each has a result or an error',
    );
    const failed = results.filter((r) => r.error).map((r) => r.record);
    assert.ok(failed.includes('case-7') && failed.includes('case-31') && failed.includes('case-64'), 'persistently malformed output is reported');
    assert.equal(first.code, 1, 'exit 1 when some records failed');
    const sidecar = JSON.parse(readFileSync(`${file}.audit.json`, 'utf8'));
    assert.equal(Object.keys(sidecar.records).length, 100 - failed.length, 'every success is saved');

    // Re-run with a healthy server: only the missing records call the model.
    alwaysBad.clear();
    server.script(() => GOOD);
    const before = server.requests.length;
    // A healthy server needs no short timeout; under a loaded machine a 300 ms one would time out
    // good replies and retry them, which is not what this re-run checks.
    const second = await runCli(args.map((arg, i) => (args[i - 1] === '--timeout-ms' ? '30000' : arg)));
    assert.equal(second.code, 0, second.err);
    const again = JSON.parse(second.out) as { record: string; cached?: boolean }[];
    assert.equal(again.filter((r) => !r.cached).length, failed.length);
    assert.equal(server.requests.length - before, failed.length, 'exactly one call per previously failed record');
    assert.equal(Object.keys(JSON.parse(readFileSync(`${file}.audit.json`, 'utf8')).records).length, 100);
  });
});
