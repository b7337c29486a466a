// Paths of the LangSmith, τ-bench and Magentic-One readers rewritten to allocate less on load
// (issue 15 item 6): LangSmith calls in lists of the exact size and turns read for their text
// only, τ-bench metadata copied once, Magentic-One's task giver found without a regex per turn.
import assert from 'node:assert/strict';
import { outcomeOfScoreValue } from '../../../src/core/formats/inspect';
import { onlyTrajectory } from '../helpers';

const lc = (kind: string, kwargs: Record<string, unknown>) => ({ lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', kind], kwargs });

function langSmithRun(fields: Record<string, unknown>): Record<string, unknown> {
  return { name: 'ChatOpenAI', run_type: 'llm', start_time: '2024-05-01T10:00:00.000000', inputs: {}, outputs: {}, trace_id: 't', ...fields };
}

describe('langsmith: calls and turns', () => {
  it('an llm output lists both call layouts in order, skipping entries without a name', () => {
    const calls = [
      { name: 'web_search', args: { q: 'moons' }, id: 'c1' },
      'not a call',
      { function: { name: 'fetch_url', arguments: '{"url":"https://a.example"}' }, id: 'c2' },
      { id: 'nameless' },
      { name: 'calc', arguments: { x: 1 } },
    ];
    const trajectory = onlyTrajectory(
      JSON.stringify([
        langSmithRun({ id: 'r1', outputs: { generations: [[{ text: '', message: lc('AIMessage', { content: 'thinking', tool_calls: calls }) }]] } }),
      ]),
      'runs.json',
    );
    const [message] = trajectory.messages;
    assert.deepEqual(
      message.toolCalls.map((c) => [c.name, c.id, c.arguments]),
      [
        ['web_search', 'c1', { q: 'moons' }],
        ['fetch_url', 'c2', { url: 'https://a.example' }],
        ['calc', undefined, { x: 1 }],
      ],
    );
    assert.equal(message.content, 'thinking');
  });

  it('the first of several output messages keeps its calls, and additional_kwargs calls are read', () => {
    const trajectory = onlyTrajectory(
      JSON.stringify([
        langSmithRun({
          id: 'r1',
          outputs: {
            messages: [
              { role: 'assistant', content: 'only', additional_kwargs: { tool_calls: [{ function: { name: 'browse', arguments: '{}' }, id: 'k1' }] } },
            ],
          },
        }),
      ]),
      'runs.json',
    );
    assert.deepEqual(
      trajectory.messages[0].toolCalls.map((c) => c.name),
      ['browse'],
    );
  });

  it('a tool run with a serialized ToolMessage output is its return (text, call id, issuer), and questions come from turn text', () => {
    const trajectory = onlyTrajectory(
      JSON.stringify([
        langSmithRun({ id: 'root', name: 'Agent', run_type: 'chain', inputs: { messages: [lc('HumanMessage', { content: 'Which planet?' })] } }),
        langSmithRun({
          id: 'llm',
          parent_run_id: 'root',
          start_time: '2024-05-01T10:00:01.000000',
          outputs: { generations: [[{ text: '', message: lc('AIMessage', { content: '', tool_calls: [{ name: 'search', args: {}, id: 'call_1' }] }) }]] },
        }),
        langSmithRun({
          id: 'tool',
          name: 'search',
          run_type: 'tool',
          parent_run_id: 'root',
          start_time: '2024-05-01T10:00:02.000000',
          outputs: { output: lc('ToolMessage', { content: 'Saturn', tool_call_id: 'call_1', tool_calls: [{ name: 'ignored', args: {} }] }) },
        }),
      ]),
      'runs.json',
    );
    const tool = trajectory.messages[2];
    assert.deepEqual([tool.role, tool.content, tool.toolCallId, tool.issuedBy, tool.toolCalls], ['tool', 'Saturn', 'call_1', 1, []]);
    assert.equal(trajectory.query, 'Which planet?');
  });
});

describe('tau-bench: metadata copied once', () => {
  it('every field but traj, in source order, then benchmark, instruction and outcome; a `__proto__` field stays a field', () => {
    const text =
      '[{"task_id": 3, "benchmark": "mine", "__proto__": {"polluted": true}, "reward": 1, "info": {"task": {"instruction": "Return it."}}, ' +
      '"traj": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Done."}], "trial": 0}]';
    const trajectory = onlyTrajectory(text, 'results.json');
    const metadata = trajectory.metadata;
    assert.deepEqual(Object.keys(metadata), ['task_id', 'benchmark', '__proto__', 'reward', 'info', 'trial', 'instruction', 'outcome']);
    assert.equal(metadata.benchmark, 'tau-bench');
    assert.equal(Object.getPrototypeOf(metadata), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(metadata, '__proto__')?.value, { polluted: true });
    assert.equal((metadata as { polluted?: unknown }).polluted, undefined);
    assert.deepEqual(metadata.outcome, { success: true, score: 1, source: 'reward' });
  });
});

describe('magentic-one: the task giver', () => {
  it('human, user and user proxy roles in any case are the task; names starting alike or not are agents', () => {
    const roles = ['Human', 'USER', 'user_proxy', 'UserProxy', 'Hub', 'username', 'WebSurfer', 'Orchestrator (thought)', ' user'];
    const trajectory = onlyTrajectory(JSON.stringify(roles.map((role, i) => ({ role, content: `turn ${i}` }))), 'log.json');
    assert.deepEqual(
      trajectory.messages.map((m) => m.role),
      ['user', 'user', 'user', 'user', 'assistant', 'assistant', 'assistant', 'assistant', 'user'],
    );
    assert.equal(trajectory.query, 'turn 0');
  });
});

describe('inspect: score letters', () => {
  it('C, I, P and N are outcomes; a name of an Object.prototype member is none (a letter table once returned its function)', () => {
    assert.deepEqual(
      ['C', 'I', 'P', 'N'].map((v) => outcomeOfScoreValue(v, 'scores.match')),
      [
        { success: true, score: 1, source: 'scores.match' },
        { success: false, score: 0, source: 'scores.match' },
        { success: null, score: 0.5, source: 'scores.match' },
        { success: false, score: 0, source: 'scores.match' },
      ],
    );
    for (const value of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'c'])
      assert.equal(outcomeOfScoreValue(value, 'scores.match'), undefined, value);
  });
});

describe('otel: a tool span with and without a call id', () => {
  it('the call id follows the calls in the message, and a span without one has no call id field', () => {
    const span = (spanId: string, start: number, attributes: Record<string, string>) => ({
      traceId: 'a'.repeat(32),
      spanId,
      parentSpanId: spanId === 'root' ? '' : 'root',
      name: spanId,
      startTimeUnixNano: String(start),
      attributes: Object.entries(attributes).map(([key, value]) => ({ key, value: { stringValue: value } })),
    });
    const text = JSON.stringify({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                span('root', 1000, { 'gen_ai.operation.name': 'invoke_agent' }),
                span('t1', 2000, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search', 'gen_ai.tool.call.id': 'c1' }),
                span('t2', 3000, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search', 'gen_ai.tool.call.result': 'r' }),
              ],
            },
          ],
        },
      ],
    });
    const [, withId, without] = onlyTrajectory(text, 'spans.json').messages;
    assert.deepEqual(Object.keys(withId).slice(0, 6), ['position', 'role', 'agent', 'content', 'toolCalls', 'toolCallId']);
    assert.equal(withId.toolCallId, 'c1');
    assert.ok(!('toolCallId' in without));
  });
});
