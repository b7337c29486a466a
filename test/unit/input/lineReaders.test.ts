// Session readers that read a JSONL file line by line (issue 15 item 6): past DETECTION_LINES the
// pipeline chooses the reader by the first lines and hands it each parsed line, so a line's tree
// dies young. These pin that a file read that way gives what the whole list of lines gives, that
// a line of another shape after the first ones is refused by its number, and that JSON is still
// told from JSONL by the first two lines.
import assert from 'node:assert/strict';
import { loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import { DETECTION_LINES, readerFor } from '../../../src/core/formats/registry';
import type { Trajectory, TrajectoryFormat } from '../../../src/core/model/trajectory';
import { InputError } from '../../../src/core/input/inputError';
import { makeLarge as largeClaudeCode } from '../../bench/formats/claude-code';

/** A Gemini CLI recording of `rounds` rounds: each gemini message written twice, some three times, tokens on every record. */
function geminiSession(rounds: number): string[] {
  const lines: object[] = [{ sessionId: 's', projectHash: 'p', startTime: 't0' }];
  for (let i = 0; i < rounds; i++) {
    lines.push({ id: `u${i}`, type: 'user', content: [{ text: `question ${i}` }] });
    const message = { id: `g${i}`, type: 'gemini', content: `answer ${i}`, model: i % 2 ? 'gemini-2.5-pro' : 'gemini-2.5-flash' };
    const call = { id: `c${i}`, name: 'google_web_search', args: { query: `q${i}` } };
    lines.push({ ...message, toolCalls: [{ ...call, status: 'executing' }], tokens: { input: 100, output: 1 } });
    if (i % 3 === 0) lines.push({ ...message, toolCalls: [{ ...call, status: 'executing' }], tokens: { input: 200, output: 2 } });
    lines.push({ $set: { lastUpdated: `t${i}` } });
    lines.push({
      ...message,
      toolCalls: [{ ...call, status: 'success', result: [{ functionResponse: { response: { output: `page ${i}` } } }] }],
      tokens: { input: i, output: 3 },
    });
    if (i === 10) lines.push({ $rewindTo: 'u9' });
  }
  return lines.map((line) => JSON.stringify(line));
}

function onlyTrajectoryOf(text: string, name: string): { trajectory: Trajectory; problems: unknown[] } {
  const loaded = loadText(text, name);
  const [record] = loaded.records;
  assert.ok(record && isTrajectoryRecord(record));
  return { trajectory: record.trajectory, problems: loaded.problems };
}

/** The same lines through the reader's whole-list path (loadLines), as a file shorter than DETECTION_LINES is read. */
function throughLoadLines(format: TrajectoryFormat, lines: string[]): Trajectory {
  const values = lines.map((line): unknown => JSON.parse(line));
  const [record] = readerFor(format)!.loadLines!(
    values,
    lines.map((_, i) => i + 1),
    { file: 'x.jsonl' },
  );
  return record.trajectory;
}

describe('session readers read line by line past the first lines (issue 15 item 6)', () => {
  it('gemini-cli: a long recording read line by line is what its whole list of lines gives; earlier records are notes, only the last counts', () => {
    const lines = geminiSession(40);
    assert.ok(lines.length > DETECTION_LINES * 2);
    const { trajectory, problems } = onlyTrajectoryOf(lines.join('\n') + '\n', 'chat.jsonl');
    assert.deepEqual(problems, []);
    assert.deepEqual(trajectory, throughLoadLines('gemini-cli', lines));
    assert.equal(trajectory.messages.length, lines.length);
    // Round 0: user (1), the first two records (2, 3) then a $set (4), the last record (5).
    assert.deepEqual(
      trajectory.messages.slice(1, 6).map((m) => [m.role, m.agent ?? '']),
      [
        ['user', ''],
        ['system', 'earlier record'],
        ['system', 'earlier record'],
        ['system', 'metadata'],
        ['assistant', ''],
      ],
    );
    assert.match(trajectory.messages[2].content, /^\[earlier record of message g0, updated at entry 5\] answer 0$/);
    assert.match(trajectory.messages[3].content, /updated at entry 5\]/);
    assert.equal(trajectory.messages[5].content, 'answer 0\n\n[google_web_search result, success]\npage 0');
    // Tokens of the last record of each message only: input 0+1+…+39, output 3 per round.
    assert.deepEqual(trajectory.metadata.tokens, { input: (39 * 40) / 2, output: 3 * 40 });
    assert.equal(trajectory.metadata.model, 'gemini-2.5-flash, gemini-2.5-pro');
    assert.equal(trajectory.metadata.rewinds, 1);
    const rewound = trajectory.messages.filter((m) => m.agent === 'rewound').map((m) => m.content);
    assert.deepEqual(rewound.slice(0, 2), ['question 9', 'answer 9\n\n[google_web_search result, success]\npage 9']);
    assert.equal(trajectory.decisionSteps.length, 40);
    assert.equal(trajectory.query, 'question 0');
  });

  it('keeps line numbers through blank lines, CRLF and a bad JSON line after the first lines', () => {
    const lines = geminiSession(30);
    const withNoise = [...lines.slice(0, 70), '', '  ', '{"broken": ', ...lines.slice(70)];
    const { trajectory, problems } = onlyTrajectoryOf(withNoise.join('\r\n'), 'chat.jsonl');
    assert.equal(problems.length, 1);
    assert.equal((problems[0] as { line: number }).line, 73);
    assert.deepEqual(trajectory, throughLoadLines('gemini-cli', lines));
  });

  it('a line of another shape after the first lines is refused by its line number, for gemini-cli, claude-code and the three codex layouts', () => {
    const rollout = (type: string, payload: object) => JSON.stringify({ timestamp: '2025-09-22T14:00:00.000Z', type, payload });
    const codex = [rollout('session_meta', { id: 's', cwd: '/w' })];
    for (let i = 0; i < 80; i++) codex.push(rollout('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: `q${i}` }] }));
    const legacy = [JSON.stringify({ id: 's', timestamp: 't' })];
    for (let i = 0; i < 80; i++) legacy.push(JSON.stringify({ type: 'message', role: 'user', content: [{ type: 'input_text', text: `q${i}` }] }));
    const exec = [JSON.stringify({ type: 'thread.started', thread_id: 't' })];
    for (let i = 0; i < 80; i++) exec.push(JSON.stringify({ type: 'item.completed', item: { id: `i${i}`, type: 'agent_message', text: `a${i}` } }));
    const claude = largeClaudeCode(40).trim().split('\n');
    for (const [name, lines, what] of [
      ['chat.jsonl', geminiSession(30), /a Gemini CLI session line; format gemini-cli/],
      ['session.jsonl', claude, /a Claude Code session line; format claude-code/],
      ['rollout.jsonl', codex, /a Codex rollout line; format codex/],
      ['legacy.jsonl', legacy, /a legacy Codex rollout line, a ResponseItem or a state line; format codex/],
      ['exec.jsonl', exec, /a codex exec --json event; format codex/],
    ] as const) {
      const text = [...lines.slice(0, 75), JSON.stringify({ unrelated: true }), ...lines.slice(75)].join('\n');
      assert.throws(
        () => loadText(text, name),
        (error: unknown) => error instanceof InputError && error.message.startsWith(`${name}:76:`) && what.test(error.message),
        name,
      );
    }
  });

  it('codex: a long rollout read line by line is what its whole list of lines gives', () => {
    const rollout = (type: string, payload: object) => JSON.stringify({ timestamp: '2025-09-22T14:00:00.000Z', type, payload });
    const lines = [rollout('session_meta', { id: 's', cwd: '/w' }), rollout('turn_context', { model: 'gpt-5-codex' })];
    for (let i = 0; i < 40; i++) {
      lines.push(rollout('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: `q${i}` }] }));
      lines.push(rollout('response_item', { type: 'function_call', name: 'shell', arguments: `{"command":["ls","${i}"]}`, call_id: `c${i}` }));
      lines.push(rollout('response_item', { type: 'function_call_output', call_id: `c${i}`, output: `out ${i}` }));
    }
    const { trajectory } = onlyTrajectoryOf(lines.join('\n'), 'rollout.jsonl');
    assert.deepEqual(trajectory, throughLoadLines('codex', lines));
    assert.equal(trajectory.messages.length, lines.length);
    assert.equal(trajectory.metadata.model, 'gpt-5-codex');
    assert.equal(trajectory.messages.filter((m) => m.role === 'tool' && m.issuedBy !== undefined).length, 40);
  });

  it('claude-code: a long session read line by line is what its whole list of lines gives', () => {
    const lines = largeClaudeCode(60).trim().split('\n');
    assert.ok(lines.length > DETECTION_LINES * 2);
    const { trajectory, problems } = onlyTrajectoryOf(lines.join('\n'), 'session.jsonl');
    assert.deepEqual(problems, []);
    assert.deepEqual(trajectory, throughLoadLines('claude-code', lines));
    assert.ok(trajectory.decisionSteps.length >= 60);
  });

  it('JSON is told from JSONL by the first two lines: pretty JSON, one-line JSON with blank lines after it, and JSONL', () => {
    const record = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a' },
      ],
    };
    assert.equal(loadText(JSON.stringify(record, null, 2), 'pretty.json').container, 'json');
    assert.equal(loadText(JSON.stringify(record) + '\n\n  \n', 'one.json').container, 'json');
    assert.equal(loadText([record, record].map((r, i) => JSON.stringify({ id: `r${i}`, ...r })).join('\n'), 'two.jsonl').container, 'jsonl');
    // A whole value, then a line that is not one: JSONL with that line's problem, as before the order changed.
    const trailing = loadText(JSON.stringify(record) + '\n}', 'trailing.jsonl');
    assert.deepEqual([trailing.container, trailing.records.length, trailing.problems.map((p) => p.line)], ['jsonl', 1, [2]]);
    assert.throws(() => loadText('{\n  "messages": [\n}', 'bad.json'), /bad\.json:3:1: invalid JSON/);
  });
});
