// The Inspect reader checks samples by hand and leaves zod for a bad one's message: whatever zod
// rejects must still be rejected with zod's message and path, and a good sample must read the same.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectSampleSchema } from '../../../src/core/formats/inspect';
import { loadText } from '../../../src/core/load/loadFile';

const LOG = join(__dirname, '..', '..', 'fixtures', 'formats', 'inspect', 'web-research-2x2.json');

type Obj = Record<string, any>;

/** Mutations of sample 1 (each a bad or an odd-but-good value somewhere zod looks). */
const MUTATIONS: [string, (sample: Obj) => void][] = [
  ['id as an object', (s) => (s.id = { n: 1 })],
  ['id missing', (s) => delete s.id],
  ['epoch 1.5', (s) => (s.epoch = 1.5)],
  ['epoch as a string', (s) => (s.epoch = '1')],
  ['input as a number', (s) => (s.input = 3)],
  ['target as a list with a number', (s) => (s.target = ['a', 2])],
  ['target null', (s) => (s.target = null)],
  ['messages as an object', (s) => (s.messages = {})],
  ['a role outside the enum', (s) => (s.messages[1].role = 'developer')],
  ['content as a number', (s) => (s.messages[1].content = 7)],
  ['a content part without type', (s) => (s.messages[1].content = [{ text: 'x' }])],
  [
    'a content part list that is fine',
    (s) =>
      (s.messages[1].content = [
        { type: 'text', text: 'x' },
        { type: 'image', image: 'y' },
      ]),
  ],
  ['tool_calls as an object', (s) => (s.messages[2].tool_calls = {})],
  ['a tool call without function', (s) => (s.messages[2].tool_calls = [{ id: 'c', arguments: {} }])],
  ['a tool call id as a number', (s) => (s.messages[2].tool_calls = [{ id: 3, function: 'f', arguments: {} }])],
  ['tool_call_id as a list of strings', (s) => (s.messages[3].tool_call_id = ['a', 'b'])],
  ['tool_call_id as a number', (s) => (s.messages[3].tool_call_id = 4)],
  ['error as a string', (s) => (s.messages[3].error = 'boom')],
  ['error with a null type', (s) => (s.messages[3].error = { type: null, message: 'm' })],
  ['error that is fine', (s) => (s.messages[3].error = { type: 'timeout', message: 'took too long' })],
  ['model as a number', (s) => (s.messages[2].model = 5)],
  ['output as a string', (s) => (s.output = 'x')],
  ['output.completion as a number', (s) => (s.output = { model: 'm', completion: 1 })],
  ['scores as a list', (s) => (s.scores = [1])],
  ['a score as a string', (s) => (s.scores = { match: 'C' })],
  ['a score without value', (s) => (s.scores = { match: { answer: 'x' } })],
  ['a score answer as a number', (s) => (s.scores = { match: { value: 'C', answer: 1 } })],
  ['metadata as a list', (s) => (s.metadata = [])],
  ['attachments with a number', (s) => (s.attachments = { a: 1 })],
];

describe('inspect: the hand check of a sample agrees with zod', () => {
  const log = JSON.parse(readFileSync(LOG, 'utf8')) as Obj;
  for (const [what, mutate] of MUTATIONS) {
    it(what, () => {
      const broken = structuredClone(log);
      mutate(broken.samples[1]);
      const zod = inspectSampleSchema.safeParse(broken.samples[1]);
      const loaded = loadText(JSON.stringify(broken, null, 2), 'log.json');
      if (zod.success) {
        assert.deepEqual(loaded.problems, [], 'zod accepts it, so the reader reads it');
        assert.equal(loaded.records.length, 4);
        return;
      }
      assert.equal(loaded.problems.length, 1, 'zod rejects it, so the reader reports it');
      const issue = zod.error.issues[0];
      assert.equal(loaded.problems[0].path, '$.samples[1]' + issue.path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join(''));
      assert.ok(loaded.problems[0].line && loaded.problems[0].line > 1, 'with its line');
    });
  }
});
