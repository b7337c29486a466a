// `trajaudit study` against the mock model server, and `score --method searchauditor:vote`.
//
// Three gold cases on one trajectory shape (decision steps 2, 4, …, 20; the answer at 20):
//   A: gold 6, span [6, 8], candidate_mismanagement      B: gold 20, span [20, 20], unsupported_answer
//   C: gold 6, span [4, 8], candidate_mismanagement      (every case has two repair rubrics)
// The scripted model: holistic and backward say (20, unsupported_answer), forward (6,
// candidate_mismanagement), the adjudicator takes the minority (6, candidate_mismanagement), the
// rubric grader passes every rubric. By hand:
//   searchauditor (adjudicated 6 / CM): A ✓ B ✗ C ✓ → CS-Strict, CS-Loose, RC-Acc, Diag 2/3; Rep@Diag 1; FPS 2/3; 5 calls a case
//   searchauditor:vote (majority UA, step of the larger cluster 20): A ✗ B ✓ C ✗ → 1/3 each; Rep@Diag 1; FPS 1/3; 4 calls a case
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Of } from '../../../src/core/sidecar/sidecarFile';
import { startMockModelServer, type MockModelServer, type MockRequest, type MockReply } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';

const call = (id: string, args: unknown) => ({ id, type: 'function', function: { name: 'search', arguments: JSON.stringify(args) } });

function trajectory(index: number, gold: { k: number; span: [number, number]; cause: string }) {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a search agent.' },
    { role: 'user', content: `Question ${index}: which architect designed the clock tower?` },
  ];
  for (let i = 1; i <= 9; i++) {
    messages.push({ role: 'assistant', content: '', reasoning_content: `Step ${i}.`, tool_calls: [call(`c${i}`, { query: [`clock tower ${index} ${i}`] })] });
    messages.push({ role: 'tool', tool_call_id: `c${i}`, content: `Result ${i} for question ${index}.` });
  }
  messages.push({ role: 'assistant', content: 'Erik Lallerstedt' });
  return {
    index,
    query: `Question ${index}: which architect designed the clock tower?`,
    predicted_answer: 'Erik Lallerstedt',
    gold_answer: 'Torben Grut',
    critical_step: gold.k,
    tolerance_span: gold.span,
    root_cause: gold.cause,
    repair_rubrics: ['Keeps the earlier candidate.', 'Checks the date.'],
    trajectory: messages,
  };
}

function corpus(): string {
  const dir = tempDir('trajaudit-study-');
  const cases = [
    trajectory(1, { k: 6, span: [6, 8], cause: 'candidate_mismanagement' }),
    trajectory(2, { k: 20, span: [20, 20], cause: 'unsupported_answer' }),
    trajectory(3, { k: 6, span: [4, 8], cause: 'candidate_mismanagement' }),
  ];
  cases.forEach((c, i) => writeFileSync(join(dir, `case-${'ABC'[i]}.traj.json`), JSON.stringify(c)));
  return dir;
}

const reply = (value: unknown): MockReply => ({ text: JSON.stringify(value) });

function script(request: MockRequest): MockReply {
  if (request.rawBody.includes('RubricGrades')) return reply({ grades: [1, 2].map((rubric) => ({ rubric, pass: true })) });
  if (request.system.includes('You write repair directives')) return reply({ directives: ['Keep the earlier candidate and check the date.'] });
  if (request.userText.includes('evidence-grounded adjudication'))
    return reply({ critical_step: 6, root_cause: 'candidate_mismanagement', rationale: 'The candidate was dropped at [6].', cited_steps: [6] });
  if (request.userText.includes('forward timeline audit'))
    return reply({ critical_step: 6, root_cause: 'candidate_mismanagement', rationale: 'At [6].', notes: '' });
  // The branches other than forward; the baselines read critical_step, root_cause, rationale and directives.
  return reply({
    critical_step: 20,
    root_cause: 'unsupported_answer',
    rationale: 'The answer at [20] is unsupported.',
    notes: '',
    directives: ['Check the answer against the sources.'],
  });
}

const approx = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} ≈ ${expected}`);

describe('trajaudit study', function () {
  this.timeout(60_000);
  let server: MockModelServer;
  before(async () => {
    server = await startMockModelServer({ script });
  });
  after(async () => server.close());

  it('compares methods and ablations on the same cases: the hand-computed metrics, calls per case, the spec keys', async () => {
    const folder = corpus();
    const out = join(tempDir('trajaudit-study-out-'), 'study');
    const args = [
      'study',
      folder,
      '--methods',
      'searchauditor,searchauditor:vote,heuristic',
      '--out',
      out,
      '--model',
      'mock-gpt',
      '--base-url',
      server.openaiBaseUrl,
    ];
    const { code, out: stdout, err } = await runCli([...args, '--json']);
    assert.equal(code, 0, err);
    const doc = JSON.parse(stdout);
    assert.deepEqual(Object.keys(doc), ['methods']);
    assert.deepEqual(Object.keys(doc.methods), ['searchauditor', 'searchauditor:vote', 'heuristic']);
    for (const row of Object.values<Record<string, unknown>>(doc.methods))
      assert.deepEqual(Object.keys(row), ['n', 'metrics', 'calls', 'input_tokens', 'cached_input_tokens', 'output_tokens', 'cost_usd', 'latency_ms']);

    const full = doc.methods.searchauditor;
    const vote = doc.methods['searchauditor:vote'];
    assert.equal(full.n, 3);
    for (const key of ['cs_strict', 'cs_loose', 'rc_acc', 'diag', 'fps']) {
      approx(full.metrics[key], 2 / 3, `searchauditor ${key}`);
      approx(vote.metrics[key], 1 / 3, `vote ${key}`);
    }
    assert.equal(full.metrics.rep_at_diag, 1);
    assert.equal(vote.metrics.rep_at_diag, 1);
    assert.equal(full.calls, 5, 'three branches, the adjudicator, the repair');
    assert.equal(vote.calls, 4, 'the vote replaces the adjudicator');
    assert.ok(full.input_tokens > 0 && full.cached_input_tokens <= full.input_tokens && full.output_tokens > 0);
    assert.equal(full.cost_usd, null, 'no --price: cost unknown');
    assert.equal(doc.methods.heuristic.calls, 0);
    assert.equal(doc.methods.heuristic.n, 3);

    // Each method folder is an audit run that `trajaudit score` scores the same way.
    const scored = await runCli(['score', join(out, 'searchauditor.vote'), '--json']);
    assert.equal(scored.code, 0, scored.err);
    assert.deepEqual(JSON.parse(scored.out).metrics, vote.metrics);
    assert.match(readFileSync(join(out, 'study.md'), 'utf8'), /\| searchauditor:vote \| 3 \| 33\.33 \| 33\.33 \| 33\.33 \|/);

    // A rerun reuses the audits and the cached rubric grades: no model call.
    const calls = server.requests.length;
    const again = await runCli([...args, '--json']);
    assert.equal(again.code, 0, again.err);
    assert.equal(server.requests.length, calls);
    assert.deepEqual(JSON.parse(again.out), doc);
  });

  it('--sample N --seed S audits the same seeded sample with every method, with prices per case', async () => {
    const folder = corpus();
    const out = join(tempDir('trajaudit-study-out-'), 'study');
    const args = [
      'study',
      folder,
      '--methods',
      'heuristic,all-at-once',
      '--sample',
      '2',
      '--seed',
      '7',
      '--out',
      out,
      '--model',
      'mock-gpt',
      '--base-url',
      server.openaiBaseUrl,
    ];
    const { code, out: stdout, err } = await runCli([...args, '--price', '1,0.5,10', '--json']);
    assert.equal(code, 0, err);
    const doc = JSON.parse(stdout);
    assert.equal(doc.methods.heuristic.n, 2);
    assert.equal(doc.methods.heuristic.cost_usd, 0);
    const ids = (method: string) =>
      readFileSync(join(out, method, 'gold.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id);
    assert.deepEqual(ids('heuristic'), ids('all-at-once'));
    assert.equal(ids('heuristic').length, 2);
    const row = doc.methods['all-at-once'];
    const expected = ((row.input_tokens - row.cached_input_tokens) * 1 + row.cached_input_tokens * 0.5 + row.output_tokens * 10) / 1e6;
    approx(row.cost_usd, expected, 'cost per case');
    // The same seed draws the same cases in a fresh run.
    const other = join(tempDir('trajaudit-study-out-'), 'study');
    const same = await runCli(['study', folder, '--methods', 'heuristic', '--sample', '2', '--seed', '7', '--out', other, '--json']);
    assert.equal(same.code, 0, same.err);
    assert.deepEqual(readFileSync(join(other, 'heuristic', 'gold.jsonl'), 'utf8'), readFileSync(join(out, 'heuristic', 'gold.jsonl'), 'utf8'));
  });

  it('refuses an unknown method or ablation with a usage error', async () => {
    const folder = corpus();
    let r = await runCli(['study', folder, '--methods', 'searchauditor:majority']);
    assert.equal(r.code, 2);
    assert.match(r.err, /--methods: unknown SearchAuditor ablation "majority" \(ablations: 3x-holistic, no-forward, no-backward, vote, no-outline-windows\)/);
    r = await runCli(['study', folder, '--methods', 'all-at-once:vote']);
    assert.equal(r.code, 2);
    assert.match(r.err, /only searchauditor has ablations/);
    r = await runCli(['study', folder, '--methods', 'searchauditor']);
    assert.equal(r.code, 2);
    assert.match(r.err, /--model is required/);
  });
});

describe('score --method searchauditor:vote', () => {
  it('picks the newest audit of that ablation; --method searchauditor the newest SearchAuditor audit of any variant', async () => {
    const dir = tempDir('trajaudit-study-score-');
    const file = join(dir, 'case.traj.json');
    const text = JSON.stringify(trajectory(1, { k: 6, span: [6, 8], cause: 'candidate_mismanagement' }));
    writeFileSync(file, text);
    const audit = (id: string, createdAt: string, variant: string, step: number, cause: string) => ({
      id,
      method: 'searchauditor',
      provider: 'openai',
      model: 'mock',
      createdAt,
      promptVersion: 'searchauditor/v1',
      diagnosis: { criticalStep: step, rootCause: cause, rationale: 'r', citedSteps: [step] },
      repair: { directives: ['d'] },
      usage: { calls: 5, inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, latencyMs: 1 },
      options: { variant, adjudicatorSeesTrajectory: true },
    });
    const sidecar = {
      schema: 'trajaudit.audit/v1',
      trajectory: { file: 'case.traj.json', sha256: sha256Of(text), format: 'searchauditbench' },
      records: {
        '0': {
          audits: [
            audit('a-vote', '2026-05-01T10:00:00Z', 'vote', 6, 'candidate_mismanagement'),
            audit('a-full', '2026-05-02T10:00:00Z', 'full', 20, 'unsupported_answer'),
          ],
        },
      },
    };
    writeFileSync(`${file}.audit.json`, JSON.stringify(sidecar));
    const strict = async (method: string) => {
      const r = await runCli(['score', dir, '--method', method, '--json']);
      assert.equal(r.code, 0, r.err);
      return JSON.parse(r.out).metrics.cs_strict;
    };
    assert.equal(await strict('searchauditor:vote'), 1, 'the older vote audit said 6, the gold step');
    assert.equal(await strict('searchauditor'), 0, 'the newest SearchAuditor audit (full) said 20');
  });
});
