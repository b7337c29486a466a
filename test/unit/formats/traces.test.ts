// Trace-export readers (issue 15): fixtures under test/fixtures/formats/<id>/ loaded through loadFile.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AMBIGUITY_MARGIN, decide, FULL_MATCH, rankFormats, rankLineFormats } from '../../../src/core/formats/registry';
import { InputError } from '../../../src/core/input/inputError';
import { loadFile, loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { Trajectory } from '../../../src/core/model/trajectory';
import { runCli } from '../helpers';
import { makeLarge as makeLargeLangSmith } from '../../bench/formats/langsmith';
import { makeLarge as makeLargeAgents } from '../../bench/formats/openai-agents';
import { makeLarge as makeLargeOtel } from '../../bench/formats/otel';
import { makeLarge as makeLargeSmolagents } from '../../bench/formats/smolagents';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'formats');

function recordsOf(format: string, file: string): { id: string; trajectory: Trajectory }[] {
  const loaded = loadFile(join(FIXTURES, format, file));
  assert.deepEqual(loaded.problems, [], 'no record problems');
  assert.equal(loaded.detection.kind, format);
  return loaded.records.map((record) => {
    if (!isTrajectoryRecord(record)) throw new Error(`not a trajectory: ${record.kind}`);
    return { id: record.id, trajectory: record.trajectory };
  });
}

function fixtureValue(format: string, file: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES, format, file), 'utf8'));
}

function fixtureLines(format: string, file: string): unknown[] {
  return readFileSync(join(FIXTURES, format, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as unknown);
}

function assertClearWinner(ranked: ReturnType<typeof rankFormats>, format: string): void {
  const verdict = decide(ranked);
  assert.equal(verdict.kind, 'reader', `a clear full match, got ${verdict.kind}: ${ranked.map((r) => `${r.reader.id} ${r.score}`).join(', ')}`);
  if (verdict.kind !== 'reader') return;
  assert.equal(verdict.match.reader.id, format);
  const runnerUp = ranked.find((r) => r.reader.id !== format);
  if (runnerUp && runnerUp.score >= FULL_MATCH) assert.ok(verdict.match.score - runnerUp.score >= AMBIGUITY_MARGIN, `clear of ${runnerUp.reader.id}`);
}

function assertLoadError(text: string, ...parts: RegExp[]): void {
  assert.throws(
    () => loadText(text, 'broken.json'),
    (error: unknown) => {
      assert.ok(error instanceof InputError, String(error));
      assert.ok(!error.message.includes('\n'), 'one line');
      for (const part of parts) assert.match(error.message, part);
      return true;
    },
  );
}

describe('otel: OTLP JSON with GenAI semantic conventions', () => {
  it('one record per trace, one message per span in start-time order; chat spans are decision steps with their tool calls, execute_tool spans the linked returns', () => {
    const records = recordsOf('otel', 'otlp-genai.json');
    assert.deepEqual(
      records.map((r) => r.id),
      ['5b8efff798038103d269b633813fc60c', '0af7651916cd43dd8448eb211c80319c'],
    );
    const agent = records[0].trajectory;
    assert.equal(agent.format, 'otel');
    assert.deepEqual(
      agent.messages.map((m) => m.role),
      ['system', 'assistant', 'tool', 'assistant'],
      'the agent span first (it started first), though the file lists it last',
    );
    assert.match(agent.messages[0].content, /research_agent/);
    assert.deepEqual(agent.decisionSteps, [1, 3]);
    assert.equal(agent.messages[1].toolCalls[0].name, 'web_search');
    assert.deepEqual(agent.messages[1].toolCalls[0].arguments, { query: 'Vasa museum opened year' });
    assert.equal(agent.messages[2].toolCallId, 'call_vasa_1');
    assert.equal(agent.messages[2].issuedBy, 1);
    assert.match(agent.messages[2].content, /15 June 1990/);
    assert.equal(agent.query, 'In which year did the Vasa museum in Stockholm open to the public?');
    assert.equal(agent.predictedAnswer, 'The Vasa Museum opened in 1990.');
    assert.equal(agent.metadata.service, 'vasa-research');
    assert.deepEqual(agent.metadata.tokens, { input: 892, output: 33 });

    const legacy = records[1].trajectory;
    assert.deepEqual(
      legacy.messages.map((m) => m.role),
      ['assistant', 'tool', 'assistant'],
    );
    assert.equal(legacy.messages[0].toolCalls[0].name, 'calculator', 'gen_ai.completion.N.tool_calls.M.*');
    assert.equal(legacy.messages[1].issuedBy, 0);
    assert.equal(legacy.query, 'What is 17 * 23? Use the calculator.', 'gen_ai.prompt.N.*');
    assert.equal(legacy.predictedAnswer, '17 * 23 = 391.');
    assertClearWinner(rankFormats(fixtureValue('otel', 'otlp-genai.json')), 'otel');
  });

  it('a span without its trace id is a problem naming the OTLP span, its JSON path and line, and the other traces still load', () => {
    const doc = fixtureValue('otel', 'otlp-genai.json') as { resourceSpans: { scopeSpans: { spans: Record<string, unknown>[] }[] }[] };
    const broken = structuredClone(doc);
    delete broken.resourceSpans[1].scopeSpans[0].spans[2].traceId;
    const loaded = loadText(JSON.stringify(broken, null, 1), 'broken.json');
    assert.equal(loaded.records.length, 2);
    assert.equal(loaded.problems.length, 1);
    assert.equal(loaded.problems[0].path, '$.resourceSpans[1].scopeSpans[0].spans[2].traceId');
    assert.match(loaded.problems[0].message, /OTLP span/);
    assert.ok((loaded.problems[0].line ?? 0) > 1);
    assertLoadError(JSON.stringify({ resourceSpans: [{ scopeSpans: [] }] }), /OpenTelemetry/, /resourceSpans\[\]\.scopeSpans\[\]\.spans\[\]/);
  });

  it('loads a large generated export with the right counts', () => {
    const loaded = loadText(makeLargeOtel(30, 2), 'large.json');
    assert.equal(loaded.records.length, 30);
    const record = loaded.records[29];
    assert.ok(isTrajectoryRecord(record));
    assert.equal(record.trajectory.messages.length, 1 + 2 * 2 + 1);
    assert.deepEqual(record.trajectory.decisionSteps, [1, 3, 5]);
    assert.equal(record.trajectory.messages[4].issuedBy, 3);
    assert.equal(record.trajectory.predictedAnswer, 'Answer 29');
  });
});

describe('otel: OpenInference / Phoenix JSONL of spans', () => {
  it('reads one span per line into one trace, in start-time order, with nested and dotted attributes alike', () => {
    const [record] = recordsOf('otel', 'phoenix-spans.jsonl');
    const t = record.trajectory;
    assert.equal(record.id, '7f3c9d10b2a84e6f9a1d2c3b4e5f6a7b');
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['system', 'assistant', 'tool', 'tool', 'assistant'],
    );
    assert.equal(t.messages[0].agent, 'RiverAgent');
    assert.equal(t.messages[1].toolCalls[0].name, 'wiki_lookup');
    assert.equal(t.messages[1].toolCalls[0].id, 'call_elbe');
    assert.equal(t.messages[2].toolCallId, 'call_elbe');
    assert.equal(t.messages[2].issuedBy, 1);
    assert.equal(t.messages[3].isError, true, 'status_code ERROR');
    assert.equal(t.messages[4].content, 'The Elbe is about 1,094 km long.');
    assert.equal(t.query, 'How long is the river Elbe?');
    assert.equal(t.predictedAnswer, 'The Elbe is about 1,094 km long.', 'the root agent span output');
    assert.deepEqual(t.metadata.models, ['gpt-4o-mini']);
    assertClearWinner(rankLineFormats(fixtureLines('otel', 'phoenix-spans.jsonl')), 'otel');
  });

  it('a line that is not a whole span names the line, column and field', () => {
    const lines = readFileSync(join(FIXTURES, 'otel', 'phoenix-spans.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const broken = [...lines.slice(0, 2), JSON.stringify({ name: 'x', context: { trace_id: 'abc' }, start_time: 1 }), ...lines.slice(2)].join('\n');
    assert.throws(
      () => loadText(broken, 'spans.jsonl'),
      (error: unknown) =>
        error instanceof InputError &&
        /spans\.jsonl:3:\d+: at \$\.context\.span_id: missing span_id/.test(error.message) &&
        /OpenTelemetry span/.test(error.message),
    );
  });
});

describe('langsmith', () => {
  it('reads a run tree: one message per run in start order, llm runs as decision steps, the tool run linked by the ToolMessage call id', () => {
    const [record] = recordsOf('langsmith', 'agent-run-tree.json');
    const t = record.trajectory;
    assert.equal(record.id, '1ef3a0c2-7b1d-4c55-9a0e-3c2f1d4e5a60');
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['system', 'assistant', 'tool', 'assistant'],
    );
    assert.match(t.messages[0].content, /^chain AgentExecutor/);
    assert.deepEqual(t.decisionSteps, [1, 3]);
    assert.equal(t.messages[1].toolCalls[0].name, 'tavily_search');
    assert.deepEqual(t.messages[1].toolCalls[0].arguments, { query: 'planet with most confirmed moons 2024' });
    assert.equal(t.messages[2].toolCallId, 'call_moons');
    assert.equal(t.messages[2].issuedBy, 1);
    assert.match(t.messages[2].content, /146 confirmed moons/);
    assert.equal(t.query, 'Which planet in the solar system has the most confirmed moons?');
    assert.equal(t.predictedAnswer, 'Saturn, with 146 confirmed moons.');
    assert.equal(t.metadata.session_id, '7d9e0f1a-aaaa-4bbb-8ccc-0123456789ab');
    assertClearWinner(rankFormats(fixtureValue('langsmith', 'agent-run-tree.json')), 'langsmith');
  });

  it('reads a flat list of runs as one record per trace, in start order whatever the list order', () => {
    const records = recordsOf('langsmith', 'runs-list.json');
    assert.deepEqual(
      records.map((r) => r.id),
      ['5d9c3e4b-4f5a-4b6c-9d2e-3f4a5b6c7d84', '6e0d4f5c-5a6b-4c7d-8e3f-4a5b6c7d8e95'],
    );
    const [temperature, docs] = records.map((r) => r.trajectory);
    assert.deepEqual(
      temperature.messages.map((m) => m.role),
      ['system', 'assistant', 'tool', 'assistant'],
    );
    assert.equal(temperature.messages[1].toolCalls[0].name, 'convert_temperature');
    assert.equal(temperature.messages[2].toolCallId, 'call_f');
    assert.equal(temperature.messages[2].issuedBy, 1);
    assert.equal(temperature.query, 'Convert 30 °C to Fahrenheit.');
    assert.equal(temperature.predictedAnswer, '30 °C is 86 °F.');
    assert.deepEqual(
      docs.messages.map((m) => m.role),
      ['system', 'tool', 'assistant'],
    );
    assert.equal(docs.messages[1].content, 'The service listens on port 8443.');
    assert.equal(docs.predictedAnswer, '8443');
    assertClearWinner(rankFormats(fixtureValue('langsmith', 'runs-list.json')), 'langsmith');
  });

  it('a run without its name names the LangSmith run and its path; other formats are not read as LangSmith', () => {
    const runs = fixtureValue('langsmith', 'runs-list.json') as Record<string, unknown>[];
    const broken = structuredClone(runs);
    delete broken[2].name;
    const loaded = loadText(JSON.stringify(broken, null, 1), 'runs.json');
    assert.equal(loaded.records.length, 1, 'the other trace still loads');
    assert.match(loaded.problems[0].message, /LangSmith run/);
    assert.equal(loaded.problems[0].path, '$[2].name');
    assert.equal(
      rankFormats(fixtureValue('otel', 'otlp-genai.json')).find((r) => r.reader.id === 'langsmith'),
      undefined,
    );
  });

  it('loads a large generated export with the right counts', () => {
    const loaded = loadText(makeLargeLangSmith(25), 'runs.json');
    assert.equal(loaded.records.length, 25);
    const record = loaded.records[24];
    assert.ok(isTrajectoryRecord(record));
    assert.equal(record.trajectory.messages.length, 4);
    assert.equal(record.trajectory.messages[2].issuedBy, 1);
    assert.equal(record.trajectory.predictedAnswer, 'Saturn 24');
  });
});

describe('smolagents', () => {
  it('reads a CodeAgent memory dump: one message per step, action steps as decision steps with their code call, observations and errors', () => {
    const [record] = recordsOf('smolagents', 'code-agent-memory.json');
    const t = record.trajectory;
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'assistant', 'assistant', 'system'],
    );
    assert.deepEqual(t.decisionSteps, [2, 3, 4]);
    assert.equal(t.messages[2].toolCalls[0].name, 'python_interpreter');
    assert.equal(t.messages[2].toolCalls[0].rawArguments, 'bridge = web_search(query="Pont des Arts length")\nprint(bridge)');
    assert.match(t.messages[2].content, /Observation:\nExecution logs:\n## Search Results/);
    assert.equal(t.messages[3].isError, true);
    assert.match(t.messages[3].content, /Error: AgentExecutionError: Code execution failed/);
    assert.equal(t.messages[5].content, 'Final answer: 9.6');
    assert.equal(t.query, 'How many seconds would it take for a leopard at full speed to run through Pont des Arts?');
    assert.equal(t.predictedAnswer, '9.6');
    assert.equal(t.finalAnswerStep, 4);
    assert.deepEqual(t.metadata.tokens, { input: 7110, output: 139 });
    assertClearWinner(rankFormats(fixtureValue('smolagents', 'code-agent-memory.json')), 'smolagents');
  });

  it('reads a GAIA run record: intermediate_steps with a planning step and tool-calling steps, question, prediction and true answer', () => {
    const [record] = recordsOf('smolagents', 'gaia-run.json');
    const t = record.trajectory;
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['user', 'assistant', 'assistant', 'assistant', 'system'],
    );
    assert.equal(t.messages[1].agent, 'planning');
    assert.deepEqual(t.messages[2].toolCalls[0].arguments, { query: 'element atomic number 74' });
    assert.equal(t.messages[3].toolCalls[0].name, 'final_answer');
    assert.equal(t.query, 'Which element has the atomic number 74?');
    assert.equal(t.predictedAnswer, 'Tungsten');
    assert.equal(t.goldAnswer, 'Tungsten');
    assert.equal(t.metadata.task_id, 'gaia-val-0074');
    assertClearWinner(rankFormats(fixtureValue('smolagents', 'gaia-run.json')), 'smolagents');
  });

  it('a step of the wrong shape names smolagents and its path', () => {
    const steps = fixtureValue('smolagents', 'code-agent-memory.json') as Record<string, unknown>[];
    const broken = structuredClone(steps);
    broken[3].observations = { text: 'x' };
    assertLoadError(JSON.stringify(broken, null, 1), /smolagents/, /\$\[3\]\.observations/);
  });

  it('loads a large generated memory dump with the right counts', () => {
    const record = loadText(makeLargeSmolagents(200), 'memory.json').records[0];
    assert.ok(isTrajectoryRecord(record));
    assert.equal(record.trajectory.messages.length, 2 + 200 + 1);
    assert.equal(record.trajectory.decisionSteps.length, 200);
    assert.equal(record.trajectory.predictedAnswer, '200');
  });
});

describe('openai-agents', () => {
  it("reads the exporter's payload: the trace item first, then one message per span in start order; a response span's calls are the function spans after it", () => {
    const [record] = recordsOf('openai-agents', 'exporter-payload.json');
    const t = record.trajectory;
    assert.equal(record.id, 'trace_4f1c2a9b8d7e4a6c9b0d1e2f3a4b5c6d');
    assert.deepEqual(
      t.messages.map((m) => m.content.split(' ')[0]),
      ['workflow', 'agent', 'guardrail', 'model', 'Lisbon:', 'Error:', 'model', 'handoff', 'agent', 'Lisbon'],
    );
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['system', 'system', 'system', 'assistant', 'tool', 'tool', 'assistant', 'system', 'system', 'assistant'],
    );
    assert.deepEqual(t.decisionSteps, [3, 6, 9]);
    assert.deepEqual(
      t.messages[3].toolCalls.map((c) => c.arguments),
      [{ city: 'Lisbon' }, { city: 'Porto' }],
    );
    assert.equal(t.messages[4].issuedBy, 3);
    assert.equal(t.messages[5].issuedBy, 3);
    assert.equal(t.messages[5].isError, true);
    assert.match(t.messages[5].content, /Error running tool/);
    assert.equal(t.messages[7].content, 'handoff Triage agent → Booking agent');
    assert.equal(t.query, 'Where is it warmer today, Lisbon or Porto? Then book me a train there.');
    assert.equal(t.predictedAnswer, 'Lisbon is warmer (24 °C). I can book the 14:00 train to Lisbon.');
    assert.deepEqual(t.metadata.agents, ['Triage agent', 'Booking agent']);
    assert.equal(t.metadata.workflow, 'Travel assistant');
    assertClearWinner(rankFormats(fixtureValue('openai-agents', 'exporter-payload.json')), 'openai-agents');
  });

  it('reads JSONL of trace items: generation spans with tool calls, function spans linked by order', () => {
    const [record] = recordsOf('openai-agents', 'spans.jsonl');
    const t = record.trajectory;
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['system', 'system', 'assistant', 'tool', 'assistant'],
    );
    assert.equal(t.messages[2].toolCalls[0].name, 'square');
    assert.equal(t.messages[3].issuedBy, 2);
    assert.equal(t.messages[3].toolCallId, 'call_sq');
    assert.equal(t.query, 'What is 12 squared?');
    assert.equal(t.predictedAnswer, '12 squared is 144.');
    assertClearWinner(rankLineFormats(fixtureLines('openai-agents', 'spans.jsonl')), 'openai-agents');
  });

  it('a span without span_data names the OpenAI Agents span, its path and line', () => {
    const payload = fixtureValue('openai-agents', 'exporter-payload.json') as { data: Record<string, unknown>[] };
    const broken = structuredClone(payload);
    delete broken.data[4].span_data;
    assertLoadError(JSON.stringify(broken, null, 1), /payload|broken\.json:\d+:\d+: at \$\.data\[4\]\.span_data: missing span_data/, /OpenAI Agents span/);
    const lines = readFileSync(join(FIXTURES, 'openai-agents', 'spans.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const badLine = JSON.parse(lines[2]) as Record<string, unknown>;
    delete badLine.trace_id;
    badLine.trace_id = 7;
    assert.throws(
      () => loadText([...lines.slice(0, 2), JSON.stringify(badLine), ...lines.slice(3)].join('\n'), 'spans.jsonl'),
      (error: unknown) => error instanceof InputError && /spans\.jsonl:3:\d+: at \$\.trace_id/.test(error.message),
    );
  });

  it('loads a large generated payload with the right counts', () => {
    const loaded = loadText(makeLargeAgents(20), 'payload.json');
    assert.equal(loaded.records.length, 20);
    const record = loaded.records[19];
    assert.ok(isTrajectoryRecord(record));
    assert.equal(record.trajectory.messages.length, 1 + 1 + 1 + 3 + 1);
    assert.equal(record.trajectory.messages[2].toolCalls.length, 3);
    assert.equal(record.trajectory.predictedAnswer, 'Answer 19');
  });
});

describe('trajaudit inspect --json on the trace fixtures', () => {
  for (const [format, file, counts] of [
    [
      'otel',
      'otlp-genai.json',
      [
        { messages: 4, steps: 2, calls: 1 },
        { messages: 3, steps: 2, calls: 1 },
      ],
    ],
    ['otel', 'phoenix-spans.jsonl', [{ messages: 5, steps: 2, calls: 1 }]],
    [
      'langsmith',
      'runs-list.json',
      [
        { messages: 4, steps: 2, calls: 1 },
        { messages: 3, steps: 1, calls: 0 },
      ],
    ],
    ['smolagents', 'code-agent-memory.json', [{ messages: 6, steps: 3, calls: 3 }]],
    ['openai-agents', 'exporter-payload.json', [{ messages: 10, steps: 3, calls: 2 }]],
  ] as const) {
    it(`${format} ${file}: ${counts.length} record(s) with their counts`, async () => {
      const { code, out } = await runCli(['inspect', join(FIXTURES, format, file), '--json']);
      assert.equal(code, 0);
      const parsed = JSON.parse(out) as unknown;
      const reports = (Array.isArray(parsed) ? parsed : [parsed]) as { format: string; messages: number; decisionSteps: number[]; toolCalls: number }[];
      assert.deepEqual(
        reports.map((r) => ({ format: r.format, messages: r.messages, steps: r.decisionSteps.length, calls: r.toolCalls })),
        counts.map((c) => ({ format, ...c })),
      );
    });
  }
});
