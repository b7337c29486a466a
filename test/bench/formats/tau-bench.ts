// Large τ-bench results.json for bench:load: an array of {task_id, reward, info, traj, trial}
// records, one per task × trial, each a retail conversation with tool calls and returns.
export function makeLarge(tasks = 1500, trials = 2): string {
  const records: unknown[] = [];
  for (let task = 0; task < tasks; task++) {
    for (let trial = 0; trial < trials; trial++) {
      const traj: unknown[] = [
        { role: 'system', content: '# Retail agent policy\n' + 'Authenticate the user, then help with orders. '.repeat(40) },
        { role: 'user', content: `Hi, I want to return the items of order #W${task}.` },
      ];
      for (let turn = 0; turn < 4; turn++) {
        const id = `call_${task}_${trial}_${turn}`;
        traj.push({
          content: null,
          role: 'assistant',
          tool_calls: [{ function: { arguments: JSON.stringify({ order_id: `#W${task}` }), name: 'get_order_details' }, id, type: 'function' }],
          function_call: null,
        });
        traj.push({
          role: 'tool',
          tool_call_id: id,
          name: 'get_order_details',
          content: JSON.stringify({
            order_id: `#W${task}`,
            status: 'delivered',
            items: Array.from({ length: 8 }, (_, i) => ({ name: `Item ${i}`, price: 10 + i })),
          }),
        });
        traj.push({
          content: `Turn ${turn}: I found your order. Which items would you like to return?`,
          role: 'assistant',
          tool_calls: null,
          function_call: null,
        });
        traj.push({ role: 'user', content: turn === 3 ? '###STOP###' : 'All of them, to my card.' });
      }
      const reward = (task + trial) % 3 === 0 ? 1 : 0;
      records.push({
        task_id: task,
        reward,
        info: { task: { user_id: `user_${task}`, actions: [], instruction: `Return order #W${task}.`, outputs: [] }, reward_info: { reward, info: {} } },
        traj,
        trial,
      });
    }
  }
  return JSON.stringify(records, null, 2);
}
