import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, writeTemp } from './helpers';

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const root = join(__dirname, '..', '..');

function messages(n: number, fill = 'evidence ') {
  const out: unknown[] = [{ role: 'user', content: 'Which lake?' }];
  for (let i = 0; i < n; i++) {
    out.push({
      role: 'assistant',
      content: '',
      tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'search', arguments: `{"query": "lake ${i}"}` } }],
    });
    out.push({ role: 'tool', tool_call_id: `c${i}`, content: fill });
  }
  return out;
}

describe('bad input gives exit 1 and one clear line, and the file is untouched', function () {
  this.timeout(120000);
  const dir = tempDir('trajaudit-bad-');
  const valid = JSON.stringify({ messages: messages(3) }, null, 2);
  const fifty = (() => {
    const msgs = messages(400, 'x'.repeat(128 * 1024));
    (msgs[msgs.length - 1] as { role: unknown }).role = 42;
    return JSON.stringify({ messages: msgs });
  })();
  const corpus: { name: string; content: string | Buffer; expect: RegExp }[] = [
    { name: 'truncated.json', content: valid.slice(0, Math.floor(valid.length / 2)), expect: /truncated\.json:\d+:\d+: invalid JSON/ },
    {
      name: 'wrong-types.json',
      content: JSON.stringify(
        {
          messages: [
            { role: 'user', content: 'q' },
            { role: 'assistant', content: 'x', tool_calls: [{ id: 'a', function: { name: 7, arguments: '{}' } }] },
          ],
        },
        null,
        2,
      ),
      expect: /wrong-types\.json:14:21: at \$\.messages\[1\]\.tool_calls\[0\]\.function\.name: expected string, got number 7/,
    },
    { name: 'empty.json', content: '', expect: /empty\.json: empty file; expected/ },
    {
      name: 'binary.json',
      content: Buffer.from([0x7b, 0x00, 0xff, 0xfe, 0x01, 0x02, 0x89, 0x50, 0x4e, 0x47]),
      expect: /binary\.json:1:1: binary or non-UTF-8 content/,
    },
    { name: 'string.json', content: '"just a string"', expect: /string\.json:1:1: at \$: unrecognized content \(a string\); expected a trajectory/ },
    { name: 'fifty-mb.json', content: fifty, expect: /fifty-mb\.json:1:\d+: at \$\.messages\[800\]\.role: expected role system, user, assistant or tool/ },
    {
      name: 'one-bad-line.jsonl',
      content: [JSON.stringify({ id: 'a', messages: messages(1) }), '{"id": "b", "messages": [}', JSON.stringify({ id: 'c', messages: messages(1) })].join(
        '\n',
      ),
      expect: /one-bad-line\.jsonl:2:\d+: invalid JSON/,
    },
  ];

  for (const entry of corpus) {
    it(entry.name, async () => {
      const path = writeTemp(dir, entry.name, entry.content);
      const before = sha(path);
      for (const command of ['inspect', 'outline', 'validate']) {
        const { code, err } = await runCli([command, path]);
        assert.equal(code, 1, `${command} exits 1`);
        const problemLines = err.split('\n').filter((l) => !/file\(s\) checked/.test(l));
        assert.equal(problemLines.length, 1, `${command}: one line, got:\n${err}`);
        assert.match(problemLines[0], entry.expect);
        assert.ok(problemLines[0].includes(path), 'names the file');
        assert.doesNotMatch(err, /\n\s+at |Error:/, 'no stack trace');
      }
      assert.equal(sha(path), before, 'the file is untouched');
    });
  }

  it('a JSONL with one bad line still loads its good records', async () => {
    const path = join(dir, 'one-bad-line.jsonl');
    const { code, out, err } = await runCli(['inspect', path, '--json']);
    assert.equal(code, 1);
    const records = JSON.parse(out);
    assert.deepEqual(
      records.map((r: { id: string }) => r.id),
      ['a', 'c'],
    );
    assert.match(err, /:2:\d+: invalid JSON/);
  });

  it('the real CLI process prints one line on stderr, nothing on stdout, exit 1', () => {
    const path = join(dir, 'truncated.json');
    const result = spawnSync(process.execPath, ['-r', 'tsx/cjs', join(root, 'src', 'cli', 'main.ts'), 'inspect', path, '--json'], {
      encoding: 'utf8',
      cwd: root,
    });
    assert.equal(result.status, 1);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr.trim().split('\n').length, 1);
  });

  it('validate on a run folder names the bad file, once, and calls only the good ones ok', async () => {
    const run = tempDir('trajaudit-bad-run-');
    for (const name of ['clarifications.jsonl', 'gold_nuggets.jsonl', 'judgments.jsonl', 'trajaudit.run.json']) {
      let text = readFileSync(join(root, 'samples', 'runs', 'nuggets-run', name), 'utf8');
      if (name === 'judgments.jsonl') text += '{"bad": \n';
      writeTemp(run, name, text);
    }
    const { code, out, err } = await runCli(['validate', run]);
    assert.equal(code, 1);
    const problems = err.split('\n').filter((l) => l && !/file\(s\) checked/.test(l));
    assert.equal(problems.length, 1, err);
    assert.match(problems[0], /judgments\.jsonl:\d+:\d+: invalid JSON/);
    const ok = out
      .split('\n')
      .filter((l) => l.endsWith(': ok'))
      .map((l) => l.replace(/^.*[\\/]/, '').replace(': ok', ''));
    assert.deepEqual(ok.sort(), ['clarifications.jsonl', 'gold_nuggets.jsonl', 'trajaudit.run.json']);
  });

  it('wrong usage exits 2', async () => {
    assert.equal((await runCli(['inspect'])).code, 2);
    assert.equal((await runCli(['frobnicate', 'x'])).code, 2);
    assert.equal((await runCli(['inspect', 'a', '--bogus'])).code, 2);
  });
});
