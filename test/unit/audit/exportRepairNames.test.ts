// File names built from data: a record id never names a path outside --out (issue 20, finding 1),
// and every name stays readable, distinct and decodable back to its id.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { childPath, decodeNameComponent, safeNameComponent } from '../../../src/core/files/safeName';
import { runCli, tempDir } from '../helpers';

const BATCH = join(__dirname, '..', '..', '..', 'samples', 'trajectories', 'searchauditbench', 'batch.traj.jsonl');

/** The sample batch with its records' ids replaced by `ids` (one record per id). */
function batchWithIds(path: string, ids: string[]): void {
  const records = readFileSync(BATCH, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  writeFileSync(path, ids.map((id, i) => JSON.stringify({ ...records[i % records.length], index: undefined, id })).join('\n') + '\n');
}

describe('file names from data (safeNameComponent)', () => {
  const hostile = [
    '/../../../../tmp/x/ESCAPED',
    '..',
    '.',
    '',
    'a\u0000b',
    'a/b',
    'a\\b',
    'C:\\x',
    'nul',
    'CON',
    'com1',
    '.hidden',
    'trail.',
    'x y',
    '%41',
    'A',
    'a',
    'é',
    'e\u0301',
    'ς',
    'σ',
    'a~b',
    'a.b',
    '問題-7',
    'x'.repeat(300),
    `${'x'.repeat(300)}y`,
    '\u202e',
    'line\nbreak',
  ];

  it('is one plain component for every id: no separators, no dot names, no control characters, no device names', () => {
    for (const id of hostile) {
      const name = safeNameComponent(id);
      assert.ok(name.length > 0 && Buffer.byteLength(name) <= 120, `${JSON.stringify(id)} → ${name}`);
      assert.doesNotMatch(name, /[\\/\u0000-\u001f\u007f]/, `${JSON.stringify(id)} → ${name}`);
      assert.ok(!name.startsWith('.') && !name.endsWith('.') && !name.endsWith(' '), `${JSON.stringify(id)} → ${name}`);
      assert.doesNotMatch(name.split('.')[0], /^(con|prn|aux|nul|com\d|lpt\d)$/i, `${JSON.stringify(id)} → ${name}`);
      assert.equal(childPath('/out', `${name}.resume.json`), `/out/${name}.resume.json`);
    }
  });

  it('is readable and decodes back to the id (encoded, not stripped)', () => {
    assert.equal(safeNameComponent('dsqa-001'), 'dsqa-001');
    assert.equal(safeNameComponent('問題-7'), '問題-7');
    assert.equal(safeNameComponent('a/b'), 'a%2Fb');
    assert.equal(safeNameComponent('a.b'), 'a%2Eb');
    for (const id of hostile.filter((h) => h.length < 100)) assert.equal(decodeNameComponent(safeNameComponent(id)), id, JSON.stringify(id));
  });

  it('keeps distinct ids distinct, also on case-insensitive and normalizing file systems', () => {
    const names = hostile.map(safeNameComponent);
    const folded = new Set(names.map((n) => n.normalize('NFC').toLowerCase()));
    assert.equal(folded.size, hostile.length, names.join(' | '));
  });

  it('childPath refuses what is not one name inside the folder', () => {
    for (const bad of ['../x', '/etc/passwd', 'a/b', '', '.', 'a\u0000b']) assert.throws(() => childPath('/out', bad), /refusing to write/);
  });
});

describe('export-repairs --format resume --out: names from record ids stay inside the folder', () => {
  it('a hostile id writes inside --out, an id with a NUL works, and every record gets its own file', async () => {
    const dir = tempDir('trajaudit-names-');
    const escapeTarget = join(dir, 'x');
    mkdirSync(escapeTarget);
    const ids = [`/../../../../..${escapeTarget}/ESCAPED`, 'a\u0000b', '..', 'CON', 'A', 'a'];
    const file = join(dir, 'batch.traj.jsonl');
    batchWithIds(file, ids);
    const audited = await runCli(['audit', file, '--method', 'heuristic']);
    assert.equal(audited.code, 0, audited.err);
    const out = join(dir, 'outdir');
    const r = await runCli(['export-repairs', file, '--format', 'resume', '--out', out]);
    assert.equal(r.code, 0, r.err);
    assert.doesNotMatch(r.err, /internal error/);
    assert.deepEqual(readdirSync(escapeTarget), [], 'nothing written outside --out');
    assert.ok(!existsSync(join(escapeTarget, 'ESCAPED.resume.json')));
    const written = readdirSync(out).sort();
    assert.equal(written.length, ids.length, written.join(', '));
    const records = written.map((name) => JSON.parse(readFileSync(join(out, name), 'utf8')).trajaudit.record).sort();
    assert.deepEqual(records, [...ids].sort(), 'one payload per record, none overwritten by another');
    for (const name of written) {
      const id = decodeNameComponent(name.replace(/^batch\./, '').replace(/\.resume\.json$/, ''));
      assert.equal(JSON.parse(readFileSync(join(out, name), 'utf8')).trajaudit.record, id, `${name} names its record`);
    }
  });
});
