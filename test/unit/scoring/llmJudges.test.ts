import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatRequest, ChatResult, ModelClient } from '../../../src/core/providers/types';
import { deepSearchQaLlmJudge } from '../../../src/core/scoring/judges/deepsearchqaGrader';
import { completeValidated, MalformedOutputError, type StructuredModel, type StructuredRequest } from '../../../src/core/scoring/judges/llm';
import { nuggetCoverageJudge } from '../../../src/core/scoring/judges/nuggetCoverage';
import { loadPrompt, promptsRoot } from '../../../src/core/scoring/judges/prompts';
import { structuredModelFromClient } from '../../../src/core/scoring/judges/providerModel';
import { repairRubricJudge } from '../../../src/core/scoring/judges/repairRubric';
import { scenarioCriterionJudge } from '../../../src/core/scoring/judges/scenarioCriterion';
import { scoreRunFolder } from '../../../src/core/scoring/scoreRunFolder';
import { tempDir } from '../helpers';

type Reply = unknown | ((request: StructuredRequest<unknown>) => unknown);

/** A scripted StructuredModel: each call takes the next reply (a value, an Error to throw, or a function of the request). */
class FakeModel implements StructuredModel {
  requests: StructuredRequest<unknown>[] = [];
  constructor(
    private readonly replies: Reply[],
    private readonly fallback?: Reply,
  ) {}
  async complete<T>(request: StructuredRequest<T>, signal?: AbortSignal): Promise<{ value: T }> {
    if (signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    this.requests.push(request as StructuredRequest<unknown>);
    const reply = this.replies.length ? this.replies.shift() : this.fallback;
    const value = typeof reply === 'function' ? (reply as (r: StructuredRequest<unknown>) => unknown)(request as StructuredRequest<unknown>) : reply;
    if (value instanceof Error) throw value;
    return { value: value as T };
  }
}

const GOOD = { AnswerCorrectness: { Explanation: 'ok', CorrectnessDetails: { Canberra: true }, ExcessiveAnswers: ['Sydney'] } };
const INPUT = { problem: 'What is the capital of Australia?', answer: 'Canberra', answerType: 'Single Answer' as const, response: 'Canberra or Sydney' };

describe('LLM judges (fake StructuredModel)', () => {
  it('the DeepSearchQA grader renders the Appendix A prompt and returns AnswerCorrectness', async () => {
    const model = new FakeModel([GOOD]);
    const judge = deepSearchQaLlmJudge(model);
    assert.equal(judge.id, 'llm/deepsearchqa-grader/v1');
    assert.deepEqual(await judge.judge(INPUT), GOOD.AnswerCorrectness);
    const [request] = model.requests;
    assert.equal(request.schemaName, 'AnswerCorrectness');
    assert.ok(request.user.includes('<prompt>\nWhat is the capital of Australia?\n</prompt>'));
    assert.ok(request.user.includes('Prompt Type: Single Answer\n<answer>\nCanberra\n</answer>'));
    assert.ok(request.user.includes('<response>\nCanberra or Sydney\n</response>'));
    assert.ok(request.user.includes('"AnswerCorrectness"') && request.user.includes('"CorrectnessDetails"') && request.user.includes('"ExcessiveAnswers"'));
    assert.ok(!request.user.includes('{{'));
  });

  it('retries malformed output up to 3 attempts, telling the model what was wrong', async () => {
    const model = new FakeModel([{ AnswerCorrectness: { Explanation: 'x', CorrectnessDetails: { a: 'yes' } } }, GOOD]);
    assert.deepEqual(await deepSearchQaLlmJudge(model).judge(INPUT), GOOD.AnswerCorrectness);
    assert.equal(model.requests.length, 2);
    assert.match(model.requests[1].user, /Your previous output was rejected: .*AnswerCorrectness/);
    // Semantic check: an empty CorrectnessDetails is rejected too; a provider's MalformedOutputError is retried.
    const semantic = new FakeModel([
      { AnswerCorrectness: { Explanation: '', CorrectnessDetails: {}, ExcessiveAnswers: [] } },
      new MalformedOutputError('not JSON'),
      GOOD,
    ]);
    assert.deepEqual(await deepSearchQaLlmJudge(semantic).judge(INPUT), GOOD.AnswerCorrectness);
    assert.equal(semantic.requests.length, 3);
    const hopeless = new FakeModel([], { nope: true });
    await assert.rejects(deepSearchQaLlmJudge(hopeless).judge(INPUT), (e: Error) => e instanceof MalformedOutputError && /3 times/.test(e.message));
    assert.equal(hopeless.requests.length, 3);
  });

  it('does not retry other errors, and stops when cancelled', async () => {
    const failing = new FakeModel([new Error('connection refused')]);
    await assert.rejects(deepSearchQaLlmJudge(failing).judge(INPUT), /connection refused/);
    assert.equal(failing.requests.length, 1);
    const controller = new AbortController();
    controller.abort();
    const idle = new FakeModel([GOOD]);
    await assert.rejects(deepSearchQaLlmJudge(idle).judge(INPUT, controller.signal), (e: Error) => e.name === 'AbortError');
    assert.equal(idle.requests.length, 0);
  });

  it('nugget coverage: one label per nugget, in nugget order; a wrong count is retried', async () => {
    const model = new FakeModel([
      { coverage: [{ nugget: 1, label: 'full' }] },
      {
        coverage: [
          { nugget: 2, label: 'none' },
          { nugget: 1, label: 'partial' },
        ],
      },
    ]);
    const labels = await nuggetCoverageJudge(model).judge({
      query: 'q',
      nuggets: [
        { text: 'alpha', weight: 1 },
        { text: 'beta', weight: 3 },
      ],
      answer: 'ans',
    });
    assert.deepEqual(labels, ['partial', 'none']);
    assert.match(model.requests[0].user, /1\. alpha \(weight 1\)\n2\. beta \(weight 3\)/);
    assert.match(model.requests[1].user, /expected 2 coverage entries/);
  });

  it('repair-rubric grader and scenario-criterion judge', async () => {
    const rubric = new FakeModel([
      {
        grades: [
          { rubric: 2, pass: false },
          { rubric: 1, pass: true },
        ],
      },
    ]);
    assert.deepEqual(await repairRubricJudge(rubric).judge({ repair: 'open the primary source', rubrics: ['r one', 'r two'] }), [true, false]);
    assert.match(rubric.requests[0].user, /1\. r one\n2\. r two/);
    const criterion = new FakeModel([{ hit: true, reason: 'listed' }]);
    assert.equal(
      await scenarioCriterionJudge(criterion).judge({
        scenarioId: 'TS-01',
        scenarioInput: 'task',
        trap: '',
        criterionId: 'TS01-A1',
        criterionText: '≥ 3 questions',
        deliverable: 'Q1 Q2 Q3',
      }),
      true,
    );
    assert.match(criterion.requests[0].user, /\(none stated\)/);
  });

  it('completeValidated validates with zod even when the provider does not', async () => {
    const { z } = await import('zod');
    const model = new FakeModel([{ n: 'one' }, { n: 1 }]);
    const out = await completeValidated(model, { system: 's', user: 'u', schema: z.object({ n: z.number() }), schemaName: 'N' });
    assert.deepEqual([out.value, out.attempts], [{ n: 1 }, 2]);
  });

  it('every prompt file parses and the grader prompt is versioned', () => {
    const judges = readdirSync(join(promptsRoot(), 'judges'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    assert.deepEqual(judges, ['deepsearchqa-grader', 'nugget-coverage', 'repair-rubric', 'scenario-criterion']);
    for (const name of judges) {
      const p = loadPrompt(name);
      assert.ok(p.system.length > 0 && p.user.length > 0, name);
    }
    const grader = readFileSync(join(promptsRoot(), 'judges', 'deepsearchqa-grader', 'v1.md'), 'utf8');
    for (const placeholder of ['{{prompt}}', '{{prompt_type}}', '{{answer}}', '{{response}}']) assert.ok(grader.includes(placeholder), placeholder);
  });

  it('the provider adapter asks completeStructured once; its invalid output is retried by the judge', async () => {
    const texts = ['not json at all', JSON.stringify(GOOD)];
    const seen: ChatRequest[] = [];
    const client: ModelClient = {
      provider: 'openai',
      model: 'fake',
      complete: async (request) => {
        seen.push(request);
        const text = texts.shift() ?? '';
        return {
          text,
          usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0, cacheWriteInputTokens: 0 },
          latencyMs: 1,
          attempts: 1,
          finishReason: 'stop',
          truncated: false,
          model: 'fake',
        } satisfies ChatResult;
      },
    };
    const judgment = await deepSearchQaLlmJudge(structuredModelFromClient(client)).judge(INPUT);
    assert.deepEqual(judgment, GOOD.AnswerCorrectness);
    assert.equal(seen.length, 2);
    assert.equal(seen[0].temperature, 0);
    assert.match(seen[0].system ?? '', /grader/);
  });
});

describe('LLM judges in run folders (cached, never billed twice)', () => {
  it('audit: the rubric grader runs only for sound diagnoses without repair_grades, once', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'gold.jsonl'),
      [
        { id: 'a', critical_step: 3, root_cause: 'constraint_neglect', repair_rubrics: ['r1', 'r2'], query: 'q?' },
        { id: 'b', critical_step: 5, root_cause: 'constraint_neglect', repair_rubrics: ['r1'] },
        { id: 'c', critical_step: 7, root_cause: 'constraint_neglect', repair_rubrics: ['r1'] },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    writeFileSync(
      join(dir, 'predictions.jsonl'),
      [
        { id: 'a', critical_step: 3, root_cause: 'constraint_neglect', repair_directive: 'check the constraint' },
        { id: 'b', critical_step: 4, root_cause: 'constraint_neglect', repair_directive: 'unsound: never graded' },
        { id: 'c', critical_step: 7, root_cause: 'constraint_neglect', repair_directive: 'x', repair_grades: [false] },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const model = new FakeModel([], {
      grades: [
        { rubric: 1, pass: true },
        { rubric: 2, pass: true },
      ],
    });
    const first = await scoreRunFolder(dir, { model });
    assert.equal(model.requests.length, 1);
    assert.match(model.requests[0].user, /check the constraint/);
    if (first.score.kind !== 'audit') throw new Error('kind');
    assert.equal(first.score.metrics.rep_at_diag, 0.5); // a passes (graded), c fails (given grades)
    const again = await scoreRunFolder(dir, { model });
    assert.equal(model.requests.length, 1);
    assert.deepEqual([again.judging.cached, again.judging.modelCalls], [1, 0]);
    assert.deepEqual(again.score, first.score);
  });

  it('nuggets: answers.jsonl judged by the coverage judge and appended to judgments.jsonl', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'gold_nuggets.jsonl'),
      JSON.stringify({
        id: 'i1',
        fused_query: 'fq',
        nuggets: [
          { text: 'a', weight: 1 },
          { text: 'b', weight: 3 },
        ],
      }),
    );
    writeFileSync(
      join(dir, 'answers.jsonl'),
      [
        { id: 'i1', condition: 'orig', answer: 'x' },
        { id: 'i1', condition: 'k1', answer: 'y' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const model = new FakeModel([], (req: StructuredRequest<unknown>) => ({
      coverage: [
        { nugget: 1, label: 'full' },
        { nugget: 2, label: /<answer>\ny\n/.test(req.user) ? 'full' : 'none' },
      ],
    }));
    const r = await scoreRunFolder(dir, { model });
    if (r.score.kind !== 'nuggets') throw new Error('kind');
    assert.equal(r.score.conditions.orig.mean, 25);
    assert.equal(r.score.conditions.k1.mean, 100);
    assert.equal(r.score.improvement.k1.mean, 75);
    const cached = readFileSync(join(dir, 'judgments.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      cached.map((c) => [c.condition, c.coverage]),
      [
        ['orig', ['full', 'none']],
        ['k1', ['full', 'full']],
      ],
    );
    const again = await scoreRunFolder(dir, { model });
    assert.equal(model.requests.length, 2);
    assert.equal(again.judging.cached, 2);
  });

  it('scenarios: mechanical criteria missing from a results line with a deliverable are judged; human ones never', async () => {
    const dir = tempDir();
    const crit = (id: string, check: string, points: number | string, track = 'A', dim = 'D1') => ({ id, track, dim, text: `text ${id}`, check, points });
    writeFileSync(
      join(dir, 'set.json'),
      JSON.stringify({
        meta: { scoring: {} },
        scenarios: [
          {
            id: 'S1',
            input: 'do it',
            trap: 'haste',
            criteria: [crit('m1', 'mechanical', 60), crit('h1', 'human', 40), crit('v', 'mechanical', 'veto', 'B', 'E4')],
          },
        ],
      }),
    );
    writeFileSync(join(dir, 'results.jsonl'), JSON.stringify({ scenario: 'S1', criteria: { v: true }, deliverable: 'the agent output' }));
    const model = new FakeModel([], { hit: true });
    const r = await scoreRunFolder(dir, { model });
    assert.equal(model.requests.length, 1); // m1 only: v has a result, h1 is human
    assert.match(model.requests[0].user, /Criterion m1:[\s\S]*the agent output/);
    if (r.score.kind !== 'scenarios') throw new Error('kind');
    assert.equal(r.score.scenarios.S1.a, 60);
    assert.deepEqual(r.score.missing, { S1: ['h1'] });
    await scoreRunFolder(dir, { model });
    assert.equal(model.requests.length, 1);
  });

  it('cancellation stops a run before more judge calls are made', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'gold_nuggets.jsonl'), JSON.stringify({ id: 'i1', nuggets: [{ text: 'a', weight: 1 }] }));
    writeFileSync(join(dir, 'answers.jsonl'), ['a', 'b', 'c', 'd'].map((c) => JSON.stringify({ id: 'i1', condition: c, answer: c })).join('\n'));
    const controller = new AbortController();
    const model = new FakeModel([], () => {
      controller.abort();
      return { coverage: [{ nugget: 1, label: 'full' }] };
    });
    await assert.rejects(scoreRunFolder(dir, { model, signal: controller.signal, concurrency: 1 }), (e: Error) => e.name === 'AbortError');
    assert.equal(model.requests.length, 1);
    // The verdict that arrived was cached: it is not asked for again.
    assert.equal(readFileSync(join(dir, 'judgments.jsonl'), 'utf8').trim().split('\n').length, 1);
  });
});
