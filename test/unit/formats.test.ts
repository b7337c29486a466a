import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFile, loadText } from '../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../src/core/load/loadRecord';
import { tempDir, trajectoryOf, writeTemp } from './helpers';

const call = (id: string, name: string, args: string) => ({ id, type: 'function', function: { name, arguments: args } });

describe('openai-chat loader', () => {
  const messages = [
    { role: 'system', content: 'You are a search agent.' },
    { role: 'user', content: 'Which city hosted the 1952 Winter Olympics?' },
    {
      role: 'assistant',
      content: null,
      reasoning_content: 'Search first.',
      tool_calls: [call('c1', 'search', '{"query": ["1952 Winter Olympics host", "Oslo 1952"]}')],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'Oslo hosted the 1952 Winter Olympics.' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me open it.' },
        { type: 'text', text: 'Visiting.' },
      ],
      reasoning: 'Visit the page.',
      tool_calls: [call('c2', 'visit', '{"url": "https://example.org/oslo", "goal": "conf')],
    },
    { role: 'tool', content: 'Page text.' },
    { role: 'assistant', content: 'The answer is <answer>Oslo</answer>' },
  ];

  it('keeps source positions, roles and the quirks of real files', () => {
    const t = trajectoryOf({ messages, predicted_answer: 'Oslo' });
    assert.equal(t.format, 'openai-chat');
    assert.equal(t.messages.length, 7);
    assert.deepEqual(
      t.messages.map((m) => m.position),
      [0, 1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(t.decisionSteps, [2, 4, 6]);
    assert.equal(t.finalAnswerStep, 6);
    assert.equal(t.messages[2].content, '', 'null content becomes empty text');
    assert.equal(t.messages[2].reasoning, 'Search first.');
    assert.equal(t.messages[4].content, 'Let me open it.\nVisiting.', 'array of parts is joined');
    assert.equal(t.messages[4].reasoning, 'Visit the page.', '`reasoning` is accepted like `reasoning_content`');
    const broken = t.messages[4].toolCalls[0];
    assert.equal(broken.argumentsValid, false);
    assert.equal(broken.rawArguments, '{"url": "https://example.org/oslo", "goal": "conf');
    assert.equal(t.messages[3].issuedBy, 2);
    assert.equal(t.messages[5].issuedBy, 4, 'a tool return without tool_call_id is linked by order');
    assert.equal(t.messages[5].toolCallId, 'c2');
    assert.equal(t.messages[6].answer, 'Oslo');
    assert.equal(t.query, 'Which city hosted the 1952 Winter Olympics?');
    assert.equal(t.predictedAnswer, 'Oslo');
  });

  it('accepts a bare array of messages and legacy function role', () => {
    const t = trajectoryOf([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a', function_call: { name: 'search', arguments: '{"query":"x"}' } },
      { role: 'function', name: 'search', content: 'r' },
    ]);
    assert.equal(t.format, 'openai-chat');
    assert.equal(t.messages[2].role, 'tool');
    assert.equal(t.messages[1].toolCalls[0].name, 'search');
  });
});

describe('anthropic loader', () => {
  it('maps blocks; a user message of only tool_result blocks is a tool return', () => {
    const t = trajectoryOf({
      system: 'You research.',
      messages: [
        { role: 'user', content: 'Find the river.' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Search.' },
            { type: 'text', text: 'Searching.' },
            { type: 'tool_use', id: 'tu1', name: 'search', input: { query: ['river'] } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: [{ type: 'text', text: 'The Danube.' }], is_error: true }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'tu1', content: 'x' },
            { type: 'text', text: 'Also consider this.' },
          ],
        },
        { role: 'assistant', content: 'Danube' },
      ],
    });
    assert.equal(t.format, 'anthropic');
    assert.equal(t.messages.length, 5, 'the system prompt is not a message: positions stay source positions');
    assert.equal(t.metadata.system, 'You research.');
    assert.equal(t.messages[1].reasoning, 'Search.');
    assert.deepEqual(t.messages[1].toolCalls[0].arguments, { query: ['river'] });
    assert.equal(t.messages[2].role, 'tool');
    assert.equal(t.messages[2].isError, true);
    assert.equal(t.messages[2].issuedBy, 1);
    assert.equal(t.messages[3].role, 'user', 'mixed tool_result and text stays a user message');
    assert.deepEqual(t.decisionSteps, [1, 4]);
  });

  it('takes the predicted answer from an <answer> tag, as for every format, and marks its step final', () => {
    const t = trajectoryOf({
      messages: [
        { role: 'user', content: 'Find the lake.' },
        { role: 'assistant', content: [{ type: 'text', text: 'It is <answer> Lake Ellesmere </answer>, I think.' }] },
        {
          role: 'assistant',
          content: [
            { type: 'redacted_thinking', data: 'zzz' },
            { type: 'text', text: 'Anything else?' },
          ],
        },
      ],
    });
    assert.equal(t.format, 'anthropic');
    assert.equal(t.predictedAnswer, 'Lake Ellesmere');
    assert.equal(t.finalAnswerStep, 1, 'the step holding <answer>, not the last one');
  });
});

describe('tongyi-react loader', () => {
  it('parses <think>, <tool_call>, <tool_response> and <answer>', () => {
    const t = trajectoryOf({
      question: 'Who wrote it?',
      answer: 'Gold Name',
      prediction: 'Wrong Name',
      termination: 'answer',
      messages: [
        { role: 'system', content: 'You are a deep research assistant.' },
        { role: 'user', content: 'Who wrote it?' },
        {
          role: 'assistant',
          content: '<think>I should search.</think>\n<tool_call>\n{"name": "search", "arguments": {"query": ["a", "b", "c"]}}\n</tool_call>',
        },
        { role: 'user', content: '<tool_response>\nresults…\n</tool_response>' },
        { role: 'assistant', content: '<think>Not JSON next.</think>\n<tool_call>\n{"name": "visit", "arguments": {"url": ["u1", "u2"]\n</tool_call>' },
        { role: 'user', content: '<tool_response>page</tool_response>' },
        { role: 'assistant', content: '<think>Done.</think>\n<answer>Wrong Name</answer>' },
      ],
    });
    assert.equal(t.format, 'tongyi-react');
    assert.equal(t.messages[2].reasoning, 'I should search.');
    assert.deepEqual(t.messages[2].toolCalls[0].arguments, { query: ['a', 'b', 'c'] });
    assert.equal(t.messages[3].role, 'tool');
    assert.equal(t.messages[3].content, 'results…');
    assert.equal(t.messages[4].toolCalls[0].name, 'visit');
    assert.equal(t.messages[4].toolCalls[0].argumentsValid, false);
    assert.equal(t.finalAnswerStep, 6);
    assert.equal(t.predictedAnswer, 'Wrong Name');
    assert.equal(t.goldAnswer, 'Gold Name');
  });
});

describe('searchauditbench loader', () => {
  const base = {
    query: 'q',
    predicted_answer: 'wrong',
    trajectory: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'x', tool_calls: [call('a', 'search', '{"query":"q"}')] },
      { role: 'tool', tool_call_id: 'a', content: 'r' },
      { role: 'assistant', content: 'wrong' },
    ],
  };
  it('reads gold fields under every alias', () => {
    const a = trajectoryOf({
      ...base,
      critical_step: 1,
      tolerance_span: [1, 3],
      root_cause_primary: 'Entity—Relation  misbinding',
      repair_rubrics: ['r1', 'r2', 'r3'],
    });
    assert.equal(a.format, 'searchauditbench');
    assert.deepEqual(a.gold?.toleranceSpan, [1, 3]);
    assert.equal(a.gold?.rootCause, 'entity_relation_misbinding');
    const b = trajectoryOf({ ...base, critical_step: { step: 3, span: [1, 3] }, critical_span: [0, 3], root_cause: 'constraint_neglect' });
    assert.equal(b.gold?.criticalStep, 3);
    assert.deepEqual(b.gold?.toleranceSpan, [1, 3]);
    assert.equal(b.gold?.rootCause, 'constraint_neglect');
    const c = trajectoryOf({ ...base, critical_step: '3', root_cause: 'Bad Luck' });
    assert.equal(c.gold?.criticalStep, 3);
    assert.equal(c.gold?.rootCause, undefined);
    assert.equal(c.gold?.rootCauseRaw, 'Bad Luck');
  });
});

describe('who-and-when loader on the real public files', () => {
  // The four public MIT files ship in samples/; ../shared/data holds the originals.
  const inSamples = join(__dirname, '..', '..', 'samples', 'trajectories', 'who-and-when');
  const dir = existsSync(join(inSamples, 'whowhen-hc-1.json')) ? inSamples : join(__dirname, '..', '..', '..', 'shared', 'data', 'who-and-when');
  it('hc-1: only the human task-giver is a user message; string mistake_step becomes a number', () => {
    const loaded = loadFile(join(dir, 'whowhen-hc-1.json'));
    const record = loaded.records[0];
    assert.ok(isTrajectoryRecord(record));
    const t = record.trajectory;
    assert.equal(t.format, 'who-and-when');
    assert.equal(t.messages[0].role, 'user');
    assert.equal(t.messages[1].role, 'assistant');
    assert.equal(t.messages[1].agent, 'Orchestrator (thought)');
    assert.equal(t.gold?.criticalStep, 12);
    assert.equal(t.gold?.mistakeAgent, 'WebSurfer');
    assert.equal(t.decisionSteps.length, t.messages.length - 1);
  });
  it('ag-2: AutoGen role user with a name is another agent, terminal included', () => {
    const raw = JSON.parse(readFileSync(join(dir, 'whowhen-ag-2.json'), 'utf8'));
    const t = trajectoryOf(raw);
    assert.equal(t.messages[1].agent, 'Computer_terminal');
    assert.equal(t.messages[1].role, 'assistant');
    assert.deepEqual(
      t.decisionSteps,
      raw.history.map((_: unknown, i: number) => i),
    );
    assert.equal(t.gold?.criticalStep, 2);
    assert.equal(t.predictedAnswer, undefined);
  });
});

describe('content-based detection', () => {
  it('renaming the extension does not change the detected format', () => {
    const dir = tempDir();
    const body = JSON.stringify({
      question: 'q',
      prediction: 'p',
      termination: 'answer',
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '<answer>p</answer>' },
      ],
    });
    const kinds = ['a.traj.json', 'a.txt', 'a', 'a.csv', 'a.jsonl'].map((name) => loadFile(writeTemp(dir, name, body)).detection.kind);
    assert.deepEqual(new Set(kinds), new Set(['tongyi-react']));
  });

  it('loads JSONL records with ids from fields or line numbers, and keeps good records around a bad line', () => {
    const good = (id?: string) =>
      JSON.stringify({
        ...(id ? { id } : {}),
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
        ],
      });
    const loaded = loadText([good('alpha'), '{"messages": [', good(), ''].join('\n'), 'runs.jsonl');
    assert.equal(loaded.container, 'jsonl');
    assert.deepEqual(
      loaded.records.map((r) => r.id),
      ['alpha', '3'],
    );
    assert.equal(loaded.problems.length, 1);
    assert.equal(loaded.problems[0].line, 2);
  });

  it('recognizes benchmark items, sidecars and manifests', () => {
    assert.equal(
      loadText(JSON.stringify({ id: 'd1', query: 'q', golden_answer: 'a', golden_docs: [{ doc_id: 'g1', content: 'c' }] }), 'x').detection.kind,
      'delegation-item',
    );
    assert.equal(
      loadText(JSON.stringify({ id: 'c1', blurred_query: 'b', fused_query: 'f', nuggets: [{ text: 't', weight: 2 }] }), 'x').detection.kind,
      'clarify-instance',
    );
    assert.equal(loadText('problem,problem_category,answer,answer_type\n"Which, exactly?",Science,42,Single Answer\n', 'x').detection.kind, 'deepsearchqa');
    assert.equal(loadText(JSON.stringify({ kind: 'audit', gold: 'gold.jsonl' }), 'x').detection.kind, 'run-manifest');
    assert.equal(loadText(JSON.stringify({ schema: 'trajaudit.audit/v1', trajectory: { file: 'a.json' }, records: {} }), 'x').detection.kind, 'audit-sidecar');
  });

  it('gives DeepSearchQA rows their id column, else the 0-based row number', () => {
    const csv = loadText('problem,problem_category,answer,answer_type\nA?,Science,1,Single Answer\nB?,Science,"x, y",set answer\n', 'd.csv');
    assert.deepEqual(
      csv.records.map((r) => r.id),
      ['0', '1'],
    );
    const row = csv.records[1];
    assert.ok(row.kind === 'deepsearchqa' && row.row.answer_type === 'Set Answer');
    const jsonl = loadText(
      '{"id":"q7","problem":"A?","problem_category":"S","answer":"1","answer_type":"Single Answer"}\n{"problem":"B?","problem_category":"S","answer":"2","answer_type":"Single Answer"}\n',
      'd.jsonl',
    );
    assert.deepEqual(
      jsonl.records.map((r) => r.id),
      ['q7', '1'],
    );
  });
});
