import * as vscode from 'vscode';
import { TRAJECTORY_OPTION_VIEW_TYPE, type TrajectoryEditorProvider } from '../editor/trajectoryEditorProvider';

export const REVEAL_STEP_COMMAND = 'trajaudit.revealStep';

type RevealArgs = { file: string | vscode.Uri; record?: string; position: number };

function parseArgs(args: unknown[]): RevealArgs | undefined {
  const [first, second, third] = args;
  if (first && typeof first === 'object' && !(first instanceof vscode.Uri) && 'file' in first) return first as RevealArgs;
  if (typeof third === 'number')
    return { file: first as string | vscode.Uri, record: second === undefined || second === null ? undefined : String(second), position: third };
  if (typeof second === 'number') return { file: first as string | vscode.Uri, position: second };
  return undefined;
}

/**
 * `trajaudit.revealStep(file, record, position)` — opens the trajectory in the editor and selects
 * the message. Reports and links use it; `file` is a path (absolute or workspace-relative) or Uri.
 */
export function registerRevealStep(provider: TrajectoryEditorProvider): vscode.Disposable {
  return vscode.commands.registerCommand(REVEAL_STEP_COMMAND, async (...raw: unknown[]) => {
    const args = parseArgs(raw);
    if (!args) {
      void vscode.window.showErrorMessage('trajaudit.revealStep expects (file, record, position).');
      return false;
    }
    let uri = args.file instanceof vscode.Uri ? args.file : vscode.Uri.file(args.file);
    if (!(args.file instanceof vscode.Uri) && !args.file.startsWith('/') && vscode.workspace.workspaceFolders?.[0]) {
      uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, args.file);
    }
    const wasOpen = provider.sessionsFor(uri).length > 0;
    if (!wasOpen) await vscode.commands.executeCommand('vscode.openWith', uri, TRAJECTORY_OPTION_VIEW_TYPE);
    // The editor's session appears once VS Code has resolved it; wait for it rather than open twice.
    for (let i = 0; i < 100 && provider.sessionsFor(uri).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const sessions = provider.sessionsFor(uri);
    if (sessions.length === 0) return false;
    // A panel VS Code has just opened is in front already: revealing it again while its webview
    // loads would only make the workbench lay out the editor once more.
    if (wasOpen) sessions[0].panel.reveal();
    // Every editor of the file follows, so split views agree on what is selected.
    for (const session of sessions) session.reveal(args.record, args.position);
    return true;
  });
}
