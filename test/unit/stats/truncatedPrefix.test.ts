import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { truncate, truncatedPrefix } from '../../../src/core/stats/outline';

describe('truncatedPrefix', () => {
  it('equals truncate() on any text and length', () => {
    const piece = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(' ', '  ', '\n', '\t\r\n', '\u00a0', '\u3000', '\ufeff', 'word', '…', '日本語', '😀'));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 80 }), fc.integer({ min: 1, max: 60 }), (parts, max) => {
        const text = parts.join('');
        assert.equal(truncatedPrefix(text, max), truncate(text, max));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same preview for a long text with whitespace runs', () => {
    const long = `  Start   of\n\nthe text ${'x '.repeat(500_000)}`;
    for (const max of [1, 20, 200]) assert.equal(truncatedPrefix(long, max), truncate(long, max));
    assert.equal(truncatedPrefix(' \n\t ', 5), '');
  });
});
