import * as vscode from 'vscode';
import { isTrajectoryRecord } from '../../core/load/loadRecord';
import { inspectOther, inspectTrajectory } from '../../core/inspect/inspect';
import { loadOrReport, targetUri, toolNames } from '../activeFile';
import type { Log } from '../log';

export const INSPECT_COMMAND = 'trajaudit.inspectFile';

/** Writes a file's format, counts and statistics (as `trajaudit inspect --json`) to the output channel. */
export function registerInspectFile(log: Log): vscode.Disposable {
  return vscode.commands.registerCommand(INSPECT_COMMAND, async (uri?: vscode.Uri) => {
    const target = targetUri(uri);
    if (!target) {
      void vscode.window.showWarningMessage('Open or select a trajectory file first.');
      return undefined;
    }
    const loaded = await loadOrReport(target);
    if (!loaded) return undefined;
    const names = toolNames();
    const reports = loaded.records.map((r) => (isTrajectoryRecord(r) ? inspectTrajectory(r.trajectory, names) : inspectOther(r)));
    log.channel.appendLine(`${loaded.file} — ${loaded.detection.kind} (${loaded.detection.reason})`);
    log.channel.appendLine(JSON.stringify(loaded.records.length === 1 ? reports[0] : reports, null, 2));
    for (const p of loaded.problems) log.error(`${p.file}:${p.line ?? 1}:${p.column ?? 1}: ${p.message}`);
    log.channel.show(true);
    return reports;
  });
}
