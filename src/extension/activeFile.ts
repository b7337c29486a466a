import * as vscode from 'vscode';
import { InputError } from '../core/input/inputError';
import { loadFile, type LoadedFile } from '../core/load/loadFile';
import type { ToolNames } from '../core/stats/statistics';

/** The file a command acts on: the explorer selection, else the active editor's file. */
export function targetUri(uri?: vscode.Uri): vscode.Uri | undefined {
  if (uri instanceof vscode.Uri) return uri;
  const active = vscode.window.activeTextEditor?.document.uri ?? activeTabUri();
  return active?.scheme === 'file' ? active : undefined;
}

function activeTabUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input as { uri?: vscode.Uri } | undefined;
  return input?.uri;
}

export function toolNames(): ToolNames {
  const config = vscode.workspace.getConfiguration('trajaudit.tools');
  return { searchNames: userList(config, 'searchNames'), visitNames: userList(config, 'visitNames') };
}

/**
 * The list the user set, or undefined for the built-in one. `get` cannot tell them apart: for an
 * array setting without a default VS Code returns `[]`, which would count no call as a search.
 */
function userList(config: vscode.WorkspaceConfiguration, key: string): string[] | undefined {
  const set = config.inspect<string[]>(key);
  return set?.workspaceFolderValue ?? set?.workspaceValue ?? set?.globalValue;
}

/** Loads a file; shows a one-line error (never a stack) and returns undefined when it is bad. */
export async function loadOrReport(uri: vscode.Uri): Promise<LoadedFile | undefined> {
  try {
    return loadFile(uri.fsPath, { displayName: vscode.workspace.asRelativePath(uri) });
  } catch (error) {
    const message = error instanceof InputError ? error.message : `Could not read ${uri.fsPath}: ${(error as Error).message}`;
    void vscode.window.showErrorMessage(message);
    return undefined;
  }
}
