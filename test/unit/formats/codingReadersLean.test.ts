// Load speed (issue 15 item 6): the SWE-agent / mini-swe-agent and OpenHands readers build bash
// calls directly, find mini's one action block without block lists, and find the action a
// `cause` names by index when event ids are indexes. These pin that each reads as before, on the
// cases the bench files do not have.
import assert from 'node:assert/strict';
import { commandCall } from '../../../src/core/formats/sweAgent';
import { toolCallFromRaw } from '../../../src/core/formats/toolCalls';
import type { Trajectory } from '../../../src/core/model/trajectory';
import { onlyTrajectory } from '../helpers';

const only = onlyTrajectory;

function miniRun(...assistantTexts: string[]): Trajectory {
  return only(
    JSON.stringify({
      info: { exit_status: 'Submitted', submission: 'diff', mini_version: '1.9.1' },
      trajectory_format: 'mini-swe-agent-1',
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: '<pr_description>\nFix it.\n</pr_description>' },
        ...assistantTexts.map((content) => ({ role: 'assistant', content })),
      ],
    }),
  );
}

describe('coding readers after the allocation cuts (issue 15 item 6)', () => {
  it('a bash call is what toolCallFromRaw gives for {command}, whatever the command holds', () => {
    const commands = ['ls', 'echo "a\\"b" \\\\ c', 'cat <<EOF\nline\tone\r\nEOF', 'printf "\u2028\u2029\u0000\u001f"', 'echo 😀 \ud800 é', '', ' '];
    for (const command of commands) {
      assert.deepEqual(commandCall(command), toolCallFromRaw('bash', { command }), JSON.stringify(command));
      assert.deepEqual(commandCall(command, 'call_1'), toolCallFromRaw('bash', { command }, 'call_1'), JSON.stringify(command));
      assert.deepEqual(JSON.parse(commandCall(command).rawArguments), { command });
    }
  });

  it('mini-swe-agent: the one bash block with CRLF line ends, none for an unclosed or a second block, the bash block beside a python one', () => {
    const t = miniRun(
      'THOUGHT: crlf.\r\n\r\n```bash\r\nls -la\r\n```\r\n',
      'THOUGHT: open.\n\n```bash\nls\n',
      'THOUGHT: two.\n\n```bash\nls\n```\n\n```mswea_bash_command\npwd\n```',
      'THOUGHT: mixed.\n\n```python\nprint(1)\n```\n\n```mswea_bash_command\ngit diff\n```',
      'THOUGHT: empty block.\n\n```bash\n```',
    );
    assert.deepEqual(
      t.messages.map((m) => m.toolCalls.map((c) => c.arguments)),
      [[], [], [{ command: 'ls -la' }], [], [], [{ command: 'git diff' }], [{ command: '' }]],
    );
  });

  function openHandsStream(ids: (number | undefined)[]): Trajectory {
    const [task, run, observed, recall, answered] = ids;
    return only(
      JSON.stringify([
        { id: task, source: 'user', action: 'message', args: { content: 'Fix the parser.' } },
        { id: run, source: 'agent', action: 'run', args: { command: 'ls', thought: 'Look first.' } },
        { id: observed, source: 'environment', observation: 'run', cause: run, content: 'a.py', extras: { metadata: { exit_code: 0 } } },
        { id: recall, source: 'environment', observation: 'recall', cause: task, content: 'context', extras: {} },
        { id: answered, source: 'environment', observation: 'run', cause: 99, content: 'late', extras: {} },
      ]),
    );
  }

  it('OpenHands links an observation to the action its `cause` names, whether ids are indexes, offset, repeated or absent', () => {
    const expected = (t: Trajectory) =>
      t.messages.map((m) => ({ role: m.role, calls: m.toolCalls.map((c) => `${c.name} ${JSON.stringify(c.arguments)}`), issuedBy: m.issuedBy }));
    const byIndex = openHandsStream([0, 1, 2, 3, 4]);
    assert.deepEqual(expected(byIndex), [
      { role: 'user', calls: [], issuedBy: undefined },
      { role: 'assistant', calls: ['run {"command":"ls"}'], issuedBy: undefined },
      { role: 'tool', calls: [], issuedBy: 1 },
      // The recall answers the user's message, no agent action: a system message.
      { role: 'system', calls: [], issuedBy: undefined },
      // Event 99 does not exist.
      { role: 'system', calls: [], issuedBy: undefined },
    ]);
    assert.equal(byIndex.messages[2].toolCallId, 'openhands-event-1');
    // Ids that are not the indexes (a stream cut from a longer one) link the same way.
    const offset = openHandsStream([10, 11, 12, 13, 14]);
    assert.deepEqual(expected(offset), expected(byIndex));
    assert.equal(offset.messages[2].toolCallId, 'openhands-event-11');
    // A repeated id: the cause names the latest tool action with it, as before.
    const repeated = openHandsStream([1, 1, 2, 3, 4]);
    assert.equal(repeated.messages[2].role, 'tool');
    assert.equal(repeated.messages[2].issuedBy, 1);
    // The recall's cause, id 1, now also names the run (the user's message shares its id).
    assert.equal(repeated.messages[3].role, 'tool');
    assert.equal(repeated.messages[3].issuedBy, 1);
  });
});
