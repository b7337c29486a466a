import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { emptySidecar, readSidecar, sha256Of, sidecarPathFor, writeSidecar } from '../../../src/core/sidecar/sidecarFile';
import { runCli, tempDir, writeTemp } from '../helpers';

const messages = (question: string) => [
  { role: 'user', content: question },
  { role: 'assistant', content: 'searching' },
  { role: 'tool', content: 'r' },
  { role: 'assistant', content: 'B' },
];
const STALE = /annotation of record "0" was made on other content of case\.traj\.json \(sha256 differs\).*--accept-content/;

describe('an annotation made on other content stays flagged until a person confirms it (issue 20 finding 8)', () => {
  it('audits do not re-approve it; validate --accept-content does, and is refused while its steps do not fit', async () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'case.traj.json', JSON.stringify({ messages: messages('q') }));
    const sidecar = emptySidecar(file, sha256Of(readFileSync(file)), 'openai-chat');
    sidecar.records['0'] = { annotation: { criticalStep: 1, rootCause: 'constraint_neglect', trajectorySha256: sha256Of(readFileSync(file)) } };
    writeSidecar(sidecarPathFor(file), sidecar);
    const clean = await runCli(['validate', sidecarPathFor(file)]);
    assert.doesNotMatch(clean.out + clean.err, STALE);

    writeFileSync(file, JSON.stringify({ messages: messages('a changed question') }));
    assert.match((await runCli(['validate', sidecarPathFor(file)])).err, STALE);
    assert.equal((await runCli(['audit', file, '--method', 'heuristic'])).code, 0);
    const afterAudit = await runCli(['validate', sidecarPathFor(file)]);
    assert.match(afterAudit.err, STALE, 'still flagged after an audit re-stamped trajectory.sha256');
    assert.doesNotMatch(afterAudit.err, /changed since this sidecar was written/);

    const accepted = await runCli(['validate', '--accept-content', file]);
    assert.equal(accepted.code, 0, accepted.err);
    assert.match(accepted.out, /case\.traj\.json\.audit\.json: 1 annotation\(s\) confirmed for .*case\.traj\.json as it is now/);
    assert.doesNotMatch((await runCli(['validate', sidecarPathFor(file)])).err, STALE);
    assert.equal(readSidecar(sidecarPathFor(file))!.records['0'].audits?.length, 1, 'audits kept');

    // New content where step 1 is no decision step: not accepted, nothing changed.
    writeFileSync(
      file,
      JSON.stringify({
        messages: [
          { role: 'user', content: 'q' },
          { role: 'user', content: 'more' },
          { role: 'assistant', content: 'B' },
        ],
      }),
    );
    const before = readFileSync(sidecarPathFor(file), 'utf8');
    const refused = await runCli(['validate', '--accept-content', sidecarPathFor(file)]);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /criticalStep 1 is not a decision step[\s\S]*not accepted — fix the error\(s\) above first/);
    assert.equal(readFileSync(sidecarPathFor(file), 'utf8'), before);
  });
});
