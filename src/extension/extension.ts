import * as vscode from 'vscode';
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
}

export function activate(context: vscode.ExtensionContext): TrajauditApi {
  const log = createLog();
  context.subscriptions.push(log.channel);
  const diagnostics = vscode.languages.createDiagnosticCollection('trajaudit');
  const editorProvider = TrajectoryEditorProvider.register(context, log);
  context.subscriptions.push(
    diagnostics,
    registerInspectFile(log),
    registerShowOutline(),
    registerValidateFile(diagnostics, log),
    registerOpenInEditor(),
    registerRevealStep(editorProvider),
    registerEditorOffer(),
  );
  log.info('Trajectory Auditor activated');
  return { editorProvider };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
