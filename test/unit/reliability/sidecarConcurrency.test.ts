import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { InputError } from '../../../src/core/input/inputError';
import { lockPathFor, withFileLock } from '../../../src/core/sidecar/fileLock';
import { emptySidecar, readSidecar, sidecarPathFor, updateSidecar } from '../../../src/core/sidecar/sidecarFile';
import { tempDir, writeTemp } from '../helpers';

const trajectory = JSON.stringify({
  messages: [
    { role: 'user', content: 'q' },
    { role: 'tool', content: 'r' },
    { role: 'assistant', content: 'a' },
  ],
});

function runWriter(args: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', join(__dirname, 'sidecarWriter.child.ts'), ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code, err }));
  });
}

describe('sidecar writes across processes (issue 20 finding 5)', function () {
  this.timeout(60_000);

  it('four processes, twenty rounds each, on one file and on different records of one JSONL: no audit and no annotation lost', async () => {
    const dir = tempDir();
    const single = writeTemp(dir, 'case.traj.json', trajectory);
    const writers = ['w1', 'w2', 'w3', 'editor'];
    const jsonl = writeTemp(dir, 'batch.traj.jsonl', writers.map((id) => JSON.stringify({ id, messages: JSON.parse(trajectory).messages })).join('\n') + '\n');
    const rounds = 20;
    const results = await Promise.all(writers.map((w) => runWriter([single, jsonl, w, String(rounds)])));
    for (const r of results) assert.equal(r.code, 0, r.err);

    const one = readSidecar(sidecarPathFor(single))!;
    const ids = new Set((one.records['0'].audits ?? []).map((a) => a.id));
    for (const w of writers) for (let i = 0; i < rounds; i++) assert.ok(ids.has(`${w}-single-${i}`), `${w} round ${i} kept`);
    assert.equal(ids.size, writers.length * rounds);
    assert.equal(one.records['0'].annotation?.rationale, `saved in round ${rounds - 1}`, 'the editor-style save is kept through all the audits');

    const batch = readSidecar(sidecarPathFor(jsonl))!;
    for (const w of writers)
      assert.deepEqual(
        (batch.records[w].audits ?? []).map((a) => a.id),
        Array.from({ length: rounds }, (_, i) => `${w}-jsonl-${i}`),
      );
    assert.ok(!existsSync(lockPathFor(sidecarPathFor(single))) && !existsSync(lockPathFor(sidecarPathFor(jsonl))), 'no lock left behind');
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.includes('.tmp-') || n.endsWith('.break')),
      [],
    );
  });

  it('takes over the lock of a process that is gone, and removes only its own lock', async () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'a.json', trajectory);
    const path = sidecarPathFor(file);
    const dead = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '']);
      child.on('close', () => resolve(child.pid!));
    });
    writeFileSync(lockPathFor(path), JSON.stringify({ pid: dead, host: hostname(), nonce: 'x', at: Date.now() }));
    await updateSidecar(path, () => emptySidecar(file, 'x', 'openai-chat'), { waitMs: 5_000 });
    assert.ok(readSidecar(path));
    assert.ok(!existsSync(lockPathFor(path)));
  });

  it('waits for a live holder, then gives up with a message naming the lock file', async () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'a.json', trajectory);
    const path = sidecarPathFor(file);
    let release!: () => void;
    const held = withFileLock(path, () => new Promise<void>((r) => (release = r)));
    await assert.rejects(
      updateSidecar(path, () => emptySidecar(file, 'x', 'openai-chat'), { waitMs: 200 }),
      (e: InputError) => e instanceof InputError && /is locked by process \d+ .*lock file .*a\.json\.audit\.json\.lock.*nothing was written/.test(e.message),
    );
    assert.equal(readSidecar(path), undefined, 'nothing written while locked');
    const waiting = updateSidecar(path, () => emptySidecar(file, 'x', 'openai-chat'), { waitMs: 10_000 });
    release();
    await held;
    await waiting;
    assert.ok(readSidecar(path), 'written once the holder let go');
  });
});
