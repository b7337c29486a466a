import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { loadFile } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { AuditJob } from '../../../src/extension/audit/auditJobs';
import { batchRoundsText, isBatchMethod } from '../../../src/extension/audit/batchFolderJob';
import { AuditJobsView } from '../../../src/extension/audit/jobsView';
import type { TrajauditApi } from '../../../src/extension/extension';
import { startMockModelServer, type MockModelServer } from '../../mock/mockModelServer';
import { searchAuditorScript } from '../../unit/audit/fixtures';
import { activateExtension, closeAllEditors, samplesRoot, waitFor } from './helpers.js';

const SECRET = 'sk-it-batch-7c1e93d05a';
// Four single-record trajectories of four formats, from the repository's fixtures.
const FIXTURES = ['tongyi-react/webdancer-chatml.json', 'tongyi-react/webdancer-prediction.json', 'smolagents/gaia-run.json', 'atif/danube-v1.0.json'];

/** A Tongyi ReAct (ChatML) run with nine decision steps: one case that needs more halving rounds than the fixtures' three steps. */
function writeNineStepRun(file: string): void {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a Web Information Seeking Master.' },
    { role: 'user', content: 'User: Which architect designed the clock tower of the 1912 Stockholm stadium?' },
  ];
  for (let i = 1; i <= 8; i++) {
    messages.push({
      role: 'assistant',
      content: `<think>Check source ${i}.</think>\n<tool_call>\n{"name": "search", "arguments": {"query": ["stadium clock tower ${i}"]}}\n</tool_call>`,
    });
    messages.push({ role: 'user', content: `<tool_response>\nResult ${i}: the clock tower is mentioned in passing.\n</tool_response>` });
  }
  messages.push({ role: 'assistant', content: '<think>Lallerstedt, I guess.</think>\n<answer>Erik Lallerstedt</answer>' });
  writeFileSync(file, JSON.stringify({ messages, answer: 'Torben Grut' }, null, 2));
}

suite('Folder audits through the batch API (issue 17)', () => {
  let api: TrajauditApi;
  let server: MockModelServer;
  let dir: string;
  let files: string[];

  suiteSetup(async () => {
    api = (await activateExtension()).exports as TrajauditApi;
    server = await startMockModelServer({ script: searchAuditorScript({}, 0), apiKey: SECRET });
    const config = vscode.workspace.getConfiguration('trajaudit.audit');
    await config.update('provider', 'openai', vscode.ConfigurationTarget.Global);
    await config.update('baseUrl', server.openaiBaseUrl, vscode.ConfigurationTarget.Global);
    await config.update('model', 'mock-gpt', vscode.ConfigurationTarget.Global);
    await config.update('pricing', { input: 2, cachedInput: 0.5, output: 8 }, vscode.ConfigurationTarget.Global);
    assert.equal(await vscode.commands.executeCommand('trajaudit.setApiKey', 'openai', SECRET), true);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('trajaudit.setApiKey', 'openai', '');
    const config = vscode.workspace.getConfiguration('trajaudit.audit');
    for (const key of ['provider', 'baseUrl', 'model', 'pricing']) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  setup(() => {
    dir = join(samplesRoot().fsPath, '.scratch', `batch-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    const fixtures = join(dirname(samplesRoot().fsPath), 'test', 'fixtures', 'formats');
    files = FIXTURES.map((f) => {
      const file = join(dir, f.replace('/', '-'));
      copyFileSync(join(fixtures, f), file);
      return file;
    });
  });

  teardown(async () => {
    await closeAllEditors();
    rmSync(dir, { recursive: true, force: true });
  });

  test('SearchAuditor over a folder: estimate, three submissions, cancel and resume without resubmitting, sidecars, usage; a rerun submits nothing', async () => {
    const view = new AuditJobsView(api.jobs);
    const describe = (job: AuditJob) => String(view.getTreeItem({ job }).description);
    const details = (job: AuditJob) => view.getChildren({ job }).map((n) => n.detail ?? '');
    const folder = vscode.Uri.file(dir);
    const open = vscode.Uri.file(files[0]);
    await vscode.commands.executeCommand('vscode.openWith', open, 'trajaudit.trajectoryAny');
    await waitFor(() => api.editorProvider.sessionsFor(open).length > 0, { message: 'editor opens' });
    const args = { method: 'searchauditor', batch: true, acceptEstimate: true, pollSeconds: 0.05 };

    // Stage 1 stays in progress until the job is cancelled (the provider then finishes it).
    server.batchOutcome({ pollsUntilDone: 100_000 });
    const first = await vscode.commands.executeCommand<AuditJob>('trajaudit.auditFolder', folder, args);
    assert.ok(first?.batch, 'a batch job is listed');
    await waitFor(() => first.batch?.phase === 'in progress' && first.batch.stage === 'branches', { message: 'stage 1 in progress' });
    assert.deepEqual(
      server.batchSubmissions.map((b) => b.customIds.length),
      [12],
      'stage 1: the three branches of the four cases in one submission',
    );
    // The estimate before any result: 5 requests per case, cost at half the list prices.
    const estimate = first.batch.estimate!;
    assert.equal(estimate.requests, 20);
    assert.deepEqual(estimate.batchPricing, { input: 1, cachedInput: 0.25, output: 4 });
    assert.ok(Math.abs(estimate.costUsd! - (estimate.inputTokens + estimate.outputTokens * 4) / 1e6) < 1e-12);
    assert.match(describe(first), /batch in progress · stage 1\/3 branches · .*estimate: .* at batch prices/);
    assert.ok(details(first).some((d) => d.startsWith('estimate before submitting: 20 request(s)')));
    api.jobs.cancel(first.id);
    await waitFor(() => first.status === 'cancelled', { message: 'the first run stops polling' });
    assert.equal(first.batch.phase, 'stopped');
    server.endBatchesAtNextRetrieve();
    assert.ok(
      files.every((f) => !existsSync(`${f}.audit.json`)),
      'nothing is written before the job is complete',
    );

    // The same command on the same folder resumes the job: stage 1 is not submitted again.
    const resumed = await vscode.commands.executeCommand<AuditJob>('trajaudit.auditFolder', folder, { ...args, wait: true });
    assert.equal(resumed?.status, 'done', resumed?.errors.join('; '));
    assert.equal(resumed.batch?.resumed, true);
    assert.deepEqual(
      server.batchSubmissions.map((b) => b.customIds.length),
      [12, 4, 4],
      'adjudication and repair follow, one submission each',
    );
    assert.equal(resumed.completed, 4);
    assert.equal(resumed.cachedHits, 0);
    // The real usage read back from all 20 results, and its cost at batch prices.
    const usage = resumed.batch.usage!;
    assert.equal(usage.calls, 20);
    const expected = ((usage.inputTokens - usage.cachedInputTokens) * 1 + usage.cachedInputTokens * 0.25 + usage.outputTokens * 4) / 1e6;
    assert.ok(Math.abs(resumed.batch.costUsd! - expected) < 1e-12);
    assert.match(describe(resumed), /^done · batch done · 4\/4 · usage: 20 call\(s\), .* at batch prices$/);
    // The audits are in the sidecars as a synchronous audit writes them; the job folder is closed.
    for (const file of files) {
      const sidecar = JSON.parse(readFileSync(`${file}.audit.json`, 'utf8'));
      const audits = sidecar.records['0'].audits;
      assert.equal(audits.length, 1, basename(file));
      assert.equal(audits[0].method, 'searchauditor');
      assert.equal(audits[0].model, 'mock-gpt');
    }
    assert.deepEqual(readdirSync(join(dir, '.trajaudit-batch')), ['done']);
    const document = api.editorProvider.sessionsFor(open)[0].document;
    await waitFor(() => document.audits('0').some((a) => a.method === 'searchauditor'), { message: 'the audit appears in the open editor', timeoutMs: 15000 });

    // Once stored, a rerun reuses every audit and submits nothing.
    const again = await vscode.commands.executeCommand<AuditJob>('trajaudit.auditFolder', folder, { ...args, wait: true });
    assert.equal(again?.status, 'done');
    assert.equal(again.cachedHits, 4);
    assert.equal(server.batchSubmissions.length, 3);
    assert.ok(!api.log.recent().some((line) => line.includes(SECRET)), 'the API key is never logged');
    assert.ok(![first, resumed, again].some((job) => JSON.stringify({ ...job, cancel: undefined }).includes(SECRET)), 'nor shown in a job');
  });

  test('Binary Search over a folder: one submission per halving round then the final judgment, cancel and resume, sidecars, usage; a rerun submits nothing', async () => {
    assert.ok(isBatchMethod('binary-search') && isBatchMethod('all-at-once') && isBatchMethod('step-by-step') && !isBatchMethod('heuristic'));
    assert.match(batchRoundsText('binary-search'), /^one submission per halving round .*then one for the final judgment$/);
    const view = new AuditJobsView(api.jobs);
    const describe = (job: AuditJob) => String(view.getTreeItem({ job }).description);
    const details = (job: AuditJob) => view.getChildren({ job }).map((n) => n.detail ?? '');
    const long = join(dir, 'tongyi-nine-steps.json');
    writeNineStepRun(long);
    // The halvings the mock's replies ("first" half every time) lead to: 3 steps → 1 (one halving), 9 → 4 → 2 (two).
    assert.deepEqual(
      [...files, long].map((f) => {
        const record = loadFile(f).records[0];
        return isTrajectoryRecord(record) ? record.trajectory.decisionSteps.length : 0;
      }),
      [3, 3, 3, 3, 9],
    );
    const folder = vscode.Uri.file(dir);
    const args = { method: 'binary-search', batch: true, acceptEstimate: true, pollSeconds: 0.05 };
    const before = server.batchSubmissions.length;
    const submissions = () => server.batchSubmissions.slice(before).map((b) => b.customIds);

    // Round 1 stays in progress until the job is cancelled (the provider then finishes it).
    server.batchOutcome({ pollsUntilDone: 100_000 });
    const first = await vscode.commands.executeCommand<AuditJob>('trajaudit.auditFolder', folder, args);
    assert.ok(first?.batch, 'a batch job is listed');
    assert.equal(first.method, 'binary-search');
    await waitFor(() => first.batch?.phase === 'in progress' && first.batch.round === 1, { message: 'round 1 in progress' });
    assert.deepEqual(
      submissions().map((ids) => ids.length),
      [5],
      'round 1: the first halving question of every case in one submission',
    );
    // The estimate walks each case's longest path, down the larger half: 3 steps → 2, then the
    // final judgment (2 requests); 9 → 5 → 3 → 2, then the final judgment (4).
    const estimate = first.batch.estimate!;
    assert.equal(estimate.requests, 4 * 2 + 4);
    assert.deepEqual(estimate.batchPricing, { input: 1, cachedInput: 0.25, output: 4 });
    assert.match(describe(first), /batch in progress · round 1 · .*estimate: .* at batch prices/);
    assert.ok(details(first).some((d) => d === 'batch: in progress, last round 1'));
    api.jobs.cancel(first.id);
    await waitFor(() => first.status === 'cancelled', { message: 'the first run stops polling' });
    assert.equal(first.batch.phase, 'stopped');
    server.endBatchesAtNextRetrieve();
    assert.ok(
      [...files, long].every((f) => !existsSync(`${f}.audit.json`)),
      'nothing is written before the job is complete',
    );

    // The same command resumes the job: round 1 is collected, not submitted again.
    const resumed = await vscode.commands.executeCommand<AuditJob>('trajaudit.auditFolder', folder, { ...args, wait: true });
    assert.equal(resumed?.status, 'done', resumed?.errors.join('; '));
    assert.equal(resumed.batch?.resumed, true);
    assert.deepEqual(
      submissions().map((ids) => ids.length),
      [5, 5, 1],
      'round 2: the final judgment of the four short cases and the second halving of the long one; round 3: its final judgment',
    );
    assert.ok(submissions().every((ids, i) => ids.every((id) => id.endsWith(`-r${i + 1}-0-a1`))));
    assert.equal(resumed.completed, 5);
    assert.equal(resumed.batch.round, 3);
    const usage = resumed.batch.usage!;
    assert.equal(usage.calls, 11);
    const expected = ((usage.inputTokens - usage.cachedInputTokens) * 1 + usage.cachedInputTokens * 0.25 + usage.outputTokens * 4) / 1e6;
    assert.ok(Math.abs(resumed.batch.costUsd! - expected) < 1e-12);
    assert.match(describe(resumed), /^done · batch done · 5\/5 · usage: 11 call\(s\), .* at batch prices$/);
    // Each sidecar holds the Binary Search audit, its calls those of its own rounds.
    for (const [file, calls] of [...files.map((f) => [f, 2] as const), [long, 3] as const]) {
      const audits = JSON.parse(readFileSync(`${file}.audit.json`, 'utf8')).records['0'].audits;
      assert.equal(audits.length, 1, basename(file));
      assert.equal(audits[0].method, 'binary-search');
      assert.equal(audits[0].model, 'mock-gpt');
      assert.equal(audits[0].usage.calls, calls, basename(file));
    }
    assert.deepEqual(readdirSync(join(dir, '.trajaudit-batch')), ['done']);

    // Once stored, a rerun reuses every audit and submits nothing.
    const again = await vscode.commands.executeCommand<AuditJob>('trajaudit.auditFolder', folder, { ...args, wait: true });
    assert.equal(again?.status, 'done');
    assert.equal(again.cachedHits, 5);
    assert.equal(submissions().length, 3);
  });

  test('"Use batch API" is offered for the three baselines with their rounds, not for the heuristic; an untrusted workspace refuses a batch baseline audit', async () => {
    const folder = vscode.Uri.file(dir);
    const calls = server.requests.length;
    const batches = server.batchSubmissions.length;
    // The pick is seen on the same API object the extension uses (as the trust flag below); dismissing it runs nothing.
    const window = vscode.window as { showQuickPick: unknown };
    const ownPick = Object.getOwnPropertyDescriptor(window, 'showQuickPick');
    const picks: { title?: string; items: { label: string; description?: string }[] }[] = [];
    Object.defineProperty(window, 'showQuickPick', {
      configurable: true,
      value: async (items: { label: string; description?: string }[], options?: { title?: string }) => {
        picks.push({ items: await items, ...(options?.title ? { title: options.title } : {}) });
        return undefined;
      },
    });
    try {
      for (const method of ['all-at-once', 'binary-search', 'step-by-step'] as const) {
        picks.length = 0;
        assert.equal(await vscode.commands.executeCommand('trajaudit.auditFolder', folder, { method }), undefined, method);
        assert.equal(picks.length, 1, method);
        assert.equal(picks[0].title, `How to run the ${method} baseline over the folder`);
        assert.deepEqual(
          picks[0].items.map((i) => [i.label, i.description]),
          [
            ['Run now', 'call by call, results as they come'],
            ['Use batch API (half price, results in minutes to hours)', `${batchRoundsText(method)}; resumable`],
          ],
        );
      }
      assert.match(batchRoundsText('all-at-once'), /^one submission: one judgment per trajectory$/);
      assert.match(batchRoundsText('step-by-step'), /^one submission per round, each judging the next 8 step prefixes/);
      picks.length = 0;
      const heuristic = await vscode.commands.executeCommand<AuditJob>('trajaudit.auditFolder', folder, { method: 'heuristic', wait: true });
      assert.equal(heuristic?.status, 'done');
      assert.equal(heuristic.batch, undefined);
      assert.equal(picks.length, 0, 'the heuristic sends no requests: no batch choice');
    } finally {
      if (ownPick) Object.defineProperty(window, 'showQuickPick', ownPick);
      else delete (window as { showQuickPick?: unknown }).showQuickPick;
    }

    const workspace = vscode.workspace as { isTrusted: boolean };
    const ownTrust = Object.getOwnPropertyDescriptor(workspace, 'isTrusted');
    Object.defineProperty(workspace, 'isTrusted', { configurable: true, get: () => false });
    try {
      const refused = await vscode.commands.executeCommand('trajaudit.auditFolder', folder, {
        method: 'binary-search',
        batch: true,
        acceptEstimate: true,
        wait: true,
      });
      assert.equal(refused, undefined, 'refused');
    } finally {
      if (ownTrust) Object.defineProperty(workspace, 'isTrusted', ownTrust);
      else delete (workspace as { isTrusted?: boolean }).isTrusted;
    }
    assert.equal(vscode.workspace.isTrusted, true);
    assert.equal(existsSync(join(dir, '.trajaudit-batch')), false, 'no job folder');
    assert.equal(server.batchSubmissions.length, batches, 'nothing submitted');
    assert.equal(server.requests.length, calls, 'no model call');
  });

  test('"Run now" keeps the synchronous folder audit: five calls per trajectory, no batch', async () => {
    const calls = server.requests.length;
    const batches = server.batchSubmissions.length;
    const job = await vscode.commands.executeCommand<AuditJob>('trajaudit.auditFolder', vscode.Uri.file(dir), {
      method: 'searchauditor',
      batch: false,
      wait: true,
    });
    assert.equal(job?.status, 'done', job?.errors.join('; '));
    assert.equal(job.batch, undefined);
    assert.equal(job.completed, 4);
    assert.equal(server.requests.filter((r, i) => i >= calls && r.protocol !== 'other').length, 20);
    assert.equal(server.batchSubmissions.length, batches);
    for (const file of files) assert.equal(JSON.parse(readFileSync(`${file}.audit.json`, 'utf8')).records['0'].audits[0].method, 'searchauditor');
  });
});
