import * as vscode from 'vscode';
import { TRAJECTORY_OPTION_VIEW_TYPE } from '../editor/trajectoryEditorProvider';

/** Walkthrough step: opens a sample trajectory of the workspace (or asks for a file). */
export function registerOpenSample(): vscode.Disposable {
  return vscode.commands.registerCommand('trajaudit.openSample', async () => {
    const found = await vscode.workspace.findFiles('**/*.traj.{json,jsonl}', '**/node_modules/**', 20);
    const pick = found.length
      ? (
          await vscode.window.showQuickPick(
            found.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
            { title: 'Open a trajectory' },
          )
        )?.uri
      : (await vscode.window.showOpenDialog({ filters: { Trajectories: ['json', 'jsonl'] }, title: 'Open a trajectory' }))?.[0];
    if (pick) await vscode.commands.executeCommand('vscode.openWith', pick, TRAJECTORY_OPTION_VIEW_TYPE);
  });
}
