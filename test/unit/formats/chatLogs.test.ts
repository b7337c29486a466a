// Chat-log readers and the Tongyi family fixes (issue 15): fixtures under test/fixtures/formats/<id>/ loaded through loadFile.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeLarge as makeLargeCamel } from '../../bench/formats/camel';
import { makeLarge as makeLargeMagenticOne } from '../../bench/formats/magentic-one';
import { makeLarge as makeLargeTau } from '../../bench/formats/tau-bench';
import { finalAnswerLineOf } from '../../../src/core/formats/finish';
import { questionAfterUserTurn } from '../../../src/core/formats/tongyi';
import { AMBIGUITY_MARGIN, decide, FULL_MATCH, rankFormats } from '../../../src/core/formats/registry';
import { InputError } from '../../../src/core/input/inputError';
import { loadFile, loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { Trajectory } from '../../../src/core/model/trajectory';
import { runCli, trajectoryOf } from '../helpers';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'formats');

function trajectoriesOf(format: string, file: string): Trajectory[] {
  const loaded = loadFile(join(FIXTURES, format, file));
  assert.deepEqual(loaded.problems, [], 'no record problems');
  return loaded.records.map((record) => {
    if (!isTrajectoryRecord(record)) throw new Error(`not a trajectory: ${record.kind}`);
    return record.trajectory;
  });
}

function single(format: string, file: string): Trajectory {
  const all = trajectoriesOf(format, file);
  assert.equal(all.length, 1);
  return all[0];
}

describe('tongyi-react: WebDancer-style chatml', () => {
  it('takes the question after `User:` when the first user message carries the tool instructions, and keeps the gold `answer`', () => {
    const t = single('tongyi-react', 'webdancer-chatml.json');
    assert.equal(t.format, 'tongyi-react');
    assert.equal(t.messages.length, 7);
    assert.equal(t.query, 'Which river flows through the town where the composer of the opera "Der Zwerg" was born?');
    assert.equal(t.goldAnswer, 'Danube');
    assert.equal(t.predictedAnswer, 'The Danube', 'the <answer> of the final step');
    assert.deepEqual(t.decisionSteps, [2, 4, 6]);
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant'],
    );
    assert.equal(t.messages[2].toolCalls[0].name, 'search');
    assert.equal(t.messages[3].issuedBy, 2);
    assert.equal(t.messages[5].issuedBy, 4);
    assert.ok(t.messages[1].content.startsWith('A conversation between User and Assistant'), 'the message itself keeps its text');
  });

  it('`prediction` is the predicted answer and `answer` the gold one', () => {
    const t = single('tongyi-react', 'webdancer-prediction.json');
    assert.equal(t.predictedAnswer, 'Danube (Donau)');
    assert.equal(t.goldAnswer, 'Danube');
    assert.equal(t.query?.startsWith('Which river flows'), true);
  });

  it('a `question` field wins; a plain first user message stays the query; only the last `User:` counts', () => {
    const prompt =
      'Use the tools in <tools>[]</tools>.\nExample:\nUser: an example question\nAssistant: <answer>x</answer>\n\nUser:  Real question?\nAssistant:';
    assert.equal(questionAfterUserTurn(prompt), 'Real question?');
    assert.equal(questionAfterUserTurn('User: a question with no tool instructions'), undefined);
    assert.equal(questionAfterUserTurn('<tools>[]</tools> but no user turn'), undefined);
    const withQuestion = trajectoryOf({
      question: 'Stated question?',
      prediction: 'p',
      messages: [
        { role: 'user', content: prompt },
        { role: 'assistant', content: '<answer>p</answer>' },
      ],
    });
    assert.equal(withQuestion.query, 'Stated question?');
  });
});

describe('FINAL ANSWER lines (finish.ts)', () => {
  it('is the predicted answer of a Magentic-One log that ends `FINAL ANSWER: 70` (a Who&When file)', () => {
    const t = trajectoryOf({
      question: 'How many?',
      ground_truth: '71',
      mistake_agent: 'WebSurfer',
      mistake_step: '1',
      history: [
        { role: 'human', content: 'How many?' },
        { role: 'Orchestrator (thought)', content: 'To answer, use the template FINAL ANSWER: [YOUR FINAL ANSWER]' },
        { role: 'WebSurfer', content: 'I found 70.\nFINAL ANSWER: 70\nSCENARIO.PY COMPLETE !#!#' },
      ],
    });
    assert.equal(t.format, 'who-and-when');
    assert.equal(t.predictedAnswer, '70');
    assert.equal(t.finalAnswerStep, 2);
  });

  it('is taken from the last decision step that has one, and never over <answer> or a predicted answer field', () => {
    const history = [
      { role: 'human', content: 'q' },
      { role: 'Assistant', content: 'FINAL ANSWER: 5' },
      { role: 'Orchestrator (termination condition)', content: 'No agent selected.' },
    ];
    const t = trajectoryOf({ question: 'q', ground_truth: '5', mistake_step: 1, history });
    assert.equal(t.predictedAnswer, '5');
    assert.equal(t.finalAnswerStep, 1);
    const tagged = trajectoryOf({
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'FINAL ANSWER: 6' },
        { role: 'assistant', content: '<answer>7</answer>' },
      ],
    });
    assert.equal(tagged.predictedAnswer, '7');
    const stated = trajectoryOf({
      predicted_answer: '8',
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'FINAL ANSWER: 6' },
      ],
    });
    assert.equal(stated.predictedAnswer, '8');
    assert.equal(finalAnswerLineOf('FINAL ANSWER: a\nmore\n  FINAL ANSWER: b  \r\nend'), 'b');
    assert.equal(finalAnswerLineOf('The FINAL ANSWER: is not at a line start'), undefined);
  });
});

/** The winner of detection is `format` and clear of the runner-up. */
function assertClearWinner(value: unknown, format: string): void {
  const ranked = rankFormats(value);
  const verdict = decide(ranked);
  assert.equal(verdict.kind, 'reader', `a clear full match, got ${verdict.kind}: ${ranked.map((r) => `${r.reader.id} ${r.score}`).join(', ')}`);
  if (verdict.kind !== 'reader') return;
  assert.equal(verdict.match.reader.id, format);
  const runnerUp = ranked.find((r) => r.reader.id !== format);
  if (runnerUp && runnerUp.score >= FULL_MATCH) assert.ok(verdict.match.score - runnerUp.score >= AMBIGUITY_MARGIN, `clear of ${runnerUp.reader.id}`);
}

function fixtureValue(format: string, file: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES, format, file), 'utf8'));
}

/** Loading `text` fails with one line naming the format and the place. */
function assertLoadError(text: string, ...parts: (string | RegExp)[]): void {
  assert.throws(
    () => loadText(text, 'broken.json'),
    (error: unknown) => {
      assert.ok(error instanceof InputError, String(error));
      assert.ok(!error.message.includes('\n'), 'one line');
      for (const part of parts) assert.match(error.message, typeof part === 'string' ? new RegExp(part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : part);
      return true;
    },
  );
}

describe('magentic-one', () => {
  it('reads a bare array of agent-named {role, content} entries: the human task, every agent message a decision step, FINAL ANSWER', () => {
    const t = single('magentic-one', 'gaia-kestrel-bay.json');
    assert.equal(t.format, 'magentic-one');
    assert.equal(t.messages.length, 10);
    assert.equal(t.messages[0].role, 'user');
    assert.ok(t.query?.startsWith('How many studio albums'));
    assert.deepEqual(t.decisionSteps, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.deepEqual(
      t.decisionSteps.map((p) => t.messages[p].agent),
      [
        'Orchestrator (thought)',
        'Orchestrator (thought)',
        'Orchestrator (-> WebSurfer)',
        'WebSurfer',
        'Orchestrator (thought)',
        'Orchestrator (-> Assistant)',
        'Assistant',
        'Orchestrator (thought)',
        'Orchestrator (termination condition)',
      ],
    );
    assert.equal(t.predictedAnswer, '3');
    assert.equal(t.finalAnswerStep, 9);
    assertClearWinner(fixtureValue('magentic-one', 'gaia-kestrel-bay.json'), 'magentic-one');
  });

  it('reads AgentChat MagenticOneGroupChat messages: tool call requests and their execution events linked by call id', () => {
    const t = single('magentic-one', 'agentchat-python-match.json');
    assert.equal(t.messages.length, 7);
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['user', 'assistant', 'assistant', 'assistant', 'tool', 'assistant', 'assistant'],
    );
    assert.equal(t.messages[3].toolCalls[0].name, 'run_python');
    assert.deepEqual(t.messages[3].toolCalls[0].arguments, { code: "print('3.10')" });
    assert.equal(t.messages[4].toolCallId, 'call_k1');
    assert.equal(t.messages[4].issuedBy, 3);
    assert.equal(t.messages[4].content, '3.10\n');
    assert.equal(t.predictedAnswer, '3.10');
    assert.deepEqual(t.metadata.agents, ['MagenticOneOrchestrator', 'Coder']);
    assertClearWinner(fixtureValue('magentic-one', 'agentchat-python-match.json'), 'magentic-one');
  });

  it('a broken log names Magentic-One and the entry; plain OpenAI chat arrays stay openai-chat', () => {
    const log = fixtureValue('magentic-one', 'gaia-kestrel-bay.json') as Record<string, unknown>[];
    const broken = JSON.stringify(log.map((m, i) => (i === 4 ? { role: m.role, text: m.content } : m)));
    assertLoadError(broken, 'Magentic-One', '$[4]');
    assertClearWinner(
      [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a' },
      ],
      'openai-chat',
    );
  });

  it('loads a large generated log with the right counts', () => {
    const text = makeLargeMagenticOne(500);
    const loaded = loadText(text, 'large.json');
    const record = loaded.records[0];
    assert.ok(isTrajectoryRecord(record));
    assert.equal(record.trajectory.messages.length, 1 + 500 * 3 + 1);
    assert.equal(record.trajectory.decisionSteps.length, 500 * 3 + 1);
    assert.equal(record.trajectory.predictedAnswer, '500');
  });
});

describe('tau-bench', () => {
  it('reads a τ-bench results array: one record per task × trial, OpenAI messages with linked tool returns, the reward as outcome', () => {
    const loaded = loadFile(join(FIXTURES, 'tau-bench', 'retail-results.json'));
    assert.equal(loaded.detection.kind, 'tau-bench');
    assert.deepEqual(
      loaded.records.map((r) => r.id),
      ['0#0', '1#0'],
    );
    const [first, second] = trajectoriesOf('tau-bench', 'retail-results.json');
    assert.equal(first.messages.length, 16);
    assert.deepEqual(first.decisionSteps, [2, 4, 6, 8, 10, 12, 14]);
    assert.deepEqual(
      first.messages.map((m) => m.role),
      [
        'system',
        'user',
        'assistant',
        'user',
        'assistant',
        'tool',
        'assistant',
        'user',
        'assistant',
        'tool',
        'assistant',
        'user',
        'assistant',
        'tool',
        'assistant',
        'user',
      ],
    );
    assert.equal(first.messages[12].toolCalls[0].name, 'cancel_pending_order');
    assert.deepEqual(first.messages[12].toolCalls[0].arguments, { order_id: '#W5521907', reason: 'ordered by mistake' });
    assert.equal(first.messages[13].toolCallId, 'call_a3');
    assert.equal(first.messages[13].issuedBy, 12);
    assert.equal(first.query, "Hi, I'd like to cancel an order I placed by mistake.");
    assert.deepEqual(first.metadata.outcome, { success: true, score: 1, source: 'reward' });
    assert.match(String(first.metadata.instruction), /You are Mara Lindqvist/);
    assert.deepEqual(second.metadata.outcome, { success: false, score: 0, source: 'reward' });
    assert.equal(second.goldAnswer, '10', 'the task outputs are the gold answer');
    assertClearWinner(fixtureValue('tau-bench', 'retail-results.json'), 'tau-bench');
    assertClearWinner((fixtureValue('tau-bench', 'retail-results.json') as unknown[])[0], 'tau-bench');
  });

  it('reads a τ²-bench results object: one record per simulation, the task beside it, tool calls of the user simulator kept apart', () => {
    const loaded = loadFile(join(FIXTURES, 'tau-bench', 'tau2-results.json'));
    assert.deepEqual(
      loaded.records.map((r) => r.id),
      ['airline_task_3#0', 'telecom_task_8#0'],
    );
    const [airline, telecom] = trajectoriesOf('tau-bench', 'tau2-results.json');
    assert.equal(airline.messages.length, 6);
    assert.deepEqual(airline.decisionSteps, [0, 2, 4]);
    assert.deepEqual(airline.messages[2].toolCalls[0].arguments, { reservation_id: 'ZFA04Y' });
    assert.equal(airline.messages[3].issuedBy, 2);
    assert.equal(airline.goldAnswer, 'HAT170');
    assert.deepEqual(airline.metadata.outcome, { success: true, score: 1, source: 'reward_info.reward' });
    assert.equal(telecom.messages.length, 7);
    assert.equal(telecom.messages[1].role, 'user');
    assert.equal(telecom.messages[1].toolCalls[0].name, 'check_network_status');
    assert.equal(telecom.messages[2].issuedBy, undefined, "a return of the user's own call answers no agent step");
    assert.equal(telecom.messages[5].issuedBy, 4);
    assert.equal(telecom.messages[5].isError, true);
    assert.equal(telecom.query, 'My phone has no signal and I checked: airplane mode is on.');
    assert.deepEqual(telecom.metadata.outcome, { success: false, score: 0, source: 'reward_info.reward' });
    assert.equal(telecom.metadata.termination_reason, 'max_steps');
    assertClearWinner(fixtureValue('tau-bench', 'tau2-results.json'), 'tau-bench');
  });

  it('a record without `traj` names τ-bench and what is missing; a broken message names its path', () => {
    const records = fixtureValue('tau-bench', 'retail-results.json') as Record<string, unknown>[];
    assertLoadError(JSON.stringify({ task_id: 3, reward: 0, info: {} }), 'τ-bench', 'traj');
    const badRole = structuredClone(records);
    (badRole[1].traj as Record<string, unknown>[])[2].role = 'robot';
    const loaded = loadText(JSON.stringify(badRole), 'broken.json');
    assert.equal(loaded.records.length, 1, 'the good record still loads');
    assert.match(loaded.problems[0].path ?? '', /\$\[1\]\.traj\[2\]\.role/);
  });

  it('loads a large generated results file with the right counts', () => {
    const loaded = loadText(makeLargeTau(40, 2), 'results.json');
    assert.equal(loaded.records.length, 80);
    const record = loaded.records[79];
    assert.ok(isTrajectoryRecord(record));
    assert.equal(record.id, '39#1');
    assert.equal(record.trajectory.messages.length, 2 + 4 * 4);
    assert.equal(record.trajectory.decisionSteps.length, 8);
  });
});

describe('camel', () => {
  it('reads a CAMEL role-playing session: OpenAI-style messages, the two agents named by their roles, the task prompt as query', () => {
    const t = single('camel', 'role-playing.json');
    assert.equal(t.format, 'camel');
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool', 'assistant', 'user'],
    );
    assert.equal(t.messages[1].agent, 'Stock Trader');
    assert.equal(t.messages[2].agent, 'Python Programmer');
    assert.equal(t.messages[2].toolCalls[0].name, 'execute_code');
    assert.equal(t.messages[3].issuedBy, 2);
    assert.deepEqual(t.decisionSteps, [2, 4]);
    assert.ok(t.query?.startsWith('Write a Python function'));
    assert.equal(t.metadata.model, 'gpt-4o-mini');
    assertClearWinner(fixtureValue('camel', 'role-playing.json'), 'camel');
  });

  it('reads an OWL history: one message per round, its tool calls with their results, the answer field as predicted answer', () => {
    const t = single('camel', 'owl-history.json');
    assert.equal(t.messages.length, 3);
    assert.deepEqual(t.decisionSteps, [0, 1, 2]);
    assert.deepEqual(
      t.messages[0].toolCalls.map((c) => c.name),
      ['search_google', 'extract_document_content'],
    );
    assert.deepEqual(t.messages[0].toolCalls[0].arguments, { query: 'capital of Iceland' });
    assert.match(t.messages[0].content, /extract_document_content returned: .*139,875/);
    assert.equal(t.predictedAnswer, '139,875');
    assert.ok(t.query?.startsWith('What is the population'));
    assertClearWinner(fixtureValue('camel', 'owl-history.json'), 'camel');
  });

  it('a round of the wrong shape names OWL and its path; a role-playing session without messages names what is missing', () => {
    const owl = fixtureValue('camel', 'owl-history.json') as { chat_history: Record<string, unknown>[] };
    const broken = structuredClone(owl);
    broken.chat_history[1].assistant = 42;
    assertLoadError(JSON.stringify(broken, null, 1), 'OWL history', '$.chat_history[1].assistant');
    assertLoadError(JSON.stringify({ assistant_role: 'A', user_role: 'B' }), 'CAMEL', 'messages or chat_history');
  });

  it('loads a large generated OWL history with the right counts', () => {
    const record = loadText(makeLargeCamel(300), 'owl.json').records[0];
    assert.ok(isTrajectoryRecord(record));
    assert.equal(record.trajectory.messages.length, 300);
    assert.equal(record.trajectory.decisionSteps.length, 300);
    assert.equal(record.trajectory.messages[299].toolCalls.length, 2);
  });
});

describe('trajaudit inspect --json on the chat-log fixtures', () => {
  for (const [format, file, counts] of [
    ['tongyi-react', 'webdancer-chatml.json', [{ messages: 7, steps: 3, calls: 2, success: null }]],
    ['magentic-one', 'agentchat-python-match.json', [{ messages: 7, steps: 5, calls: 1, success: null }]],
    [
      'tau-bench',
      'retail-results.json',
      [
        { messages: 16, steps: 7, calls: 3, success: true },
        { messages: 8, steps: 3, calls: 2, success: false },
      ],
    ],
    ['camel', 'role-playing.json', [{ messages: 6, steps: 2, calls: 1, success: null }]],
  ] as const) {
    it(`${format} ${file}: ${counts.length} record(s) with their counts and outcome`, async () => {
      const { code, out } = await runCli(['inspect', join(FIXTURES, format, file), '--json']);
      assert.equal(code, 0);
      const parsed = JSON.parse(out) as unknown;
      const reports = (Array.isArray(parsed) ? parsed : [parsed]) as {
        format: string;
        messages: number;
        decisionSteps: number[];
        toolCalls: number;
        outcome?: { success: boolean | null };
      }[];
      assert.deepEqual(
        reports.map((r) => ({
          format: r.format,
          messages: r.messages,
          steps: r.decisionSteps.length,
          calls: r.toolCalls,
          success: r.outcome?.success ?? null,
        })),
        counts.map((c) => ({ format, ...c })),
      );
    });
  }
});
