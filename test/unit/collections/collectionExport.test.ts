// `trajaudit collection --export`: rows, annotations and audits as CSV (read back with csv-parse,
// an RFC 4180 reader) and Parquet (read back with hyparquet), values checked against the fixture
// test/fixtures/collections/export (three records, one annotated with commas, quotes and a line
// break in its rationale, three audits).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { parquetReadObjects, parquetMetadata, parquetSchema } from 'hyparquet';
import { toCsv, type ExportTable } from '../../../src/core/collections/exportTable';
import { runCli, tempDir } from '../helpers';

const FOLDER = join(__dirname, '../../fixtures/collections/export');
const RUNS = join(FOLDER, 'runs.jsonl');

async function exported(kind: 'csv' | 'parquet'): Promise<{ out: string; stdout: string }> {
  const out = tempDir('trajaudit-export-');
  const result = await runCli(['collection', FOLDER, '--export', kind, '--out', out, '--cache', tempDir()]);
  assert.equal(result.err, '');
  assert.equal(result.code, 0);
  return { out, stdout: result.out };
}

function csvRecords(file: string): Record<string, string>[] {
  return parse(readFileSync(file, 'utf8'), { columns: true }) as Record<string, string>[];
}

async function parquetRows(file: string): Promise<Record<string, unknown>[]> {
  const bytes = readFileSync(file);
  return (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })) as Record<string, unknown>[];
}

describe('collections: export (CSV, Parquet)', function () {
  it('CSV quotes fields with commas, quotes and line breaks (RFC 4180), CRLF line ends, empty for null', function () {
    const table: ExportTable = {
      name: 'rows',
      columns: [
        { name: 'text', type: 'string' },
        { name: 'n', type: 'int' },
      ],
      records: [
        ['plain', 1],
        ['a, b', null],
        ['say "hi"', 2],
        ['two\nlines', 3],
        [' padded', 4],
      ],
    };
    assert.equal(toCsv(table), 'text,n\r\nplain,1\r\n"a, b",\r\n"say ""hi""",2\r\n"two\nlines",3\r\n" padded",4\r\n');
    assert.deepEqual(parse(toCsv(table), { columns: true }), [
      { text: 'plain', n: '1' },
      { text: 'a, b', n: '' },
      { text: 'say "hi"', n: '2' },
      { text: 'two\nlines', n: '3' },
      { text: ' padded', n: '4' },
    ]);
  });

  it('writes rows, annotations and audits as CSV that an RFC 4180 reader reads back exactly', async function () {
    const { out, stdout } = await exported('csv');
    assert.deepEqual(readdirSync(out).sort(), ['annotations.csv', 'audits.csv', 'rows.csv']);
    assert.match(stdout, /wrote .*rows\.csv/);
    const rows = csvRecords(join(out, 'rows.csv'));
    assert.deepEqual(
      rows.map((r) => r.id),
      [`${RUNS}#r1`, `${RUNS}#r2`, `${RUNS}#r3`],
    );
    assert.equal(rows[0].query, 'Which lake, the "deep" one, feeds the Rhône?');
    assert.deepEqual(
      [rows[0].messages, rows[0].decision_steps, rows[0].calls_search, rows[0].calls_visit, rows[0].human_root_cause, rows[0].audit_method, rows[0].agreement],
      ['6', '3', '1', '1', 'unsupported_answer', 'searchauditor', 'step'],
    );
    assert.deepEqual([rows[1].dataset, rows[1].human_root_cause, rows[1].annotated], ['', '', 'false']);
    const annotations = csvRecords(join(out, 'annotations.csv'));
    assert.equal(annotations.length, 1);
    assert.equal(annotations[0].rationale, 'Visited Annecy, "the" wrong lake,\nthen answered without checking');
    assert.deepEqual(JSON.parse(annotations[0].repair_rubrics), ['names Lake Geneva', 'cites the page, with its URL']);
    assert.deepEqual([annotations[0].annotator, annotations[0].span_start, annotations[0].span_end], ['alice', '1', '3']);
    const audits = csvRecords(join(out, 'audits.csv'));
    assert.deepEqual(
      audits.map((a) => [a.record, a.audit_id, a.method, a.critical_step, a.root_cause]),
      [
        ['r1', 'aud-1', 'heuristic', '3', 'unsupported_answer'],
        ['r1', 'aud-2', 'searchauditor', '1', 'search_coverage_gap'],
        ['r2', 'aud-3', 'heuristic', '1', 'search_coverage_gap'],
      ],
    );
    assert.equal(audits[0].rationale, 'answer, unsupported');
  });

  it('writes typed Parquet: numbers as numbers, booleans as booleans, missing values as nulls', async function () {
    const { out } = await exported('parquet');
    const rowsFile = join(out, 'rows.parquet');
    const bytes = readFileSync(rowsFile);
    const schema = parquetSchema(parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
    const typeOf = (name: string) => schema.children.find((c) => c.element.name === name)?.element.type;
    assert.deepEqual(['messages', 'outcome_score', 'annotated', 'human_root_cause'].map(typeOf), ['INT64', 'DOUBLE', 'BOOLEAN', 'BYTE_ARRAY']);
    const rows = await parquetRows(rowsFile);
    assert.equal(rows.length, 3);
    assert.deepEqual(
      [rows[0].messages, rows[0].outcome_score, rows[0].outcome_success, rows[0].human_critical_step, rows[0].human_span_end, rows[0].annotated],
      [6n, 0.25, false, 3n, 3n, true],
    );
    assert.deepEqual([rows[1].dataset, rows[1].human_critical_step, rows[1].outcome_score, rows[1].agreement], [null, null, null, null]);
    assert.equal(rows[0].query, 'Which lake, the "deep" one, feeds the Rhône?');
    const annotations = await parquetRows(join(out, 'annotations.parquet'));
    assert.deepEqual(
      annotations.map((a) => [a.row_id, a.annotator, a.critical_step, a.rationale, a.trajectory_sha256]),
      [[`${RUNS}#r1`, 'alice', 3n, 'Visited Annecy, "the" wrong lake,\nthen answered without checking', null]],
    );
    const audits = await parquetRows(join(out, 'audits.parquet'));
    assert.deepEqual(
      audits.map((a) => [a.audit_id, a.critical_step, a.model, a.latency_ms]),
      [
        ['aud-1', 3n, null, 1.5],
        ['aud-2', 1n, 'm-1', null],
        ['aud-3', 1n, null, null],
      ],
    );
  });

  it('usage: --export needs --out and a known format; --out alone is refused', async function () {
    for (const [args, message] of [
      [['--export', 'xlsx', '--out', tempDir()], /--export "xlsx" is not an export format; expected csv or parquet/],
      [['--export', 'csv'], /--export needs --out DIR/],
      [['--out', tempDir()], /--out goes with --export csv\|parquet/],
    ] as const) {
      const result = await runCli(['collection', FOLDER, ...args]);
      assert.equal(result.code, 2);
      assert.match(result.err, message);
      assert.ok(!result.err.includes('\n'));
    }
  });
});
