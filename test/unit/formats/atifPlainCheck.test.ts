// The ATIF reader checks well-formed steps by hand and runs zod only on a bad one (issue 15 item 6):
// every shape the schema refuses must still be refused, with zod's path, even in the last step.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../src/core/input/inputError';
import { loadText } from '../../../src/core/load/loadFile';

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'formats', 'atif', 'danube-v1.0.json');

type Step = Record<string, unknown>;

const BREAKAGES: [string, (step: Step) => void, RegExp][] = [
  ['a fractional step_id', (s) => (s.step_id = 1.5), /\.step_id/],
  ['an unknown source', (s) => (s.source = 'assistant'), /\.source/],
  ['a numeric message', (s) => (s.message = 7), /\.message/],
  ['a content item without type', (s) => (s.message = [{ text: 'x' }]), /\.message/],
  ['a tool call without function_name', (s) => (s.tool_calls = [{ tool_call_id: 'c9' }]), /\.tool_calls\[0\]\.function_name/],
  ['observation.results not a list', (s) => (s.observation = { results: 'none' }), /\.observation\.results/],
  ['a numeric source_call_id', (s) => (s.observation = { results: [{ source_call_id: 3 }] }), /\.observation\.results\[0\]\.source_call_id/],
  ['metrics as a list', (s) => (s.metrics = [1]), /\.metrics/],
  ['a numeric timestamp', (s) => (s.timestamp = 5), /\.timestamp/],
];

describe('ATIF plain check agrees with the schema on bad steps', () => {
  for (const [what, breakStep, path] of BREAKAGES) {
    it(`the last step with ${what} gets the schema error at its path`, () => {
      const value = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { steps: Step[] };
      const last = value.steps.length - 1;
      breakStep(value.steps[last]);
      assert.throws(
        () => loadText(JSON.stringify(value, null, 2), 'bad.json'),
        (e: unknown) =>
          e instanceof InputError &&
          new RegExp(`^bad\\.json:\\d+:\\d+: at \\$\\.steps\\[${last}\\]${path.source}`).test(e.message) &&
          !e.message.includes('\n'),
      );
    });
  }

  it('a bad agent or final_metrics at the top level gets the schema error too', () => {
    const value = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, unknown>;
    assert.throws(() => loadText(JSON.stringify({ ...value, agent: { name: 3 } }), 'bad.json'), /at \$\.agent\.name/);
    assert.throws(() => loadText(JSON.stringify({ ...value, final_metrics: 'x' }), 'bad.json'), /at \$\.final_metrics/);
  });
});
