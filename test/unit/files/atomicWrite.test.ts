// writeFileAtomic (src/core/files/atomicWrite.ts): the one writer of product files. The file is
// the old one or the new one, never a part; no temp file is left behind by a failed write.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../src/core/files/atomicWrite';
import { tempDir } from '../helpers';

const temps = (dir: string) => readdirSync(dir).filter((n) => n.includes('.tmp-'));

describe('writeFileAtomic', () => {
  it('writes text given in pieces, in order, and replaces an existing file', () => {
    const dir = tempDir('trajaudit-atomic-');
    const target = join(dir, 'score.json');
    writeFileSync(target, 'old');
    writeFileAtomic(target, ['{', '"a": 1', '}\n']);
    assert.equal(readFileSync(target, 'utf8'), '{"a": 1}\n');
    writeFileAtomic(target, 'ünïcode ✓\n');
    assert.equal(readFileSync(target, 'utf8'), 'ünïcode ✓\n');
    assert.deepEqual(temps(dir), []);
  });

  it('a write that fails (the target is a folder) leaves what was there and no temp file', () => {
    const dir = tempDir('trajaudit-atomic-');
    const target = join(dir, 'report.md');
    mkdirSync(target);
    writeFileSync(join(target, 'inside'), 'kept');
    assert.throws(
      () => writeFileAtomic(target, 'new'),
      (e: NodeJS.ErrnoException) => typeof e.code === 'string',
    );
    assert.equal(readFileSync(join(target, 'inside'), 'utf8'), 'kept');
    assert.deepEqual(temps(dir), []);
  });

  it('a piece that cannot be written: the old file stays whole, no temp file', () => {
    const dir = tempDir('trajaudit-atomic-');
    const target = join(dir, 'results.jsonl');
    writeFileSync(target, 'line 1\n');
    assert.throws(() => writeFileAtomic(target, ['line 1\n', 42 as unknown as string]));
    assert.equal(readFileSync(target, 'utf8'), 'line 1\n');
    assert.deepEqual(temps(dir), []);
  });

  it('a missing folder is an error, and nothing is created', () => {
    const dir = tempDir('trajaudit-atomic-');
    assert.throws(
      () => writeFileAtomic(join(dir, 'no-such-folder', 'x.json'), '{}'),
      (e: NodeJS.ErrnoException) => e.code === 'ENOENT',
    );
    assert.deepEqual(readdirSync(dir), []);
  });
});
