// Large mini-swe-agent .traj.json for bench:load and the coding-agent reader tests: a v1 text-based
// run (`trajectory_format: "mini-swe-agent-1"`): system, task, then per step an assistant message
// with THOUGHT and one ```bash block and the `<returncode>` output as a user message; submitted.

/** Messages of a generated run with `steps` steps: system, task, 2 per step. */
export function generatedMessageCount(steps: number): number {
  return 2 + steps * 2;
}

export function makeLarge(steps = 3000): string {
  const messages: unknown[] = [
    {
      role: 'system',
      content: 'You are a helpful assistant that can interact with a computer.\n\nYour response must contain exactly ONE bash code block. '.repeat(10),
    },
    { role: 'user', content: '<pr_description>\nThe parser drops the last field of every record.\n</pr_description>' },
  ];
  for (let step = 0; step < steps; step++) {
    messages.push({ role: 'assistant', content: `THOUGHT: Step ${step}: look at field ${step}.\n\n\`\`\`bash\ngrep -rn "field_${step}" src/\n\`\`\`` });
    messages.push({
      role: 'user',
      content: `<returncode>0</returncode>\n<output>\n${`src/module_${step}.py:${step}:    fields = line.split(",")[:-1]\n`.repeat(20)}</output>`,
    });
  }
  const submission = 'diff --git a/src/parser.py b/src/parser.py\n-    return fields[:-1]\n+    return fields\n';
  return JSON.stringify(
    {
      info: {
        exit_status: 'Submitted',
        submission,
        model_stats: { instance_cost: 0.9, api_calls: steps },
        mini_version: '1.9.1',
        config: { agent: { step_limit: 0 }, model: { model_name: 'generated' } },
      },
      messages,
      trajectory_format: 'mini-swe-agent-1',
    },
    null,
    2,
  );
}
