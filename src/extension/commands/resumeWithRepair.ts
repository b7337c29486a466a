// "Resume with Repair" (seed 002 §5.4): `trajaudit resume` on an audited trajectory or a folder, as
// a cancellable progress notification; the resume run folder's score opens in the report. It runs a
// shell command, so it refuses to run in an untrusted workspace, as the harnesses do.
import { basename, dirname, extname, join } from 'node:path';
import { statSync } from 'node:fs';
import * as vscode from 'vscode';
import { RESUME_TEMPLATE_VARIABLES, templateProblems } from '../../core/harness/agent/command';
import { InputError } from '../../core/input/inputError';
import { RESUME_CONDITIONS, type ResumeCondition } from '../../core/resume/conditions';
import { runResume, type ResumeRunSummary } from '../../core/resume/runResume';
import { targetUri } from '../activeFile';
import type { Log } from '../log';
import { SCORE_RUN_FOLDER_COMMAND, type ScoreCommandArgs } from '../report/scoreCommand';

export const RESUME_WITH_REPAIR_COMMAND = 'trajaudit.resumeWithRepair';

/** Options a caller (tests, scripts) may pass instead of answering the prompts. */
export interface ResumeCommandArgs {
  command?: string;
  conditions?: ResumeCondition[];
  out?: string;
  /** Do not open the score report afterwards. */
  noReport?: boolean;
}

const UNTRUSTED =
  'This workspace is not trusted. Resume with Repair runs your agent command (a shell command), so Trajectory Auditor only runs it in a trusted workspace. Trust the workspace (Manage Workspace Trust) to run it.';

const CONDITION_HELP: Record<ResumeCondition, string> = {
  repair: 'the prefix before the critical step + the repair directives',
  retry: 'the same prefix, no directive (unguided retry)',
  hint: 'the same prefix + a generic hint',
};

async function templateFrom(args: ResumeCommandArgs): Promise<string | undefined> {
  const configured = args.command ?? vscode.workspace.getConfiguration('trajaudit.harness').get<string>('agentCommand', '');
  const template =
    configured ||
    (await vscode.window.showInputBox({
      title: 'Agent command template',
      prompt: `A shell command run per trajectory and condition; variables ${RESUME_TEMPLATE_VARIABLES.map((v) => `{${v}}`).join(' ')} (shell-quoted for you; {resume_file} is the resume payload). Set trajaudit.harness.agentCommand to skip this.`,
      placeHolder: 'python resume_agent.py --payload {resume_file} --answer {out_answer} --trajectory {out_trajectory}',
    }));
  if (!template) return undefined;
  const problems = templateProblems(template, RESUME_TEMPLATE_VARIABLES);
  if (problems.length) {
    void vscode.window.showErrorMessage(`Agent command: ${problems.join('; ')}`);
    return undefined;
  }
  return template;
}

async function conditionsFrom(args: ResumeCommandArgs): Promise<ResumeCondition[] | undefined> {
  if (args.conditions) return args.conditions;
  const picked = await vscode.window.showQuickPick(
    RESUME_CONDITIONS.map((c) => ({ label: c, description: CONDITION_HELP[c], picked: true })),
    { title: 'Resume conditions', canPickMany: true },
  );
  return picked?.length ? picked.map((p) => p.label) : undefined;
}

export function registerResumeWithRepair(log: Log): vscode.Disposable {
  return vscode.commands.registerCommand(RESUME_WITH_REPAIR_COMMAND, async (uri?: vscode.Uri, args: ResumeCommandArgs = {}) => {
    const target = targetUri(uri);
    if (!target) {
      void vscode.window.showWarningMessage('Open or select an audited trajectory (or a folder) first.');
      return undefined;
    }
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(UNTRUSTED, 'Manage Workspace Trust').then((choice) => {
        if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
      });
      return undefined;
    }
    const template = await templateFrom(args);
    if (!template) return undefined;
    const conditions = await conditionsFrom(args);
    if (!conditions) return undefined;
    const source = target.fsPath;
    const isFolder = statSync(source).isDirectory();
    const out = args.out ?? join(isFolder ? source : dirname(source), 'trajaudit-runs', `resume-${basename(source, extname(source))}`);
    const title = 'Resume with Repair';
    const timeoutSeconds = Math.max(1, vscode.workspace.getConfiguration('trajaudit.harness').get<number>('agentTimeoutSeconds', 1800));
    const passApiKeys = vscode.workspace.getConfiguration('trajaudit.harness').get<boolean>('agentPassApiKeys', false) === true;
    const summary = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token): Promise<ResumeRunSummary | undefined> => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        let last = 0;
        try {
          return await runResume({
            source,
            template,
            out,
            conditions,
            judge: 'exact',
            concurrency: 2,
            timeoutMs: timeoutSeconds * 1000,
            passApiKeys,
            signal: controller.signal,
            onProgress: (e) => {
              log.info(`${title}: ${e.done ? `[${e.done}/${e.total}] ` : ''}${e.message}`);
              const pct = e.total ? (100 * e.done) / e.total : 0;
              progress.report({ message: `${e.done}/${e.total} — ${e.message.slice(0, 80)}`, increment: Math.max(0, pct - last) });
              last = pct;
            },
          });
        } catch (error) {
          const message = error instanceof InputError ? error.message : (error as Error).message.split('\n')[0];
          log.error(`${title}: ${message}`);
          void vscode.window.showErrorMessage(`${title}: ${message}`);
          return undefined;
        } finally {
          sub.dispose();
        }
      },
    );
    if (!summary) return undefined;
    for (const note of summary.notes) log.info(`${title}: note: ${note}`);
    const text = `${title}: ${summary.completed} run(s) now, ${summary.skipped} earlier, ${summary.failed.length} failed${summary.aborted ? ' — cancelled (run again to resume)' : ''}.`;
    log.info(text);
    if (summary.failed.length || summary.aborted) void vscode.window.showWarningMessage(text);
    // The fix rates: the resume run folder in the score report (exact judge, offline).
    if (!summary.aborted && !args.noReport)
      await vscode.commands.executeCommand(SCORE_RUN_FOLDER_COMMAND, vscode.Uri.file(out), { judge: 'deterministic' } satisfies ScoreCommandArgs);
    return summary;
  });
}
