// The tool-kind table (src/core/stats/toolKinds.ts, docs/formats.md §6): kinds from names of real
// agents' tools and, for unknown names, from argument shapes; configured lists override; the
// Appendix C counts only ever count search and visit calls.
import assert from 'node:assert/strict';
import type { ToolCall } from '../../../src/core/model/trajectory';
import { atomicOperations, countTrajectory } from '../../../src/core/stats/statistics';
import { callKind, toolKind, TOOL_KINDS } from '../../../src/core/stats/toolKinds';
import { buildRows } from '../../../src/core/view/rows';
import { buildOutline } from '../../../src/core/stats/outline';
import { trajectoryOf } from '../helpers';

const call = (name: string, args: unknown): ToolCall => ({ name, arguments: args, rawArguments: JSON.stringify(args), argumentsValid: true });

describe('tool kinds: the table', () => {
  it('names of real agents’ tools', () => {
    const expected: Record<string, string[]> = {
      search: ['google_web_search', 'WebSearch', 'tavily_search_results_json', 'web_search_preview'],
      visit: ['web_read', 'WebFetch', 'web_browser_go', 'browser_navigate'],
      code: ['bash', 'Bash', 'execute_bash', 'execute_ipython_cell', 'python_interpreter', 'run_shell_command', 'shell', 'exec_command', 'code_interpreter'],
      'file-edit': ['str_replace_editor', 'str_replace_based_edit_tool', 'edit_file', 'write_file', 'apply_patch', 'Edit', 'MultiEdit', 'Write', 'replace'],
      other: ['Read', 'Grep', 'Glob', 'Task', 'calculator', 'final_answer', 'search_dir', 'find_file'],
    };
    for (const [kind, names] of Object.entries(expected)) for (const name of names) assert.equal(toolKind(name), kind, name);
    assert.deepEqual([...TOOL_KINDS].sort(), Object.keys(expected).sort());
  });

  it('argument shapes give an unknown tool its kind', () => {
    assert.equal(callKind(call('lookup', { query: 'a' })), 'search');
    assert.equal(callKind(call('lookup', { queries: ['a', 'b'] })), 'search');
    assert.equal(callKind(call('grab', { url: 'https://x.example' })), 'visit');
    assert.equal(callKind(call('run', { command: 'ls -la' })), 'code');
    assert.equal(callKind(call('run', { command: ['bash', '-lc', 'ls'] })), 'code');
    assert.equal(callKind(call('py', { code: 'print(1)' })), 'code');
    assert.equal(callKind(call('change', { path: 'a.py', old_str: 'x', new_str: 'y' })), 'file-edit');
    assert.equal(callKind(call('put', { file_path: 'a.py', content: 'x' })), 'file-edit');
    assert.equal(callKind(call('diff', { patch: '*** Begin Patch' })), 'file-edit');
    assert.equal(callKind(call('read', { path: 'a.py' })), 'other', 'a path alone is no edit');
    assert.equal(callKind(call('lookup', { query: 42 })), 'other', 'a number is no query');
    assert.equal(callKind({ name: 'lookup', arguments: undefined }), 'other');
    // A known name wins over the arguments.
    assert.equal(callKind(call('bash', { query: 'x' })), 'code');
  });

  it('configured lists are exact and turn off that kind’s argument shapes; search and visit keep their own kinds', () => {
    const names = { searchNames: ['lookup'] };
    assert.equal(callKind(call('lookup', { command: 'x' }), names), 'search');
    assert.equal(callKind(call('finder', { query: 'x' }), names), 'other');
    assert.equal(callKind(call('Lookup', { q: 'x' }), names), 'other', 'configured names match exactly');
    assert.equal(callKind(call('grab', { url: 'u' }), names), 'visit', 'the visit defaults still hold');
    assert.equal(callKind(call('grab', { url: 'u' }), { visitNames: [] }), 'other');
  });

  it('Appendix C counts only search and visit calls; code and file edits are one operation each', () => {
    assert.equal(atomicOperations(call('bash', { command: ['a', 'b', 'c'] })), 1);
    assert.equal(atomicOperations(call('lookup', { query: ['a', 'b', 'c'] })), 3);
    assert.equal(atomicOperations(call('grab', { url: [] })), 0);
    const t = trajectoryOf([
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: '1', type: 'function', function: { name: 'execute_bash', arguments: '{"command": "ls"}' } },
          { id: '2', type: 'function', function: { name: 'finder', arguments: '{"query": ["a", "b"]}' } },
          { id: '3', type: 'function', function: { name: 'str_replace_editor', arguments: '{"path": "a", "old_str": "x", "new_str": "y"}' } },
        ],
      },
      { role: 'tool', tool_call_id: '1', content: 'ok' },
      { role: 'tool', tool_call_id: '2', content: 'ok' },
      { role: 'tool', tool_call_id: '3', content: 'ok' },
      { role: 'assistant', content: 'done' },
    ]);
    const counts = countTrajectory(t);
    assert.deepEqual([counts.toolCalls, counts.atomicOps, counts.searchCalls, counts.visitCalls], [3, 1 + 2 + 1, 1, 0]);
    assert.deepEqual(buildRows(t)[1].callKinds, ['code', 'search', 'file-edit'], 'the rows carry the kinds to the editor');
    assert.equal(buildRows(t)[2].callKinds, undefined);
    assert.deepEqual(
      buildOutline(t).map((e) => e.kinds),
      [['code', 'search', 'file-edit'], []],
      'the outline carries them too',
    );
  });
});
