import * as vscode from 'vscode';
import { registerInspectFile } from './commands/inspectFile';
import { registerShowOutline } from './commands/showOutline';
import { registerValidateFile } from './commands/validateFile';
import { createLog } from './log';

export function activate(context: vscode.ExtensionContext): void {
  const log = createLog();
  context.subscriptions.push(log.channel);
  const diagnostics = vscode.languages.createDiagnosticCollection('trajaudit');
  context.subscriptions.push(diagnostics);
  context.subscriptions.push(
    registerInspectFile(log),
    registerShowOutline(),
    registerValidateFile(diagnostics, log),
  );
  log.info('Trajectory Auditor activated');
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
