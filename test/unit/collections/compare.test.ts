// `trajaudit compare`: decision-step alignments computed by hand on small runs.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { alignDecisionSteps, jaccard, wordTokens } from '../../../src/core/collections/align';
import { runCli, trajectoryOf } from '../helpers';

const FIXTURES = join(__dirname, '../../fixtures/collections/compare');
const BEFORE = join(FIXTURES, 'before.traj.json');
const AFTER = join(FIXTURES, 'after.jsonl');

type Step = { tool: string; args: Record<string, unknown> } | { reply: string };

/** A run: the user's question at 0, then each step; a tool step is followed by its return. */
function run(steps: Step[]) {
  const messages: unknown[] = [{ role: 'user', content: 'Which river flows through Ljubljana?' }];
  steps.forEach((step, k) => {
    if ('reply' in step) messages.push({ role: 'assistant', content: step.reply });
    else {
      const id = `c${k}`;
      messages.push({
        role: 'assistant',
        content: '',
        tool_calls: [{ id, type: 'function', function: { name: step.tool, arguments: JSON.stringify(step.args) } }],
      });
      messages.push({ role: 'tool', tool_call_id: id, content: `result ${k}` });
    }
  });
  return trajectoryOf({ query: 'Which river flows through Ljubljana?', trajectory: messages });
}

const search = (query: string): Step => ({ tool: 'search', args: { query } });
const visit = (url: string): Step => ({ tool: 'visit', args: { url } });

describe('collections: decision-step alignment (trajaudit compare)', function () {
  it('similar means word-token Jaccard ≥ 0.5', function () {
    // {capital, of, france} vs {france, capital, city}: 2 shared of 4.
    assert.equal(jaccard(wordTokens('capital of France'), wordTokens('France capital, city')), 0.5);
    assert.equal(jaccard(wordTokens('capital of France'), wordTokens('population of Spain')), 1 / 5);
    assert.equal(jaccard(wordTokens(''), wordTokens('')), 1);
  });

  it('identical runs pair every step and never diverge', function () {
    const steps = [search('river Ljubljana'), visit('https://example.org/a'), { reply: 'Ljubljanica' }];
    // positions: search 1, visit 3, reply 5
    const alignment = alignDecisionSteps(run(steps), run(steps));
    assert.deepEqual(alignment.pairs, [
      [1, 1],
      [3, 3],
      [5, 5],
    ]);
    assert.equal(alignment.firstDivergence, null);
  });

  it('one extra step in b is paired with null, and the rest still aligns', function () {
    const a = run([search('river Ljubljana'), visit('https://example.org/a'), { reply: 'Ljubljanica' }]);
    const b = run([search('Ljubljana river'), search('population of Slovenia'), visit('https://example.org/a'), { reply: 'Ljubljanica' }]);
    // b: search 1, extra search 3, visit 5, reply 7
    const alignment = alignDecisionSteps(a, b);
    assert.deepEqual(alignment.pairs, [
      [1, 1],
      [null, 3],
      [3, 5],
      [5, 7],
    ]);
    assert.deepEqual(alignment.firstDivergence, { a: null, b: 3 });
  });

  it('a different tool at step 3 leaves both step-3s unpaired (a first), then aligns again', function () {
    const a = run([search('river Ljubljana'), visit('https://example.org/a'), search('Ljubljanica length'), { reply: 'Ljubljanica' }]);
    const b = run([search('river Ljubljana'), visit('https://example.org/a'), visit('https://example.org/ljubljanica-length'), { reply: 'Ljubljanica' }]);
    const alignment = alignDecisionSteps(a, b);
    assert.deepEqual(alignment.pairs, [
      [1, 1],
      [3, 3],
      [5, null],
      [null, 5],
      [7, 7],
    ]);
    assert.deepEqual(alignment.firstDivergence, { a: 5, b: 5 });
  });

  it('the same tool with dissimilar arguments does not align', function () {
    const alignment = alignDecisionSteps(run([search('capital of France')]), run([search('population of Spain')]));
    assert.deepEqual(alignment.pairs, [
      [1, null],
      [null, 1],
    ]);
    assert.deepEqual(alignment.firstDivergence, { a: 1, b: 1 });
  });

  it('an empty side: every step of the other is paired with null', function () {
    const empty = run([]);
    const full = run([search('river Ljubljana'), { reply: 'Sava' }]);
    assert.deepEqual(alignDecisionSteps(empty, full), {
      pairs: [
        [null, 1],
        [null, 3],
      ],
      firstDivergence: { a: null, b: 1 },
    });
    assert.deepEqual(alignDecisionSteps(full, empty), {
      pairs: [
        [1, null],
        [3, null],
      ],
      firstDivergence: { a: 1, b: null },
    });
    assert.deepEqual(alignDecisionSteps(empty, empty), { pairs: [], firstDivergence: null });
  });

  it('compare --json: the keys of docs/cli.md over two files, one a JSONL record', async function () {
    const result = await runCli(['compare', BEFORE, AFTER, '--record-b', 'run-1', '--json']);
    assert.equal(result.code, 0, result.err);
    const report = JSON.parse(result.out);
    assert.deepEqual(report, {
      a: { file: BEFORE, record: '0', decision_steps: [1, 3] },
      b: { file: AFTER, record: 'run-1', decision_steps: [1, 3, 5] },
      // the searches align ({river, ljubljana} both); the answers differ ({answer, sava} vs {answer, ljubljanica}: 1/3)
      pairs: [
        [1, 1],
        [3, null],
        [null, 3],
        [null, 5],
      ],
      first_divergence: { a: 3, b: 3 },
    });
    const table = await runCli(['compare', BEFORE, AFTER, '--record-b', 'run-1']);
    assert.equal(table.code, 0);
    assert.match(table.out, /first divergence: a 3, b 3/);
    assert.match(table.out, /search\(\{"query": "river Ljubljana"\}\) +=  +1  search/);
  });

  it('bad usage exits 2; a file of several records without --record-b and a missing file are one-line input errors', async function () {
    assert.equal((await runCli(['compare', BEFORE])).code, 2);
    assert.equal((await runCli(['compare', BEFORE, AFTER, '--record', 'x'])).code, 2);
    const several = await runCli(['compare', BEFORE, AFTER]);
    assert.equal(several.code, 1);
    assert.equal(several.err, `${AFTER}: holds 2 trajectories (run-1, run-2); name one with --record-b ID`);
    const unknown = await runCli(['compare', BEFORE, AFTER, '--record-b', 'run-9']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /^.*after\.jsonl: no record "run-9"; records are run-1, run-2$/);
    const missing = await runCli(['compare', join(FIXTURES, 'absent.json'), AFTER, '--record-b', 'run-2']);
    assert.equal(missing.code, 1);
    assert.equal(missing.err.split('\n').length, 1);
    assert.doesNotMatch(missing.err, /internal error|\n\s+at /);
  });
});
