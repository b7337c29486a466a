import assert from 'node:assert/strict';
import fc from 'fast-check';
import { duplicateKeys, firstSyntaxError, JsonLocator } from '../../../src/core/input/jsonScan';
import { locateJsonPath, locateSyntaxError } from '../../../src/core/input/jsonText';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('JSON scanner (syntax errors, value offsets, duplicate keys)', () => {
  it('agrees with JSON.parse on random and mutated JSON texts', () => {
    const mutated = fc
      .tuple(
        fc.json({ maxDepth: 5 }),
        fc.nat(),
        fc.constantFrom('', '{', '}', '[', ']', '"', ',', ':', '\\', '\n', '\u0001', 'x', '0', '-', '.', 'e', 'tru', ' '),
        fc.boolean(),
      )
      .map(([json, at, insert, replace]) => {
        const cut = json.length ? at % json.length : 0;
        return json.slice(0, cut) + insert + json.slice(cut + (replace ? 1 : 0));
      });
    fc.assert(
      fc.property(fc.oneof(fc.json({ maxDepth: 5 }), mutated, fc.string()), (text) => {
        assert.equal(firstSyntaxError(text) === undefined, parses(text), JSON.stringify(text));
      }),
      { numRuns: 5000, seed: 7 },
    );
  });

  it('names the first error and its offset', () => {
    assert.deepEqual(firstSyntaxError('{"a": 1,}'), { offset: 8, message: 'expected a property name in double quotes' });
    assert.deepEqual(firstSyntaxError('[1, 2'), { offset: 5, message: "expected ']' (is the file truncated?)" });
    assert.deepEqual(firstSyntaxError('{"a" 1}'), { offset: 5, message: "expected ':'" });
    assert.deepEqual(firstSyntaxError('{"a": "b\nc"}'), { offset: 8, message: 'invalid character in string (control characters must be escaped)' });
    assert.deepEqual(firstSyntaxError('[01]'), { offset: 2, message: 'invalid number' });
    assert.deepEqual(firstSyntaxError('{} {}'), { offset: 3, message: 'expected the end of the JSON text (several JSON documents? use one per line, JSONL)' });
    assert.equal(firstSyntaxError(' {"a": [true, false, null, -1.5e3, "\\u00e9\\n"]} '), undefined);
  });

  it('100,000-deep nesting: syntax errors and paths are found without exhausting the stack', () => {
    const depth = 100_000;
    const deep = `{"messages":${'['.repeat(depth)}${']'.repeat(depth)},}`;
    assert.deepEqual(locateSyntaxError(deep), { offset: deep.length - 1, message: 'invalid JSON: expected a property name in double quotes' });
    const valid = `{"messages":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const path = ['messages', ...Array.from({ length: depth - 1 }, () => 0)];
    assert.deepEqual(locateJsonPath(valid, path), { line: 1, column: 12 + depth });
  });

  it('locates values by path (keys with escapes, the last of duplicate keys, missing paths at their deepest ancestor)', () => {
    const text = '{\n  "a": [1, {"b\\"c": 2}],\n  "d": 1,\n  "d": {"e": 3}\n}';
    const locator = new JsonLocator(text);
    assert.deepEqual(locator.locate(['a', 1, 'b"c']), { line: 2, column: 21 });
    assert.deepEqual(locator.locate(['d', 'e']), { line: 4, column: 14 });
    assert.deepEqual(locator.locate(['a', 5]), { line: 2, column: 8 });
    assert.deepEqual(locator.locate([]), { line: 1, column: 1 });
  });

  it('finds keys repeated within one object, not across objects', () => {
    const text = '{"a": 1, "b": {"a": 2, "c": 1, "c": 2}, "a": 3, "list": [{"x": 1}, {"x": 2}]}';
    assert.deepEqual(duplicateKeys(text), [
      { key: 'c', offset: text.indexOf('"c": 2'), path: ['b'] },
      { key: 'a', offset: text.indexOf('"a": 3'), path: [] },
    ]);
  });

  it('locating 4,000 paths in a 1 MB text costs one scan, not one per path', () => {
    const messages = Array.from({ length: 4000 }, (_, i) => ({
      role: 'assistant',
      content: 'x'.repeat(200),
      tool_calls: [{ id: `c${i}`, function: { name: 'search', arguments: '{bad' } }],
    }));
    const text = JSON.stringify({ messages }, null, 1);
    const started = performance.now();
    locateJsonPath(text, ['messages', 0]);
    const first = performance.now() - started;
    const rest = performance.now();
    for (let i = 1; i < messages.length; i++) assert.ok(locateJsonPath(text, ['messages', i, 'tool_calls', 0]));
    const others = performance.now() - rest;
    // 3,999 lookups without a rescan cost far less than 3,999 scans would (about 4,000x the first).
    assert.ok(others < first * 200, `first ${first.toFixed(1)} ms, 3,999 more ${others.toFixed(1)} ms`);
  });
});
