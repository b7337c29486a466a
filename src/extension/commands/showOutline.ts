import * as vscode from 'vscode';
import { isTrajectoryRecord } from '../../core/load/loadRecord';
import { buildOutline } from '../../core/stats/outline';
import { loadOrReport, targetUri } from '../activeFile';

export const OUTLINE_COMMAND = 'trajaudit.showOutline';

/** Lists the decision-step outline O(τ) in a quick pick; returns the entries (used by tests). */
export function registerShowOutline(): vscode.Disposable {
  return vscode.commands.registerCommand(OUTLINE_COMMAND, async (uri?: vscode.Uri, options?: { pick?: boolean }) => {
    const target = targetUri(uri);
    if (!target) {
      void vscode.window.showWarningMessage('Open or select a trajectory file first.');
      return undefined;
    }
    const loaded = await loadOrReport(target);
    const record = loaded?.records.find(isTrajectoryRecord);
    if (!loaded || !record) {
      if (loaded) void vscode.window.showWarningMessage(`${loaded.file} is a ${loaded.detection.kind}, not a trajectory.`);
      return undefined;
    }
    const entries = buildOutline(record.trajectory);
    if (options?.pick === false) return entries;
    void vscode.window.showQuickPick(
      entries.map((e) => ({
        label: `[${e.position}]${e.agent ? ` ${e.agent}` : ''}${e.isFinalAnswer ? ' · final answer' : ''}`,
        description: e.calls.join('; '),
        detail: e.preview,
      })),
      { title: `Outline of ${loaded.file} (record ${record.id})`, matchOnDescription: true, matchOnDetail: true },
    );
    return entries;
  });
}
