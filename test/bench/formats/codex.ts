// Large Codex CLI rollout for bench:load: `{timestamp, type, payload}` lines as
// ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl holds them (session_meta, turn_context, then rounds of
// reasoning, function_call, function_call_output and token_count), ending with the agent's message.

/** Lines: 3 + rounds × 4 + 1. Decision steps: rounds × 2 + 1. Tool calls: rounds. */
export function makeLarge(rounds = 6000): string {
  let t = Date.UTC(2025, 8, 22, 14);
  const line = (type: string, payload: unknown) => JSON.stringify({ timestamp: new Date((t += 250)).toISOString(), type, payload });
  const out = [
    line('session_meta', {
      id: '0199706a-0000-7000-8000-00000000b16e',
      timestamp: '2025-09-22T14:00:00.000Z',
      cwd: '/home/dev/big',
      originator: 'codex_cli_rs',
      cli_version: '0.39.0',
      instructions: null,
    }),
    line('turn_context', {
      cwd: '/home/dev/big',
      approval_policy: 'never',
      sandbox_policy: { mode: 'read-only' },
      model: 'gpt-5-codex',
      effort: 'medium',
      summary: 'auto',
    }),
    line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Count the lines of every file under src/.' }] }),
  ];
  let input = 0;
  for (let i = 0; i < rounds; i++) {
    input += 900;
    out.push(
      line('response_item', {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: `**Counting file ${i}**` }],
        content: null,
        encrypted_content: 'gAAAA' + 'x'.repeat(200),
      }),
    );
    out.push(
      line('response_item', {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', `wc -l src/file${i}.rs`] }),
        call_id: `call_${i}`,
      }),
    );
    out.push(
      line('response_item', {
        type: 'function_call_output',
        call_id: `call_${i}`,
        output: JSON.stringify({ output: `${i % 300} src/file${i}.rs\n` + 'output padding\n'.repeat(30), metadata: { exit_code: 0, duration_seconds: 0.1 } }),
      }),
    );
    out.push(
      line('event_msg', {
        type: 'token_count',
        info: { total_token_usage: { input_tokens: input, cached_input_tokens: 0, output_tokens: i * 20, total_tokens: input + i * 20 } },
      }),
    );
  }
  out.push(line('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: `Counted ${rounds} files.` }] }));
  return out.join('\n') + '\n';
}
