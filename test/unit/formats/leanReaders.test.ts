// Load speed (issue 15 item 6) rewrote hot paths of the shared pipeline and several readers to
// allocate less per message: these pin what each rewritten path reads, on the cases the bench
// files do not have (a result answering an earlier step's call, repeated call ids, several action
// blocks, multi-part contents, a legacy function_call beside tool_calls, leading white space).
import assert from 'node:assert/strict';
import { fencedBlocks } from '../../../src/core/formats/sweAgent';
import { loadText } from '../../../src/core/load/loadFile';
import { onlyTrajectory } from '../helpers';

const only = onlyTrajectory;

describe('readers after the allocation cuts (issue 15 item 6)', () => {
  it('ATIF names the function of the call a result answers: in its own step, an earlier step, and the latest call of a repeated id', () => {
    const t = only(
      JSON.stringify({
        schema_version: 'ATIF-v1.6',
        session_id: 's',
        agent: { name: 'a', version: '1' },
        steps: [
          { step_id: 1, source: 'user', message: 'Which river?' },
          {
            step_id: 2,
            source: 'agent',
            message: 'Searching.',
            tool_calls: [{ tool_call_id: 'c1', function_name: 'web_search', arguments: { query: 'river' } }],
          },
          {
            step_id: 3,
            source: 'agent',
            message: 'Opening.',
            tool_calls: [{ tool_call_id: 'c2', function_name: 'open_page', arguments: { url: 'https://example.org' } }],
            observation: {
              results: [
                { source_call_id: 'c1', content: 'late search result' },
                { source_call_id: 'c2', content: 'page text' },
              ],
            },
          },
          { step_id: 4, source: 'agent', message: 'Again.', tool_calls: [{ tool_call_id: 'c1', function_name: 'fetch_url', arguments: { url: 'u' } }] },
          { step_id: 5, source: 'agent', message: 'Done.', observation: { results: [{ source_call_id: 'c1', content: 'fetched' }, { content: 'no call' }] } },
          { step_id: 6, source: 'agent', message: 'Unknown.', observation: { results: [{ source_call_id: 'nope', content: 'x' }] } },
        ],
      }),
    );
    assert.equal(t.messages[2].content, 'Opening.\n\n── observation (web_search c1) ──\nlate search result\n\n── observation (open_page c2) ──\npage text');
    assert.equal(t.messages[4].content, 'Done.\n\n── observation (fetch_url c1) ──\nfetched\n\n── observation (action) ──\nno call');
    assert.equal(t.messages[5].content, 'Unknown.\n\n── observation (call nope) ──\nx');
    assert.deepEqual(Object.keys(t.metadata.atif_observations as object), ['2', '4', '5']);
    assert.deepEqual(
      t.messages.map((m) => m.toolCalls.map((c) => c.name)),
      [[], ['web_search'], ['open_page'], ['fetch_url'], [], []],
    );
    assert.deepEqual(t.decisionSteps, [1, 2, 3, 4, 5]);
  });

  it('fencedBlocks reads each text from its start, also after a text that left a block open', () => {
    assert.deepEqual(fencedBlocks('```bash\nls\n'), []);
    assert.deepEqual(fencedBlocks('```bash\nls\n```\n'), [{ language: 'bash', body: 'ls' }]);
    assert.deepEqual(fencedBlocks('x\n```python\nprint(1)\n```\n```bash\necho 2\n```'), [
      { language: 'python', body: 'print(1)' },
      { language: 'bash', body: 'echo 2' },
    ]);
  });

  it('mini-swe-agent runs the one action block of a response, and nothing when it holds two', () => {
    const t = only(
      JSON.stringify({
        info: { exit_status: 'Submitted', submission: 'diff', mini_version: '1.9.1' },
        trajectory_format: 'mini-swe-agent-1',
        messages: [
          { role: 'system', content: 'You are a helpful assistant.' },
          { role: 'user', content: '<pr_description>\nFix it.\n</pr_description>' },
          { role: 'assistant', content: 'THOUGHT: look.\n\n```python\nprint(1)\n```\n\n```bash\nls src\n```' },
          { role: 'user', content: '<returncode>0</returncode>\n<output>\na.py\n</output>' },
          { role: 'assistant', content: 'THOUGHT: two.\n\n```bash\nls\n```\n\n```bash\npwd\n```' },
          { role: 'user', content: 'Please always provide EXACTLY ONE action.', extra: { interrupt_type: 'FormatError' } },
        ],
      }),
    );
    assert.deepEqual(
      t.messages.map((m) => [m.role, m.toolCalls.map((c) => c.rawArguments)]),
      [
        ['system', []],
        ['user', []],
        ['assistant', ['{"command":"ls src"}']],
        ['tool', []],
        ['assistant', []],
        ['user', []],
      ],
    );
  });

  it('openai-chat keeps tool_calls before a legacy function_call, in one list per message', () => {
    const t = only(
      JSON.stringify({
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'a', type: 'function', function: { name: 'search', arguments: '{"query":"x"}' } }],
            function_call: { name: 'visit', arguments: '{"url":"u"}' },
          },
          { role: 'tool', tool_call_id: 'a', content: 'r' },
        ],
      }),
    );
    assert.deepEqual(
      t.messages[1].toolCalls.map((c) => [c.id, c.name, c.arguments]),
      [
        ['a', 'search', { query: 'x' }],
        [undefined, 'visit', { url: 'u' }],
      ],
    );
    assert.equal(t.messages[2].issuedBy, 1);
  });

  it('Codex joins a multi-part message with new lines and keeps a single part as written', () => {
    const line = (type: string, payload: unknown) => JSON.stringify({ timestamp: '2025-09-22T14:00:00.000Z', type, payload });
    const t = only(
      [
        line('session_meta', { id: 's', cwd: '/w' }),
        line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Count lines.' }] }),
        line('response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c' }),
        line('response_item', { type: 'function_call_output', call_id: 'c', output: '{"output":"a\\nb\\n","metadata":{"exit_code":1}}' }),
        line('response_item', {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Two files.' }, { type: 'output_text', text: 'Done.' }, { type: 'image' }],
        }),
      ].join('\n'),
      'rollout.jsonl',
    );
    assert.equal(t.query, 'Count lines.');
    assert.deepEqual(
      t.messages[2].toolCalls.map((c) => [c.id, c.name, c.arguments]),
      [['c', 'shell', { command: ['ls'] }]],
    );
    assert.equal(t.messages[3].content, 'a\nb\n');
    assert.equal(t.messages[3].isError, true);
    assert.equal(t.messages[4].content, 'Two files.\nDone.\n[image]');
    assert.deepEqual(t.decisionSteps, [2, 4]);
  });

  it('loadText looks past leading white space (new lines, tabs) for JSON, and still reads a DeepSearchQA CSV', () => {
    const t = only(
      '\n  \t\r\n' +
        JSON.stringify([
          { role: 'user', content: 'q' },
          { role: 'assistant', content: 'a' },
        ]),
    );
    assert.equal(t.predictedAnswer, 'a');
    const csv = loadText('problem,problem_category,answer,answer_type\nWhich river?,geo,Danube,Single Answer\n', 'rows.csv');
    assert.equal(csv.container, 'csv');
    assert.equal(csv.records.length, 1);
  });
});
