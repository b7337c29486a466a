// The score report in real VS Code: trajaudit.scoreRunFolder scores a run folder, opens the report
// webview (which draws its tables and Chart.js charts under the strict CSP and says what it drew),
// exports, and follows step links to the trajectory editor.
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { contractJson } from '../../../src/core/scoring/render';
import { scoreRunFolderSync } from '../../../src/core/scoring/scoreRunFolder';
import type { TrajauditApi } from '../../../src/extension/extension';
import { jsonFor } from '../../../src/core/scoring/report/reportExports';
import type { ReportPanel, RenderedInfo } from '../../../src/extension/report/reportPanel';
import { startMockModelServer, type MockRequest } from '../../mock/mockModelServer';
import { activateExtension, closeAllEditors, samplesRoot, waitFor } from './helpers.js';

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

suite('Score report: Score Run Folder opens a report webview', () => {
  let api: TrajauditApi;
  let scratch: string;

  suiteSetup(async () => {
    api = (await activateExtension()).exports as TrajauditApi;
    scratch = join(samplesRoot().fsPath, '.scratch', `report-${Date.now()}`);
    mkdirSync(scratch, { recursive: true });
  });

  suiteTeardown(async () => {
    await closeAllEditors();
    rmSync(scratch, { recursive: true, force: true });
  });

  async function score(folder: string, args?: object): Promise<{ panel: ReportPanel; rendered: RenderedInfo }> {
    const panel = await vscode.commands.executeCommand<ReportPanel | undefined>('trajaudit.scoreRunFolder', vscode.Uri.file(folder), args);
    assert.ok(panel, 'the command returns the report panel');
    assert.equal(api.reports.latest, panel, 'the API knows the panel');
    assert.equal(api.reports.forFolder(folder), panel);
    const rendered = await within(panel.whenRendered(), 20_000, 'the report webview to draw');
    assert.deepEqual(panel.cspViolations, [], 'no Content-Security-Policy violation (Chart.js under the strict CSP)');
    assert.deepEqual(rendered.chartErrors, [], 'every chart drew');
    return { panel, rendered };
  }

  test('audit gold/predictions: the numbers, the charts, and a JSON export equal to scoreRunFolderSync', async () => {
    const folder = join(samplesRoot().fsPath, 'runs', 'audit-gold-pred');
    const expected = scoreRunFolderSync(folder);
    assert.ok(expected.score.kind === 'audit');
    const { panel, rendered } = await score(folder);
    assert.ok(panel.panel.visible, 'the panel is shown');
    assert.equal(panel.panel.title, 'Score: runs/audit-gold-pred');
    assert.equal(panel.model.kind, 'audit');
    assert.equal(panel.model.reason, expected.detection.reason);
    assert.equal(panel.model.judgeMode.model, false);
    const m = expected.score.metrics;
    assert.deepEqual(rendered.figures, {
      'CS-Strict': pct(m.cs_strict),
      'CS-Loose': pct(m.cs_loose),
      'RC-Acc': pct(m.rc_acc),
      'RC-F1': pct(m.rc_f1),
      Diag: pct(m.diag),
      'Rep@Diag': pct(m.rep_at_diag),
      FPS: pct(m.fps),
    });
    assert.equal(rendered.figures['CS-Strict'], '46.15%');
    assert.equal(rendered.charts, 2, 'per-class F1 bars and the confusion heat map (no positions in these gold lines)');
    assert.ok(rendered.tables >= 5);
    assert.equal(rendered.links, 0, 'no trajectories to link to');

    const out = vscode.Uri.file(join(scratch, 'audit-score.json'));
    assert.equal((await panel.exportTo('json', out))?.fsPath, out.fsPath);
    const written = readFileSync(out.fsPath, 'utf8');
    assert.deepEqual(JSON.parse(written), contractJson(expected.score));
    assert.equal(written, jsonFor(expected), 'exactly the score --json document');
    await panel.exportTo('md', vscode.Uri.file(join(scratch, 'audit.md')));
    assert.match(readFileSync(join(scratch, 'audit.md'), 'utf8'), /^# Score report: .*\n[\s\S]*\| CS-Strict \| 46\.15% \|/);
    await panel.exportTo('csv', vscode.Uri.file(join(scratch, 'audit.csv')));
    const csv = readFileSync(join(scratch, 'audit.csv'), 'utf8').trimEnd().split('\r\n');
    assert.equal(csv.length, expected.score.n + 1, 'a header and one row per gold case');
    assert.deepEqual(
      readdirSync(scratch).filter((n) => n.includes('.tmp-')),
      [],
      'atomic writes leave no temporary files',
    );
  });

  test('DeepSearchQA run: figures with intervals, category and mean charts, JSON export', async () => {
    const folder = join(samplesRoot().fsPath, 'runs', 'deepsearchqa-run');
    const before = readdirSync(folder).map((n) => [n, readFileSync(join(folder, n), 'utf8')]);
    const expected = scoreRunFolderSync(folder);
    assert.ok(expected.score.kind === 'deepsearchqa');
    const { panel, rendered } = await score(folder);
    assert.equal(panel.model.kind, 'deepsearchqa');
    assert.match(panel.model.reason, /trajaudit\.run\.json says "kind": "deepsearchqa"/);
    assert.match(panel.model.judgeMode.text, /No judge was needed: 12 cached verdicts reused/);
    const s = expected.score;
    assert.deepEqual(rendered.figures, {
      F1: pct(s.metrics.f1),
      Precision: pct(s.metrics.precision),
      Recall: pct(s.metrics.recall),
      'Fully correct': pct(s.metrics.fully_correct),
    });
    assert.equal(rendered.charts, 2, 'category shares and F1/P/R, with 95% whiskers');
    const out = vscode.Uri.file(join(scratch, 'dsqa-score.json'));
    await panel.exportTo('json', out);
    assert.deepEqual(JSON.parse(readFileSync(out.fsPath, 'utf8')), contractJson(expected.score));
    assert.deepEqual(
      readdirSync(folder).map((n) => [n, readFileSync(join(folder, n), 'utf8')]),
      before,
      'scoring wrote nothing into the sample run',
    );
  });

  test('trajectories with sidecars: deterministic judges said so, and a step link reveals the step in the trajectory editor', async () => {
    const folder = join(scratch, 'trajectories');
    mkdirSync(folder, { recursive: true });
    const source = join(samplesRoot().fsPath, 'trajectories');
    for (const sub of readdirSync(source)) {
      for (const name of readdirSync(join(source, sub)).filter((n) => n.endsWith('.audit.json'))) {
        const trajectory = name.slice(0, -'.audit.json'.length);
        copyFileSync(join(source, sub, name), join(folder, name));
        copyFileSync(join(source, sub, trajectory), join(folder, trajectory));
      }
    }
    const expected = scoreRunFolderSync(folder);
    assert.ok(expected.score.kind === 'audit');
    const { panel, rendered } = await score(folder, { judge: 'deterministic' });
    assert.equal(panel.model.judgeMode.model, false);
    assert.match(panel.model.judgeMode.text, /^Deterministic judges only \(as asked\): 3 verdicts need a model judge/);
    assert.equal(rendered.charts, 3, 'per-class F1, confusion heat map, critical-position histogram');
    assert.equal(rendered.links, panel.links.size);
    assert.ok(panel.links.size >= expected.score.n, 'gold step links for every case, predicted ones too');

    // A record of the JSONL file, as the webview posts it when its step number is clicked.
    const [linkId, target] = [...panel.links].find(([id, t]) => id.startsWith('g') && t.file.endsWith('batch.traj.jsonl') && t.record === '1188') ?? [];
    assert.ok(linkId && target, 'a gold-step link to record 1188 of batch.traj.jsonl');
    assert.equal(target.position, 6);
    const ok = await panel.handleMessage({ type: 'openLink', link: linkId });
    assert.equal(ok, true, 'revealStep ran');
    const uri = vscode.Uri.file(target.file);
    const session = await waitFor(() => api.editorProvider.sessionsFor(uri)[0], { message: 'the trajectory editor opens' });
    assert.equal(session.currentRecordId, '1188', 'the linked record is shown');
    assert.deepEqual(panel.followed.at(-1), target);
    assert.ok(panel.panel.viewColumn !== session.panel.viewColumn, 'the trajectory opens beside the report');

    // The predicted step of the same case, in the already open editor.
    const predictedId = linkId.replace(/^g/, 'p');
    assert.equal(panel.links.get(predictedId)?.position, 24);
    assert.equal(await panel.handleMessage({ type: 'openLink', link: predictedId }), true);
    assert.equal(api.editorProvider.sessionsFor(uri).length, 1, 'no second editor');
    assert.equal(await panel.handleMessage({ type: 'openLink', link: 'no-such-link' }), false, 'unknown links are refused');

    // Rescoring updates the same panel.
    const again = await vscode.commands.executeCommand<ReportPanel>('trajaudit.scoreRunFolder', vscode.Uri.file(folder), { judge: 'deterministic' });
    assert.equal(again, panel);
    await within(panel.whenRendered(), 20_000, 'the report to redraw');
  });

  test('with a model configured (mock server) and a trusted workspace, missing rubric verdicts are judged and cached', async () => {
    const folder = join(scratch, 'judged');
    mkdirSync(folder, { recursive: true });
    const source = join(samplesRoot().fsPath, 'trajectories');
    for (const sub of readdirSync(source)) {
      for (const name of readdirSync(join(source, sub)).filter((n) => n.endsWith('.audit.json'))) {
        copyFileSync(join(source, sub, name), join(folder, name));
        copyFileSync(join(source, sub, name.slice(0, -'.audit.json'.length)), join(folder, name.slice(0, -'.audit.json'.length)));
      }
    }
    // The repair-rubric grader passes every rubric.
    const server = await startMockModelServer({
      script: (request: MockRequest) => {
        const n = Number(/Rubrics \((\d+)\):/.exec(request.userText)?.[1] ?? 0);
        return { text: JSON.stringify({ grades: Array.from({ length: n }, (_, i) => ({ rubric: i + 1, pass: true, reason: 'explicit' })) }) };
      },
    });
    const config = vscode.workspace.getConfiguration('trajaudit.audit');
    try {
      await config.update('provider', 'openai', vscode.ConfigurationTarget.Global);
      await config.update('baseUrl', server.openaiBaseUrl, vscode.ConfigurationTarget.Global);
      await config.update('model', 'mock-gpt', vscode.ConfigurationTarget.Global);
      assert.ok(vscode.workspace.isTrusted);
      const { panel } = await score(folder);
      assert.equal(panel.model.judgeMode.model, true, panel.model.judgeMode.text);
      assert.match(panel.model.judgeMode.text, /^Judged with mock-gpt: 3 model calls/);
      assert.equal(server.requests.length, 3, 'one rubric-grader call per sound diagnosis with a repair and no grades');
      const s = panel.scored.score;
      assert.ok(s.kind === 'audit');
      assert.equal(s.counts.repairs_passed, 3);
      assert.equal(s.counts.ungraded_repairs, 0);
      assert.deepEqual(
        panel.scored.cases?.filter((c) => c.sound).map((c) => c.repair),
        ['pass', 'pass', 'pass'],
      );
      const cache = readFileSync(join(folder, 'judgments.jsonl'), 'utf8').trim().split('\n');
      assert.equal(cache.length, 3, 'the verdicts were appended to the judgment cache');
      // Scoring again reuses the cache: no model call.
      const again = await vscode.commands.executeCommand<ReportPanel>('trajaudit.scoreRunFolder', vscode.Uri.file(folder));
      assert.equal(server.requests.length, 3);
      assert.match(again?.model.judgeMode.text ?? '', /3 cached verdicts reused/);
    } finally {
      for (const key of ['provider', 'baseUrl', 'model']) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
      await server.close();
    }
  });

  test('a folder that is no run folder: a clear error, no panel', async () => {
    const empty = join(scratch, 'empty');
    mkdirSync(empty, { recursive: true });
    const panels = api.reports.all.length;
    const result = await vscode.commands.executeCommand('trajaudit.scoreRunFolder', vscode.Uri.file(empty));
    assert.equal(result, undefined);
    assert.equal(api.reports.all.length, panels);
  });
});
