import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers';

const samples = join(__dirname, '..', '..', '..', 'samples');
const DEPTH = 100_000;
const deep = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;

describe('100,000-deep nesting, valid or with a syntax or schema error, in every file kind (issue 20, finding 15)', function () {
  this.timeout(60_000);

  it('every command answers with a one-line message naming the file and where, never a stack overflow', async () => {
    const dir = tempDir();
    const trajectory = join(dir, 'case.traj.json');
    cpSync(join(samples, 'trajectories', 'openai-chat', 'browsecomp-footballer-penalties.traj.json'), trajectory);
    const run = join(dir, 'run');
    cpSync(join(samples, 'runs', 'audit-gold-pred'), run, { recursive: true });
    const nuggets = join(dir, 'nuggets');
    cpSync(join(samples, 'runs', 'nuggets-run'), nuggets, { recursive: true });
    const variants = {
      valid: (json: string) => json,
      syntax: (json: string) => `${json},}`,
    };
    const cases: { file: string; text: (v: (s: string) => string) => string; commands: string[][] }[] = [
      {
        file: join(dir, 'deep.json'),
        text: (v) => `{"messages": ${v(deep)}}`,
        commands: [['inspect'], ['validate'], ['outline'], ['audit', '--method', 'heuristic']],
      },
      {
        file: join(dir, 'deep.jsonl'),
        text: (v) => `${JSON.stringify({ messages: [{ role: 'user', content: 'q' }] })}\n{"messages": [{"role": "user", "content": ${v(deep)}}]}`,
        commands: [['inspect'], ['validate']],
      },
      {
        file: join(dir, 'args.json'),
        text: (v) =>
          JSON.stringify({
            messages: [
              { role: 'user', content: 'q' },
              { role: 'assistant', content: '', tool_calls: [{ id: 'c', type: 'function', function: { name: 'search', arguments: v(deep) } }] },
            ],
          }),
        commands: [['inspect'], ['validate'], ['audit', '--method', 'heuristic']],
      },
      {
        file: `${trajectory}.audit.json`,
        text: (v) => `{"schema": "trajaudit.audit/v2", "trajectory": {"file": "case.traj.json"}, "records": {"0": {"annotation": {"notes": ${v(deep)}}}}}`,
        commands: [['validate'], ['inspect'], ['audit:trajectory', '--method', 'heuristic'], ['export-repairs:trajectory', '--format', 'md']],
      },
      { file: join(nuggets, 'trajaudit.run.json'), text: (v) => `{"kind": "nuggets", "gold": ${v(deep)}}`, commands: [['score:folder'], ['validate']] },
      { file: join(run, 'gold.jsonl'), text: (v) => `{"id": "a", "critical_step": ${v(deep)}}`, commands: [['score:folder'], ['validate']] },
      {
        file: join(nuggets, 'judgments.jsonl'),
        text: (v) => `{"id": "i1", "condition": "orig", "coverage": ${v(deep)}}`,
        commands: [['score:folder'], ['validate']],
      },
    ];
    mkdirSync(join(dir, 'out'));
    for (const c of cases) {
      for (const [variant, wrap] of Object.entries(variants)) {
        writeFileSync(c.file, c.text(wrap));
        for (const [command, ...options] of c.commands) {
          const [name, target] = command.split(':');
          const path = target === 'trajectory' ? trajectory : target === 'folder' ? join(c.file, '..') : c.file;
          const { code, out, err } = await runCli([name, path, ...options]);
          const all = `${out}\n${err}`;
          const context = `${name} ${path} (${variant}): ${all.slice(0, 600)}`;
          assert.doesNotMatch(all, /internal error|unexpected problem|call stack/i, context);
          if (c.file.endsWith('args.json')) {
            // Tool-call arguments are a string in the file: nested too deep, they are kept raw, as invalid ones are.
            assert.equal(code, 0, context);
            if (name === 'validate') assert.match(all, /args\.json:\d+:\d+: warning: .*arguments are not valid JSON \(kept raw\)/, context);
            continue;
          }
          assert.equal(code, 1, context);
          assert.match(all, /:\d+:\d+: .*(nested deeper than 512 levels|invalid JSON)/, context);
        }
      }
    }
    assert.ok(readFileSync(trajectory, 'utf8').length > 0);
  });
});
