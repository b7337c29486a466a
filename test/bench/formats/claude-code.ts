// Large Claude Code session for bench:load: JSONL lines in the shape ~/.claude/projects/<cwd>/<id>.jsonl
// holds (a prompt, then rounds of one assistant line per content block and a tool_result user line),
// with summary and file-history-snapshot lines, compact JSON as Claude Code writes it.
const SESSION = '5a0c9e14-7d2b-4f3a-8e61-0b9d2c4f7a13';

/** Lines: 3 + rounds × 4 + 1. Decision steps: rounds × 3 + 1. Tool calls: rounds. */
export function makeLarge(rounds = 6000): string {
  const lines: unknown[] = [];
  let n = 0;
  let parent: string | null = null;
  const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/big', sessionId: SESSION, version: '1.0.83', gitBranch: 'main' };
  const push = (type: 'user' | 'assistant', message: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const uuid = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    lines.push({ parentUuid: parent, ...base, type, message, uuid, timestamp: new Date(Date.UTC(2025, 7, 14, 9) + n * 1000).toISOString(), ...extra });
    parent = uuid;
  };
  const assistant = (id: string, block: Record<string, unknown>) =>
    push(
      'assistant',
      {
        id,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-20250514',
        content: [block],
        stop_reason: null,
        usage: { input_tokens: 90, output_tokens: 40 },
      },
      { requestId: `req_${id}` },
    );
  lines.push({ type: 'summary', summary: 'Audit every module for unchecked errors', leafUuid: 'leaf' });
  lines.push({
    type: 'file-history-snapshot',
    messageId: 'm0',
    snapshot: { messageId: 'm0', trackedFileBackups: {}, timestamp: '2025-08-14T09:00:00.000Z' },
    isSnapshotUpdate: false,
  });
  push('user', { role: 'user', content: 'Read every module under src/ and list the functions that ignore an error result.' });
  for (let i = 0; i < rounds; i++) {
    const id = `msg_${i}`;
    assistant(id, { type: 'thinking', thinking: `Module ${i} is next; read it and look for discarded results.`, signature: 'sig' });
    assistant(id, { type: 'text', text: `Reading src/mod${i}.ts.` });
    assistant(id, { type: 'tool_use', id: `toolu_${i}`, name: 'Read', input: { file_path: `/home/dev/big/src/mod${i}.ts` } });
    push(
      'user',
      {
        role: 'user',
        content: [
          {
            tool_use_id: `toolu_${i}`,
            type: 'tool_result',
            content: `export function f${i}() {\n  save().catch(() => {});\n}\n` + '// filler line\n'.repeat(40),
          },
        ],
      },
      { toolUseResult: { type: 'text', file: { filePath: `/home/dev/big/src/mod${i}.ts`, numLines: 43 } } },
    );
  }
  assistant('msg_final', { type: 'text', text: `${rounds} functions discard an error result.` });
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}
