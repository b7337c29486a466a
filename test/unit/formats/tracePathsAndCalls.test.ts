// After the allocation cuts of issue 15 item 6: a LangSmith run's JSON path is built only for a
// message about it (so it must still name nested child runs exactly), and an OpenAI Agents
// generation's tool calls are read by one loop that skips malformed entries.
import assert from 'node:assert/strict';
import { loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';

const run = (id: string, children: unknown[] = [], extra: Record<string, unknown> = {}) => ({
  id,
  name: `run ${id}`,
  run_type: 'chain',
  start_time: '2024-05-01T10:00:00',
  inputs: { input: 'q' },
  outputs: {},
  child_runs: children,
  ...extra,
});

function problemOf(text: string, file: string): string {
  try {
    const loaded = loadText(text, file);
    assert.equal(loaded.problems.length, 1, 'one problem');
    const p = loaded.problems[0];
    return `${p.path} ${p.message}`;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('LangSmith: the path of a bad run', () => {
  it('names a run nested in a tree by each child_runs index', () => {
    const text = JSON.stringify(run('a', [run('b'), run('c', [run('d'), run('e', [], { name: 5 })])]));
    assert.match(problemOf(text, 'tree.json'), /\$\.child_runs\[1\]\.child_runs\[1\]\.name expected string, got number 5/);
  });

  it('names a nested run of a list by its list index first', () => {
    const text = JSON.stringify([run('a'), run('z', [run('y'), run('w', [], { run_type: 3 })])]);
    assert.match(problemOf(text, 'list.json'), /\$\[1\]\.child_runs\[1\]\.run_type expected string, got number 3/);
  });

  it('names a nested run of a JSONL line from that line', () => {
    const text = [run('a', [run('b', [], { error: 5 })]), run('c')].map((r) => JSON.stringify(r)).join('\n');
    assert.match(problemOf(text, 'runs.jsonl'), /runs\.jsonl:1:\d+: at \$\.child_runs\[0\]\.error: expected string, got number 5/);
  });
});

describe('OpenAI Agents: a generation’s tool calls', () => {
  it('keeps every well-formed call of each output message, in order, and skips malformed ones', () => {
    const span = (id: string, started: string, spanData: Record<string, unknown>) => ({
      object: 'trace.span',
      id,
      trace_id: 'trace_1',
      parent_id: null,
      started_at: started,
      ended_at: started,
      span_data: spanData,
      error: null,
    });
    const text = JSON.stringify({
      data: [
        { object: 'trace', id: 'trace_1', workflow_name: 'W', group_id: null, metadata: null },
        span('span_1', '2025-04-10T00:00:00.000Z', {
          type: 'generation',
          model: 'gpt-4o',
          input: [{ role: 'user', content: 'Q?' }],
          output: [
            { role: 'assistant', content: 'a', tool_calls: [{ id: 'c1', function: { name: 'f', arguments: '{"x":1}' } }, 5, { id: 'c2', function: {} }] },
            { role: 'assistant', content: 'b', tool_calls: [{ function: { name: 'g', arguments: 'not json' } }] },
            { role: 'assistant', content: 'c' },
          ],
        }),
      ],
    });
    const [record] = loadText(text, 'agents.json').records;
    assert.ok(record && isTrajectoryRecord(record));
    const m = record.trajectory.messages[1];
    assert.equal(m.content, 'a\nb\nc');
    assert.deepEqual(
      m.toolCalls.map((c) => [c.id, c.name, c.argumentsValid]),
      [
        ['c1', 'f', true],
        [undefined, 'g', false],
      ],
    );
  });

  it('lists the trace’s agents once each in first-seen order, and reads a trace item that is not first', () => {
    const agent = (id: string, name: string, started: string) => ({
      object: 'trace.span',
      id,
      trace_id: 'trace_2',
      parent_id: null,
      started_at: started,
      ended_at: started,
      span_data: { type: 'agent', name, handoffs: [], tools: [] },
      error: null,
    });
    const text = JSON.stringify([
      agent('s1', 'Planner', '2025-04-10T00:00:01.000Z'),
      { object: 'trace', id: 'trace_2', workflow_name: 'W2', group_id: null, metadata: null },
      agent('s2', 'Researcher', '2025-04-10T00:00:02.000Z'),
      agent('s3', 'Planner', '2025-04-10T00:00:03.000Z'),
    ]);
    const [record] = loadText(text, 'agents.json').records;
    assert.ok(record && isTrajectoryRecord(record));
    assert.deepEqual(record.trajectory.metadata.agents, ['Planner', 'Researcher']);
    assert.equal(record.trajectory.metadata.workflow, 'W2');
    assert.deepEqual(
      record.trajectory.messages.map((m) => m.content),
      ['workflow W2', 'agent Planner', 'agent Researcher', 'agent Planner'],
    );
  });
});
