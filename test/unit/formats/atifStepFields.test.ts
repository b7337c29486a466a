// The per-step fields the ATIF reader gathers in its one pass over the steps (issue 15 item 6):
// step metrics by position, the model of the first step naming one, and the three kinds of
// system step (a tool return, an observation without a call, a plain system message).
import assert from 'node:assert/strict';
import type { Trajectory } from '../../../src/core/model/trajectory';
import { onlyTrajectory } from '../helpers';

function atif(steps: unknown[], agent: Record<string, unknown> = { name: 'a', version: '1' }): Trajectory {
  return onlyTrajectory(JSON.stringify({ schema_version: 'ATIF-v1.6', session_id: 's', agent, steps }), 'steps.json');
}

describe('ATIF step fields read in one pass', () => {
  it('step metrics are listed by position (null for a step without), and absent when no step has any', () => {
    const steps = [
      { step_id: 1, source: 'user', message: 'Q?' },
      { step_id: 2, source: 'agent', message: 'A.', metrics: { prompt_tokens: 10 } },
      { step_id: 3, source: 'agent', message: 'B.' },
    ];
    assert.deepEqual(atif(steps).metadata.step_metrics, [null, { prompt_tokens: 10 }, null]);
    assert.equal(atif(steps.map(({ metrics: _metrics, ...rest }: Record<string, unknown>) => rest)).metadata.step_metrics, undefined);
  });

  it('the model is the agent’s, else the first step that names one', () => {
    const steps = [
      { step_id: 1, source: 'user', message: 'Q?' },
      { step_id: 2, source: 'agent', message: 'A.' },
      { step_id: 3, source: 'agent', model_name: 'm-first', message: 'B.' },
      { step_id: 4, source: 'agent', model_name: 'm-second', message: 'C.' },
    ];
    assert.equal(atif(steps).metadata.model, 'm-first');
    assert.equal(atif(steps, { name: 'a', version: '1', model_name: 'm-agent' }).metadata.model, 'm-agent');
    assert.equal(atif(steps.slice(0, 2)).metadata.model, undefined);
  });

  it('a system step of results answering calls is a tool return; of results without calls, a system message kept as an observation', () => {
    const t = atif([
      { step_id: 1, source: 'user', message: 'Q?' },
      { step_id: 2, source: 'agent', message: 'Go.', tool_calls: [{ tool_call_id: 'c1', function_name: 'web_search', arguments: { query: 'q' } }] },
      { step_id: 3, source: 'system', message: '', observation: { results: [{ source_call_id: 'c1', content: 'r1' }, { content: 'r2' }] } },
      { step_id: 4, source: 'system', message: '', observation: { results: [{ content: 'compacted' }, { content: 'again' }] } },
      { step_id: 5, source: 'system', message: 'Reset.' },
    ]);
    assert.deepEqual(
      t.messages.slice(2).map((m) => [m.role, m.content, m.toolCallId]),
      [
        ['tool', 'r1\n\nr2', 'c1'],
        ['system', 'compacted\n\nagain', undefined],
        ['system', 'Reset.', undefined],
      ],
    );
    assert.deepEqual(Object.keys(t.metadata.atif_observations as object), ['3']);
  });
});
