// "Open as Collection": a folder, a JSONL of trajectories, an Inspect log or a run folder as the
// collection view. From the explorer's context menu it takes the selected resource; from the
// palette it offers the workspace's folders (and Browse…); the editor's status-bar link passes
// the open trajectory's folder.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { CollectionPanels } from '../collection/collectionPanel';

export const OPEN_COLLECTION_COMMAND = 'trajaudit.openCollection';

const BROWSE = 'Browse…';

/** Folders offered by the palette: each workspace folder and the folders directly in it. */
export function workspaceFolders(): { label: string; description?: string; uri: vscode.Uri }[] {
  const picks: { label: string; description?: string; uri: vscode.Uri }[] = [];
  for (const root of vscode.workspace.workspaceFolders ?? []) {
    if (root.uri.scheme !== 'file') continue;
    picks.push({ label: root.name, description: 'workspace folder', uri: root.uri });
    let entries: string[] = [];
    try {
      entries = readdirSync(root.uri.fsPath, { withFileTypes: true })
        .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules')
        .map((e) => e.name)
        .sort((a, b) => a.localeCompare(b));
    } catch {
      // An unreadable workspace folder offers only itself.
    }
    for (const name of entries) picks.push({ label: vscode.workspace.asRelativePath(join(root.uri.fsPath, name)), uri: vscode.Uri.joinPath(root.uri, name) });
  }
  return picks;
}

async function pickTarget(): Promise<vscode.Uri | undefined> {
  const choice = await vscode.window.showQuickPick([...workspaceFolders(), { label: BROWSE, description: 'a folder, JSONL or Inspect log' }], {
    title: 'Open as Collection',
    placeHolder: 'A folder of trajectories, a JSONL, an Inspect log or a run folder',
    matchOnDescription: true,
  });
  if (!choice) return undefined;
  if ('uri' in choice && choice.uri) return choice.uri;
  const picked = await vscode.window.showOpenDialog({
    title: 'Open as Collection',
    canSelectFiles: true,
    canSelectFolders: true,
    canSelectMany: false,
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    filters: { Trajectories: ['json', 'jsonl', 'eval'] },
    openLabel: 'Open as Collection',
  });
  return picked?.[0];
}

export function registerOpenCollection(panels: CollectionPanels): vscode.Disposable {
  return vscode.commands.registerCommand(OPEN_COLLECTION_COMMAND, async (uri?: vscode.Uri) => {
    const target = uri instanceof vscode.Uri ? uri : await pickTarget();
    if (!target) return undefined;
    if (target.scheme !== 'file') {
      void vscode.window.showErrorMessage(`Collections are read from local files; ${target.toString()} is not one.`);
      return undefined;
    }
    return panels.show(target.fsPath);
  });
}
