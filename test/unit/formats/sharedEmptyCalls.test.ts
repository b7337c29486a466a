// Load speed (issue 15 item 6): a message that makes no tool call holds the one shared, frozen
// empty list (NO_TOOL_CALLS) in every reader, not a new empty list of its own; a reader that adds
// a call later (an SWE-agent step's action, a WebSurfer event's browser action, an Inspect part's
// server tool use) gives the message a list of its own instead of writing into the shared one.
import { NO_TOOL_CALLS } from '../../../src/core/formats/toolCalls';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadFile, loadText, type LoadedFile } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { Trajectory } from '../../../src/core/model/trajectory';

/** The trajectories of a loaded file (every record of these files is one). */
function trajectories(loaded: LoadedFile): Trajectory[] {
  return loaded.records.map((record) => {
    assert.ok(isTrajectoryRecord(record));
    return record.trajectory;
  });
}

const FIXTURES = join(__dirname, '../../fixtures/formats');

const FILES = [
  'atif/danube-v1.0.json',
  'camel/owl-history.json',
  'langsmith/agent-run-tree.json',
  'magentic-one/gaia-kestrel-bay.json',
  'magentic-one/log.jsonl',
  'mini-swe-agent/wc-fix.traj.json',
  'openhands/event-stream.json',
  'openhands/output.jsonl',
  'swe-agent/pager-3.traj',
  'tau-bench/tau2-results.json',
];

describe('messages without tool calls share one frozen empty list (issue 15 item 6)', () => {
  for (const file of FILES) {
    it(`${file}: every message without calls holds NO_TOOL_CALLS, and the list stays empty`, () => {
      const loaded = loadFile(join(FIXTURES, file));
      let without = 0;
      for (const t of trajectories(loaded))
        for (const m of t.messages)
          if (m.toolCalls.length === 0) {
            without++;
            assert.equal(m.toolCalls, NO_TOOL_CALLS, `${file} message ${m.position}`);
          }
      assert.ok(without > 0, `${file} has messages without calls`);
      assert.equal(NO_TOOL_CALLS.length, 0);
      assert.ok(Object.isFrozen(NO_TOOL_CALLS));
    });
  }

  it('an SWE-agent step whose command is only its action gets a list of its own', () => {
    const t = trajectories(loadFile(join(FIXTURES, 'swe-agent/steps-only.traj')))[0];
    const acted = t.messages.filter((m) => m.toolCalls.length > 0);
    assert.ok(acted.length > 0);
    for (const m of acted) assert.notEqual(m.toolCalls, NO_TOOL_CALLS);
  });

  it('a Magentic-One WebSurfer event gets its browser action in a list of its own', () => {
    const line = (v: object) => JSON.stringify(v);
    const text = [
      line({ timestamp: 't0', type: 'OrchestrationEvent', source: 'Orchestrator (thought)', message: 'Plan.' }),
      line({ timestamp: 't1', type: 'WebSurferEvent', source: 'WebSurfer', message: 'Searched.', action: 'web_search', arguments: { query: 'q' } }),
      line({ timestamp: 't2', type: 'OrchestrationEvent', source: 'Orchestrator (final answer)', message: 'FINAL ANSWER: 7' }),
    ].join('\n');
    const t = trajectories(loadText(text, 'log.jsonl'))[0];
    assert.deepEqual(
      t.messages[1].toolCalls.map((c) => [c.name, c.arguments]),
      [['web_search', { query: 'q' }]],
    );
    assert.equal(t.messages[0].toolCalls, NO_TOOL_CALLS);
    assert.equal(NO_TOOL_CALLS.length, 0);
  });

  it('an Inspect message whose content is parts keeps a list of its own for server tool uses', () => {
    const sample = {
      id: 1,
      epoch: 1,
      input: 'q',
      messages: [
        { role: 'user', content: 'Which year?' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', tool_type: 'web_search', name: 'web_search', id: 'ws1', arguments: { query: 'year' }, result: 'It was 1969.' },
            { type: 'text', text: '1969' },
          ],
        },
      ],
    };
    const log = { version: 2, status: 'success', eval: { task: 't', model: 'm', dataset: {} }, samples: [sample] };
    const t = trajectories(loadText(JSON.stringify(log), 'log.json'))[0];
    assert.equal(t.messages[0].toolCalls, NO_TOOL_CALLS);
    assert.deepEqual(
      t.messages[1].toolCalls.map((c) => c.name),
      ['web_search'],
    );
  });
});
