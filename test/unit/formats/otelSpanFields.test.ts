// The OTel reader's per-span reading after the allocation cuts (issue 15 item 6): nanosecond
// start times read digit by digit (strings of any length, numbers), the root span found without
// closures, and the trace's models listed once each in first-seen order.
import assert from 'node:assert/strict';
import { loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { Trajectory } from '../../../src/core/model/trajectory';

const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });

function span(id: string, start: string | number, parent: string, attributes: { key: string; value: unknown }[]) {
  return { traceId: 'a'.repeat(32), spanId: id, parentSpanId: parent, name: `span ${id}`, kind: 1, startTimeUnixNano: start, attributes };
}

function trace(spans: unknown[]): Trajectory {
  const loaded = loadText(JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, spans }] }] }), 'otlp.json');
  assert.deepEqual(loaded.problems, []);
  const [record] = loaded.records;
  assert.ok(record && isTrajectoryRecord(record));
  return record.trajectory;
}

const chat = (model: string) => [attr('gen_ai.operation.name', 'chat'), attr('gen_ai.request.model', model)];

describe('otel span fields', () => {
  it('orders spans by nanosecond start times given as digit strings of any length or as numbers', () => {
    const t = trace([
      span('s3', '1733050000003000000', 'r', chat('m3')),
      span('r', '1733050000000000000', 'outside', [attr('gen_ai.operation.name', 'invoke_agent')]),
      span('s2', 1733050000002000000, 'r', chat('m2')),
      // Sixteen more digits than microseconds need: past 2^53, read as Number() reads them.
      span('late', '17330500000040000000000000000', 'r', chat('m-late')),
      span('s1', '001733050000001000000', 'r', chat('m1')),
    ]);
    assert.deepEqual(
      t.messages.map((m) => m.agent),
      ['span r', 'm1', 'm2', 'm3', 'm-late'],
    );
    assert.equal(t.metadata.rootSpan, 'span r');
  });

  it('the root is the first span whose parent is not in the trace, and models are listed once in first-seen order', () => {
    const t = trace([span('c1', '1000', 'x', chat('gpt-b')), span('c2', '2000', 'c1', chat('gpt-a')), span('c3', '3000', 'c1', chat('gpt-b'))]);
    assert.equal(t.metadata.rootSpan, 'span c1');
    assert.deepEqual(t.metadata.models, ['gpt-b', 'gpt-a']);
  });

  it('a bad span is named by its path, looked up in a flat span list or in the scope that holds it', () => {
    const flat = (id: string, spanId: unknown) => ({
      name: `span ${id}`,
      context: { trace_id: `t${id}`, span_id: spanId },
      start_time: '2024-05-01T10:00:00Z',
    });
    const list = loadText(JSON.stringify([flat('1', 's1'), flat('2', 's2'), flat('3', 7)]), 'flat.json');
    assert.deepEqual(
      list.problems.map((p) => p.path),
      ['$[2].context.span_id'],
    );
    const good = span('g', '1000', '', chat('m'));
    const bad = { ...span('b', '2000', '', chat('m')), traceId: 'b'.repeat(32), name: 5 };
    const otlp = loadText(
      JSON.stringify({
        resourceSpans: [
          { resource: { attributes: [] }, scopeSpans: [{ scope: { name: 's' }, spans: [good] }] },
          {
            resource: { attributes: [] },
            scopeSpans: [
              { scope: { name: 's' }, spans: [] },
              { scope: { name: 't' }, spans: [good, bad] },
            ],
          },
        ],
      }),
      'otlp.json',
    );
    assert.deepEqual(
      otlp.problems.map((p) => p.path),
      ['$.resourceSpans[1].scopeSpans[1].spans[1].name'],
    );
  });

  it('a GenAI output message keeps its named tool calls in order and its text and reasoning parts, skipping other parts', () => {
    const output = [
      {
        role: 'assistant',
        parts: [
          { type: 'text', content: 'Looking.' },
          { type: 'tool_call', id: 'c1', name: 'web_search', arguments: { query: 'a' } },
          5,
          { type: 'tool_call', id: 'c-nameless' },
          { type: 'reasoning', content: 'Need both.' },
          { type: 'tool_call', id: 'c2', name: 'open_page', arguments: { url: 'u' } },
        ],
      },
    ];
    const t = trace([span('c', '1000', '', [...chat('m'), attr('gen_ai.output.messages', JSON.stringify(output))])]);
    assert.equal(t.messages[0].content, 'Looking.\nNeed both.');
    assert.deepEqual(
      t.messages[0].toolCalls.map((c) => [c.id, c.name]),
      [
        ['c1', 'web_search'],
        ['c2', 'open_page'],
      ],
    );
  });
});
