// Large Gemini CLI chat recording for bench:load: the JSONL ~/.gemini/tmp/<project hash>/chats/
// holds (a metadata line, then per round a user prompt, the gemini message written twice — once
// when its tool call is scheduled, once with the result and tokens — and a `$set` update).

/** Lines: 1 + rounds × 4. Decision steps: rounds. Tool calls: rounds. */
export function makeLarge(rounds = 6000): string {
  let t = Date.UTC(2025, 9, 3, 16);
  const ts = () => new Date((t += 500)).toISOString();
  const out = [
    JSON.stringify({ sessionId: 'b16e0000-0000-4000-8000-000000000000', projectHash: 'f'.repeat(64), startTime: ts(), lastUpdated: ts(), kind: 'main' }),
  ];
  for (let i = 0; i < rounds; i++) {
    out.push(JSON.stringify({ id: `u${i}`, timestamp: ts(), type: 'user', content: [{ text: `Summarize file ${i}.` }] }));
    const call = {
      id: `read_file-${i}`,
      name: 'read_file',
      args: { absolute_path: `/home/dev/big/f${i}.md` },
      timestamp: ts(),
      displayName: 'ReadFile',
      description: '',
    };
    const message = { id: `g${i}`, timestamp: ts(), type: 'gemini', content: `File ${i} is about topic ${i % 17}.`, thoughts: [], model: 'gemini-2.5-pro' };
    out.push(JSON.stringify({ ...message, toolCalls: [{ ...call, status: 'executing' }], tokens: null }));
    const result = [{ functionResponse: { id: call.id, name: 'read_file', response: { output: `# File ${i}\n` + 'Body text of the file. '.repeat(40) } } }];
    out.push(
      JSON.stringify({
        ...message,
        toolCalls: [{ ...call, status: 'success', result }],
        tokens: { input: 1000 + i, output: 20, cached: 0, thoughts: 0, tool: 0, total: 1020 + i },
      }),
    );
    out.push(JSON.stringify({ $set: { lastUpdated: ts() } }));
  }
  return out.join('\n') + '\n';
}
