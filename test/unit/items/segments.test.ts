import assert from 'node:assert/strict';
import { searchRanges, segmentsOf } from '../../../webview/src/items/segments';

describe('item view: highlight segments', () => {
  it('splits text at range boundaries and concatenates back to the text', () => {
    const text = 'Equity returned 21.3 percent, fixed income 6.1 percent.';
    const segs = segmentsOf(text, [{ start: 16, end: 28, span: 0 }]);
    assert.deepEqual(
      segs.map((s) => [s.text, s.spans]),
      [
        ['Equity returned ', []],
        ['21.3 percent', [0]],
        [', fixed income 6.1 percent.', []],
      ],
    );
    assert.equal(segs.map((s) => s.text).join(''), text);
  });

  it('gives overlapping ranges runs covered by both spans', () => {
    const segs = segmentsOf('abcdefghij', [
      { start: 2, end: 6, span: 1 },
      { start: 4, end: 8, span: 0 },
    ]);
    assert.deepEqual(
      segs.map((s) => [s.text, s.spans]),
      [
        ['ab', []],
        ['cd', [1]],
        ['ef', [0, 1]],
        ['gh', [0]],
        ['ij', []],
      ],
    );
  });

  it('ignores empty, reversed and out-of-range ranges and clamps the rest', () => {
    const segs = segmentsOf('hello', [
      { start: 3, end: 3, span: 0 },
      { start: 4, end: 2, span: 1 },
      { start: -5, end: 2, span: 2 },
      { start: 4, end: 99, span: 3 },
    ]);
    assert.deepEqual(
      segs.map((s) => [s.text, s.spans]),
      [
        ['he', [2]],
        ['ll', []],
        ['o', [3]],
      ],
    );
    assert.deepEqual(segmentsOf('', [{ start: 0, end: 3, span: 0 }]), []);
    assert.deepEqual(segmentsOf('plain', []), [{ start: 0, end: 5, text: 'plain', spans: [] }]);
  });

  it('merges adjacent runs with the same spans and never cuts a surrogate pair', () => {
    assert.deepEqual(
      segmentsOf('abcd', [
        { start: 0, end: 2, span: 0 },
        { start: 2, end: 4, span: 0 },
      ]).map((s) => s.text),
      ['abcd'],
    );
    const text = 'x😀y';
    const segs = segmentsOf(text, [{ start: 2, end: 4, span: 0 }]); // 2 is inside the pair
    assert.equal(segs.map((s) => s.text).join(''), text);
    for (const s of segs) assert.ok(!/[\uD800-\uDBFF]$/.test(s.text), `run "${s.text}" ends inside a surrogate pair`);
  });

  it('keeps markup-looking content as plain text runs', () => {
    const text = '<img src=x onerror="alert(1)"> golden';
    const segs = segmentsOf(text, [{ start: 31, end: 37, span: 0 }]);
    assert.equal(segs[0].text, '<img src=x onerror="alert(1)"> ');
    assert.equal(segs[1].text, 'golden');
  });

  it('finds search matches case-insensitively', () => {
    assert.deepEqual(searchRanges('Tungsten and tungsten', 'TUNG'), [
      { start: 0, end: 4, span: 0 },
      { start: 13, end: 17, span: 0 },
    ]);
    assert.deepEqual(searchRanges('abc', ''), []);
    assert.deepEqual(searchRanges('Abc', 'A', true), [{ start: 0, end: 1, span: 0 }]);
  });
});
