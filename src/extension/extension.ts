import './zodConfig';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { AuditJobManager } from './audit/auditJobs';
import { AuditJobsView, createJobsStatusBar } from './audit/jobsView';
import { ApiKeys, registerSetApiKey } from './audit/secrets';
import { registerAuditFolder, registerAuditTrajectory, registerCancelJob } from './commands/auditTrajectory';
import { CollectionPanels } from './collection/collectionPanel';
import { createCollectionStatusBarLink } from './collection/statusBarLink';
import { registerOpenCollection } from './commands/openCollection';
import { ComparePanels } from './compare/comparePanel';
import { registerCompareTrajectories } from './commands/compareTrajectories';
import { registerNextUnannotated } from './commands/nextUnannotated';
import { registerExportRepairs } from './commands/exportRepairs';
import { registerResumeWithRepair } from './commands/resumeWithRepair';
import { registerInspectFile } from './commands/inspectFile';
import { registerOpenInEditor } from './commands/openInEditor';
import { registerReopenAsFormat } from './commands/reopenAsFormat';
import { registerOpenSample } from './commands/openSample';
import { registerRevealStep } from './commands/revealStep';
import { registerShowCorpusStatistics } from './commands/showCorpusStatistics';
import { registerShowOutline } from './commands/showOutline';
import { registerValidateFile } from './commands/validateFile';
import { registerEditorOffer } from './editor/offerEditor';
import { TrajectoryEditorProvider } from './editor/trajectoryEditorProvider';
import { registerHarnessCommands } from './harness/harnessCommands';
import { PrecheckDiagnostics, registerPrecheckCommand } from './harness/precheckDiagnostics';
import { ItemEditorProvider } from './items/itemEditorProvider';
import { createLog, type Log } from './log';
import { ReportPanels, SCORE_EXPORTER } from './report/reportPanel';
import { SCORE_RUN_FOLDER_COMMAND, registerScoreRunFolder } from './report/scoreCommand';

/** What activate returns: used by the integration tests, and by other extensions if they wish. */
export interface TrajauditApi {
  log: Log;
  editorProvider: TrajectoryEditorProvider;
  jobs: AuditJobManager;
  itemsProvider: ItemEditorProvider;
  reports: ReportPanels;
  collections: CollectionPanels;
  compares: ComparePanels;
}

export function activate(context: vscode.ExtensionContext): TrajauditApi {
  const log = createLog();
  context.subscriptions.push(log.channel);
  const diagnostics = vscode.languages.createDiagnosticCollection('trajaudit');
  const editorProvider = TrajectoryEditorProvider.register(context, log);
  const itemsProvider = ItemEditorProvider.register(context, log);
  const jobs = new AuditJobManager(log);
  const keys = new ApiKeys(context.secrets);
  const reports = new ReportPanels(
    context.extensionUri,
    log,
    (folder) => vscode.commands.executeCommand(SCORE_RUN_FOLDER_COMMAND, vscode.Uri.file(folder)),
    SCORE_EXPORTER,
    editorProvider,
  );
  // Collection indexes live in the workspace's storage (the global one without a workspace), never beside the data.
  const storage = context.storageUri ?? context.globalStorageUri;
  const collectionIndexes = storage.scheme === 'file' ? join(storage.fsPath, 'collections') : undefined;
  const collections = new CollectionPanels(context.extensionUri, log, collectionIndexes);
  const compares = new ComparePanels(context.extensionUri, log);
  context.subscriptions.push(
    reports,
    collections,
    registerOpenCollection(collections),
    compares,
    registerCompareTrajectories(compares),
    registerShowCorpusStatistics(context.extensionUri, log, collectionIndexes),
    registerNextUnannotated(collections),
    createCollectionStatusBarLink(),
    registerScoreRunFolder(reports, keys, log),
    jobs,
    vscode.window.registerTreeDataProvider('trajaudit.auditJobs', new AuditJobsView(jobs)),
    createJobsStatusBar(jobs),
    registerSetApiKey(keys),
    registerAuditTrajectory(jobs, keys),
    registerAuditFolder(jobs, keys),
    registerCancelJob(jobs),
    registerExportRepairs(),
    registerResumeWithRepair(log),
    diagnostics,
    registerInspectFile(log),
    registerShowOutline(),
    registerValidateFile(diagnostics, log),
    registerOpenInEditor(),
    registerReopenAsFormat(context),
    registerOpenSample(),
    registerRevealStep(editorProvider),
    registerEditorOffer(),
  );
  const prechecks = new PrecheckDiagnostics(log);
  context.subscriptions.push(prechecks, registerPrecheckCommand(prechecks), ...registerHarnessCommands(keys, log));
  log.info('Trajectory Auditor activated');
  return { editorProvider, jobs, itemsProvider, reports, collections, compares, log };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
