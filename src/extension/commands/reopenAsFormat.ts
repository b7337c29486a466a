import * as vscode from 'vscode';
import { formatChoiceFor, formatPicks, withFormatChoice } from '../../core/load/formatChoice';
import { loadBytes } from '../../core/load/loadFile';
import type { TrajectoryFormat } from '../../core/model/trajectory';
import { TRAJECTORY_OPTION_VIEW_TYPE, TRAJECTORY_VIEW_TYPE } from '../editor/trajectoryEditorProvider';
import { readUriBytes } from '../uriFiles';
import { targetUri } from '../activeFile';

export const REOPEN_AS_FORMAT_COMMAND = 'trajaudit.reopenAsFormat';
/** workspaceState key: `{ [file uri]: format id }`, the formats chosen with "Reopen as format…". */
export const FORMAT_CHOICES_KEY = 'trajaudit.formatChoices';

/** The format the user chose for a file in this workspace, if any (read when the editor opens it). */
export function chosenFormat(context: vscode.ExtensionContext, uri: vscode.Uri): TrajectoryFormat | undefined {
  return formatChoiceFor(context.workspaceState.get(FORMAT_CHOICES_KEY), uri.toString());
}

function detectedFormat(bytes: Uint8Array, uri: vscode.Uri): TrajectoryFormat | undefined {
  try {
    return loadBytes(bytes, vscode.workspace.asRelativePath(uri)).detection.kind as TrajectoryFormat;
  } catch {
    return undefined; // no format fits: every reader is offered, none marked detected
  }
}

function trajectoryTabs(uri: vscode.Uri): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) =>
    group.tabs.filter(
      (tab) =>
        tab.input instanceof vscode.TabInputCustom &&
        tab.input.uri.toString() === uri.toString() &&
        [TRAJECTORY_VIEW_TYPE, TRAJECTORY_OPTION_VIEW_TYPE].includes(tab.input.viewType),
    ),
  );
}

/** "Reopen as format…": pick a reader for the file; the editor reopens with it and keeps the choice for this workspace. */
export function registerReopenAsFormat(context: vscode.ExtensionContext): vscode.Disposable {
  return vscode.commands.registerCommand(REOPEN_AS_FORMAT_COMMAND, async (uri?: vscode.Uri) => {
    const target = targetUri(uri);
    if (!target) {
      void vscode.window.showWarningMessage('Open a trajectory file first.');
      return;
    }
    const tabs = trajectoryTabs(target);
    if (tabs.some((tab) => tab.isDirty)) {
      void vscode.window.showWarningMessage('Save or revert your annotations of this file first; reopening reads it again.');
      return;
    }
    const detected = detectedFormat(await readUriBytes(target), target);
    const current = chosenFormat(context, target) ?? detected;
    const picked = await vscode.window.showQuickPick(formatPicks(detected, current), {
      title: `Reopen ${vscode.workspace.asRelativePath(target)} as format…`,
      placeHolder: 'The reader to read this file with',
      matchOnDescription: true,
    });
    if (!picked) return;
    const choices = (context.workspaceState.get<Record<string, TrajectoryFormat>>(FORMAT_CHOICES_KEY) ?? {}) as Record<string, TrajectoryFormat>;
    await context.workspaceState.update(FORMAT_CHOICES_KEY, withFormatChoice(choices, target.toString(), picked.id, detected));
    const viewType = (tabs[0]?.input as vscode.TabInputCustom | undefined)?.viewType ?? TRAJECTORY_OPTION_VIEW_TYPE;
    // The document is read once per open: close its editors so that opening it reads it with the chosen reader.
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
    await vscode.commands.executeCommand('vscode.openWith', target, viewType);
  });
}
