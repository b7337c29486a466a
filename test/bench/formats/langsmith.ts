// Large LangSmith export for bench:load: a flat list of runs (as client.list_runs returns them),
// many traces of chain → llm (tool call) → tool → llm, LangChain-serialized messages.
const lc = (kind: string, kwargs: Record<string, unknown>) => ({ lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', kind], kwargs });

export function makeLarge(traces = 5000): string {
  const runs: unknown[] = [];
  for (let t = 0; t < traces; t++) {
    const trace = `trace-${t}`;
    const time = (ms: number) => new Date(Date.UTC(2024, 4, 1) + t * 10000 + ms).toISOString().replace('Z', '');
    const question = `Question ${t}: which planet has the most moons? ` + 'context '.repeat(80);
    runs.push({
      id: trace,
      name: 'AgentExecutor',
      run_type: 'chain',
      start_time: time(0),
      parent_run_id: null,
      trace_id: trace,
      inputs: { input: question },
      outputs: { output: `Saturn ${t}` },
      child_runs: [],
    });
    const call = { name: 'tavily_search', args: { query: `moons ${t}` }, id: `call_${t}`, type: 'tool_call' };
    runs.push({
      id: `${trace}-llm1`,
      name: 'ChatOpenAI',
      run_type: 'llm',
      start_time: time(10),
      parent_run_id: trace,
      trace_id: trace,
      inputs: { messages: [[lc('HumanMessage', { content: question, type: 'human' })]] },
      outputs: { generations: [[{ text: '', message: lc('AIMessage', { content: '', tool_calls: [call], type: 'ai' }) }]] },
    });
    runs.push({
      id: `${trace}-tool`,
      name: 'tavily_search',
      run_type: 'tool',
      start_time: time(20),
      parent_run_id: trace,
      trace_id: trace,
      inputs: { input: `moons ${t}` },
      outputs: { output: lc('ToolMessage', { content: 'Saturn has 146 moons. '.repeat(40), tool_call_id: `call_${t}`, type: 'tool' }) },
    });
    runs.push({
      id: `${trace}-llm2`,
      name: 'ChatOpenAI',
      run_type: 'llm',
      start_time: time(30),
      parent_run_id: trace,
      trace_id: trace,
      inputs: { messages: [] },
      outputs: { generations: [[{ text: `Saturn ${t}`, message: lc('AIMessage', { content: `Saturn ${t}`, type: 'ai' }) }]] },
    });
  }
  return JSON.stringify(runs, null, 1);
}
