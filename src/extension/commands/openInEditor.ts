import * as vscode from 'vscode';
import { TRAJECTORY_OPTION_VIEW_TYPE } from '../editor/trajectoryEditorProvider';
import { targetUri } from '../activeFile';

export const OPEN_IN_EDITOR_COMMAND = 'trajaudit.openInEditor';

/** "Open in Trajectory Auditor" for any JSON / JSONL file. */
export function registerOpenInEditor(): vscode.Disposable {
  return vscode.commands.registerCommand(OPEN_IN_EDITOR_COMMAND, async (uri?: vscode.Uri) => {
    const target = targetUri(uri);
    if (!target) {
      void vscode.window.showWarningMessage('Open or select a trajectory file first.');
      return;
    }
    await vscode.commands.executeCommand('vscode.openWith', target, TRAJECTORY_OPTION_VIEW_TYPE);
  });
}
