// The τ-bench reader checks messages by hand and leaves zod for a bad one's message: whatever zod
// rejects must still be rejected at zod's path, and what zod accepts must still be read.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { openAiMessagesSchema } from '../../../src/core/formats/openaiChat';
import { tau2Message } from '../../../src/core/formats/tauBench';
import { loadText } from '../../../src/core/load/loadFile';

const DIR = join(__dirname, '..', '..', 'fixtures', 'formats', 'tau-bench');
type Obj = Record<string, any>;

const TAU_MUTATIONS: [string, (traj: Obj[]) => void][] = [
  ['a role outside the enum', (t) => (t[1].role = 'human')],
  ['a developer message', (t) => (t[0].role = 'developer')],
  ['content as a number', (t) => (t[1].content = 3)],
  ['content parts, one without text', (t) => (t[1].content = ['a', { type: 'image_url' }])],
  ['a content part with a numeric text', (t) => (t[1].content = [{ type: 'text', text: 4 }])],
  ['a content part that is null', (t) => (t[1].content = [null])],
  ['tool_calls as an object', (t) => (t[2].tool_calls = {})],
  ['a tool call without function', (t) => (t[2].tool_calls = [{ id: 'c', type: 'function' }])],
  ['a tool call name as a number', (t) => (t[2].tool_calls = [{ id: 'c', function: { name: 1 } }])],
  ['a tool call type null', (t) => (t[2].tool_calls = [{ id: 'c', type: null, function: { name: 'f', arguments: '{}' } }])],
  ['function_call without name', (t) => (t[2].function_call = { arguments: '{}' })],
  ['function_call that is fine', (t) => (t[2].function_call = { name: 'f', arguments: '{}' })],
  ['tool_call_id as a number', (t) => (t[5].tool_call_id = 5)],
  ['name as an object', (t) => (t[5].name = {})],
  ['reasoning as a number', (t) => (t[2].reasoning = 1)],
  ['a message that is a string', (t) => (t[3] = 'hello' as unknown as Obj)],
];

const TAU2_MUTATIONS: [string, (messages: Obj[]) => void][] = [
  ['a role outside the enum', (m) => (m[1].role = 'developer')],
  ['content as a list', (m) => (m[1].content = ['x'])],
  ['content null', (m) => (m[1].content = null)],
  ['tool_calls as an object', (m) => (m[0].tool_calls = {})],
  ['a tool call without name', (m) => (m[0].tool_calls = [{ id: 'c', arguments: {} }])],
  ['a tool call requestor as a number', (m) => (m[0].tool_calls = [{ id: 'c', name: 'f', requestor: 2 }])],
  ['error as a string', (m) => (m[3].error = 'yes')],
  ['turn_idx as a string', (m) => (m[1].turn_idx = '1')],
  ['id as a number', (m) => (m[3].id = 9)],
  ['requestor null', (m) => (m[3].requestor = null)],
];

const jsonPath = (path: PropertyKey[]) => path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('');

function check(text: string, schema: z.ZodType, list: unknown, expectedPrefix: string, records: number): void {
  const zod = schema.safeParse(list);
  const loaded = loadText(text, 'results.json');
  if (zod.success) {
    assert.deepEqual(loaded.problems, [], 'zod accepts it, so the reader reads it');
    assert.equal(loaded.records.length, records);
    return;
  }
  assert.equal(loaded.problems.length, 1, 'zod rejects it, so the reader reports it');
  assert.equal(loaded.problems[0].path, expectedPrefix + jsonPath(zod.error.issues[0].path));
}

describe('tau-bench: the hand check of messages agrees with zod', () => {
  const tau = JSON.parse(readFileSync(join(DIR, 'retail-results.json'), 'utf8')) as Obj[];
  for (const [what, mutate] of TAU_MUTATIONS)
    it(`τ-bench traj: ${what}`, () => {
      const broken = structuredClone(tau);
      mutate(broken[1].traj);
      check(JSON.stringify(broken, null, 2), openAiMessagesSchema, broken[1].traj, '$[1].traj', 2);
    });

  const tau2 = JSON.parse(readFileSync(join(DIR, 'tau2-results.json'), 'utf8')) as Obj;
  for (const [what, mutate] of TAU2_MUTATIONS)
    it(`τ²-bench messages: ${what}`, () => {
      const broken = structuredClone(tau2);
      mutate(broken.simulations[1].messages);
      check(JSON.stringify(broken, null, 2), z.array(tau2Message), broken.simulations[1].messages, '$.simulations[1].messages', 2);
    });
});
