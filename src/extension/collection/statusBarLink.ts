// The "Open collection" link in the status bar while a trajectory editor is active: it opens the
// file's folder as a collection.
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { OPEN_COLLECTION_COMMAND } from '../commands/openCollection';
import { TRAJECTORY_OPTION_VIEW_TYPE, TRAJECTORY_VIEW_TYPE } from '../editor/trajectoryEditorProvider';

function activeTrajectoryUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (!(input instanceof vscode.TabInputCustom)) return undefined;
  if (input.viewType !== TRAJECTORY_VIEW_TYPE && input.viewType !== TRAJECTORY_OPTION_VIEW_TYPE) return undefined;
  return input.uri.scheme === 'file' ? input.uri : undefined;
}

export function createCollectionStatusBarLink(): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('trajaudit.openCollectionLink', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Trajectory Auditor: Open collection';
  item.text = '$(table) Open collection';
  const update = () => {
    const uri = activeTrajectoryUri();
    if (!uri) {
      item.hide();
      return;
    }
    const folder = vscode.Uri.file(dirname(uri.fsPath));
    item.tooltip = `Open ${vscode.workspace.asRelativePath(folder)} as a collection`;
    item.command = { title: 'Open collection', command: OPEN_COLLECTION_COMMAND, arguments: [folder] };
    item.show();
  };
  update();
  return vscode.Disposable.from(item, vscode.window.tabGroups.onDidChangeTabs(update), vscode.window.tabGroups.onDidChangeTabGroups(update));
}
