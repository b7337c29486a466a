// Load speed (issue 15 item 6): the coding-agent readers and the Tongyi detect walk a long list
// once, not once per question asked of it; the answers and error messages stay the same.
import assert from 'node:assert/strict';
import { miniSweAgentReader, sweAgentReader } from '../../../src/core/formats/sweAgent';
import { tongyiReader } from '../../../src/core/formats/tongyi';
import { InputError } from '../../../src/core/input/inputError';
import { loadText } from '../../../src/core/load/loadFile';
import { countingLateReads } from '../helpers';

function sweHistory(steps: number): Record<string, unknown>[] {
  const history: Record<string, unknown>[] = [
    { role: 'system', content: 'You are a coding agent.', agent: 'main', message_type: 'system_prompt' },
    { role: 'user', content: '<pr_description>\nFix the parser.\n</pr_description>', agent: 'main', message_type: 'observation' },
  ];
  for (let i = 0; i < steps; i++) {
    history.push({ role: 'assistant', content: `look ${i}`, agent: 'main', message_type: 'action', action: `cat f${i}`, thought: `look ${i}` });
    history.push({ role: 'tool', content: `out ${i}`, agent: 'main', message_type: 'observation' });
  }
  return history;
}

function miniRun(steps: number): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [
    { role: 'system', content: 'Reply with one bash block.' },
    { role: 'user', content: '<pr_description>\nFix the parser.\n</pr_description>' },
  ];
  for (let i = 0; i < steps; i++) {
    messages.push({ role: 'assistant', content: `THOUGHT: look ${i}\n\n\`\`\`bash\ncat f${i}\n\`\`\`` });
    messages.push({ role: 'user', content: `<returncode>0</returncode>\n<output>\nline ${i}\n</output>` });
  }
  return messages;
}

describe('tongyi detect: one walk only for a file taken for Tongyi', () => {
  it('reads no message past the first turns of a chat without tool tags', () => {
    const chat = [
      { role: 'user', content: 'Which river?' },
      ...Array.from({ length: 300 }, (_, i) => ({ role: i % 2 ? 'user' : 'assistant', content: `turn ${i}` })),
    ];
    const { list, lateReads } = countingLateReads(chat, 30);
    assert.equal(tongyiReader.detect({ messages: list }), undefined);
    assert.equal(lateReads(), 0);
  });

  it('still refuses a tagged chat with a tool message or tool calls late in it, and takes one without', () => {
    const tagged = (late: Record<string, unknown>) => [
      { role: 'system', content: 'Call tools as <tool_call>{"name": …}</tool_call>.' },
      { role: 'user', content: 'Which river?' },
      ...Array.from({ length: 200 }, (_, i) => (i === 150 ? late : { role: i % 2 ? 'user' : 'assistant', content: `turn ${i}` })),
    ];
    assert.equal(tongyiReader.detect({ messages: tagged({ role: 'tool', content: 'r' }) }), undefined);
    assert.equal(tongyiReader.detect({ messages: tagged({ role: 'assistant', content: 'c', tool_calls: [] }) }), undefined);
    assert.equal(tongyiReader.detect({ messages: tagged({ role: 'user', content: [{ type: 'text', text: 'x' }] }) }), undefined);
    assert.equal(tongyiReader.detect({ messages: tagged({ role: 'user', content: 'plain' }) })?.score, 0.8);
    assert.equal(tongyiReader.detect({ question: 'q', prediction: 'p', messages: [{ role: 'tool', content: 'r' }] }), undefined);
    assert.equal(tongyiReader.detect({ question: 'q', prediction: 'p', messages: [{ role: 'user', content: 'q' }] })?.score, 0.8);
  });
});

describe('swe-agent: the history read once by detect and twice by the reader, a history file’s step list not at all', () => {
  it('reads each late history message once and no step of a history file', () => {
    const history = countingLateReads(sweHistory(100), 10);
    const steps = countingLateReads(
      Array.from({ length: 100 }, (_, i) => ({ action: `cat f${i}`, observation: `out ${i}`, thought: `look ${i}` })),
      0,
    );
    assert.equal(sweAgentReader.detect({ history: history.list, trajectory: steps.list, info: { exit_status: 'submitted' } })?.score, 0.95);
    assert.equal(history.lateReads(), 202 - 10);
    assert.equal(steps.lateReads(), 0);
  });

  it('still names the first history message whose role is not a string, and reads a step list when there is no history', () => {
    const history = sweHistory(20);
    history[7] = { ...history[7], role: 5 };
    history[9] = { ...history[9], role: null };
    assert.deepEqual(sweAgentReader.detect({ history, info: {} })?.missing, ['history[7].role']);
    const noRole = sweHistory(20);
    delete noRole[5].role;
    assert.equal(
      sweAgentReader.detect({ history: noRole, info: { exit_status: 'submitted' } })?.missing?.[0],
      '`history` of {role, content, message_type} or `trajectory` of {action, observation, thought}',
    );
    const steps = [{ action: 'ls', observation: 'a', thought: 't' }];
    assert.equal(sweAgentReader.detect({ trajectory: steps, history: [] })?.score, 0.85);
    assert.equal(sweAgentReader.detect({ trajectory: [...steps, { observation: 'no action' }] }), undefined);
  });

  it('the reader reads each late history message twice: checked with its agent noted, then read', () => {
    const history = countingLateReads(sweHistory(100), 10);
    const t = sweAgentReader.load({ history: history.list, info: { exit_status: 'submitted' } }, { file: 'run.traj', text: '' }, '0');
    assert.equal(t.messages.length, 202);
    assert.equal(history.lateReads(), 2 * (202 - 10));
  });

  it('still names a late bad history message by its path', () => {
    const history = sweHistory(30);
    history[45] = { ...history[45], thought: 7 };
    assert.throws(
      () => loadText(JSON.stringify({ history, info: { exit_status: 'submitted' } }, null, 1), 'run.traj'),
      (error: unknown) => error instanceof InputError && !error.message.includes('\n') && /run\.traj:\d+:\d+: .*\$\.history\[45\]\.thought/.test(error.message),
    );
  });

  it('names the agents when a second one speaks late, not when one speaks throughout', () => {
    const one = sweHistory(30);
    assert.equal(
      loadOne({ history: one, info: { exit_status: 'submitted' } }).messages.some((m) => m.agent !== undefined),
      false,
    );
    const two = sweHistory(30);
    two[50] = { ...two[50], agent: 'reviewer' };
    const messages = loadOne({ history: two, info: { exit_status: 'submitted' } }).messages;
    assert.equal(messages[50].agent, 'reviewer');
    assert.equal(messages[0].agent, 'main');
  });
});

function loadOne(value: unknown): { messages: { agent?: string; role: string }[] } {
  const loaded = loadText(JSON.stringify(value), 'run.traj');
  const record = loaded.records[0] as { trajectory?: { messages: { agent?: string; role: string }[] } };
  assert.ok(record.trajectory);
  return record.trajectory;
}

describe('mini-swe-agent reader: one pass over the messages', () => {
  it('reads each late message once: checked as it is read', () => {
    const run = countingLateReads(miniRun(100), 10);
    const t = miniSweAgentReader.load(
      { trajectory_format: 'mini-swe-agent-1', info: { exit_status: 'Submitted', submission: 'p' }, messages: run.list },
      { file: 'run.traj.json', text: '' },
      '0',
    );
    assert.equal(run.lateReads(), 202 - 10);
    assert.equal(t.messages[3].role, 'tool');
    assert.equal(t.messages[2].toolCalls[0].rawArguments, '{"command":"cat f0"}');
  });

  it('checks the whole list before a message without a role: a later bad message is the one named', () => {
    const messages = miniRun(10);
    messages[5] = { content: 'no role' };
    messages[12] = { role: 'user', content: 'x', tool_call_id: 7 };
    assert.throws(
      () => loadText(JSON.stringify({ trajectory_format: 'mini-swe-agent-1', info: {}, messages }, null, 1), 'run.traj.json'),
      (error: unknown) => error instanceof InputError && !error.message.includes('\n') && /\$\.messages\[12\]\.tool_call_id/.test(error.message),
    );
  });

  it('takes the last exit message’s submission, and names a late message without a role at its path', () => {
    const messages = [...miniRun(3), { role: 'exit', content: '', extra: { exit_status: 'Submitted', submission: 'first' } }];
    messages.push({ role: 'exit', content: '', extra: { exit_status: 'Submitted', submission: 'last' } });
    const t = loadOne({ trajectory_format: 'mini-swe-agent-1', info: {}, messages }) as unknown as { predictedAnswer?: string };
    assert.equal(t.predictedAnswer, 'last');
    const roleless = miniRun(40);
    roleless[61] = { content: 'no role' };
    roleless[70] = { content: 'no role either' };
    assert.throws(
      () => loadText(JSON.stringify({ trajectory_format: 'mini-swe-agent-1', info: {}, messages: roleless }, null, 1), 'run.traj.json'),
      (error: unknown) =>
        error instanceof InputError && !error.message.includes('\n') && /run\.traj\.json:\d+:\d+: .*\$\.messages\[61\]\.role: missing role/.test(error.message),
    );
  });
});
