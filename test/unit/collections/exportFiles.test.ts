// The collection view's export (issue 16 item 7) through core/collections/exportFiles.ts: the rows
// file the user picked with the annotations and audits beside it, the sidecars found through the
// rows' files on disk (the view shows workspace-relative paths), the rows the table shows, blind
// mode's hidden audits, and a folder that cannot be written. Fixture: test/fixtures/collections/export
// (r1 annotated by alice with two audits, r2 one audit, r3 neither).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { parquetReadObjects } from 'hyparquet';
import { blindExport, companionFiles, rowsWithSidecars, writeExportFiles } from '../../../src/core/collections/exportFiles';
import type { CollectionRow } from '../../../src/core/collections/rows';
import { readFileRows } from '../../../src/extension/collection/rowReader';
import { tempDir } from '../helpers';

const RUNS = join(__dirname, '../../fixtures/collections/export/runs.jsonl');
/** As the view shows the file: relative to the workspace, not where it is. */
const SHOWN = 'export/runs.jsonl';

function viewRows(): { rows: CollectionRow[]; fileOf: (row: CollectionRow) => string } {
  const read = readFileRows(RUNS, true, { display: () => SHOWN });
  const targets = new Map(read.rows.map(({ row, target }) => [row.id, target.file]));
  return { rows: read.rows.map((r) => r.row), fileOf: (row) => targets.get(row.id)! };
}

const csv = (file: string) => parse(readFileSync(file, 'utf8'), { columns: true }) as Record<string, string>[];

describe('collections: the view’s export files', function () {
  it('names the annotations and audits after the rows file, beside it', function () {
    assert.deepEqual(companionFiles('/out/run.rows.csv', 'csv'), { annotations: '/out/run.annotations.csv', audits: '/out/run.audits.csv' });
    assert.deepEqual(companionFiles('/out/run.parquet', 'parquet'), { annotations: '/out/run.annotations.parquet', audits: '/out/run.audits.parquet' });
    // Another extension is kept: the stem is what is left.
    assert.deepEqual(companionFiles('/out/run.txt', 'csv'), { annotations: '/out/run.txt.annotations.csv', audits: '/out/run.txt.audits.csv' });
  });

  it('finds the sidecars through the rows’ files on disk, not their shown paths', function () {
    const { rows, fileOf } = viewRows();
    assert.deepEqual(
      rows.map((r) => r.id),
      [`${SHOWN}#r1`, `${SHOWN}#r2`, `${SHOWN}#r3`],
    );
    // The shown path is not a file: no sidecar, no annotation.
    assert.equal(rowsWithSidecars(rows).filter((r) => r.sidecarRecord).length, 0);
    const found = rowsWithSidecars(rows, fileOf);
    assert.deepEqual(
      found.map((r) => [r.row.record, r.sidecarRecord?.audits?.length ?? 0, r.sidecarRecord?.annotation?.annotator ?? null]),
      [
        ['r1', 2, 'alice'],
        ['r2', 1, null],
        ['r3', 0, null],
      ],
    );
  });

  it('writes the rows shown (CSV) with their annotations and audits beside them', function () {
    const { rows, fileOf } = viewRows();
    const out = tempDir('trajaudit-view-export-');
    const target = join(out, 'runs.rows.csv');
    // The table filtered to r2 and r1, in that order.
    const shown = [rows[1], rows[0]];
    const written = writeExportFiles(shown, rowsWithSidecars(shown, fileOf), 'csv', target);
    assert.deepEqual(written.counts, { rows: 2, annotations: 1, audits: 3 });
    assert.deepEqual(readdirSync(out).sort(), ['runs.annotations.csv', 'runs.audits.csv', 'runs.rows.csv']);
    assert.deepEqual(
      csv(target).map((r) => [r.id, r.audit_critical_step, r.annotated]),
      [
        [`${SHOWN}#r2`, '1', 'false'],
        [`${SHOWN}#r1`, '1', 'true'],
      ],
    );
    assert.deepEqual(
      csv(written.audits).map((a) => a.audit_id),
      ['aud-3', 'aud-1', 'aud-2'],
    );
    assert.equal(csv(written.annotations)[0].rationale, 'Visited Annecy, "the" wrong lake,\nthen answered without checking');
  });

  it('writes Parquet that hyparquet reads back, one record per row', async function () {
    const { rows, fileOf } = viewRows();
    const target = join(tempDir('trajaudit-view-export-'), 'runs.parquet');
    const written = writeExportFiles(rows, rowsWithSidecars(rows, fileOf), 'parquet', target);
    const bytes = readFileSync(target);
    const records = (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })) as Record<
      string,
      unknown
    >[];
    assert.deepEqual(
      records.map((r) => [r.record, r.messages]),
      [
        ['r1', 6n],
        ['r2', rows[1].messages === null ? null : BigInt(rows[1].messages)],
        ['r3', rows[2].messages === null ? null : BigInt(rows[2].messages)],
      ],
    );
    assert.ok(existsSync(written.annotations) && existsSync(written.audits));
  });

  it('blind mode leaves out the audits of rows the annotator has not annotated, as the view hides them', function () {
    const { rows, fileOf } = viewRows();
    const blind = blindExport(rowsWithSidecars(rows, fileOf), true, 'alice');
    // r1 is alice's: its audits stay; r2's audit is hidden (row and audits table).
    assert.deepEqual(
      blind.rows.map((r) => [r.record, r.audit?.criticalStep ?? null, r.auditMethod, r.agreement]),
      [
        ['r1', 1, 'searchauditor', 'step'],
        ['r2', null, null, null],
        ['r3', null, null, null],
      ],
    );
    const target = join(tempDir('trajaudit-view-export-'), 'blind.csv');
    const written = writeExportFiles(blind.rows, blind.withSidecars, 'csv', target);
    assert.deepEqual(
      csv(written.audits).map((a) => a.audit_id),
      ['aud-1', 'aud-2'],
    );
    // Someone else's name sees none; blind mode off shows every audit.
    assert.equal(blindExport(rowsWithSidecars(rows, fileOf), true, 'bob').withSidecars.flatMap((r) => r.sidecarRecord?.audits ?? []).length, 0);
    assert.equal(blindExport(rowsWithSidecars(rows, fileOf), false, 'bob').withSidecars.flatMap((r) => r.sidecarRecord?.audits ?? []).length, 3);
  });

  it('a folder that cannot be written is one line naming the file and the reason', function () {
    const { rows, fileOf } = viewRows();
    const target = join(tempDir('trajaudit-view-export-'), 'missing-folder', 'runs.csv');
    assert.throws(
      () => writeExportFiles(rows, rowsWithSidecars(rows, fileOf), 'csv', target),
      (error: Error) => {
        assert.equal(error.message, `Could not write ${target}: ENOENT; expected a writable folder`);
        return true;
      },
    );
  });
});
