// Large OTLP JSON export for bench:load: many traces, each an agent span, chat spans (GenAI
// semantic conventions, messages as JSON attributes) and execute_tool spans.
function attrs(map: Record<string, string | number>): { key: string; value: { intValue: string } | { stringValue: string } }[] {
  return Object.entries(map).map(([key, v]) => ({ key, value: typeof v === 'number' ? { intValue: String(v) } : { stringValue: v } }));
}

export function makeLarge(traces = 2500, toolRounds = 3): string {
  const spans: unknown[] = [];
  const base = 1733050000000000000n;
  for (let t = 0; t < traces; t++) {
    const traceId = t.toString(16).padStart(32, '0');
    const root = `r${t}`.padStart(16, '0');
    let clock = BigInt(t) * 100000000n;
    const span = (id: string, name: string, parent: string, attributes: Record<string, string | number>) => {
      clock += 1000000n;
      spans.push({
        traceId,
        spanId: id,
        parentSpanId: parent,
        name,
        kind: 1,
        startTimeUnixNano: String(base + clock),
        endTimeUnixNano: String(base + clock + 500000n),
        attributes: attrs(attributes),
        status: {},
      });
    };
    span(root, 'invoke_agent researcher', '', { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'researcher' });
    for (let r = 0; r < toolRounds; r++) {
      const callId = `call_${t}_${r}`;
      span(`c${t}x${r}`.padStart(16, '0'), 'chat gpt-4o', root, {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.usage.input_tokens': 400 + r,
        'gen_ai.input.messages': JSON.stringify([
          { role: 'user', parts: [{ type: 'text', content: `Question ${t}: which bridge is longest? ` + 'context '.repeat(100) }] },
        ]),
        'gen_ai.output.messages': JSON.stringify([
          { role: 'assistant', parts: [{ type: 'tool_call', id: callId, name: 'web_search', arguments: { query: `bridge ${t} ${r}` } }] },
        ]),
      });
      span(`t${t}x${r}`.padStart(16, '0'), 'execute_tool web_search', root, {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'web_search',
        'gen_ai.tool.call.id': callId,
        'gen_ai.tool.call.result': `Result ${r} for trace ${t}: ` + 'snippet text '.repeat(60),
      });
    }
    span(`f${t}`.padStart(16, '0'), 'chat gpt-4o', root, {
      'gen_ai.operation.name': 'chat',
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: `Answer ${t}` }] }]),
    });
  }
  return JSON.stringify({
    resourceSpans: [{ resource: { attributes: attrs({ 'service.name': 'bench' }) }, scopeSpans: [{ scope: { name: 'bench' }, spans }] }],
  });
}
