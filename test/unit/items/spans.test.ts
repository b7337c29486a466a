import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadFile } from '../../../src/core/load/loadFile';
import { findOccurrences, locateEvidence, parseSpan } from '../../../src/core/items/evidenceSpans';
import { fullItemView } from '../../../src/core/items/itemViews';

const samples = join(__dirname, '..', '..', '..', 'samples', 'items', 'delegation');

function item(name: string) {
  const r = loadFile(join(samples, name)).records[0];
  if (r.kind !== 'delegation-item') throw new Error('not an item');
  return r.item;
}

describe('item view: evidence spans', () => {
  it('reads the span shapes items use', () => {
    assert.deepEqual(parseSpan('plain text'), { text: 'plain text' });
    assert.deepEqual(parseSpan({ doc_id: 'd03', text: 'abc' }), { docId: 'd03', text: 'abc', start: undefined, end: undefined });
    assert.deepEqual(parseSpan({ doc: 7, quote: 'q', start: 1, end: 2 }), { docId: '7', text: 'q', start: 1, end: 2 });
    assert.deepEqual(parseSpan({ doc_id: 'd1', span: [4, 9] }), { docId: 'd1', text: '', start: 4, end: 9 });
  });

  it('finds exact occurrences, else a whitespace/case/quote-insensitive match mapped back to the source', () => {
    assert.deepEqual(findOccurrences('a b a b', 'a b'), {
      ranges: [
        [0, 3],
        [4, 7],
      ],
      how: 'exact',
    });
    const text = 'The fund’s   RETURN was\n16.1 percent';
    const found = findOccurrences(text, "fund's return was 16.1");
    assert.equal(found?.how, 'normalized');
    const [s, e] = found!.ranges[0];
    assert.equal(text.slice(s, e), 'fund’s   RETURN was\n16.1');
    assert.equal(findOccurrences('abc', 'zzz'), undefined);
    assert.equal(findOccurrences('abc', '   '), undefined);
  });

  it('locates every span of the sample items in their golden documents', () => {
    for (const name of ['deleg-en-0231-oil-fund-equity-gap.json', 'deleg-zh-0158-olympic-events.json', 'leaky-item.json']) {
      const view = fullItemView(item(name));
      assert.ok(view.evidence.length > 0, name);
      for (const span of view.evidence) {
        assert.notEqual(span.status, 'missing', `${name} span ${span.index}: ${span.note}`);
        assert.equal(span.outsideGolden, false);
      }
      for (const doc of view.golden) {
        for (const h of doc.highlights) assert.equal(doc.content.slice(h.start, h.end).length > 0, true);
      }
    }
    const view = fullItemView(item('deleg-en-0231-oil-fund-equity-gap.json'));
    const d03 = view.golden.find((d) => d.doc_id === 'd03')!;
    assert.equal(
      d03.content.slice(d03.highlights[0].start, d03.highlights[0].end),
      'Equity investments returned 21.3 percent, fixed-income investments returned 6.1 percent',
    );
  });

  it('uses explicit offsets when they agree with the text, and reports spans it cannot place', () => {
    const docs = [
      { doc_id: 'g', content: 'alpha beta gamma', golden: true },
      { doc_id: 'i', content: 'beta elsewhere', golden: false },
    ];
    const { spans, ranges } = locateEvidence(docs, [
      { doc_id: 'g', start: 6, end: 10 },
      { doc_id: 'g', text: 'delta' },
      { doc_id: 'zz', text: 'alpha' },
      { doc_id: 'i', text: 'elsewhere' },
      'gamma',
    ]);
    assert.deepEqual(
      spans.map((s) => s.status),
      ['offsets', 'missing', 'missing', 'exact', 'exact'],
    );
    assert.equal(spans[0].text, 'beta');
    assert.match(spans[1].note ?? '', /not found in g/);
    assert.match(spans[2].note ?? '', /no document "zz"/);
    assert.equal(spans[3].outsideGolden, true);
    assert.deepEqual(ranges.get('g'), [
      { start: 6, end: 10, span: 0 },
      { start: 11, end: 16, span: 4 },
    ]);
    assert.deepEqual(ranges.get('i'), [{ start: 5, end: 14, span: 3 }]);
  });
});
