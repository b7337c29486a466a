// Readers that show a step's tool results inside its text (ATIF observations, smolagents
// observations, OWL rounds, Gemini CLI results) take the answer only from what the agent wrote:
// a fetched page that quotes `<answer>…</answer>` or a `FINAL ANSWER:` line is not the agent's answer.
import assert from 'node:assert/strict';
import { loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { Trajectory } from '../../../src/core/model/trajectory';

function read(value: unknown, kind: string): Trajectory {
  const loaded = loadText(JSON.stringify(value, null, 1), `${kind}.json`);
  assert.equal(loaded.detection.kind, kind);
  assert.deepEqual(loaded.problems, []);
  const record = loaded.records[0];
  assert.ok(isTrajectoryRecord(record));
  return record.trajectory;
}

const PAGE = 'Quiz page. Example: <answer>Paris</answer>\nFINAL ANSWER: Paris\nMore page text.';

describe('an answer quoted by a tool result is not the agent’s answer', () => {
  it('ATIF: the observation shown under a step is searched for nothing; the agent’s own text still is', () => {
    const t = read(
      {
        schema_version: 'ATIF-v1.6',
        session_id: 's1',
        agent: { name: 'terminus', version: '1' },
        steps: [
          { step_id: 1, source: 'user', message: 'Which river flows through Vienna?' },
          {
            step_id: 2,
            source: 'agent',
            message: 'Opening the quiz page.',
            tool_calls: [{ tool_call_id: 'c1', function_name: 'open_page', arguments: { url: 'https://quiz.example/1' } }],
            observation: { results: [{ source_call_id: 'c1', content: PAGE }] },
          },
          { step_id: 3, source: 'agent', message: 'It is the Danube: <answer>Danube</answer>' },
        ],
      },
      'atif',
    );
    assert.ok(t.messages[1].content.includes('<answer>Paris</answer>'), 'the observation is still shown in the step');
    assert.equal(t.messages[1].answer, undefined);
    assert.equal(t.messages[2].answer, 'Danube');
    assert.equal(t.predictedAnswer, 'Danube');
    assert.equal(t.finalAnswerStep, 2);
  });

  it('ATIF: a run whose last step holds only an observation has no answer from the page', () => {
    const t = read(
      {
        schema_version: 'ATIF-v1.6',
        steps: [
          { step_id: 1, source: 'user', message: 'Which river flows through Vienna?' },
          {
            step_id: 2,
            source: 'agent',
            message: 'Opening the quiz page.',
            tool_calls: [{ tool_call_id: 'c1', function_name: 'open_page', arguments: {} }],
            observation: { results: [{ source_call_id: 'c1', content: PAGE }] },
          },
        ],
      },
      'atif',
    );
    assert.equal(t.messages[1].answer, undefined);
    assert.notEqual(t.predictedAnswer, 'Paris');
  });

  it('smolagents: observations are not searched; the model output is', () => {
    const t = read(
      [
        { task: 'Which river flows through Vienna?' },
        {
          step_number: 1,
          model_output: 'Thought: open the quiz.\nCode:\n```py\nprint(visit_webpage("https://quiz.example/1"))\n```',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'python_interpreter', arguments: 'print(visit_webpage("https://quiz.example/1"))' } }],
          observations: PAGE,
        },
        { step_number: 2, model_output: 'Thought: it is the Danube. <answer>Danube</answer>', observations: '' },
      ],
      'smolagents',
    );
    assert.ok(t.messages[1].content.includes('FINAL ANSWER: Paris'), 'the observation is still shown in the step');
    assert.equal(t.messages[1].answer, undefined);
    assert.equal(t.messages[2].answer, 'Danube');
    assert.equal(t.predictedAnswer, 'Danube');
    assert.equal(t.messages[1].toolCalls[0].argumentsValid, false, 'code arguments are kept raw');
    assert.equal(t.messages[1].toolCalls[0].rawArguments, 'print(visit_webpage("https://quiz.example/1"))');
  });

  it('Gemini CLI: the tool results shown after a gemini message are not searched; its text is', () => {
    const lines = [
      { sessionId: 's1', projectHash: 'f'.repeat(64), startTime: '2025-10-03T16:00:00.000Z', lastUpdated: '2025-10-03T16:00:09.000Z' },
      { id: 'u1', timestamp: '2025-10-03T16:00:01.000Z', type: 'user', content: [{ text: 'Which river flows through Vienna?' }] },
      {
        id: 'g1',
        timestamp: '2025-10-03T16:00:02.000Z',
        type: 'gemini',
        content: 'Reading the quiz.',
        toolCalls: [
          {
            id: 'read_file-1',
            name: 'read_file',
            args: { absolute_path: '/home/dev/quiz.md' },
            status: 'success',
            result: [{ functionResponse: { id: 'read_file-1', name: 'read_file', response: { output: PAGE } } }],
          },
        ],
      },
      { id: 'g2', timestamp: '2025-10-03T16:00:03.000Z', type: 'gemini', content: 'It is the Danube. <answer>Danube</answer>' },
    ];
    const loaded = loadText(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', 'session.jsonl');
    assert.equal(loaded.detection.kind, 'gemini-cli');
    const record = loaded.records[0];
    assert.ok(isTrajectoryRecord(record));
    const t = record.trajectory;
    assert.ok(t.messages[2].content.includes('<answer>Paris</answer>'), 'the result is still shown after the text');
    assert.equal(t.messages[2].answer, undefined);
    assert.equal(t.messages[3].answer, 'Danube');
    assert.equal(t.predictedAnswer, 'Danube');
  });

  it('OWL: a round’s tool results and instruction are not searched; the assistant’s text is', () => {
    const t = read(
      {
        question: 'Which river flows through Vienna?',
        chat_history: [
          {
            user: 'Instruction: open the quiz page.',
            assistant: 'I opened it.',
            tool_calls: [{ tool_name: 'extract_document_content', args: { document_path: 'https://quiz.example/1' }, result: PAGE, tool_call_id: 'c1' }],
          },
          { user: 'Instruction: answer.', assistant: 'FINAL ANSWER: Danube', tool_calls: [] },
        ],
      },
      'camel',
    );
    assert.ok(t.messages[0].content.includes('<answer>Paris</answer>'), 'the result is still shown in the round');
    assert.equal(t.messages[0].answer, undefined);
    assert.equal(t.predictedAnswer, 'Danube');
    assert.equal(t.finalAnswerStep, 1);
  });
});
