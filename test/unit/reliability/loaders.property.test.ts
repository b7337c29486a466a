import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { InputError } from '../../../src/core/input/inputError';
import { decodeText } from '../../../src/core/input/readText';
import { loadText } from '../../../src/core/load/loadFile';

const samples = join(__dirname, '..', '..', '..', 'samples');
const seeds = [
  'trajectories/openai-chat',
  'trajectories/anthropic',
  'trajectories/tongyi',
  'trajectories/searchauditbench',
  'trajectories/who-and-when',
  'items/delegation',
  'items/clarify',
  'items/deepsearchqa',
]
  .flatMap((dir) =>
    readdirSync(join(samples, dir))
      .filter((f) => /\.(json|jsonl|csv)$/.test(f) && !f.endsWith('.audit.json'))
      .map((f) => readFileSync(join(samples, dir, f), 'utf8')),
  )
  .map((text) => (text.length > 40_000 ? text.slice(0, 40_000) : text));

/** Loading either succeeds or fails with a one-line InputError naming the file — never anything else, never slowly. */
function checkOutcome(text: string): void {
  const started = Date.now();
  try {
    loadText(text, 'fuzz.json');
  } catch (error) {
    assert.ok(error instanceof InputError, `unexpected ${(error as Error)?.constructor?.name}: ${(error as Error)?.message}`);
    assert.ok(error.message.startsWith('fuzz.json'), error.message);
    assert.ok(!error.message.includes('\n'), 'one line');
    assert.ok(error.message.length < 2000, 'a readable message');
  }
  assert.ok(Date.now() - started < 2000, 'no hang');
}

describe('loaders on thousands of random and mutated inputs (property-based)', function () {
  this.timeout(120_000);

  it('random JSON values', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 6 }), (json) => checkOutcome(json)),
      { numRuns: 2000, seed: 1 },
    );
  });

  it('random message-shaped objects with wrong types at depth', () => {
    const anyValue = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.boolean(),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { maxKeys: 3 }),
    );
    const message = fc.record(
      {
        role: fc.oneof(fc.constantFrom('system', 'user', 'assistant', 'tool', 'function', 'human'), anyValue),
        content: anyValue,
        tool_calls: fc.option(fc.array(fc.record({ id: anyValue, function: fc.record({ name: anyValue, arguments: anyValue }) }), { maxLength: 2 })),
        reasoning_content: fc.option(anyValue),
      },
      { requiredKeys: ['role'] },
    );
    const container = fc.oneof(
      fc.array(message, { maxLength: 8 }),
      fc.record({ messages: fc.array(message, { maxLength: 8 }), question: fc.option(fc.string()), termination: fc.option(fc.string()) }),
      fc.record({ trajectory: fc.array(message, { maxLength: 8 }), query: anyValue, critical_step: fc.option(anyValue), root_cause: fc.option(anyValue) }),
      fc.record({
        history: fc.array(fc.record({ content: anyValue, role: anyValue, name: fc.option(anyValue) }), { maxLength: 6 }),
        mistake_step: fc.option(anyValue),
      }),
    );
    fc.assert(
      fc.property(container, (value) => checkOutcome(JSON.stringify(value))),
      { numRuns: 3000, seed: 2 },
    );
  });

  it('mutated real samples: truncation, byte flips, insertions, line drops', () => {
    const mutation = fc.record({
      seed: fc.nat(seeds.length - 1),
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
      kind: fc.constantFrom('truncate', 'flip', 'insert', 'drop-line', 'duplicate-line'),
      char: fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '\\', '\n', '\u0000', 'x', '0'),
    });
    fc.assert(
      fc.property(mutation, ({ seed, cut, kind, char }) => {
        const text = seeds[seed];
        const at = Math.floor(cut * text.length);
        let mutated = text;
        if (kind === 'truncate') mutated = text.slice(0, at);
        else if (kind === 'flip') mutated = text.slice(0, at) + char + text.slice(at + 1);
        else if (kind === 'insert') mutated = text.slice(0, at) + char + text.slice(at);
        else {
          const lines = text.split('\n');
          const i = Math.floor(cut * lines.length);
          mutated = (kind === 'drop-line' ? [...lines.slice(0, i), ...lines.slice(i + 1)] : [...lines.slice(0, i + 1), ...lines.slice(i)]).join('\n');
        }
        if (mutated.trim() === '') return;
        checkOutcome(mutated);
      }),
      { numRuns: 3000, seed: 3 },
    );
  });

  it('random bytes are refused as binary or non-UTF-8 with a clear message', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 400 }), (bytes) => {
        try {
          checkOutcome(decodeText(bytes, 'fuzz.json'));
        } catch (error) {
          assert.ok(error instanceof InputError && error.message.startsWith('fuzz.json'), String(error));
        }
      }),
      { numRuns: 2000, seed: 4 },
    );
  });
});
