import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXPECTED_COMMANDS, EXTENSION_ID, activateExtension, findSamples, getExtension, openSample, sampleRelativePath, samplesRoot } from './helpers.js';

suite('Activation', () => {
  test('the extension is installed in the extension host', () => {
    const ext = getExtension();
    assert.equal(ext.id, EXTENSION_ID);
    assert.equal(ext.packageJSON.name, 'trajaudit');
  });

  test('the samples workspace is open', () => {
    const root = samplesRoot();
    assert.match(root.path, /\/samples\/?$/, `unexpected workspace folder ${root.toString()}`);
  });

  test('the extension activates', async () => {
    const ext = await activateExtension();
    assert.equal(ext.isActive, true);
  });

  test('its commands are registered', async () => {
    await activateExtension();
    const registered = new Set(await vscode.commands.getCommands(true));
    const contributed: string[] = (getExtension().packageJSON.contributes?.commands ?? []).map((c: { command: string }) => c.command);
    for (const command of EXPECTED_COMMANDS) {
      assert.ok(contributed.includes(command), `package.json does not contribute ${command}`);
    }
    const missing = contributed.filter((command) => !registered.has(command));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  test('a sample trajectory opens in an editor', async () => {
    const [first] = await findSamples('trajectories/**/*.json');
    assert.ok(first, 'no samples/trajectories/**/*.json found');
    const editor = await openSample(sampleRelativePath(first));
    assert.equal(editor.document.uri.toString(), first.toString());
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), first.toString());
  });
});
