import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TrajauditApi } from '../../../src/extension/extension';
import { startMockModelServer, type MockModelServer } from '../../mock/mockModelServer';
import { searchAuditorScript } from '../../unit/audit/fixtures';
import { activateExtension, samplesRoot } from './helpers.js';

const SECRET = 'sk-it-secret-4f9d2c7b1e';

function containsDeep(value: unknown, needle: string): boolean {
  return JSON.stringify(value ?? null).includes(needle);
}

suite('API keys stay in SecretStorage', () => {
  let api: TrajauditApi;
  let server: MockModelServer;
  let dir: string;

  suiteSetup(async () => {
    api = (await activateExtension()).exports as TrajauditApi;
    server = await startMockModelServer({ script: searchAuditorScript({}, 0), apiKey: SECRET, echoKeyInAuthErrors: true });
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('trajaudit.setApiKey', 'openai', '');
    const config = vscode.workspace.getConfiguration('trajaudit.audit');
    for (const key of ['provider', 'baseUrl', 'model']) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a key set with "Set API Key" is used for audits and never appears in settings, logs or sidecars', async () => {
    const config = vscode.workspace.getConfiguration('trajaudit.audit');
    await config.update('provider', 'openai', vscode.ConfigurationTarget.Global);
    await config.update('baseUrl', server.openaiBaseUrl, vscode.ConfigurationTarget.Global);
    await config.update('model', 'mock-gpt', vscode.ConfigurationTarget.Global);
    assert.equal(await vscode.commands.executeCommand('trajaudit.setApiKey', 'openai', SECRET), true);
    dir = join(samplesRoot().fsPath, '.scratch', `secrets-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'case.traj.json');
    copyFileSync(join(samplesRoot().fsPath, 'trajectories', 'tongyi', 'alpine-footbridge-span.traj.json'), file);
    const job = await vscode.commands.executeCommand<{ status: string }>('trajaudit.auditTrajectory', vscode.Uri.file(file), {
      method: 'all-at-once',
      wait: true,
      rerun: true,
    });
    assert.equal(job?.status, 'done', 'the mock accepted the key from SecretStorage');
    assert.ok(server.requests.some((r) => r.auth === 'bearer'));

    // A wrong key: the server echoes it in its 401, the error must not carry it further.
    await vscode.commands.executeCommand('trajaudit.setApiKey', 'openai', `${SECRET}-wrong`);
    const failed = await vscode.commands.executeCommand<{ status: string; errors: string[] }>('trajaudit.auditTrajectory', vscode.Uri.file(file), {
      method: 'all-at-once',
      wait: true,
      rerun: true,
    });
    assert.equal(failed?.status, 'failed');

    assert.ok(!containsDeep(vscode.workspace.getConfiguration('trajaudit'), SECRET), 'not in settings');
    assert.ok(!containsDeep(api.log.recent(), SECRET), 'not in the log');
    assert.ok(!containsDeep(failed.errors, SECRET), 'not in job errors');
    assert.ok(!readFileSync(`${file}.audit.json`, 'utf8').includes(SECRET), 'not in the sidecar');

    // Nor in a score report of the folder (scored while the key is set), in any export format.
    copyFileSync(join(samplesRoot().fsPath, 'trajectories', 'tongyi', 'alpine-footbridge-span.traj.json.audit.json'), join(dir, 'other.traj.json.audit.json'));
    copyFileSync(join(samplesRoot().fsPath, 'trajectories', 'tongyi', 'alpine-footbridge-span.traj.json'), join(dir, 'other.traj.json'));
    const panel = await vscode.commands.executeCommand<
      { exportTo(format: 'md' | 'json' | 'csv', target: vscode.Uri): Promise<vscode.Uri | undefined> } | undefined
    >('trajaudit.scoreRunFolder', vscode.Uri.file(dir), { judge: 'deterministic' });
    assert.ok(panel, 'the folder scores');
    for (const format of ['md', 'json', 'csv'] as const) {
      const out = vscode.Uri.file(join(dir, `report.${format}`));
      await panel.exportTo(format, out);
      assert.ok(!readFileSync(out.fsPath, 'utf8').includes(SECRET), `not in the ${format} report`);
    }
  });
});
