import * as vscode from 'vscode';
import { validateFile } from '../../core/inspect/validate';
import { targetUri } from '../activeFile';
import type { Log } from '../log';

export const VALIDATE_COMMAND = 'trajaudit.validateFile';

/** Validates a file and shows its problems in the Problems panel. */
export function registerValidateFile(diagnostics: vscode.DiagnosticCollection, log: Log): vscode.Disposable {
  return vscode.commands.registerCommand(VALIDATE_COMMAND, async (uri?: vscode.Uri) => {
    const target = targetUri(uri);
    if (!target) {
      void vscode.window.showWarningMessage('Open or select a file to validate first.');
      return undefined;
    }
    const problems = validateFile(target.fsPath, vscode.workspace.asRelativePath(target));
    diagnostics.set(
      target,
      problems.map((p) => {
        const line = Math.max(0, (p.line ?? 1) - 1);
        const column = Math.max(0, (p.column ?? 1) - 1);
        const d = new vscode.Diagnostic(
          new vscode.Range(line, column, line, column + 1),
          p.path ? `${p.message} (${p.path})` : p.message,
          p.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error,
        );
        d.source = 'trajaudit';
        return d;
      }),
    );
    const errors = problems.filter((p) => p.severity === 'error').length;
    log.info(`validated ${target.fsPath}: ${errors} error(s), ${problems.length - errors} warning(s)`);
    if (problems.length === 0) void vscode.window.showInformationMessage(`${vscode.workspace.asRelativePath(target)} is valid.`);
    return problems;
  });
}
