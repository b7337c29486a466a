// The collection view's annotation queue and export in real VS Code (issue 16 items 6 and 7): the
// trajaudit.collection.* settings (annotator, blind mode, assignment file) as the panel reads
// them, each annotator's progress, the rows blind mode sends to the webview, a sidecar saved
// while the view is open (the row read again, the progress updated, its audit shown), and
// Export… writing the rows file with the annotations and audits beside it.
// Fixture: test/fixtures/collections/export (r1 annotated by alice, two audits; r2 one audit; r3 neither).
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TrajauditApi } from '../../../src/extension/extension';
import type { CollectionPanel } from '../../../src/extension/collection/collectionPanel';
import { activateExtension, closeAllEditors, samplesRoot, waitFor } from './helpers.js';

const SETTINGS = ['annotator', 'blind', 'assignmentsFile'] as const;

suite('Collection view: assignment progress, blind mode and export', () => {
  let api: TrajauditApi;
  let scratch: string;

  suiteSetup(async () => {
    api = (await activateExtension()).exports as TrajauditApi;
    scratch = join(samplesRoot().fsPath, '.scratch', `collection-queue-${Date.now()}`);
    mkdirSync(scratch, { recursive: true });
    const fixture = join(samplesRoot().fsPath, '..', 'test', 'fixtures', 'collections', 'export');
    for (const name of ['runs.jsonl', 'runs.jsonl.audit.json']) copyFileSync(join(fixture, name), join(scratch, name));
    writeFileSync(join(scratch, 'assignments.json'), JSON.stringify({ annotators: { alice: ['runs.jsonl#r1', 'runs.jsonl#r2'], bob: ['runs.jsonl'] } }));
  });

  suiteTeardown(async () => {
    await closeAllEditors();
    const config = vscode.workspace.getConfiguration('trajaudit.collection');
    for (const key of SETTINGS) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    rmSync(scratch, { recursive: true, force: true });
  });

  const audits = (panel: CollectionPanel) => panel.rowsAsSent.map((r) => [r.record, r.audit?.criticalStep ?? null, r.agreement]);

  test('progress per annotator, blind rows, a saved sidecar read again, and Export…', async () => {
    const config = vscode.workspace.getConfiguration('trajaudit.collection');
    await config.update('annotator', 'alice', vscode.ConfigurationTarget.Global);
    await config.update('blind', true, vscode.ConfigurationTarget.Global);
    await config.update('assignmentsFile', join(scratch, 'assignments.json'), vscode.ConfigurationTarget.Global);
    const panel = api.collections.show(scratch);
    await panel.finished;
    assert.equal(panel.allRows.length, 3);
    const progress = () => panel.queue.progress?.map((p) => [p.annotator, p.annotated, p.assigned, p.annotatedByOthers]);
    assert.deepEqual(progress(), [
      ['alice', 1, 2, 0],
      ['bob', 0, 3, 1],
    ]);
    assert.equal(panel.queue.blind, true);
    // r1 is alice's: its audit is sent; r2's audit and agreement are not.
    assert.deepEqual(audits(panel), [
      ['r1', 1, 'step'],
      ['r2', null, null],
      ['r3', null, null],
    ]);

    // alice saves an annotation of r2 (as the editor writes the sidecar): the row is read again.
    const sidecarFile = join(scratch, 'runs.jsonl.audit.json');
    const sidecar = JSON.parse(readFileSync(sidecarFile, 'utf8')) as { records: Record<string, Record<string, unknown>> };
    sidecar.records.r2.annotation = { criticalStep: 1, rootCause: 'search_coverage_gap', annotator: 'alice', updatedAt: '2026-03-05T10:00:00Z' };
    writeFileSync(sidecarFile, JSON.stringify(sidecar));
    await waitFor(() => progress()?.[0][1] === 2, { message: 'alice 2/2 after the sidecar was saved' });
    assert.deepEqual(audits(panel)[1], ['r2', 1, 'both']);

    // Export… every row as CSV to a given file: the rows, the annotations and audits beside.
    const files = await panel.exportRows('csv', 'all', vscode.Uri.file(join(scratch, 'queue.rows.csv')));
    assert.deepEqual(files, [join(scratch, 'queue.rows.csv'), join(scratch, 'queue.annotations.csv'), join(scratch, 'queue.audits.csv')]);
    const lines = (file: string) => readFileSync(file, 'utf8').split('\r\n').filter(Boolean);
    assert.equal(lines(files![0]).length, 1 + 3);
    assert.equal(lines(files![1]).length, 1 + 2);
    // Blind mode: r3 has no audit; r1's two and r2's one are shown now that alice saved both.
    assert.equal(lines(files![2]).length, 1 + 3);

    // Blind mode off: the setting is read again.
    await config.update('blind', false, vscode.ConfigurationTarget.Global);
    await waitFor(() => panel.queue.blind === false, { message: 'blind mode off' });
  });

  test('the header’s Blind toggle (setBlind) writes the setting and the rows come back blinded, and back', async () => {
    // A panel of its own (not the one the test above left open).
    await closeAllEditors();
    const config = () => vscode.workspace.getConfiguration('trajaudit.collection');
    // bob has annotated none of the rows; the value set in the user's settings is where the toggle writes (no workspace file appears).
    await config().update('annotator', 'bob', vscode.ConfigurationTarget.Global);
    await config().update('blind', false, vscode.ConfigurationTarget.Global);
    await config().update('assignmentsFile', undefined, vscode.ConfigurationTarget.Global);
    const panel = api.collections.show(scratch);
    await panel.finished;
    await waitFor(() => panel.queue.blind === false && panel.queue.annotator === 'bob', { message: 'the settings read' });
    assert.deepEqual(
      audits(panel).map(([, step]) => step !== null),
      [true, true, false],
    );

    assert.equal(await panel.handleMessage({ type: 'setBlind', blind: true }), true);
    assert.equal(config().inspect<boolean>('blind')?.globalValue, true);
    assert.equal(config().inspect<boolean>('blind')?.workspaceValue, undefined);
    assert.equal(panel.queue.blind, true);
    assert.deepEqual(audits(panel), [
      ['r1', null, null],
      ['r2', null, null],
      ['r3', null, null],
    ]);

    assert.equal(await panel.handleMessage({ type: 'setBlind', blind: false }), true);
    assert.equal(config().inspect<boolean>('blind')?.globalValue, false);
    assert.equal(panel.queue.blind, false);
    assert.deepEqual(
      audits(panel).map(([, step]) => step !== null),
      [true, true, false],
    );
    // Outside the protocol: nothing written.
    assert.equal(await panel.handleMessage({ type: 'setBlind', blind: 'yes' }), undefined);
    assert.equal(config().inspect<boolean>('blind')?.globalValue, false);
  });
});
