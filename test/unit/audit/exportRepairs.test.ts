import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers';

const samples = join(__dirname, '..', '..', '..', 'samples', 'trajectories');

describe('trajaudit export-repairs', () => {
  it('jsonl: one line per audited record, with the diagnosis and directives', async () => {
    const { code, out } = await runCli(['export-repairs', samples, '--format', 'jsonl']);
    assert.equal(code, 0);
    const lines = out.split('\n').map((l) => JSON.parse(l));
    assert.ok(lines.length >= 5);
    for (const l of lines) {
      assert.deepEqual(
        Object.keys(l).sort(),
        ['auditId', 'criticalStep', 'directives', 'file', 'format', 'method', 'model', 'rationale', 'record', 'rootCause'].sort(),
      );
      assert.ok(l.directives.length > 0);
    }
  });

  it('resume: the prefix before the critical step plus the repair as a user message, in the own format', async () => {
    const dir = tempDir('trajaudit-export-');
    const file = join(dir, 'case.traj.json');
    copyFileSync(join(samples, 'openai-chat', 'browsecomp-footballer-penalties.traj.json'), file);
    copyFileSync(join(samples, 'openai-chat', 'browsecomp-footballer-penalties.traj.json.audit.json'), `${file}.audit.json`);
    const out = join(dir, 'resume.json');
    assert.equal((await runCli(['export-repairs', file, '--format', 'resume', '--out', out])).code, 0);
    const payload = JSON.parse(readFileSync(out, 'utf8'));
    const source = JSON.parse(readFileSync(file, 'utf8')).messages;
    const k = payload.trajaudit.criticalStep;
    assert.equal(payload.messages.length, k + 1);
    assert.deepEqual(payload.messages.slice(0, k), source.slice(0, k), 'the prefix is the source messages, unchanged');
    assert.equal(payload.messages[k].role, 'user');
    assert.match(payload.messages[k].content, /^Before you continue, revise your approach/);
  });

  it('exits 1 when nothing under the path has an audit with a repair', async () => {
    const { code, err } = await runCli(['export-repairs', join(samples, 'who-and-when'), '--format', 'md']);
    assert.equal(code, 1);
    assert.match(err, /who-and-when: nothing to export: no trajectory here has an audit sidecar \(<file>\.audit\.json\); run trajaudit audit first$/);
  });
});
