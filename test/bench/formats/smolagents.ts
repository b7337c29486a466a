// Large smolagents memory dump for bench:load: a step list with many ActionSteps (CodeAgent style).
export function makeLarge(actions = 8000): string {
  const steps: unknown[] = [
    { system_prompt: 'You are an expert assistant who can solve any task using code blobs. '.repeat(20) },
    { task: 'Sum the populations of the generated cities.', task_images: null },
  ];
  for (let i = 1; i <= actions; i++) {
    const code = `page = visit_webpage(url="https://example.org/city/${i}")\nprint(page[:500])`;
    steps.push({
      step_number: i,
      timing: { start_time: 1733050000 + i, end_time: 1733050000.5 + i, duration: 0.5 },
      model_input_messages: null,
      tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'python_interpreter', arguments: code } }],
      error: null,
      model_output: `Thought: open city ${i}.\nCode:\n\`\`\`py\n${code}\n\`\`\`<end_code>`,
      observations: `Execution logs:\nCity ${i} has a population of ${1000 + i}. ` + 'Page text. '.repeat(80),
      action_output: null,
      token_usage: { input_tokens: 3000, output_tokens: 40, total_tokens: 3040 },
      is_final_answer: i === actions,
    });
  }
  steps.push({ output: actions });
  return JSON.stringify(steps, null, 1);
}
