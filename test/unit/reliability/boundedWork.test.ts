import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { extractJson, MAX_REPLY_CHARS } from '../../../src/core/providers/json';

const root = join(__dirname, '..', '..', '..');

/**
 * Runs `body` (CommonJS source; `report(value)` sends the result) in a worker thread and
 * terminates it at the deadline: quadratic code is synchronous, so it would freeze the test
 * runner instead of failing the test.
 */
function inWorker<T>(body: string, deadlineMs: number): Promise<T> {
  const source = `require('tsx/cjs'); const { parentPort } = require('node:worker_threads'); const root = ${JSON.stringify(root)}; const report = (v) => parentPort.postMessage(v);\n${body}`;
  const worker = new Worker(source, { eval: true });
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`still running after ${deadlineMs} ms (not linear?)`));
    }, deadlineMs);
    worker.once('message', (value: T) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(value);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

describe('bounded work on hostile input (issue 20, findings 11 and 12)', function () {
  this.timeout(120_000);

  it('JSON extraction from 2,000,000-character model replies is linear: each costs about what parsing a valid reply of that size costs', async () => {
    const results = await inWorker<{ name: string; ms: number; baselineMs: number; problem: string }[]>(
      `
      const { extractJson } = require(root + '/src/core/providers/json');
      const n = 2_000_000;
      const valid = JSON.stringify({ critical_step: 3, rationale: 'x'.repeat(n) });
      const time = (text, options) => { const t = performance.now(); const r = extractJson(text, options); return { ms: performance.now() - t, r }; };
      const baseline = Math.max(time(valid).ms, time(valid).ms);
      const cases = {
        'unclosed braces': 'Here is my answer: ' + '{'.repeat(n),
        'unclosed brackets (array)': 'Questions: ' + '['.repeat(n),
        'unclosed strings': 'Answer: ' + '{"'.repeat(n / 2),
        'nested, never valid': '{"a":'.repeat(n / 5) + '}'.repeat(n / 5),
        'unclosed think sections': '<think>'.repeat(n / 7) + '{"a": 1}',
        'fence openers on one line': '\`\`\`'.repeat(n / 3),
        'empty fences': '\`\`\`json\\n'.repeat(n / 8),
        'unclosed json fence headers': '\`\`\`json'.repeat(n / 7),
      };
      const out = [];
      for (const [name, text] of Object.entries(cases)) {
        const { ms, r } = time(text, name.includes('array') ? { container: 'array' } : {});
        out.push({ name, ms, baselineMs: baseline, problem: r.ok ? 'ok' : r.problem });
      }
      // The clarifier's question list (harness clarify) is extracted the same way.
      const { parseQuestions } = require(root + '/src/core/harness/clarify/run');
      for (const [name, text] of Object.entries({ 'clarifier: unclosed brackets': '['.repeat(n), 'clarifier: fences': '\`\`\`'.repeat(n / 3) + '["a"]' })) {
        const t = performance.now();
        const r = parseQuestions(text, 1);
        out.push({ name, ms: performance.now() - t, baselineMs: baseline, problem: r.ok ? 'ok' : r.problem });
      }
      report(out);
    `,
      60_000,
    );
    for (const { name, ms, baselineMs, problem } of results) {
      // Quadratic work on 2,000,000 characters takes hours; linear work a few passes.
      assert.ok(ms < Math.max(1500, 100 * baselineMs), `${name}: ${ms.toFixed(0)} ms (a valid reply of that size: ${baselineMs.toFixed(1)} ms)`);
      assert.ok(problem.length < 300, problem);
    }
    assert.equal(results.find((r) => r.name === 'unclosed think sections')?.problem, 'ok', 'JSON after unclosed <think> tags is still found');
  });

  it('a reply longer than the bound is refused with a reason, not searched', () => {
    const result = extractJson(' '.repeat(MAX_REPLY_CHARS + 1));
    assert.ok(!result.ok && /characters long; at most/.test(result.problem));
  });
});
