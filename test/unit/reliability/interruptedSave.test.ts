import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';

const root = join(__dirname, '..', '..', '..');

/** A child that rewrites the sidecar atomically in a loop, alternating two large versions. */
const WRITER = `
const { writeFileAtomic } = require(${JSON.stringify(join(root, 'src', 'core', 'files', 'atomicWrite.ts'))});
const [target, a, b] = process.argv.slice(2);
const versions = [require('fs').readFileSync(a, 'utf8'), require('fs').readFileSync(b, 'utf8')];
process.send('ready');
for (let i = 0; ; i++) writeFileAtomic(target, versions[i % 2]);
`;

describe('a save interrupted at any point (killed process) leaves the old or the new sidecar, never a truncated one', function () {
  this.timeout(120_000);

  it('kill -9 during atomic writes, 15 times at random moments', async () => {
    const dir = tempDir('trajaudit-kill-');
    const big = (tag: string) =>
      JSON.stringify({
        schema: 'trajaudit.audit/v1',
        trajectory: { file: 'x.json' },
        records: Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [String(i), { annotation: { criticalStep: i, rationale: `${tag} `.repeat(40) } }])),
      });
    const versionA = join(dir, 'a.json');
    const versionB = join(dir, 'b.json');
    writeFileSync(versionA, big('old'));
    writeFileSync(versionB, big('new'));
    const target = join(dir, 'case.json.audit.json');
    writeFileSync(target, readFileSync(versionA));
    const allowed = new Set([readFileSync(versionA, 'utf8'), readFileSync(versionB, 'utf8')]);
    const script = join(dir, 'writer.js');
    writeFileSync(script, WRITER);
    for (let round = 0; round < 15; round++) {
      const child = spawn(process.execPath, ['-r', 'tsx/cjs', script, target, versionA, versionB], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      await new Promise((resolve) => child.once('message', resolve));
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.floor(Math.random() * 200)));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const now = readFileSync(target, 'utf8');
      assert.ok(allowed.has(now), `round ${round}: the sidecar is neither the old nor the new version (${now.length} chars)`);
    }
    // Temp files of killed writers may remain, but never under the sidecar's name.
    assert.ok(readdirSync(dir).filter((n) => n.endsWith('.audit.json')).length === 1);
  });
});
