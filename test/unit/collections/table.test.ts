// The collection view's table rules: sorting by any column, facet and text filters, facet counts
// and the header's summary, over rows written out here so every expected order is visible.
import assert from 'node:assert/strict';
import type { CollectionRow } from '../../../src/core/collections/rows';
import { COLUMNS, facetCounts, filterRows, NONE, queryRows, sortRows, summarize, textSortKey } from '../../../src/core/collections/table';

function row(id: string, fields: Partial<CollectionRow> = {}): CollectionRow {
  return {
    id,
    file: id.split('#')[0],
    record: id.split('#')[1] ?? '0',
    format: 'searchauditbench',
    model: null,
    dataset: null,
    query: null,
    outcome: { success: null, score: null, source: null },
    messages: 0,
    decisionSteps: 0,
    tokens: 0,
    toolCalls: 0,
    atomicOps: 0,
    toolCallsByKind: { search: 0, visit: 0, code: 0, 'file-edit': 0, other: 0 },
    human: null,
    humanSource: null,
    annotator: null,
    audit: null,
    auditMethod: null,
    audits: 0,
    agreement: null,
    annotated: false,
    audited: false,
    state: 'open',
    ...fields,
  };
}

const ids = (rows: readonly CollectionRow[]) => rows.map((r) => r.id);

const ROWS: CollectionRow[] = [
  row('b.json#0', { model: 'Model-B', messages: 12, query: 'Which river flows through Ardmore?', outcome: { success: false, score: 0, source: 'reward' } }),
  row('a.json#0', {
    model: 'model-a',
    messages: 3,
    query: 'Who founded the pottery?',
    human: { criticalStep: 2, rootCause: 'constraint_neglect', toleranceSpan: null },
    annotated: true,
    annotator: 'ann-1',
    state: 'annotated',
    toolCallsByKind: { search: 4, visit: 0, code: 0, 'file-edit': 0, other: 0 },
  }),
  row('c.jsonl#10', {
    model: 'model-a',
    format: 'openai-chat',
    messages: 40,
    audited: true,
    audits: 1,
    state: 'audited',
    outcome: { success: true, score: 1, source: 'reward' },
  }),
  row('c.jsonl#9', {
    messages: 12,
    format: 'openai-chat',
    audit: { criticalStep: 5, rootCause: 'unsupported_answer', toleranceSpan: null },
    audited: true,
    state: 'audited',
  }),
];

describe('collections: the collection table (sort, filters)', function () {
  it('sorts numbers numerically both ways, ties in their given order, rows without a value last either way', function () {
    assert.deepEqual(ids(sortRows(ROWS, { column: 'messages', descending: false })), ['a.json#0', 'b.json#0', 'c.jsonl#9', 'c.jsonl#10']);
    assert.deepEqual(ids(sortRows(ROWS, { column: 'messages', descending: true })), ['c.jsonl#10', 'b.json#0', 'c.jsonl#9', 'a.json#0']);
    // Outcome: the score (or success as 1/0); the two rows without one stay last, in their order.
    assert.deepEqual(ids(sortRows(ROWS, { column: 'outcome', descending: true })), ['c.jsonl#10', 'b.json#0', 'a.json#0', 'c.jsonl#9']);
    assert.deepEqual(ids(sortRows(ROWS, { column: 'humanStep', descending: false })), ['a.json#0', 'b.json#0', 'c.jsonl#10', 'c.jsonl#9']);
    assert.deepEqual(ids(sortRows(ROWS, { column: 'calls:search', descending: true })), ['a.json#0', 'b.json#0', 'c.jsonl#10', 'c.jsonl#9']);
  });

  it('sorts text ignoring case, numbers inside text by value (record 9 before 10), missing values last', function () {
    assert.deepEqual(ids(sortRows(ROWS, { column: 'model', descending: false })), ['a.json#0', 'c.jsonl#10', 'b.json#0', 'c.jsonl#9']);
    assert.deepEqual(ids(sortRows(ROWS, { column: 'model', descending: true })), ['b.json#0', 'a.json#0', 'c.jsonl#10', 'c.jsonl#9']);
    assert.deepEqual(ids(sortRows(ROWS, { column: 'id', descending: false })), ['a.json#0', 'b.json#0', 'c.jsonl#9', 'c.jsonl#10']);
  });

  it('text sort keys: case folded, digit runs by value (leading zeros ignored)', function () {
    const sorted = ['r10', 'R9', 'r007', 'r0', 'q', 'r9b'].sort((a, b) => (textSortKey(a) < textSortKey(b) ? -1 : textSortKey(a) > textSortKey(b) ? 1 : 0));
    assert.deepEqual(sorted, ['q', 'r0', 'r007', 'R9', 'r9b', 'r10']);
  });

  it('text sort keys: a run of zeros is 0, a run longer than 16 digits stays whole', function () {
    assert.equal(textSortKey('X000'), `x${'0'.repeat(16)}`);
    assert.equal(textSortKey('r0042b'), `r${'0'.repeat(14)}42b`);
    assert.equal(textSortKey('A12345678901234567'), 'a12345678901234567');
  });

  it('many rows: text and number columns in the reference order (keys compared, ties in the given order both ways)', function () {
    const models = ['Model-10', 'model-9', null, 'MODEL-9', 'alpha'];
    const many = Array.from({ length: 600 }, (_, i) =>
      row(`run-${(i * 7919) % 600}.json#${i % 3}`, { model: models[i % models.length], tokens: (i * 31) % 17, humanSource: null }),
    );
    const reference = (column: 'id' | 'model' | 'tokens', descending: boolean): string[] => {
      const value = (r: CollectionRow) => r[column];
      const withValue = many.map((r, index) => ({ r, index })).filter(({ r }) => value(r) !== null);
      const key = (r: CollectionRow) => (column === 'tokens' ? r.tokens : textSortKey(value(r) as string));
      withValue.sort((a, b) => {
        const [ka, kb] = [key(a.r), key(b.r)];
        const order = ka < kb ? -1 : ka > kb ? 1 : 0;
        return (descending ? -order : order) || a.index - b.index;
      });
      return [...withValue.map(({ r }) => r.id), ...many.filter((r) => value(r) === null).map((r) => r.id)];
    };
    for (const column of ['id', 'model', 'tokens'] as const) {
      for (const descending of [false, true])
        assert.deepEqual(ids(sortRows(many, { column, descending })), reference(column, descending), `${column} ${descending}`);
    }
    // Case-folded equal models keep their given order: model-9 and MODEL-9 interleave as given.
    const nines = sortRows(many, { column: 'model', descending: false }).filter((r) => r.model?.toLowerCase() === 'model-9');
    assert.deepEqual(
      nines.map((r) => r.id),
      many.filter((r) => r.model?.toLowerCase() === 'model-9').map((r) => r.id),
    );
  });

  it('every column sorts; an unknown column is refused by name', function () {
    for (const column of COLUMNS) assert.equal(sortRows(ROWS, { column: column.id, descending: false }).length, ROWS.length, column.id);
    assert.throws(() => sortRows(ROWS, { column: 'colour' as never, descending: false }), /unknown column "colour"; expected one of id, file/);
  });

  it('facets: any selected value within a facet, every facet together; rows without a value are (none)', function () {
    assert.deepEqual(ids(filterRows(ROWS, { facets: { model: ['model-a'] } })), ['a.json#0', 'c.jsonl#10']);
    assert.deepEqual(ids(filterRows(ROWS, { facets: { model: ['model-a', NONE] } })), ['a.json#0', 'c.jsonl#10', 'c.jsonl#9']);
    assert.deepEqual(ids(filterRows(ROWS, { facets: { model: ['model-a'], format: ['openai-chat'] } })), ['c.jsonl#10']);
    assert.deepEqual(ids(filterRows(ROWS, { facets: { outcome: ['failure', 'success'] } })), ['b.json#0', 'c.jsonl#10']);
    assert.deepEqual(ids(filterRows(ROWS, { facets: { auditRootCause: ['unsupported_answer'] } })), ['c.jsonl#9']);
    // An empty selection keeps everything.
    assert.deepEqual(ids(filterRows(ROWS, { facets: { model: [] } })), ids(ROWS));
    assert.throws(() => filterRows(ROWS, { facets: { colour: ['red'] } as never }), /unknown facet "colour"/);
  });

  it('text: every word, case-insensitively, in the id, model, query, root causes or annotator', function () {
    assert.deepEqual(ids(filterRows(ROWS, { text: 'ARDMORE' })), ['b.json#0']);
    assert.deepEqual(ids(filterRows(ROWS, { text: 'pottery ann-1' })), ['a.json#0']);
    assert.deepEqual(ids(filterRows(ROWS, { text: 'pottery river' })), []);
    assert.deepEqual(ids(filterRows(ROWS, { text: 'c.jsonl' })), ['c.jsonl#10', 'c.jsonl#9']);
    assert.deepEqual(ids(filterRows(ROWS, { text: 'unsupported' })), ['c.jsonl#9']);
    assert.deepEqual(ids(filterRows(ROWS, { text: '   ' })), ids(ROWS));
  });

  it('queryRows filters, then sorts', function () {
    assert.deepEqual(ids(queryRows(ROWS, { text: 'json', facets: { state: ['audited', 'open'] }, sort: { column: 'messages', descending: true } })), [
      'c.jsonl#10',
      'b.json#0',
      'c.jsonl#9',
    ]);
  });

  it("facet counts follow the other facets' filters but not their own; a selected value without rows counts 0", function () {
    const counts = facetCounts(ROWS, { facets: { model: ['model-a', 'nobody'], format: ['openai-chat'] } });
    // model counts under format = openai-chat only: c.jsonl#10 (model-a) and c.jsonl#9 (none).
    assert.deepEqual(counts.model, [
      { value: '(none)', count: 1 },
      { value: 'model-a', count: 1 },
      { value: 'nobody', count: 0 },
    ]);
    // format counts under model ∈ {model-a, nobody}: a.json#0 and c.jsonl#10.
    assert.deepEqual(counts.format, [
      { value: 'openai-chat', count: 1 },
      { value: 'searchauditbench', count: 1 },
    ]);
    assert.deepEqual(facetCounts(ROWS).state, [
      { value: 'audited', count: 2 },
      { value: 'annotated', count: 1 },
      { value: 'open', count: 1 },
    ]);
  });

  it('summary: rows, annotated, audited and per-annotator progress', function () {
    assert.deepEqual(summarize(ROWS), { rows: 4, annotated: 1, audited: 2, byAnnotator: { 'ann-1': 1 } });
    assert.deepEqual(summarize([]), { rows: 0, annotated: 0, audited: 0, byAnnotator: {} });
  });
});
