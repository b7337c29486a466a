// Load speed (issue 15 item 6) for the Codex, Gemini CLI, CAMEL and Magentic-One readers: their
// hot paths were rewritten to allocate less per message. These pin what each rewritten path reads
// on the cases the bench files do not have, and that a Codex tool output in the CLI's compact form
// is not parsed whole a second time.
import assert from 'node:assert/strict';
import type { Trajectory } from '../../../src/core/model/trajectory';
import { onlyTrajectory } from '../helpers';

const only = onlyTrajectory;

/** A Codex rollout whose round i calls `shell` and gets `outputs[i]` (as the CLI writes function_call_output.output). */
function codexRollout(outputs: string[]): string {
  let second = 0;
  const line = (type: string, payload: object) => JSON.stringify({ timestamp: `2025-09-22T14:03:${String(second++).padStart(2, '0')}.000Z`, type, payload });
  const lines = [
    line('session_meta', { id: 'lean', timestamp: '2025-09-22T14:03:00.000Z', cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.39.0' }),
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Run the checks.' }] }),
  ];
  outputs.forEach((output, i) => {
    lines.push(line('response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["make"]}', call_id: `c${i}` }));
    lines.push(line('response_item', { type: 'function_call_output', call_id: `c${i}`, output }));
    lines.push(line('event_msg', { type: 'token_count', info: null }));
  });
  lines.push(line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checked.' }] }));
  return lines.join('\n') + '\n';
}

describe('session readers after the allocation cuts (issue 15 item 6)', () => {
  describe('codex tool outputs', () => {
    const outputs = [
      // The CLI's compact form, exit 0, with escaped quotes and a backslash just before the closing quote.
      JSON.stringify({ output: 'said "hi"\nC:\\dir\\', metadata: { exit_code: 0, duration_seconds: 0.1 } }),
      // Compact, failed (a negative code too).
      JSON.stringify({ output: 'boom', metadata: { exit_code: 2, duration_seconds: 1 } }),
      JSON.stringify({ output: 'killed', metadata: { exit_code: -1, duration_seconds: 1e-3 } }),
      // Not the compact form: spaces, a later duplicate `output`, no metadata.
      '{"output": "spaced", "metadata": {"exit_code": 1}}',
      '{"output":"first","metadata":{"exit_code":0,"duration_seconds":0.1},"output":"second"}',
      '{"output":"bare"}',
      // Not JSON, or not a string output: shown as written.
      '{"output":"cut off',
      '{"output":"bad \\q escape","metadata":{"exit_code":0,"duration_seconds":0.1}}',
      '{"output":5}',
      '{"output":"x","metadata":{"exit_code":0,"duration_seconds":0.1}} trailing',
    ];

    it('reads the output text and the failure of every form, and links each return to its call', () => {
      const t = only(codexRollout(outputs), 'rollout-lean.jsonl');
      const returns = t.messages.filter((m) => m.role === 'tool');
      assert.deepEqual(
        returns.map((m) => [m.content, m.isError === true]),
        [
          ['said "hi"\nC:\\dir\\', false],
          ['boom', true],
          ['killed', true],
          ['spaced', true],
          ['second', false],
          ['bare', false],
          ['{"output":"cut off', false],
          [outputs[7], false],
          ['{"output":5}', false],
          [outputs[9], false],
        ],
      );
      assert.deepEqual(
        returns.map((m) => [m.toolCallId, m.issuedBy]),
        returns.map((m) => [m.toolCallId, m.position - 1]),
      );
      assert.equal(t.messages[4].content, '[event token_count]');
      assert.equal(t.query, 'Run the checks.');
      assert.equal(t.predictedAnswer, 'Checked.');
    });

    it('decodes only the output string of a compact output: the whole output is not parsed again', () => {
      const compact = outputs.slice(0, 3);
      const text = codexRollout(compact);
      const parse = JSON.parse;
      const parsedWhole: string[] = [];
      JSON.parse = ((source: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
        if (compact.includes(source)) parsedWhole.push(source);
        return parse(source, reviver);
      }) as typeof JSON.parse;
      let t: Trajectory;
      try {
        t = only(text, 'rollout-compact.jsonl');
      } finally {
        JSON.parse = parse;
      }
      assert.deepEqual(parsedWhole, []);
      assert.deepEqual(
        t.messages.filter((m) => m.role === 'tool').map((m) => m.content),
        ['said "hi"\nC:\\dir\\', 'boom', 'killed'],
      );
    });
  });

  describe('gemini-cli chat recordings', () => {
    const meta = {
      sessionId: 'lean',
      projectHash: 'f'.repeat(64),
      startTime: '2025-10-03T16:00:00.000Z',
      lastUpdated: '2025-10-03T16:00:00.000Z',
      kind: 'main',
    };
    const lines = [
      meta,
      { id: 'u1', timestamp: 't', type: 'user', content: [{ text: 'Find the bug.' }] },
      // Written first with no content, then again with its calls' results.
      { id: 'g1', timestamp: 't', type: 'gemini', content: '', toolCalls: [{ id: 'r1', name: 'read_file', args: { path: 'a' }, status: 'executing' }] },
      { $set: { lastUpdated: 't2' } },
      {
        id: 'g1',
        timestamp: 't',
        type: 'gemini',
        content: '',
        thoughts: [{ subject: 'Reading', description: 'open a first' }, { subject: 'Only a subject' }, { description: 'Only a description' }, 'plain'],
        toolCalls: [
          {
            id: 'r1',
            name: 'read_file',
            args: { path: 'a' },
            status: 'success',
            result: [{ functionResponse: { id: 'r1', name: 'read_file', response: { output: 'says <answer>quoted</answer>' } } }],
          },
          {
            id: 'r2',
            name: 'read_file',
            args: { path: 'b' },
            status: 'error',
            result: [{ functionResponse: { id: 'r2', name: 'read_file', response: { error: 'no such file' } } }],
          },
          { id: 'r3', name: 'grep', args: { q: 'x' }, status: 'cancelled' },
        ],
      },
      { $set: { lastUpdated: 't3', summary: 'Bug hunt' } },
      {
        id: 'g2',
        timestamp: 't',
        type: 'gemini',
        content: [{ text: 'The bug is in a.' }, { text: '<answer>a</answer>' }],
        toolCalls: [{ name: 'write_file', args: {}, result: 'done' }],
      },
    ];
    const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';

    it('reads notes, thoughts, result blocks per call and status, errors, and the answer from the own text only', () => {
      const t = only(text, 'lean-gemini.jsonl');
      assert.deepEqual(
        t.messages.map((m) => [m.role, m.agent]),
        [
          ['system', 'session'],
          ['user', undefined],
          ['system', 'earlier record'],
          ['system', 'metadata'],
          ['assistant', undefined],
          ['system', 'metadata'],
          ['assistant', undefined],
        ],
      );
      assert.equal(t.messages[2].content, '[earlier record of message g1, updated at entry 4]');
      assert.equal(t.messages[3].content, '[metadata update] lastUpdated');
      assert.equal(t.messages[5].content, '[metadata update] lastUpdated, summary');
      const step = t.messages[4];
      assert.equal(step.reasoning, 'Reading: open a first\nOnly a subject\nOnly a description\nplain');
      assert.equal(step.content, '[read_file result, success]\nsays <answer>quoted</answer>\n\n[read_file result, error]\nError: no such file');
      assert.equal(step.isError, true);
      assert.deepEqual(
        step.toolCalls.map((c) => [c.id, c.name, c.rawArguments]),
        [
          ['r1', 'read_file', '{"path":"a"}'],
          ['r2', 'read_file', '{"path":"b"}'],
          ['r3', 'grep', '{"q":"x"}'],
        ],
      );
      assert.equal(step.answer, undefined, "an answer tag inside a tool result is not the agent's");
      assert.equal(t.messages[6].content, 'The bug is in a.\n<answer>a</answer>\n\n[write_file result]\ndone');
      assert.equal(t.messages[6].answer, 'a');
      assert.equal(t.predictedAnswer, 'a');
      assert.equal(t.finalAnswerStep, 6);
      assert.deepEqual(t.decisionSteps, [4, 6]);
      assert.equal(t.metadata.summary, 'Bug hunt');
    });
  });

  describe('camel OWL histories', () => {
    it('joins each round from the parts it has: instruction, reply, each tool result (long ones cut), a blank line between', () => {
      const long = 'x'.repeat(4100);
      const t = only(
        JSON.stringify({
          question: 'Q?',
          answer: 'A',
          chat_history: [
            {
              user: 'Look it up.',
              assistant: 'Found it.',
              tool_calls: [{ tool_name: 'search_google', args: { query: 'q' }, result: [{ title: 't' }], tool_call_id: 'c1' }],
            },
            { user: '  ', assistant: 'Only a reply.', tool_calls: null },
            { user: 'Only an instruction.', assistant: '\n' },
            { user: '', assistant: '', tool_calls: [{ func_name: 'browse', args: '{"url":"u"}', result: long }, { result: 'anonymous' }] },
            { user: 'Again.', assistant: 'Searching.', tool_calls: [{ tool_name: 'search_google', args: {}, result: 'second' }] },
          ],
        }),
        'lean-owl.json',
      );
      assert.deepEqual(
        t.messages.map((m) => m.content),
        [
          'user: Look it up.\n\nassistant: Found it.\n\n→ search_google returned: [{"title":"t"}]',
          'assistant: Only a reply.',
          'user: Only an instruction.',
          `→ browse returned: ${'x'.repeat(4000)}…\n\n→ tool returned: anonymous`,
          'user: Again.\n\nassistant: Searching.\n\n→ search_google returned: second',
        ],
      );
      assert.deepEqual(
        t.messages.map((m) => m.toolCalls.map((c) => [c.name, c.id, c.rawArguments])),
        [
          [['search_google', 'c1', '{"query":"q"}']],
          [],
          [],
          [
            ['browse', undefined, '{"url":"u"}'],
            ['unknown', undefined, ''],
          ],
          [['search_google', undefined, '{}']],
        ],
      );
      assert.deepEqual(t.decisionSteps, [0, 1, 2, 3, 4]);
      assert.equal(t.query, 'Q?');
      assert.equal(t.predictedAnswer, 'A');
    });
  });

  describe('magentic-one agents', () => {
    it('lists the agents of assistant messages first seen first, in the message array and in log.jsonl', () => {
      const t = only(
        JSON.stringify([
          { role: 'human', content: 'Count the bridges.' },
          { role: 'Orchestrator (thought)', content: 'Plan.' },
          { role: 'Orchestrator (-> WebSurfer)', content: 'Search.' },
          { role: 'WebSurfer', content: 'Found 3.', name: 'web_surfer' },
          { role: 'Orchestrator (thought)', content: 'Check.' },
          { role: 'WebSurfer', content: 'Still 3.' },
          { role: 'Orchestrator (termination condition)', content: 'FINAL ANSWER: 3' },
        ]),
        'lean-magentic.json',
      );
      assert.deepEqual(t.metadata.agents, [
        'Orchestrator (thought)',
        'Orchestrator (-> WebSurfer)',
        'web_surfer',
        'WebSurfer',
        'Orchestrator (termination condition)',
      ]);
      assert.equal(t.predictedAnswer, '3');
      const log = only(
        [
          { timestamp: 't1', type: 'OrchestrationEvent', source: 'human', message: 'Count the bridges.' },
          { timestamp: 't2', type: 'OrchestrationEvent', source: 'Orchestrator (thought)', message: 'Plan.' },
          { timestamp: 't3', type: 'LLMCallEvent', prompt_tokens: 10, completion_tokens: 2 },
          { timestamp: 't4', type: 'WebSurferEvent', source: 'WebSurfer', message: 'Searching.', action: 'web_search', arguments: { query: 'bridges' } },
          { timestamp: 't5', type: 'OrchestrationEvent', source: 'Orchestrator (thought)', message: 'Done.' },
        ]
          .map((e) => JSON.stringify(e))
          .join('\n'),
        'lean-log.jsonl',
      );
      assert.deepEqual(log.metadata.agents, ['Orchestrator (thought)', 'WebSurfer']);
      assert.deepEqual(
        log.messages[3].toolCalls.map((c) => c.name),
        ['web_search'],
      );
    });
  });
});
