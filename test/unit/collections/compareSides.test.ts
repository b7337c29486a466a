// Reading the sides of a comparison (src/core/collections/compareSides.ts): what stops a side is one
// line naming the file, where in it and what was wrong; a bad sidecar only warns.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CompareInputError, compareRecordOf, readCompareFile } from '../../../src/core/collections/compareSides';
import { tempDir, writeTemp } from '../helpers';

const FIXTURES = join(__dirname, '../../fixtures/collections/compare');
const RUN = JSON.stringify({
  query: 'Which river?',
  trajectory: [
    { role: 'user', content: 'Which river?' },
    { role: 'assistant', content: '<answer>Sava</answer>' },
  ],
});

/** The CompareInputError `run` throws: one line, no stack. */
function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof CompareInputError, `not a CompareInputError: ${String(error)}`);
    assert.equal(error.message.split('\n').length, 1);
    return error.message;
  }
  assert.fail('no error');
}

describe('collections: reading the sides of a comparison', function () {
  it('a file of several records: every record with its sidecar entry; a record by id, an unknown id listed against the ones there are', function () {
    const read = readCompareFile(join(FIXTURES, 'after.jsonl'), (p) => p.slice(FIXTURES.length + 1));
    assert.deepEqual(
      read.trajectories.map((t) => t.record),
      ['run-1', 'run-2'],
    );
    assert.deepEqual(read.warnings, []);
    assert.equal(compareRecordOf(read, 'run-2').sidecarRecord?.annotation?.annotator, 'ann-2');
    assert.equal(compareRecordOf(read, 'run-1').sidecarRecord, undefined);
    assert.equal(
      errorOf(() => compareRecordOf(read, 'run-9', (p) => p.slice(FIXTURES.length + 1))),
      'after.jsonl: no record "run-9"; records are run-1, run-2',
    );
  });

  it('invalid JSON, a missing file and a benchmark item are one-line errors naming the file (and the line:column)', function () {
    const dir = tempDir();
    const bad = writeTemp(dir, 'bad.json', '{"query": "x",\n "trajectory": [ {"role": "user"  "content": "x"} ]}');
    assert.equal(
      errorOf(() => readCompareFile(bad)),
      `${bad}: 2:35: invalid JSON: expected ',' or a closing bracket`,
    );
    const missing = join(dir, 'absent.json');
    assert.equal(
      errorOf(() => readCompareFile(missing)),
      `${missing}: cannot read the file (ENOENT)`,
    );
    const item = join(__dirname, '../../../samples/items/delegation/deleg-en-0231-oil-fund-equity-gap.json');
    assert.match(
      errorOf(() => readCompareFile(item, () => 'deleg.json')),
      /^deleg\.json: is not a trajectory file \(detected delegation-item\)$/,
    );
  });

  it('a sidecar that cannot be read leaves the side without labels and says so as a warning', function () {
    const dir = tempDir();
    const file = writeTemp(dir, 'run.traj.json', RUN);
    writeTemp(
      dir,
      'run.traj.json.audit.json',
      '{"schema": "trajaudit.audit/v2", "trajectory": {"file": "run.traj.json"}, "records": {"0": {"annotation": {"criticalStep": "x"}}}}',
    );
    const read = readCompareFile(file);
    assert.equal(read.trajectories.length, 1);
    assert.equal(read.trajectories[0].sidecarRecord, undefined);
    assert.equal(read.warnings.length, 1);
    assert.match(read.warnings[0], /run\.traj\.json\.audit\.json: 1:\d+: at \$\.records\["0"\]\.annotation\.criticalStep: expected number, got the string "x"/);
  });
});
