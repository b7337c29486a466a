// Load speed (issue 15 item 6): the ATIF reader checks each step as it reads it (one pass over
// the steps, not a check of all of them first); a step the plain check refuses still gets zod's
// message.
import assert from 'node:assert/strict';
import { atifReader } from '../../../src/core/formats/atif';
import { InputError } from '../../../src/core/input/inputError';
import { loadText } from '../../../src/core/load/loadFile';
import { countingLateReads } from '../helpers';

function atifRun(agentSteps: number): { schema_version: string; session_id: string; steps: Record<string, unknown>[] } {
  const steps: Record<string, unknown>[] = [
    { step_id: 1, source: 'system', message: 'You are a research agent.' },
    { step_id: 2, source: 'user', message: 'Which river?' },
  ];
  for (let i = 0; i < agentSteps; i++)
    steps.push({
      step_id: steps.length + 1,
      source: 'agent',
      message: `Step ${i}.`,
      tool_calls: [{ tool_call_id: `c${i}`, function_name: 'web_search', arguments: { query: `q ${i}` } }],
      observation: { results: [{ source_call_id: `c${i}`, content: `result ${i}` }] },
    });
  steps.push({ step_id: steps.length + 1, source: 'agent', message: 'The Danube.' });
  return { schema_version: 'ATIF-v1.7', session_id: 's', steps };
}

describe('atif reader: one pass over the steps', () => {
  it('reads each late step twice: once read and checked, once to name the calls its results answer', () => {
    const run = atifRun(100);
    const { list, lateReads } = countingLateReads(run.steps, 10);
    const t = atifReader.load({ ...run, steps: list }, { file: 'run.json', text: '' }, '0');
    assert.equal(t.messages.length, 103);
    assert.equal(t.messages[2].content, 'Step 0.\n\n── observation (web_search c0) ──\nresult 0');
    // 92 agent steps with one result each (a read to name its call) and the last step.
    assert.equal(lateReads(), 2 * 92 + 1);
  });

  it('names a late bad step by its path, as zod reads it', () => {
    const run = atifRun(50);
    run.steps[40] = { ...run.steps[40], source: 'robot' };
    assert.throws(
      () => loadText(JSON.stringify(run, null, 1), 'run.json'),
      (error: unknown) =>
        error instanceof InputError &&
        !error.message.includes('\n') &&
        /run\.json:\d+:\d+: .*\$\.steps\[40\]\.source.*expected source "system", "user" or "agent"/.test(error.message),
    );
  });
});
