// The corpus-statistics report (issue 16 item 3): the report model of five hand-made collection
// rows (the shape the collection index stores), every count, bin and share computed by hand.
import assert from 'node:assert/strict';
import type { CollectionRow, RowLabel } from '../../../src/core/collections/rows';
import { buildCorpusStatsModel, corpusStatsData, corpusStatsExport, reportModelCsv, reportModelMarkdown } from '../../../src/core/collections/statsReport';
import type { BarChartSpec, ReportModel, ReportTable } from '../../../src/shared/reportProtocol';

const HOSTILE_MODEL = '<img src=x onerror=alert(1)>|m';

function row(
  id: string,
  fields: {
    format: string;
    model: string | null;
    dataset: string | null;
    messages: number;
    decisionSteps: number;
    tokens: number;
    toolCalls: number;
    atomicOps: number;
  },
  human: RowLabel | null,
): CollectionRow {
  return {
    id: `${id}.json#0`,
    file: `${id}.json`,
    record: '0',
    query: null,
    outcome: { success: false, score: 0, source: 'reward' },
    toolCallsByKind: { search: fields.toolCalls, visit: 0, code: 0, 'file-edit': 0, other: 0 },
    human,
    humanSource: human ? 'gold' : null,
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

const label = (criticalStep: number | null, rootCause: string | null, toleranceSpan: [number, number] | null): RowLabel => ({
  criticalStep,
  rootCause,
  toleranceSpan,
});

// Critical positions: 10/10 = 1, 5/20 = 0.25, 3/4 = 0.75, 2/3 (exactly the start of the final third); r4 has no label.
const ROWS: CollectionRow[] = [
  row(
    'r1',
    { format: 'searchauditbench', model: 'm-A', dataset: 'd1', messages: 11, decisionSteps: 4, tokens: 100, toolCalls: 3, atomicOps: 5 },
    label(10, 'search_coverage_gap', [8, 10]),
  ),
  row(
    'r2',
    { format: 'searchauditbench', model: 'm-A', dataset: 'd1', messages: 21, decisionSteps: 6, tokens: 300, toolCalls: 5, atomicOps: 9 },
    label(5, 'constraint_neglect', [5, 5]),
  ),
  row(
    'r3',
    { format: 'openai-chat', model: HOSTILE_MODEL, dataset: null, messages: 5, decisionSteps: 2, tokens: 50, toolCalls: 1, atomicOps: 1 },
    label(3, 'search_coverage_gap', null),
  ),
  row('r4', { format: 'openai-chat', model: null, dataset: 'd2', messages: 7, decisionSteps: 3, tokens: 70, toolCalls: 2, atomicOps: 2 }, null),
  row(
    'r5',
    { format: 'openai-chat', model: HOSTILE_MODEL, dataset: 'd2', messages: 4, decisionSteps: 2, tokens: 40, toolCalls: 1, atomicOps: 1 },
    label(2, null, [1, 3]),
  ),
];

function build(): { model: ReportModel; data: ReturnType<typeof corpusStatsData> } {
  const data = corpusStatsData({ rows: ROWS, unreadable: [{ file: 'broken.json', message: '2:1: invalid JSON' }], rubricsPerRepair: [2, 3, 3] });
  return { model: buildCorpusStatsModel(data, { folder: '/w/corpus', folderLabel: 'corpus', createdAt: '2026-01-01T00:00:00.000Z' }), data };
}

function tableOf(model: ReportModel, id: string): ReportTable {
  const found = model.sections.flatMap((s) => s.tables).find((t) => t.id === id);
  assert.ok(found, `no table ${id}`);
  return found;
}

const texts = (t: ReportTable): string[][] => t.rows.map((r) => r.map((c) => c.text));

describe('collections: the corpus-statistics report', function () {
  it('counts per model, dataset and format, with (none) for a source that names none', function () {
    const { model } = build();
    assert.equal(model.kind, 'corpus-stats');
    const counts = (id: string) => texts(tableOf(model, id)).map((r) => [r[0], r[1], r[2]]);
    assert.deepEqual(counts('stats-by-model'), [
      ['(none)', '1', '0'],
      [HOSTILE_MODEL, '2', '2'],
      ['m-A', '2', '2'],
    ]);
    assert.deepEqual(counts('stats-by-dataset'), [
      ['(none)', '1', '1'],
      ['d1', '2', '2'],
      ['d2', '2', '1'],
    ]);
    assert.deepEqual(counts('stats-by-format'), [
      ['openai-chat', '3', '2'],
      ['searchauditbench', '2', '2'],
    ]);
    // m-A: messages (11 + 21) / 2 = 16, tokens (100 + 300) / 2 = 200, both critical positions (1 and 0.25): one in the final third.
    assert.deepEqual(texts(tableOf(model, 'stats-by-model'))[2], ['m-A', '2', '2', '16', '200', '50.00%']);
    const chart = model.sections.find((s) => s.id === 'by-model')?.charts[0] as BarChartSpec;
    assert.deepEqual(chart.series[0].values, [1, 2, 2]);
  });

  it('the distribution table: mean, P50, P90 (numpy-linear) and max of the five counts', function () {
    const { model } = build();
    // messages sorted 4 5 7 11 21: mean 48/5 = 9.6, P50 7, P90 at 3.6 → 11 + 0.6·10 = 17, max 21.
    // tokens sorted 40 50 70 100 300: mean 112, P50 70, P90 100 + 0.6·200 = 220.
    assert.deepEqual(texts(tableOf(model, 'stats-distribution')), [
      ['messages', '9.6', '7', '17', '21'],
      ['decision steps', '3.4', '3', '5.2', '6'],
      ['tool calls', '2.4', '2', '4.2', '5'],
      ['atomic operations', '3.6', '2', '7.4', '9'],
      ['tokens (o200k_base)', '112', '70', '220', '300'],
    ]);
  });

  it('the critical-position histogram in ten bins and the final-third share (2/3 itself is in it)', function () {
    const { model, data } = build();
    assert.deepEqual(data.positions, [1, 0.25, 0.75, 2 / 3]);
    const histogram = tableOf(model, 'stats-position-histogram');
    assert.deepEqual(
      histogram.rows.map((r) => r[1].value),
      [0, 0, 1, 0, 0, 0, 1, 1, 0, 1],
    );
    assert.equal(histogram.rows[0][0].text, '0.0–0.1');
    const section = model.sections.find((s) => s.id === 'positions');
    assert.equal(section?.figures?.find((f) => f.label === 'In the final third')?.text, '75.00%');
    const chart = section?.charts[0] as BarChartSpec;
    assert.equal(chart.tableId, 'stats-position-histogram');
    assert.deepEqual(chart.references, [{ at: (2 / 3) * 10 - 0.5, axis: 'category', label: 'final third' }]);
  });

  it('span lengths (inclusive), rubrics per repair, root causes by share, the unreadable file', function () {
    const { model } = build();
    // Spans [8, 10], [5, 5], [1, 3]: lengths 3, 1, 3.
    assert.deepEqual(texts(tableOf(model, 'stats-span-lengths')), [['Span length', '3', '2.3', '3', '3', '3']]);
    assert.deepEqual(texts(tableOf(model, 'stats-span-lengths-counts')), [
      ['1', '1'],
      ['2', '0'],
      ['3', '2'],
    ]);
    assert.deepEqual(texts(tableOf(model, 'stats-rubrics-counts')), [
      ['2', '1'],
      ['3', '2'],
    ]);
    assert.deepEqual(texts(tableOf(model, 'stats-root-causes')), [
      ['Search Coverage Gap', '2', '66.67%'],
      ['Constraint Neglect', '1', '33.33%'],
    ]);
    assert.deepEqual(texts(tableOf(model, 'stats-unreadable')), [['broken.json', '2:1: invalid JSON']]);
  });

  it('no labels: no position, span or root-cause section, and no rubric section without repairs', function () {
    const data = corpusStatsData({ rows: [ROWS[3]], unreadable: [] });
    const model = buildCorpusStatsModel(data, { folder: '/w', folderLabel: 'w' });
    assert.deepEqual(
      model.sections.map((s) => s.id),
      ['summary', 'by-model', 'by-dataset', 'by-format'],
    );
  });

  it('exports: Markdown tables with trajectory text made inert, a CSV of every cell, the stats --json document', function () {
    const { model, data } = build();
    const markdown = reportModelMarkdown(model);
    assert.match(markdown, /^# Corpus statistics: corpus\n/);
    assert.ok(markdown.includes('| &lt;img src=x onerror=alert(1)>\\|m | 2 | 2 |'), markdown);
    assert.ok(!markdown.includes('<img'));
    assert.ok(markdown.includes('| position | critical steps |\n| --- | ---: |\n| 0.0–0.1 | 0 |'));
    const csv = reportModelCsv(model);
    const lines = csv.split('\r\n');
    assert.equal(lines[0], 'table,row,column,value,text');
    assert.ok(lines.includes('stats-by-format,openai-chat,trajectories,3,3'));
    assert.ok(lines.includes('stats-position-histogram,0.6–0.7,critical steps,1,1'));
    assert.ok(lines.includes('stats-root-causes,Search Coverage Gap,share,0.666666666667,66.67%'));
    assert.equal(JSON.parse(corpusStatsExport('json', model, data)).trajectories, 5);
  });
});
