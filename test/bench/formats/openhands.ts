// Large OpenHands files for bench:load and the coding-agent reader tests: an evaluation
// output.jsonl (one SWE-bench-style instance per line, `history` an event list) and one long
// event stream. Each step is a run/read/edit action with `tool_call_metadata` and the observation
// whose `cause` is the action's id; each history starts with the system prompt, the user's task,
// the recall pair and a state change, and ends with finish and a state change.
const ACTIONS = ['run', 'read', 'edit'] as const;

function events(instance: number, steps: number): unknown[] {
  const task = `Fix issue ${instance}: the parser drops the last field of a record.`;
  const list: unknown[] = [
    {
      id: 0,
      timestamp: '2025-01-14T10:00:00',
      source: 'agent',
      message: 'You are OpenHands agent.',
      action: 'system',
      args: { content: 'You are OpenHands agent, a helpful AI assistant. '.repeat(30), tools: [], openhands_version: '0.28.1', agent_class: 'CodeActAgent' },
    },
    {
      id: 1,
      timestamp: '2025-01-14T10:00:01',
      source: 'user',
      message: task,
      action: 'message',
      args: { content: task, image_urls: null, wait_for_response: false },
    },
    {
      id: 2,
      timestamp: '2025-01-14T10:00:02',
      source: 'user',
      message: 'Retrieving content for: Fix',
      action: 'recall',
      args: { recall_type: 'workspace_context', query: task, thought: '' },
    },
    {
      id: 3,
      timestamp: '2025-01-14T10:00:03',
      source: 'environment',
      message: 'Added workspace context',
      cause: 2,
      observation: 'recall',
      content: 'Added workspace context',
      extras: { recall_type: 'workspace_context' },
    },
    {
      id: 4,
      timestamp: '2025-01-14T10:00:04',
      source: 'environment',
      message: '',
      observation: 'agent_state_changed',
      content: '',
      extras: { agent_state: 'running', reason: '' },
    },
  ];
  for (let step = 0; step < steps; step++) {
    const id = 5 + step * 2;
    const kind = ACTIONS[step % ACTIONS.length];
    const callId = `toolu_${instance}_${step}`;
    const args =
      kind === 'run'
        ? { command: `grep -rn "field_${step}" src/ | head -20`, is_input: false, thought: `Step ${step}: search for field_${step}.`, blocking: false }
        : kind === 'read'
          ? {
              path: `/workspace/repo/src/module_${step}.py`,
              start: 0,
              end: -1,
              thought: `Step ${step}: read module ${step}.`,
              impl_source: 'oh_aci',
              view_range: null,
            }
          : {
              path: `/workspace/repo/src/module_${step}.py`,
              command: 'str_replace',
              old_str: `return fields[:-1]`,
              new_str: `return fields`,
              thought: `Step ${step}: keep the last field.`,
              impl_source: 'oh_aci',
            };
    const metadata = {
      function_name: kind === 'run' ? 'execute_bash' : 'str_replace_editor',
      tool_call_id: callId,
      model_response: { id: `chatcmpl-${callId}`, choices: [], model: 'claude-3-5-sonnet-20241022' },
      total_calls_in_response: 1,
    };
    list.push({ id, timestamp: '2025-01-14T10:01:00', source: 'agent', message: `${kind} step ${step}`, action: kind, tool_call_metadata: metadata, args });
    list.push({
      id: id + 1,
      timestamp: '2025-01-14T10:01:01',
      source: 'agent',
      message: `observed step ${step}`,
      cause: id,
      observation: kind,
      tool_call_metadata: metadata,
      content: `src/module_${step}.py:${step + 10}:    fields = line.split(",")  # field_${step}\n`.repeat(25),
      extras:
        kind === 'run'
          ? {
              command: (args as { command: string }).command,
              metadata: { exit_code: step % 7 === 6 ? 1 : 0, pid: -1, working_dir: '/workspace/repo' },
              hidden: false,
            }
          : { path: (args as { path: string }).path, impl_source: 'oh_aci' },
      ...(kind === 'run' ? { success: step % 7 !== 6 } : {}),
    });
  }
  const last = 5 + steps * 2;
  list.push({
    id: last,
    timestamp: '2025-01-14T10:09:00',
    source: 'agent',
    message: 'Done.',
    action: 'finish',
    tool_call_metadata: { function_name: 'finish', tool_call_id: `toolu_${instance}_finish`, model_response: {}, total_calls_in_response: 1 },
    args: { final_thought: `Instance ${instance}: the parser keeps the last field.`, task_completed: 'true', outputs: {}, thought: '' },
  });
  list.push({
    id: last + 1,
    timestamp: '2025-01-14T10:09:01',
    source: 'environment',
    message: '',
    observation: 'agent_state_changed',
    content: '',
    extras: { agent_state: 'finished', reason: '' },
  });
  return list;
}

/** Messages of one generated history with `steps` steps: 5 opening events, 2 per step, finish and a state change. */
export function generatedMessageCount(steps: number): number {
  return 5 + steps * 2 + 2;
}

/** output.jsonl: `instances` lines; instance i is resolved when i is even. */
export function makeLarge(instances = 400, steps = 40): string {
  const lines: string[] = [];
  for (let i = 0; i < instances; i++) {
    lines.push(
      JSON.stringify({
        instance_id: `repo__repo-${1000 + i}`,
        test_result: {
          git_patch: `diff --git a/src/module.py b/src/module.py\n-    return fields[:-1]\n+    return fields\n`,
          report: { resolved: i % 2 === 0, empty_generation: false },
        },
        instruction: `Fix issue ${i}: the parser drops the last field of a record.`,
        metadata: {
          agent_class: 'CodeActAgent',
          llm_config: { model: 'anthropic/claude-3-5-sonnet-20241022' },
          max_iterations: 100,
          dataset: 'generated',
          data_split: 'test',
        },
        history: events(i, steps),
        metrics: { accumulated_cost: 0.05 + i / 1000, accumulated_token_usage: { prompt_tokens: 20000 + i, completion_tokens: 400 } },
        error: null,
      }),
    );
  }
  return lines.join('\n') + '\n';
}

/** One event stream (a JSON array of events) with `steps` steps. */
export function makeLargeEventStream(steps = 2500): string {
  return JSON.stringify(events(0, steps), null, 2);
}
