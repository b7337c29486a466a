import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../src/core/input/inputError';
import { emptySidecar, readSidecar, sidecarPathFor, writeSidecar, sha256Of } from '../../src/core/sidecar/sidecarFile';
import { runCli, tempDir, writeTemp } from './helpers';

const trajectory = JSON.stringify({
  messages: [
    { role: 'user', content: 'q' },
    { role: 'tool', content: 'r' },
    { role: 'assistant', content: 'a' },
    { role: 'assistant', content: 'b' },
  ],
});

describe('audit sidecar', () => {
  it('round-trips with unknown fields preserved and root-cause display names normalized', async () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'case.traj.json', trajectory);
    const path = sidecarPathFor(file);
    writeFileSync(
      path,
      JSON.stringify({
        schema: 'trajaudit.audit/v1',
        futureField: { keep: true },
        trajectory: { file: 'case.traj.json', sha256: sha256Of(trajectory), format: 'openai-chat', extra: 1 },
        records: {
          '0': {
            annotation: { criticalStep: 2, toleranceSpan: [2, 3], rootCause: 'Entity–Relation Misbinding', reviewer_note: 'x' },
            reviews: [{ by: 'ann' }],
          },
        },
      }),
    );
    const sidecar = readSidecar(path);
    assert.ok(sidecar);
    assert.equal(sidecar.records['0'].annotation?.rootCause, 'entity_relation_misbinding');
    writeSidecar(path, sidecar);
    const back = JSON.parse(readFileSync(path, 'utf8'));
    assert.deepEqual(back.futureField, { keep: true });
    assert.equal(back.trajectory.extra, 1);
    assert.equal(back.records['0'].annotation.reviewer_note, 'x');
    assert.deepEqual(back.records['0'].reviews, [{ by: 'ann' }]);
    assert.deepEqual(readdirSync(dir).sort(), ['case.traj.json', 'case.traj.json.audit.json'], 'no temp file left behind');
    assert.deepEqual((await runCli(['validate', path])).code, 0);
  });

  it('refuses a newer schema version and a bad sidecar with a clear message', () => {
    const dir = tempDir();
    const newer = writeTemp(dir, 'a.json.audit.json', JSON.stringify({ schema: 'trajaudit.audit/v3', trajectory: { file: 'a.json' }, records: {} }));
    assert.throws(
      () => readSidecar(newer),
      (e: InputError) => /schema "trajaudit\.audit\/v3" is not supported/.test(e.message) && e.where.path === '$.schema',
    );
    const bad = writeTemp(
      dir,
      'b.json.audit.json',
      JSON.stringify(
        {
          schema: 'trajaudit.audit/v1',
          trajectory: { file: 'b.json' },
          records: { '0': { annotation: { criticalStep: 5, toleranceSpan: [1, 3], rootCause: 'bad luck' } } },
        },
        null,
        2,
      ),
    );
    assert.throws(
      () => readSidecar(bad),
      (e: InputError) => /unknown root cause "bad luck"/.test(e.message) && e.where.line === 14,
    );
    const broken = writeTemp(dir, 'c.json.audit.json', '{"schema": "trajaudit.audit/v1", ');
    assert.throws(() => readSidecar(broken), /c\.json\.audit\.json:1:\d+: invalid JSON/);
  });

  it('validate checks annotation steps against the trajectory beside the sidecar', async () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'case.json', trajectory);
    const sidecar = emptySidecar(file, sha256Of(trajectory), 'openai-chat');
    sidecar.records['0'] = { annotation: { criticalStep: 1, toleranceSpan: [1, 3], rootCause: 'constraint_neglect' } };
    writeSidecar(sidecarPathFor(file), sidecar);
    const { code, err } = await runCli(['validate', sidecarPathFor(file)]);
    assert.equal(code, 1);
    assert.match(err, /criticalStep 1 is not a decision step/);
    writeFileSync(file, trajectory.replace('"q"', '"changed"'));
    assert.match((await runCli(['validate', sidecarPathFor(file)])).err, /changed since this sidecar was written/);
  });

  it('writes atomically: the target is replaced by rename, never truncated in place', () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'case.json', trajectory);
    const path = sidecarPathFor(file);
    const first = emptySidecar(file, 'x', 'openai-chat');
    writeSidecar(path, first);
    const inode = readFileSync(path, 'utf8');
    const second = { ...first, records: { '0': { annotation: { criticalStep: 2 } } } };
    writeSidecar(path, second);
    assert.notEqual(readFileSync(path, 'utf8'), inode);
    assert.equal(JSON.parse(readFileSync(path, 'utf8')).records['0'].annotation.criticalStep, 2);
    assert.throws(() => writeSidecar(join(dir, 'missing-folder', 'x.audit.json'), first));
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.includes('.tmp-')),
      [],
    );
  });

  it('removes the temps of a killed earlier save on the next write, and nothing a live writer may still rename', () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'case.json', trajectory);
    const path = sidecarPathFor(file);
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid!;
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)']);
    try {
      const old = new Date(Date.now() - 5 * 60_000);
      const temp = (pid: number, age?: Date) => {
        const name = `.case.json.audit.json.tmp-${pid}-0a1b2c3d`;
        writeFileSync(join(dir, name), '{"partial');
        if (age) utimesSync(join(dir, name), age, age);
        return name;
      };
      const killedLongAgo = temp(deadPid, old);
      const killedJustNow = temp(deadPid + 1_000_000); // no such process, but fresh: kept for now
      const stillWriting = temp(live.pid!, old);
      const otherFile = '.other.json.audit.json.tmp-1-0a1b2c3d';
      writeFileSync(join(dir, otherFile), 'x');
      writeSidecar(path, emptySidecar(file, 'x', 'openai-chat'));
      const left = readdirSync(dir)
        .filter((n) => n.includes('.tmp-'))
        .sort();
      assert.ok(!left.includes(killedLongAgo), 'the stale temp of a dead writer is removed');
      assert.deepEqual(left, [killedJustNow, stillWriting, otherFile].sort());
    } finally {
      live.kill();
    }
  });
});
