import * as vscode from 'vscode';
import { AuditJobManager } from './audit/auditJobs';
import { AuditJobsView, createJobsStatusBar } from './audit/jobsView';
import { ApiKeys, registerSetApiKey } from './audit/secrets';
import { registerAuditFolder, registerAuditTrajectory, registerCancelJob } from './commands/auditTrajectory';
import { registerExportRepairs } from './commands/exportRepairs';
import { registerInspectFile } from './commands/inspectFile';
import { registerOpenInEditor } from './commands/openInEditor';
import { registerRevealStep } from './commands/revealStep';
import { registerShowOutline } from './commands/showOutline';
import { registerValidateFile } from './commands/validateFile';
import { registerEditorOffer } from './editor/offerEditor';
import { TrajectoryEditorProvider } from './editor/trajectoryEditorProvider';
import { createLog } from './log';

/** What activate returns: used by the integration tests, and by other extensions if they wish. */
export interface TrajauditApi {
  editorProvider: TrajectoryEditorProvider;
  jobs: AuditJobManager;
}

export function activate(context: vscode.ExtensionContext): TrajauditApi {
  const log = createLog();
  context.subscriptions.push(log.channel);
  const diagnostics = vscode.languages.createDiagnosticCollection('trajaudit');
  const editorProvider = TrajectoryEditorProvider.register(context, log);
  const jobs = new AuditJobManager(log);
  const keys = new ApiKeys(context.secrets);
  context.subscriptions.push(
    jobs,
    vscode.window.registerTreeDataProvider('trajaudit.auditJobs', new AuditJobsView(jobs)),
    createJobsStatusBar(jobs),
    registerSetApiKey(keys),
    registerAuditTrajectory(jobs, keys),
    registerAuditFolder(jobs, keys),
    registerCancelJob(jobs),
    registerExportRepairs(),
    diagnostics,
    registerInspectFile(log),
    registerShowOutline(),
    registerValidateFile(diagnostics, log),
    registerOpenInEditor(),
    registerRevealStep(editorProvider),
    registerEditorOffer(),
  );
  log.info('Trajectory Auditor activated');
  return { editorProvider, jobs };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
