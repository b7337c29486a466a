// Large OpenAI Agents SDK export for bench:load: the exporter's `{data: [...]}` payload with many
// traces of agent → response → function calls → generation spans.
export function makeLarge(traces = 6000): string {
  const data: unknown[] = [];
  for (let t = 0; t < traces; t++) {
    const trace = `trace_${t.toString(16).padStart(32, '0')}`;
    const at = (ms: number) => new Date(Date.UTC(2025, 3, 10) + t * 60000 + ms).toISOString();
    const span = (id: string, ms: number, spanData: Record<string, unknown>) =>
      data.push({
        object: 'trace.span',
        id: `span_${t}_${id}`,
        trace_id: trace,
        parent_id: `span_${t}_agent`,
        started_at: at(ms),
        ended_at: at(ms + 5),
        span_data: spanData,
        error: null,
      });
    data.push({ object: 'trace', id: trace, workflow_name: 'Research', group_id: null, metadata: null });
    span('agent', 0, { type: 'agent', name: 'Researcher', handoffs: [], tools: ['web_search'], output_type: 'str' });
    span('resp1', 10, { type: 'response', response_id: `resp_${t}_1` });
    for (let c = 0; c < 3; c++)
      span(`fn${c}`, 20 + c, {
        type: 'function',
        name: 'web_search',
        input: JSON.stringify({ query: `topic ${t} ${c}` }),
        output: 'Result snippet. '.repeat(60),
      });
    span('gen', 40, {
      type: 'generation',
      model: 'gpt-4o',
      input: [{ role: 'user', content: `Question ${t}? ` + 'context '.repeat(60) }],
      output: [{ role: 'assistant', content: `Answer ${t}` }],
      usage: { input_tokens: 500, output_tokens: 10 },
    });
  }
  return JSON.stringify({ data });
}
