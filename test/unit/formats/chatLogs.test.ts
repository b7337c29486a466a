// Chat-log readers and the Tongyi family fixes (issue 15): fixtures under test/fixtures/formats/<id>/ loaded through loadFile.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { finalAnswerLineOf } from '../../../src/core/formats/finish';
import { questionAfterUserTurn } from '../../../src/core/formats/tongyi';
import { loadFile } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { Trajectory } from '../../../src/core/model/trajectory';
import { trajectoryOf } from '../helpers';

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
