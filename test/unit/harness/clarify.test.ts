// Clarify-Then-Search: the three roles' isolation, the strict JSON array, the leakage check, the
// agent command on the rewritten query, a nuggets run folder scored with an `orig` baseline.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseQuestions } from '../../../src/core/harness/clarify/run';
import { ungroundedAnswerWords, unelicitedConstraints } from '../../../src/core/harness/clarify/leakage';
import { loadFile } from '../../../src/core/load/loadFile';
import { startMockModelServer, type MockModelServer, type MockReply, type MockRequest } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';
import { CLARIFY_INSTANCES, FAKE_AGENT } from './helpers';

const instances = readFileSync(CLARIFY_INSTANCES, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { id: string; blurred_query: string; fused_query: string; nuggets: unknown[] });
const AGENT = `node ${FAKE_AGENT} --query {query} --out-answer {out_answer} --out-trajectory {out_trajectory}`;

describe('harness clarify: pieces', () => {
  it('the clarifier reply must be a JSON array of exactly k strings', () => {
    assert.deepEqual(parseQuestions('["When?", "Where?"]', 2), { ok: true, questions: ['When?', 'Where?'] });
    assert.deepEqual(parseQuestions('```json\n["When?"]\n```', 1), { ok: true, questions: ['When?'] });
    assert.equal(parseQuestions('["When?", "Where?"]', 1).ok, false);
    assert.equal(parseQuestions('{"questions": ["When?"]}', 1).ok, false);
    assert.equal(parseQuestions('When did it happen?', 1).ok, false);
    assert.equal(parseQuestions('["", "x"]', 2).ok, false);
  });

  it('flags constraints of the rewrite that no answer elicited, and those copied from the intent', () => {
    const blurred = '故宫门票多少钱';
    const intent = '2024年旺季去北京故宫博物院参观，成人门票和学生票分别多少钱？需要提前预约吗？';
    const turns = [
      { question: '您计划什么时候参观？', answer: '2024年旺季' },
      { question: '需要哪类门票？', answer: 'unknown' },
    ];
    const ok = unelicitedConstraints(blurred, turns, '2024年旺季故宫门票多少钱', intent);
    assert.deepEqual(ok.unelicited, []);
    const leak = unelicitedConstraints(blurred, turns, '2024年旺季故宫成人门票和学生票多少钱', intent);
    assert.ok(
      leak.unelicited.some((u) => u.includes('成人') || u.includes('学生')),
      JSON.stringify(leak),
    );
    assert.ok(leak.from_intent.length > 0, 'copied from the hidden intent');
    const en = unelicitedConstraints(
      'iphone price',
      [
        { question: 'Which country?', answer: 'unknown' },
        { question: 'Which model?', answer: 'iPhone 15 Pro' },
      ],
      'price of the iPhone 15 Pro in Germany in 2024',
      'How much does an iPhone 15 Pro cost in Germany in 2024?',
    );
    assert.deepEqual(en.unelicited.sort(), ['2024', 'germany']);
    assert.deepEqual(en.from_intent.sort(), ['2024', 'germany']);
    assert.deepEqual(ungroundedAnswerWords('Germany', 'iPhone 15 price in Germany'), []);
    assert.deepEqual(ungroundedAnswerWords('France', 'iPhone 15 price in Germany'), ['france']);
    assert.deepEqual(ungroundedAnswerWords('unknown', 'anything'), []);
  });
});

/** Clarifier / User Answerer / Rewriter of the mock; records what each role was shown. */
function roles(seen: Record<string, string[]>): (r: MockRequest) => MockReply {
  return (r) => {
    const text = `${r.system}\n${r.userText}`;
    if (text.includes('clarification question(s)') && !text.includes('could not be used')) {
      (seen.clarifier ??= []).push(text);
      const k = Number(/exactly (\d+) clarification/.exec(text)?.[1] ?? 1);
      return { text: JSON.stringify(Array.from({ length: k }, (_, i) => (i === 0 ? 'Which year do you mean?' : `Question ${i + 1}?`))) };
    }
    if (text.includes('The search assistant asks you')) {
      (seen.answerer ??= []).push(text);
      return { text: JSON.stringify({ answer: text.includes('Which year') ? '2024' : 'unknown' }) };
    }
    if (text.includes('Rewrite the request')) {
      (seen.rewriter ??= []).push(text);
      const original = /Original request:\n([^\n]*)/.exec(text)?.[1] ?? '';
      // Leaks on k3: adds a constraint no answer gave.
      return { text: JSON.stringify({ rewritten_query: text.includes('Q3:') ? `${original} 2024 for students` : `${original} 2024` }) };
    }
    if (text.includes('Golden nuggets')) {
      const count = Number(/Golden nuggets \((\d+)\)/.exec(text)?.[1] ?? 0);
      const full = (/<answer>([\s\S]*?)<\/answer>/.exec(text)?.[1] ?? '').includes('2024');
      return {
        text: JSON.stringify({
          coverage: Array.from({ length: count }, (_, i) => ({ nugget: i + 1, label: full && i === 0 ? 'full' : 'none', reason: 'mock' })),
        }),
      };
    }
    return { text: '{}' };
  };
}

describe('harness clarify: end to end', function () {
  this.timeout(60_000);
  let server: MockModelServer;
  beforeEach(async () => {
    server = await startMockModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('clarify → rewrite → agent search; nuggets run scored against orig; roles see only what they may', async () => {
    const seen: Record<string, string[]> = {};
    server.script(roles(seen));
    const out = join(tempDir(), 'clarify');
    const r = await runCli([
      'harness',
      'clarify',
      CLARIFY_INSTANCES,
      '--command',
      AGENT,
      '--model',
      'clarifier',
      '--base-url',
      server.openaiBaseUrl,
      '--out',
      out,
      '--limit',
      '2',
      '--json',
    ]);
    assert.equal(r.code, 0, r.err);
    const summary = JSON.parse(r.out);
    assert.equal(summary.completed, 2 * 4, 'orig, k1, k2, k3 per instance');
    assert.equal(summary.rewrites_with_unelicited_constraints, 2, 'the k3 rewrites leak');
    const clar = readFileSync(join(out, 'clarifications.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(clar.length, 2 * 3);
    for (const c of clar) {
      assert.equal(c.turns.length, Number(c.condition.slice(1)));
      assert.equal(c.turns[0].answer, '2024');
      for (const t of c.turns.slice(1)) assert.equal(t.answer, 'unknown');
      assert.equal(c.condition === 'k3', c.leakage.unelicited.length > 0, JSON.stringify(c.leakage));
    }
    const answers = readFileSync(join(out, 'answers.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(answers.length, 8);
    const orig = answers.find((a) => a.id === instances[0].id && a.condition === 'orig');
    assert.equal(orig.query, instances[0].blurred_query, 'orig runs the blurred query as is');
    assert.equal(orig.answer, `Fake agent answer for: ${instances[0].blurred_query}`);
    const k1 = answers.find((a) => a.id === instances[0].id && a.condition === 'k1');
    assert.equal(k1.query, `${instances[0].blurred_query} 2024`, 'the agent ran the rewritten query');
    assert.equal(loadFile(join(out, k1.trajectory)).detection.kind, 'openai-chat');
    // Closed book: neither the Clarifier nor the Rewriter ever saw the intent; the answerer did.
    for (const inst of instances.slice(0, 2)) {
      for (const text of [...seen.clarifier, ...seen.rewriter]) assert.ok(!text.includes(inst.fused_query), 'intent leaked to a closed-book role');
    }
    assert.ok(seen.answerer.every((t) => instances.some((i) => t.includes(i.fused_query))));
    assert.ok(seen.answerer.every((t) => !instances.some((i) => t.includes(`Original request:\n${i.blurred_query}`))));
    const score = await runCli(['score', out, '--json', '--provider', 'openai', '--model', 'judge', '--base-url', server.openaiBaseUrl]);
    assert.equal(score.code, 0, score.err);
    const json = JSON.parse(score.out);
    assert.deepEqual(Object.keys(json.conditions).sort(), ['k1', 'k2', 'k3', 'orig']);
    assert.equal(json.conditions.orig.mean, 0);
    assert.ok(json.conditions.k1.mean > 0);
    assert.ok(json.improvement.k1.mean > 0, 'clarification improves over orig');
    assert.equal(json.conditions.k1.ua_unknown_rate, 0);
    assert.ok(json.conditions.k2.ua_unknown_rate > 0);
  });

  it('resumes a finished clarification whose search failed: the rewrite is reused, not redone', async () => {
    const seen: Record<string, string[]> = {};
    server.script(roles(seen));
    const out = join(tempDir(), 'clarify');
    const args = [
      'harness',
      'clarify',
      CLARIFY_INSTANCES,
      '--command',
      AGENT,
      '--model',
      'clarifier',
      '--base-url',
      server.openaiBaseUrl,
      '--out',
      out,
      '--limit',
      '1',
      '--k',
      '1',
    ];
    const env = process.env.FAKE_AGENT_MODE;
    process.env.FAKE_AGENT_MODE = 'fail';
    try {
      const failed = await runCli(args);
      assert.equal(failed.code, 1);
      assert.match(failed.out + failed.err, /exited with code 3/);
    } finally {
      if (env === undefined) delete process.env.FAKE_AGENT_MODE;
      else process.env.FAKE_AGENT_MODE = env;
    }
    const calls = server.requests.length;
    const ok = await runCli(args);
    assert.equal(ok.code, 0, ok.err);
    assert.equal(server.requests.length, calls, 'no model call: the stored clarification is reused');
    assert.equal(readFileSync(join(out, 'answers.jsonl'), 'utf8').trim().split('\n').length, 2);
  });
});
