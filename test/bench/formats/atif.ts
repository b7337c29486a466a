// Large Harbor ATIF trajectory for bench:load: one long agent run (system, user, then agent steps
// with tool calls and their observation results, metrics per step) in ATIF-v1.7.
export function makeLarge(agentSteps = 6000): string {
  const page = 'The Danube flows through Vienna, Bratislava, Budapest and Belgrade; bridges and islands are listed below. '.repeat(12);
  const steps: unknown[] = [
    { step_id: 1, source: 'system', message: 'You are a research agent. Tools: web_search(query), open_page(url).' },
    { step_id: 2, source: 'user', message: 'Which rivers flow through more than three capitals?' },
  ];
  for (let i = 0; i < agentSteps; i++) {
    const search = i % 2 === 0;
    const callId = `call_${i}`;
    steps.push({
      step_id: steps.length + 1,
      timestamp: '2026-11-28T09:00:00Z',
      source: 'agent',
      model_name: 'claude-sonnet-4-20250514',
      message: `Step ${i}: ${search ? 'searching' : 'opening the best result'}.`,
      reasoning_content: `I still need evidence for capital ${i}.`,
      tool_calls: [
        {
          tool_call_id: callId,
          function_name: search ? 'web_search' : 'open_page',
          arguments: search ? { query: `river capital ${i}` } : { url: `https://en.example.org/wiki/River_${i}` },
        },
      ],
      observation: { results: [{ source_call_id: callId, content: `${i}: ${page}` }] },
      metrics: { prompt_tokens: 1000 + i, completion_tokens: 60, cached_tokens: 512, cost_usd: 0.001 },
    });
  }
  steps.push({ step_id: steps.length + 1, source: 'agent', message: 'The Danube.' });
  return JSON.stringify({
    schema_version: 'ATIF-v1.7',
    session_id: 'bench-session',
    agent: { name: 'terminus', version: '1.0.0', model_name: 'claude-sonnet-4-20250514' },
    steps,
    final_metrics: { total_steps: steps.length },
  });
}
