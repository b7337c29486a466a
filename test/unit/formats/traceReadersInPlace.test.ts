// The json-split readers (inspect, langsmith, openai-agents, otel) read their values in place and
// check the common case by hand (issue 15 item 6, speed). These pin the shapes those rewritten
// paths handle that the fixtures do not: mixed content parts, several output messages, retrieved
// documents, runs without trace ids, and bad items that the hand checks must leave to zod.
import assert from 'node:assert/strict';
import { openAiAgentsReader } from '../../../src/core/formats/openaiAgents';
import { InputError } from '../../../src/core/input/inputError';
import { loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { Trajectory } from '../../../src/core/model/trajectory';
import { countingLateReads } from '../helpers';

function trajectories(value: unknown, file = 'export.json'): Trajectory[] {
  const loaded = loadText(JSON.stringify(value), file);
  assert.deepEqual(loaded.problems, []);
  return loaded.records.map((record) => {
    if (!isTrajectoryRecord(record)) throw new Error(`not a trajectory: ${record.kind}`);
    return record.trajectory;
  });
}

function loadError(value: unknown): string {
  try {
    loadText(JSON.stringify(value, null, 1), 'export.json');
  } catch (error) {
    assert.ok(error instanceof InputError, String(error));
    assert.ok(!error.message.includes('\n'), 'one line');
    return error.message;
  }
  assert.fail('expected an InputError');
}

const evalSpec = { task: 'web_research', model: 'openai/gpt-4.1-mini', config: { epochs: 1 } };

describe('inspect: content parts read in one pass', () => {
  it('text, reasoning, server tool uses and other parts keep their order and their lines', () => {
    const sample = {
      id: 's1',
      epoch: 1,
      input: 'Which river?',
      target: 'Seine',
      messages: [
        { role: 'user', content: 'Which river?' },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', reasoning: 'First thought.' },
            { type: 'text', text: 'Looking.' },
            { type: 'reasoning', reasoning: 'hidden', redacted: true, summary: 'Second thought (summary).' },
            { type: 'tool_use', name: 'web_search', id: 'ws1', arguments: { query: 'river paris' }, result: 'Seine', error: 'partial' },
            { type: 'image', image: 'data:…' },
            { type: 'text' },
          ],
          tool_calls: [{ id: 'c1', function: 'fetch_url', arguments: { url: 'https://example.org' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'page' }] },
      ],
      scores: { match: { value: 'C', answer: 'Seine' } },
    };
    const [t] = trajectories({ version: 2, status: 'success', eval: evalSpec, samples: [sample] });
    const step = t.messages[1];
    assert.equal(step.content, 'Looking.\n[web_search] Seine (error: partial)\n[image]\n');
    assert.equal(step.reasoning, 'First thought.\nSecond thought (summary).');
    assert.deepEqual(
      step.toolCalls.map((c) => [c.name, c.id, c.arguments]),
      [
        ['fetch_url', 'c1', { url: 'https://example.org' }],
        ['web_search', 'ws1', { query: 'river paris' }],
      ],
      "the message's own calls, then the server tool uses",
    );
    assert.equal(t.messages[2].issuedBy, 1);
    assert.equal(t.messages[0].reasoning, undefined, 'a string content has no reasoning');
    assert.equal(t.predictedAnswer, 'Seine');
    assert.deepEqual(t.metadata.outcome, { success: true, score: 1, source: 'scores.match.value' });
    assert.equal(t.metadata.sample_metadata, undefined, 'no sample metadata: none kept');
    assert.equal(t.metadata.model, 'openai/gpt-4.1-mini');
  });
});

function otlp(spans: unknown[]): unknown {
  return { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 't' }, spans }] }] };
}

function span(id: string, start: number, attributes: Record<string, string>, extra: Record<string, unknown> = {}): unknown {
  return {
    traceId: 'a'.repeat(32),
    spanId: id.padStart(16, '0'),
    parentSpanId: '',
    name: id,
    startTimeUnixNano: String(1733050000000000000n + BigInt(start) * 1000000n),
    attributes: Object.entries(attributes).map(([key, stringValue]) => ({ key, value: { stringValue } })),
    ...extra,
  };
}

describe('otel: spans read in place', () => {
  it('an LLM span with several output messages joins their text and keeps every call; a tool span without output reads its documents', () => {
    const [t] = trajectories(
      otlp([
        span('1', 1, {
          'gen_ai.operation.name': 'chat',
          'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Longest bridge?' }] }]),
          'gen_ai.output.messages': JSON.stringify([
            {
              role: 'assistant',
              parts: [
                { type: 'text', content: 'Searching.' },
                { type: 'tool_call', id: 'k1', name: 'web_search', arguments: { q: 'a' } },
              ],
            },
            { role: 'assistant', parts: [{ type: 'tool_call', id: 'k2', name: 'retrieve', arguments: { q: 'b' } }] },
            { role: 'assistant', parts: [{ type: 'text', content: 'Both.' }] },
          ]),
        }),
        span('2', 2, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.call.id': 'k1', 'gen_ai.tool.call.result': 'result one' }),
        span('3', 3, {
          'openinference.span.kind': 'RETRIEVER',
          'tool_call.id': 'k2',
          'retrieval.documents.0.document.content': 'doc zero',
          'retrieval.documents.1.document.content': 'doc one',
        }),
        span(
          '4',
          4,
          { 'gen_ai.operation.name': 'chat' },
          { events: [{ name: 'gen_ai.choice', attributes: [{ key: 'message', value: { stringValue: JSON.stringify({ content: 'The Danyang bridge.' }) } }] }] },
        ),
      ]),
    );
    assert.equal(t.messages[0].content, 'Searching.\nBoth.');
    assert.deepEqual(
      t.messages[0].toolCalls.map((c) => c.id),
      ['k1', 'k2'],
    );
    assert.equal(t.messages[1].content, 'result one');
    assert.equal(t.messages[2].content, 'doc zero\n\ndoc one');
    assert.equal(t.messages[2].issuedBy, 0);
    assert.equal(t.messages[3].content, 'The Danyang bridge.', 'an output read from its gen_ai.choice event');
    assert.equal(t.query, 'Longest bridge?');
    assert.deepEqual(t.decisionSteps, [0, 3]);
  });
});

describe('openai-agents: trace items checked by hand', () => {
  const item = (workflow: unknown) => ({
    data: [
      { object: 'trace', id: 'trace_1', workflow_name: workflow },
      {
        object: 'trace.span',
        id: 'span_g',
        trace_id: 'trace_1',
        started_at: '2025-04-10T00:00:00.000Z',
        span_data: {
          type: 'generation',
          model: 'gpt-4o',
          input: [{ role: 'user', content: 'Weather?' }],
          output: [
            {
              role: 'assistant',
              content: 'Checking.',
              tool_calls: [{ id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
            },
            { role: 'assistant', content: [{ type: 'output_text', text: 'Also Bergen.' }] },
          ],
        },
      },
    ],
  });

  it('a good trace item is read, and a generation with several outputs keeps their text and calls', () => {
    const [t] = trajectories(item('Weather'));
    assert.equal(t.messages[0].content, 'workflow Weather');
    assert.equal(t.messages[1].content, 'Checking.\nAlso Bergen.');
    assert.deepEqual(t.messages[1].toolCalls[0].arguments, { city: 'Oslo' });
    assert.equal(t.query, 'Weather?');
  });

  it('a trace item whose workflow_name is not a string still gets the schema message at its path', () => {
    assert.match(loadError(item(42)), /export\.json:\d+:\d+: at \$\.data\[0\]\.workflow_name: .*OpenAI Agents trace/);
  });
});

describe('langsmith: runs without a trace id', () => {
  it('are grouped by their root run through parent_run_id, and the root is the run whose parent is outside the trace', () => {
    const run = (id: string, parent: string | null, runType: string, start: string, extra: Record<string, unknown> = {}) => ({
      id,
      name: id,
      run_type: runType,
      start_time: start,
      parent_run_id: parent,
      inputs: {},
      outputs: {},
      ...extra,
    });
    const traces = trajectories([
      run('root-a', null, 'chain', '2024-05-01T10:00:00', { inputs: { input: 'Question A' }, outputs: { output: 'A' } }),
      run('llm-a', 'root-a', 'llm', '2024-05-01T10:00:01', { outputs: { generations: [[{ text: 'A' }]] } }),
      run('root-b', 'gone', 'chain', '2024-05-01T10:01:00', { inputs: { input: 'Question B' }, outputs: { output: 'B' } }),
      run('tool-b', 'root-b', 'tool', '2024-05-01T10:01:01', { outputs: { documents: [{ page_content: 'doc b' }] } }),
    ]);
    assert.deepEqual(
      traces.map((t) => [t.metadata.traceId, t.metadata.rootRun, t.query, t.predictedAnswer, t.messages.length]),
      [
        ['root-a', 'root-a', 'Question A', 'A', 2],
        ['root-b', 'root-b', 'Question B', 'B', 2],
      ],
    );
    assert.equal(traces[1].messages[1].content, 'doc b');
  });
});

describe('openai-agents detect: a bounded look at other lists', () => {
  const runs = Array.from({ length: 2000 }, (_, i) => ({ id: `run-${i}`, run_type: 'llm', inputs: {}, outputs: {} }));

  it('a long list (or JSONL) without trace items in its first 50 entries is not walked to its end, and is not OpenAI Agents', () => {
    const array = countingLateReads(runs, 50);
    assert.equal(openAiAgentsReader.detect(array.list), undefined);
    assert.equal(array.lateReads(), 0);
    const lines = countingLateReads(runs, 50);
    assert.equal(openAiAgentsReader.detectLines?.(lines.list), undefined);
    assert.equal(lines.lateReads(), 0);
  });

  it('an export that starts with trace items is still walked whole: a bad item far in is named', () => {
    const items = [
      { object: 'trace', id: 'trace_1', workflow_name: 'w' },
      ...Array.from({ length: 200 }, (_, i) => ({ object: 'trace.span', id: `s${i}`, trace_id: 'trace_1', span_data: { type: 'custom' } })),
      { id: 'not an item' },
    ];
    assert.deepEqual(openAiAgentsReader.detect({ data: items })?.missing, ['`object` "trace" or "trace.span" in item 201']);
  });
});
