// "Resume with Repair" in the real VS Code (issue 17 item 3): on an audited trajectory file, against
// the scripted agent of the unit tests (test/fixtures/resume/scripted-agent.mjs), it writes the
// resume run folder, its progress reaches the end, the fix rates open in the score report, and a
// rerun resumes instead of running the agent again; an untrusted workspace refuses it.
//
// The cohort (see test/unit/resume/resume.test.ts for the hand computation): three trajectories
// with a repair × three conditions; fix rates repair 2/3, retry 1/3, hint 1/3.
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ResumeRunSummary } from '../../../src/core/resume/runResume';
import type { TrajauditApi } from '../../../src/extension/extension';
import { activateExtension, closeAllEditors, samplesRoot, waitFor } from './helpers.js';

const COMMAND = 'trajaudit.resumeWithRepair';
const CONDITIONS = ['repair', 'retry', 'hint'];

suite('Resume with Repair (issue 17)', () => {
  let api: TrajauditApi;
  let dir: string;
  let file: string;
  let template: string;

  suiteSetup(async () => {
    api = (await activateExtension()).exports as TrajauditApi;
  });

  setup(() => {
    dir = join(samplesRoot().fsPath, '.scratch', `resume-${Date.now()}`);
    mkdirSync(dir, { recursive: true });
    const fixtures = join(dirname(samplesRoot().fsPath), 'test', 'fixtures', 'resume');
    // The sidecar names its trajectory by file name and hash: the copied pair stays an audited trajectory.
    for (const name of ['cohort.traj.jsonl', 'cohort.traj.jsonl.audit.json']) copyFileSync(join(fixtures, name), join(dir, name));
    file = join(dir, 'cohort.traj.jsonl');
    // The extension host's own Node runs the agent, so the test does not depend on a `node` on PATH.
    template = `${process.execPath} ${join(fixtures, 'scripted-agent.mjs')} {resume_file} {out_answer} {out_trajectory} {id}`;
  });

  teardown(async () => {
    await closeAllEditors();
    rmSync(dir, { recursive: true, force: true });
  });

  test('on an audited trajectory: the resume run folder, progress to the end, the fix rates in the report; a rerun resumes', async () => {
    const out = join(dir, 'resume-run');
    const logged = api.log.recent().length;
    const summary = await vscode.commands.executeCommand<ResumeRunSummary | undefined>(COMMAND, vscode.Uri.file(file), {
      command: template,
      conditions: CONDITIONS,
      out,
    });
    assert.ok(summary, 'the command returns the run summary');
    assert.deepEqual(summary.failed, []);
    assert.equal(summary.aborted, false);
    assert.deepEqual([summary.total, summary.completed, summary.skipped], [9, 9, 0]);

    const manifest = JSON.parse(readFileSync(join(out, 'trajaudit.run.json'), 'utf8')) as { kind: string; resume: { conditions: string[] } };
    assert.equal(manifest.kind, 'resume');
    assert.deepEqual(manifest.resume.conditions, ['repair', 'retry', 'hint'], 'the three conditions');
    const lines = readFileSync(join(out, 'resumes.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; condition: string; answer: string; correct: boolean; trajectory: string });
    assert.equal(lines.length, 9);
    for (const l of lines) assert.ok(existsSync(join(out, l.trajectory)), `${l.trajectory} recorded beside the old trajectory's run`);
    const line = lines.find((l) => l.id === 'cohort.traj.jsonl#101' && l.condition === 'repair');
    assert.deepEqual([line?.answer, line?.correct], ['Lake Ohrid', true], 'the agent followed the repair');

    // Progress: the counter reached 9 of 9 and the closing line says so.
    const log = api.log.recent().slice(logged);
    const counts = log.map((l) => /Resume with Repair: \[(\d+)\/(\d+)\]/.exec(l)).filter((m): m is RegExpExecArray => m !== null);
    assert.ok(counts.length >= 9, `a progress line per run, got:\n${log.join('\n')}`);
    assert.deepEqual(counts[counts.length - 1].slice(1, 3), ['9', '9']);
    assert.ok(
      log.some((l) => l.includes('Resume with Repair: 9 run(s) now, 0 earlier, 0 failed.')),
      log.join('\n'),
    );

    // The report of the resume run folder: the hand-computed fix rates.
    const panel = await waitFor(() => api.reports.forFolder(out), { message: 'the score report of the resume run folder' });
    assert.equal(panel.model.kind, 'resume');
    const rendered = await panel.whenRendered();
    assert.deepEqual(
      [rendered.figures['Fix rate: repair'], rendered.figures['Fix rate: retry'], rendered.figures['Fix rate: hint']],
      ['66.67%', '33.33%', '33.33%'],
    );

    // A rerun of the same command runs nothing again.
    const again = await vscode.commands.executeCommand<ResumeRunSummary | undefined>(COMMAND, vscode.Uri.file(file), {
      command: template,
      conditions: CONDITIONS,
      out,
      noReport: true,
    });
    assert.deepEqual([again?.completed, again?.skipped], [0, 9]);
    assert.equal(readFileSync(join(out, 'resumes.jsonl'), 'utf8').trim().split('\n').length, 9);
  });

  test('an untrusted workspace refuses it: no agent run, no run folder', async () => {
    // The test host runs with workspace trust disabled (always trusted); the trust flag the
    // extension reads is made false for this test only, on the same API object it uses.
    const workspace = vscode.workspace as { isTrusted: boolean };
    const own = Object.getOwnPropertyDescriptor(workspace, 'isTrusted');
    Object.defineProperty(workspace, 'isTrusted', { configurable: true, get: () => false });
    const out = join(dir, 'untrusted-run');
    try {
      assert.equal(vscode.workspace.isTrusted, false);
      const logged = api.log.recent().length;
      const result = await vscode.commands.executeCommand(COMMAND, vscode.Uri.file(file), { command: template, conditions: CONDITIONS, out });
      assert.equal(result, undefined, 'refused');
      assert.equal(existsSync(out), false, 'no run folder written');
      assert.ok(
        !api.log
          .recent()
          .slice(logged)
          .some((l) => l.includes('Resume with Repair:')),
        'no agent run started',
      );
    } finally {
      if (own) Object.defineProperty(workspace, 'isTrusted', own);
      else delete (workspace as { isTrusted?: boolean }).isTrusted;
    }
    assert.equal(vscode.workspace.isTrusted, true);
  });
});
