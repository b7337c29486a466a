import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TrajauditApi } from '../../../src/extension/extension';
import { startMockModelServer, type MockModelServer } from '../../mock/mockModelServer';
import { searchAuditorScript } from '../../unit/audit/fixtures';
import { activateExtension, closeAllEditors, samplesRoot, waitFor } from './helpers.js';

suite('Audits run in the background and land in the editor', () => {
  let api: TrajauditApi;
  let dir: string;
  let file: string;
  let server: MockModelServer;

  suiteSetup(async () => {
    api = (await activateExtension()).exports as TrajauditApi;
    server = await startMockModelServer({ script: searchAuditorScript({}, 50) });
    const config = vscode.workspace.getConfiguration('trajaudit.audit');
    await config.update('provider', 'openai', vscode.ConfigurationTarget.Global);
    await config.update('baseUrl', server.openaiBaseUrl, vscode.ConfigurationTarget.Global);
    await config.update('model', 'mock-gpt', vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => {
    const config = vscode.workspace.getConfiguration('trajaudit.audit');
    for (const key of ['provider', 'baseUrl', 'model']) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  setup(() => {
    dir = join(samplesRoot().fsPath, '.scratch', `audit-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    file = join(dir, 'case.traj.json');
    copyFileSync(join(samplesRoot().fsPath, 'trajectories', 'tongyi', 'alpine-footbridge-span.traj.json'), file);
  });

  teardown(async () => {
    await closeAllEditors();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the offline heuristic runs as a background job and writes the sidecar', async () => {
    const job = await vscode.commands.executeCommand<{ id: number; status: string; completed: number }>('trajaudit.auditTrajectory', vscode.Uri.file(file), {
      method: 'heuristic',
      wait: true,
    });
    assert.equal(job?.status, 'done');
    assert.equal(job?.completed, 1);
    const sidecar = JSON.parse(readFileSync(`${file}.audit.json`, 'utf8'));
    assert.equal(sidecar.records['0'].audits[0].method, 'heuristic');
    assert.equal(sidecar.records['0'].audits[0].provider, 'offline');
    assert.ok(
      api.jobs.all.some((j) => j.id === job.id),
      'the job is listed',
    );
  });

  test('SearchAuditor against the mock model server: 5 calls, result shown in the open editor', async () => {
    const uri = vscode.Uri.file(file);
    await vscode.commands.executeCommand('vscode.openWith', uri, 'trajaudit.trajectoryAny');
    await waitFor(() => api.editorProvider.sessionsFor(uri).length > 0, { message: 'editor opens' });
    const before = server.requests.length;
    const job = await vscode.commands.executeCommand<{ status: string; calls: number; inputTokens: number }>('trajaudit.auditTrajectory', uri, {
      method: 'searchauditor',
      wait: true,
    });
    assert.equal(job?.status, 'done');
    assert.equal(server.requests.length - before, 5);
    assert.equal(job?.calls, 5);
    assert.ok(job.inputTokens > 0);
    const document = api.editorProvider.sessionsFor(uri)[0].document;
    await waitFor(() => document.audits('0').some((a) => a.method === 'searchauditor'), {
      message: 'the audit appears in the editor document',
      timeoutMs: 15000,
    });
    const again = await vscode.commands.executeCommand<{ cachedHits: number; calls: number }>('trajaudit.auditTrajectory', uri, {
      method: 'searchauditor',
      wait: true,
    });
    assert.equal(again?.cachedHits, 1, 'a second run reuses the cached result');
    assert.equal(again?.calls, 0);
  });
});
