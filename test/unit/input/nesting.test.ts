// The happy-path nesting check (issue 15 item 6) draws the line exactly where tooDeepPath does.
import assert from 'node:assert/strict';
import { MAX_JSON_DEPTH, tooDeepPath } from '../../../src/core/input/jsonDepth';
import { nestsDeeperThan, parseJson } from '../../../src/core/input/jsonText';
import { loadText } from '../../../src/core/load/loadFile';

function nested(levels: number, asObject: boolean): string {
  return asObject ? '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1) : '['.repeat(levels) + ']'.repeat(levels);
}

describe('nestsDeeperThan', () => {
  for (const asObject of [false, true]) {
    const kind = asObject ? 'objects' : 'arrays';
    it(`${kind}: ${MAX_JSON_DEPTH} levels pass and ${MAX_JSON_DEPTH + 1} are refused, as tooDeepPath says`, () => {
      for (const levels of [1, MAX_JSON_DEPTH - 1, MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1, MAX_JSON_DEPTH + 50]) {
        const value: unknown = JSON.parse(nested(levels, asObject));
        assert.equal(nestsDeeperThan(value), tooDeepPath(value) !== undefined, `${levels} levels`);
        assert.equal(nestsDeeperThan(value), levels > MAX_JSON_DEPTH, `${levels} levels`);
      }
    });
  }

  it('finds a deep branch after shallow siblings, and parseJson still names where', () => {
    const text = `{"ok":[1,2,{"b":null}],"deep":${nested(MAX_JSON_DEPTH, false)}}`;
    assert.equal(nestsDeeperThan(JSON.parse(text)), true);
    assert.throws(() => parseJson(text, 'deep.json'), /deep\.json:1:\d+: at \$\.deep\[0\].*nested deeper than 512 levels/);
  });

  it('scalars and empty containers never nest too deep', () => {
    for (const value of [null, 0, 'x', true, [], {}]) assert.equal(nestsDeeperThan(value), false);
  });
});

describe('JSONL lines too short to nest too deep are not walked (issue 15 item 6)', () => {
  // The shortest line nested one level too deep: MAX_JSON_DEPTH + 1 brackets opened and closed.
  const shortestTooDeep = nested(MAX_JSON_DEPTH + 1, false);
  const first = JSON.stringify({ messages: [{ role: 'user', content: 'q' }] });

  it('the shortest too-deep line is still refused, naming its line', () => {
    assert.equal(shortestTooDeep.length, 2 * (MAX_JSON_DEPTH + 1));
    for (const line of [shortestTooDeep, nested(MAX_JSON_DEPTH + 1, true), ` ${shortestTooDeep} `]) {
      const loaded = loadText(`${first}\n${line}\n`, 'deep.jsonl');
      assert.equal(loaded.records.length, 1);
      assert.equal(loaded.problems.length, 1);
      assert.match(loaded.problems[0].message, /nested deeper than 512 levels/);
      assert.equal(loaded.problems[0].line, 2);
    }
  });

  it('a line one level shallower passes the nesting check, and a short bad line keeps its line:column', () => {
    const loaded = loadText(`${first}\n{"messages": ${nested(MAX_JSON_DEPTH - 1, false)}}\n{"messages": [}\n`, 'lines.jsonl');
    assert.ok(
      loaded.problems.every((p) => !/nested deeper/.test(p.message)),
      JSON.stringify(loaded.problems),
    );
    const syntax = loaded.problems.find((p) => p.line === 3);
    assert.ok(syntax, JSON.stringify(loaded.problems));
    assert.match(syntax.message, /invalid JSON/);
    assert.equal(syntax.column, 15);
  });
});
