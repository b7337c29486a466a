import * as vscode from 'vscode';
import { AUDIT_METHODS, type AuditMethod } from '../../core/audit/types';
import { targetUri } from '../activeFile';
import type { AuditJobManager, AuditJob } from '../audit/auditJobs';
import { holdsTrajectory } from '../../core/load/holdsTrajectory';
import { readAuditSettings } from '../audit/auditSettings';
import { offerAlternatives, resolveModel } from '../audit/modelClientFactory';
import type { ApiKeys } from '../audit/secrets';
import { batchRoundsText, isBatchMethod, startBatchFolderAudit, type BatchMethod } from '../audit/batchFolderJob';

export interface AuditCommandArgs {
  method?: AuditMethod;
  rerun?: boolean;
  /** Wait for the job to end (tests, scripts). */
  wait?: boolean;
  /** Folder audits with a model method on OpenAI/Anthropic: through the batch API (true) or call by call (false); asked when absent. */
  batch?: boolean;
  /** Batch: submit without the confirmation of the estimate (tests, scripts). */
  acceptEstimate?: boolean;
  /** Batch: seconds between polls (default 30). */
  pollSeconds?: number;
}

const BATCH_PICK = 'Use batch API (half price, results in minutes to hours)';

/** Synchronous calls or the provider's batch API; undefined when the pick is dismissed. */
async function pickBatch(method: BatchMethod): Promise<boolean | undefined> {
  const choice = await vscode.window.showQuickPick(
    [
      { label: 'Run now', description: 'call by call, results as they come', batch: false },
      { label: BATCH_PICK, description: `${batchRoundsText(method)}; resumable`, batch: true },
    ],
    { title: `How to run ${method === 'searchauditor' ? 'SearchAuditor' : `the ${method} baseline`} over the folder` },
  );
  return choice?.batch;
}

const METHOD_LABELS: Record<AuditMethod, string> = {
  searchauditor: 'SearchAuditor — three audits, adjudication, repair (5 calls)',
  'all-at-once': 'All-at-Once baseline (1 call)',
  'step-by-step': 'Step-by-Step baseline (one call per step until decisive)',
  'binary-search': 'Binary Search baseline (~log₂ steps calls)',
  heuristic: 'Offline heuristic — no model, deterministic signals',
};

async function pickMethod(defaultMethod: AuditMethod): Promise<AuditMethod | undefined> {
  const items = AUDIT_METHODS.map((m) => ({ label: m, description: METHOD_LABELS[m], picked: m === defaultMethod }));
  const choice = await vscode.window.showQuickPick(items, { title: 'Audit method' });
  return choice?.label as AuditMethod | undefined;
}

/** Runs an audit job over files; model methods need a trusted workspace and a ready model. */
export async function startAudit(
  files: vscode.Uri[],
  label: string,
  args: AuditCommandArgs,
  jobs: AuditJobManager,
  keys: ApiKeys,
  /** A folder audit: a model method on OpenAI/Anthropic may run through the batch API. */
  folder?: vscode.Uri,
): Promise<AuditJob | undefined> {
  const settings = readAuditSettings();
  let method = args.method ?? (await pickMethod(settings.defaultMethod));
  if (!method) return undefined;
  let model;
  if (method !== 'heuristic') {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(
        'This workspace is not trusted: Trajectory Auditor views and annotates here, but does not call models. Trust the workspace to run model audits, or use the offline heuristic.',
      );
      return undefined;
    }
    const resolved = await resolveModel(settings, keys);
    if ('unavailable' in resolved) {
      if ((await offerAlternatives(resolved.unavailable)) !== 'heuristic') return undefined;
      method = 'heuristic';
    } else {
      model = resolved.options;
      // The VS Code language models have no batch API (resolved.settings is OpenAI/Anthropic only).
      if (folder && isBatchMethod(method) && resolved.settings) {
        const batch = args.batch ?? (await pickBatch(method));
        if (batch === undefined) return undefined;
        if (batch) {
          const started = await startBatchFolderAudit(
            {
              folder,
              label,
              method,
              modelSettings: resolved.settings,
              options: resolved.options,
              settings,
              ...(args.rerun ? { rerun: true } : {}),
              ...(args.acceptEstimate ? { acceptEstimate: true } : {}),
              ...(args.pollSeconds !== undefined ? { pollIntervalMs: args.pollSeconds * 1000 } : {}),
            },
            jobs,
          );
          if (started && args.wait) await started.done;
          return started?.job;
        }
      }
    }
  }
  const { job, done } = jobs.start({ files, method, model, rerun: args.rerun, settings, label });
  if (args.wait) await done;
  return job;
}

export function registerAuditTrajectory(jobs: AuditJobManager, keys: ApiKeys): vscode.Disposable {
  return vscode.commands.registerCommand('trajaudit.auditTrajectory', async (uri?: vscode.Uri, args: AuditCommandArgs = {}) => {
    const target = targetUri(uri);
    if (!target) {
      void vscode.window.showWarningMessage('Open or select a trajectory file to audit.');
      return undefined;
    }
    return startAudit([target], vscode.workspace.asRelativePath(target), args, jobs, keys);
  });
}

/** Batch audit of every trajectory file under a folder (JSON/JSONL, sidecars excluded). */
export function registerAuditFolder(jobs: AuditJobManager, keys: ApiKeys): vscode.Disposable {
  return vscode.commands.registerCommand('trajaudit.auditFolder', async (uri?: vscode.Uri, args: AuditCommandArgs = {}) => {
    const folder =
      uri ?? (await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, title: 'Folder of trajectories to audit' }))?.[0];
    if (!folder) return undefined;
    const found = await vscode.workspace.findFiles(
      new vscode.RelativePattern(folder, '**/*.{json,jsonl}'),
      '**/{*.audit.json,*.resume.json,trajaudit.run.json,node_modules/**}',
    );
    const files = found.filter((f) => holdsTrajectory(f.fsPath)).sort((a, b) => a.path.localeCompare(b.path));
    if (files.length === 0) {
      void vscode.window.showInformationMessage(`No trajectory files under ${vscode.workspace.asRelativePath(folder)}.`);
      return undefined;
    }
    return startAudit(files, `${vscode.workspace.asRelativePath(folder)} (${files.length} files)`, args, jobs, keys, folder);
  });
}

export function registerCancelJob(jobs: AuditJobManager): vscode.Disposable {
  return vscode.commands.registerCommand('trajaudit.cancelJob', (node?: { job?: { id: number } }) => {
    const id = node?.job?.id ?? jobs.running[0]?.id;
    if (id !== undefined) jobs.cancel(id);
  });
}
