// Large SWE-agent .traj for bench:load and the coding-agent reader tests: a function-calling run
// (SWE-agent ≥ 1.0) whose `history` holds the system prompt, the issue, and per step an assistant
// action with `tool_calls` and the tool observation; `trajectory` repeats the steps, as in real files.
const TOOLS = ['bash', 'str_replace_editor'] as const;

/** Messages of a generated history with `steps` steps: system, issue, 2 per step. */
export function generatedMessageCount(steps: number): number {
  return 2 + steps * 2;
}

export function makeLarge(steps = 3000): string {
  const issue = 'The parser drops the last field of every record.';
  const history: unknown[] = [
    {
      role: 'system',
      content: 'You are a helpful assistant that can interact with a computer to solve tasks. '.repeat(20),
      agent: 'main',
      message_type: 'system_prompt',
    },
    { role: 'user', content: [{ type: 'text', text: `<pr_description>\n${issue}\n</pr_description>` }], agent: 'main', message_type: 'observation' },
  ];
  const trajectory: unknown[] = [];
  for (let step = 0; step < steps; step++) {
    const name = TOOLS[step % TOOLS.length];
    const args = name === 'bash' ? { command: `grep -rn "field_${step}" /testbed/src` } : { command: 'view', path: `/testbed/src/module_${step}.py` };
    const id = `call_${step}`;
    const thought = `Step ${step}: look at field ${step} and how the parser splits it.`;
    const observation = `/testbed/src/module_${step}.py:${step}:    fields = line.split(",")[:-1]\n`.repeat(20);
    history.push({
      role: 'assistant',
      content: thought,
      thought,
      action: `${name} ${Object.values(args).join(' ')}`,
      agent: 'main',
      tool_calls: [{ function: { name, arguments: JSON.stringify(args) }, id, type: 'function' }],
      message_type: 'action',
    });
    history.push({ role: 'tool', content: [{ type: 'text', text: observation }], agent: 'main', message_type: 'observation', tool_call_ids: [id] });
    trajectory.push({
      action: `${name} ${Object.values(args).join(' ')}`,
      observation,
      response: thought,
      thought,
      execution_time: 0.2,
      state: { working_dir: '/testbed' },
      query: [],
      extra_info: {},
    });
  }
  const submission = 'diff --git a/src/parser.py b/src/parser.py\n-    return fields[:-1]\n+    return fields\n';
  return JSON.stringify(
    {
      trajectory,
      history,
      info: {
        swe_agent_version: '1.1.0',
        submission,
        exit_status: 'submitted',
        model_stats: { instance_cost: 1.2, tokens_sent: 900000, tokens_received: 40000, api_calls: steps },
      },
      replay_config: JSON.stringify({ problem_statement: { text: issue, id: 'generated-1', type: 'text' } }),
      environment: 'main',
    },
    null,
    2,
  );
}
