// Large Inspect AI .json eval log for bench:load: `eval`, `plan`, `results`, `stats` and
// `samples[]` (samples × epochs), each sample a web-research run with search and fetch calls
// (tool calls with object arguments, tool messages with call ids, a C/I score).
export function makeLarge(samples = 600, epochs = 2): string {
  const page = 'The river flows through the capital and three other cities; the page lists bridges, islands and ports. '.repeat(30);
  const records: unknown[] = [];
  for (let id = 1; id <= samples; id++) {
    for (let epoch = 1; epoch <= epochs; epoch++) {
      const question = `Question ${id}: which river flows through city ${id} and city ${id + 1}?`;
      const messages: unknown[] = [
        {
          id: `m${id}-${epoch}-0`,
          role: 'system',
          content: 'You are a research assistant. Use web_search and fetch_url. Reply with ANSWER: <answer>.',
          source: 'input',
        },
        { id: `m${id}-${epoch}-1`, role: 'user', content: question, source: 'input' },
      ];
      for (let turn = 0; turn < 6; turn++) {
        const callId = `call_${id}_${epoch}_${turn}`;
        const search = turn % 2 === 0;
        messages.push({
          id: `m${id}-${epoch}-a${turn}`,
          role: 'assistant',
          source: 'generate',
          model: 'gpt-4.1-mini-2025-04-14',
          content: [
            { type: 'reasoning', reasoning: `Turn ${turn}: I need more evidence about city ${id}.`, redacted: false },
            { type: 'text', text: search ? 'Searching.' : 'Opening the best result.' },
          ],
          tool_calls: [
            {
              id: callId,
              function: search ? 'web_search' : 'fetch_url',
              arguments: search ? { query: `river city ${id} turn ${turn}` } : { url: `https://en.example.org/wiki/City_${id}` },
              type: 'function',
            },
          ],
        });
        messages.push({
          id: `m${id}-${epoch}-t${turn}`,
          role: 'tool',
          tool_call_id: callId,
          function: search ? 'web_search' : 'fetch_url',
          content: `${turn}: ${page}`,
        });
      }
      const final = { id: `m${id}-${epoch}-f`, role: 'assistant', source: 'generate', content: `ANSWER: River ${id}` };
      messages.push(final);
      records.push({
        id,
        epoch,
        input: question,
        target: `River ${id}`,
        messages,
        output: { model: 'gpt-4.1-mini-2025-04-14', choices: [{ message: final, stop_reason: 'stop' }], completion: final.content },
        scores: { match: { value: (id + epoch) % 3 === 0 ? 'I' : 'C', answer: `River ${id}`, explanation: 'exact match' } },
        metadata: { city: id },
        store: {},
        events: [],
        model_usage: { 'openai/gpt-4.1-mini': { input_tokens: 9000, output_tokens: 300, total_tokens: 9300 } },
        total_time: 12.5,
        working_time: 11.9,
        attachments: {},
      });
    }
  }
  return JSON.stringify({
    version: 2,
    status: 'success',
    eval: {
      eval_id: 'benchEval',
      run_id: 'benchRun',
      created: '2026-11-30T10:00:00+00:00',
      task: 'web_research',
      task_id: 'benchTask',
      task_version: 0,
      dataset: { name: 'bench_web_qa', samples, shuffled: false },
      model: 'openai/gpt-4.1-mini',
      config: { epochs },
    },
    plan: { name: 'plan', steps: [{ solver: 'generate', params: {} }], config: {} },
    results: { total_samples: samples * epochs, completed_samples: samples * epochs, scores: [] },
    stats: { started_at: '2026-11-30T10:00:00+00:00', completed_at: '2026-11-30T10:30:00+00:00', model_usage: {} },
    samples: records,
  });
}
