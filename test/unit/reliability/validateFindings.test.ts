import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, writeTemp } from '../helpers';

const messages = [
  { role: 'user', content: 'Which bridge?' },
  { role: 'assistant', content: 'The Alpine one.' },
];

describe('validate names what loading would silently drop or misread (issue 20, findings 12 and 16)', function () {
  this.timeout(120_000);

  it('a gold step that is not a whole number (1e400, 2.5, "x") is an error naming its JSON path', async () => {
    const dir = tempDir();
    const huge = writeTemp(dir, 'huge.json', `{"query": "q", "critical_step": 1e400, "trajectory": ${JSON.stringify(messages)}}`);
    const half = writeTemp(dir, 'half.json', JSON.stringify({ query: 'q', critical_step: { step: 2.5 }, trajectory: messages }));
    const who = writeTemp(
      dir,
      'who.json',
      JSON.stringify({
        question: 'q',
        history: [
          { role: 'human', content: 'q' },
          { name: 'Expert', role: 'assistant', content: 'a' },
        ],
        mistake_step: 'one',
        mistake_agent: 'Expert',
      }),
    );
    const r = await runCli(['validate', huge, half, who]);
    assert.equal(r.code, 1);
    assert.match(
      r.err,
      /huge\.json:1:33: at \$\.critical_step: expected a whole number from 0 \(a message position\), got a number beyond the range of numbers \(read as infinity\); the gold step is ignored/,
    );
    assert.match(r.err, /half\.json:1:\d+: at \$\.critical_step\.step: expected a whole number .*got 2\.5/);
    assert.match(r.err, /who\.json:1:\d+: at \$\.mistake_step: expected a whole number .*got "one"/);
  });

  it('duplicate keys are warnings naming the key and line:column (JSON, JSONL, sidecars, run files)', async () => {
    const dir = tempDir();
    const json = writeTemp(
      dir,
      'dup.json',
      '{\n  "query": "first",\n  "query": "second",\n  "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}]\n}',
    );
    const jsonl = writeTemp(
      dir,
      'dup.jsonl',
      [JSON.stringify({ id: 'a', messages }), '{"id": "b", "messages": [{"role": "user", "role": "assistant", "content": "q"}]}'].join('\n'),
    );
    const run = join(dir, 'run');
    mkdirSync(run);
    const gold = writeTemp(run, 'gold_nuggets.jsonl', '{"id": "i1", "fused_query": "q", "nuggets": [{"text": "a", "weight": 1, "weight": 2}]}');
    writeTemp(run, 'judgments.jsonl', JSON.stringify({ id: 'i1', condition: 'orig', coverage: ['full'] }));
    const sidecar = writeTemp(dir, 'dup.json.audit.json', '{"schema": "trajaudit.audit/v1", "trajectory": {"file": "dup.json"}, "records": {}, "records": {}}');
    const r = await runCli(['validate', json, jsonl, gold, sidecar]);
    assert.match(r.err, /dup\.json:3:3: warning: at \$\.query: key "query" appears twice in one object; only its last value is read/);
    assert.match(r.err, /dup\.jsonl:2:\d+: warning: at \$\.messages\[0\]\.role: key "role" appears twice/);
    assert.match(r.err, /gold_nuggets\.jsonl:1:\d+: warning: at \$\.nuggets\[0\]\.weight: key "weight" appears twice/);
    assert.match(r.err, /dup\.json\.audit\.json:1:\d+: warning: at \$\.records: key "records" appears twice/);
  });

  it('1,000 invalid tool-call arguments: validate costs about what inspect costs (it was 30x, quadratic)', async () => {
    const dir = tempDir();
    const list: unknown[] = [{ role: 'user', content: 'q' }];
    for (let i = 0; i < 1000; i++) {
      list.push({
        role: 'assistant',
        content: 'x'.repeat(600),
        tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'search', arguments: `{"query": ["cut off ${i}` } }],
      });
      list.push({ role: 'tool', tool_call_id: `c${i}`, content: 'r'.repeat(400) });
    }
    const file = writeTemp(dir, 'many.json', JSON.stringify({ messages: list }, null, 2));
    const timed = async (args: string[]) => {
      const started = performance.now();
      const result = await runCli(args);
      return { ms: performance.now() - started, result };
    };
    const inspect = await timed(['inspect', file]);
    const validate = await timed(['validate', file]);
    assert.equal(validate.result.code, 0);
    assert.equal(validate.result.err.match(/arguments are not valid JSON/g)?.length, 1000);
    assert.ok(validate.ms < 5 * inspect.ms + 1000, `validate ${validate.ms.toFixed(0)} ms, inspect ${inspect.ms.toFixed(0)} ms`);
  });
});
