import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockModelServer, type MockModelServer } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';

describe('score: a judge that keeps answering malformed output loses that verdict, not the run', function () {
  this.timeout(30_000);
  let server: MockModelServer;
  before(async () => {
    // The coverage judge of the answer "garbled" always gets prose; every other answer a good verdict.
    server = await startMockModelServer({
      script: (request) => {
        const text = `${request.system}\n${request.userText}`;
        if (text.includes('garbled')) return { text: 'I think the first nugget is covered, {maybe} <b>not</b> sure.' };
        const count = Number(/Golden nuggets \((\d+)\)/.exec(text)?.[1] ?? 0);
        return { text: JSON.stringify({ coverage: Array.from({ length: count }, (_, i) => ({ nugget: i + 1, label: 'full', reason: 'mock' })) }) };
      },
    });
  });
  after(async () => {
    await server.close();
  });

  it('records the failed judgment, scores the rest, reports it on stderr and in the Markdown report, caches only good verdicts', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'gold_nuggets.jsonl'),
      [
        { id: 'i1', fused_query: 'fq', nuggets: [{ text: 'a', weight: 1 }] },
        { id: 'i2', fused_query: 'fq2', nuggets: [{ text: 'b', weight: 1 }] },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    writeFileSync(
      join(dir, 'answers.jsonl'),
      [
        { id: 'i1', condition: 'orig', answer: 'fine answer' },
        { id: 'i2', condition: 'orig', answer: 'garbled' },
        { id: 'i1', condition: 'k1', answer: 'fine again' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const report = join(dir, 'report.md');
    const r = await runCli(['score', dir, '--model', 'mock', '--base-url', server.openaiBaseUrl, '--concurrency', '1', '--out', report]);
    const all = `${r.out}\n${r.err}`;
    assert.equal(r.code, 0, all);
    assert.doesNotMatch(all, /internal error/);
    assert.match(all, /1 judgment\(s\) failed .*i2#orig: .*malformed output 3 times/);
    assert.match(all, /judge: .*1 failed/);
    assert.match(readFileSync(report, 'utf8'), /1 judgment\(s\) failed/);
    const cached = readFileSync(join(dir, 'judgments.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; condition: string });
    assert.deepEqual(cached.map((c) => `${c.id}#${c.condition}`).sort(), ['i1#k1', 'i1#orig']);
  });
});
