import assert from 'node:assert/strict';
import { loadText } from '../../../src/core/load/loadFile';
import { readSidecar, sidecarPathFor } from '../../../src/core/sidecar/sidecarFile';
import { runCli, tempDir, writeTemp } from '../helpers';

const record = (id: string, question: string) =>
  JSON.stringify({
    id,
    messages: [
      { role: 'user', content: question },
      { role: 'assistant', content: `answer to ${question}` },
    ],
  });

describe('duplicate record ids (issue 20 finding 7)', () => {
  it('JSONL: load and validate report the later line as an error naming both lines; audit stores only the first record under the id', async () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'dup.traj.jsonl', [record('a', 'first a'), record('b', 'b'), record('a', 'second a')].join('\n') + '\n');
    const loaded = loadText([record('a', 'first a'), record('b', 'b'), record('a', 'second a')].join('\n'), 'dup.traj.jsonl');
    assert.deepEqual(
      loaded.records.map((r) => r.id),
      ['a', 'b'],
    );
    assert.equal(loaded.problems.length, 1);
    assert.equal(loaded.problems[0].line, 3);
    assert.match(loaded.problems[0].message, /duplicate record id "a": dup\.traj\.jsonl:3 has the id of dup\.traj\.jsonl:1/);

    const validated = await runCli(['validate', file]);
    assert.equal(validated.code, 1);
    assert.match(validated.err + validated.out, /dup\.traj\.jsonl:3:1: duplicate record id "a": .*dup\.traj\.jsonl:3 has the id of .*dup\.traj\.jsonl:1/);

    const audited = await runCli(['audit', file, '--method', 'heuristic']);
    assert.equal(audited.code, 1, 'the duplicate is reported');
    assert.match(audited.err, /duplicate record id "a"/);
    const sidecar = readSidecar(sidecarPathFor(file))!;
    assert.deepEqual(Object.keys(sidecar.records).sort(), ['a', 'b']);
    assert.equal(sidecar.records.a.audits?.length, 1, 'one audit under "a", of the first record');
  });

  it('JSON arrays and CSV files: the same rule, with line numbers', () => {
    const array = `[\n${[record('x', 'one'), record('x', 'two')].join(',\n')}\n]`;
    const fromArray = loadText(array, 'arr.json');
    assert.deepEqual(
      fromArray.records.map((r) => r.id),
      ['x'],
    );
    assert.match(fromArray.problems[0].message, /duplicate record id "x": arr\.json:3 has the id of arr\.json:2/);
    assert.equal(fromArray.problems[0].path, '$[1]');
    const csv = loadText('id,problem,problem_category,answer,answer_type\nq1,P one,c,A,Single Answer\nq1,P two,c,B,Single Answer\n', 'd.csv');
    assert.deepEqual(
      csv.records.map((r) => r.id),
      ['q1'],
    );
    assert.match(csv.problems[0].message, /duplicate record id "q1": d\.csv:3 has the id of d\.csv:2/);
  });
});
