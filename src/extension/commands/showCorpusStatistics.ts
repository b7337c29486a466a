// "Trajectory Auditor: Show Corpus Statistics" (issue 16 item 3): `trajaudit stats` of a folder as a
// report page — the score report's page and protocol, with the corpus-statistics model of
// core/collections/statsReport.ts. From the explorer's context menu it takes the folder; from the
// palette it offers the workspace's folders (and Browse…). Rows come through the collection index
// in the extension's storage (as the collection view reads them), with a cancellable progress.
import * as vscode from 'vscode';
import type { Unreadable } from '../../core/collections/collect';
import type { CollectionRow } from '../../core/collections/rows';
import { buildCorpusStatsModel, corpusStatsData, corpusStatsExport, corpusStatsExportName, type CorpusStatsData } from '../../core/collections/statsReport';
import { readSidecar, sidecarPathFor } from '../../core/sidecar/sidecarFile';
import type { ReportModel } from '../../shared/reportProtocol';
import { toolNames } from '../activeFile';
import { RowReader, type RowTarget } from '../collection/rowReader';
import type { Log } from '../log';
import { ReportPanels, type ReportExporter } from '../report/reportPanel';
import { workspaceFolders } from './openCollection';

export const SHOW_CORPUS_STATISTICS_COMMAND = 'trajaudit.showCorpusStatistics';

export interface CorpusStatsSource {
  data: CorpusStatsData;
  model: ReportModel;
}

export const CORPUS_STATS_EXPORTER: ReportExporter<CorpusStatsSource> = {
  noun: 'corpus statistics',
  text: (format, source) => corpusStatsExport(format, source.model, source.data),
  fileName: (format) => corpusStatsExportName(format),
};

const BROWSE = 'Browse…';

async function pickFolder(): Promise<vscode.Uri | undefined> {
  const choice = await vscode.window.showQuickPick([...workspaceFolders(), { label: BROWSE, description: 'another folder' }], {
    title: 'Show Corpus Statistics',
    placeHolder: 'The folder of trajectories to count',
    matchOnDescription: true,
  });
  if (!choice) return undefined;
  if ('uri' in choice && choice.uri) return choice.uri;
  const picked = await vscode.window.showOpenDialog({
    title: 'Show Corpus Statistics',
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    openLabel: 'Show Statistics',
  });
  return picked?.[0];
}

/** Rubrics of each repair annotated in the rows' sidecars (a repair directive or rubrics saved). */
function rubricsPerRepair(rows: readonly CollectionRow[], targets: ReadonlyMap<string, RowTarget>, log: Log): number[] {
  const byFile = new Map<string, string[]>();
  for (const row of rows) {
    const target = targets.get(row.id);
    if (!row.annotated || !target) continue;
    byFile.set(target.file, [...(byFile.get(target.file) ?? []), target.record]);
  }
  const counts: number[] = [];
  for (const [file, records] of byFile) {
    let sidecar;
    try {
      sidecar = readSidecar(sidecarPathFor(file));
    } catch (error) {
      // The row was read with this sidecar; one changed since is left out of the rubric counts, and said so.
      log.info(`corpus statistics: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    for (const record of records) {
      const annotation = sidecar?.records[record]?.annotation;
      if (annotation && (annotation.repairDirective?.trim() || annotation.repairRubrics?.length)) counts.push(annotation.repairRubrics?.length ?? 0);
    }
  }
  return counts;
}

/** Reads the folder's rows (cancellable, with progress); undefined when cancelled. */
async function readRows(
  folder: string,
  storageDir: string | undefined,
  log: Log,
): Promise<{ rows: CollectionRow[]; unreadable: Unreadable[]; targets: ReadonlyMap<string, RowTarget> } | undefined> {
  const label = vscode.workspace.asRelativePath(folder);
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Corpus statistics of ${label}`, cancellable: true },
    async (progress, token) => {
      const rows: CollectionRow[] = [];
      const unreadable: Unreadable[] = [];
      let reported = 0;
      const reader = new RowReader([folder], {
        names: toolNames(),
        ...(storageDir ? { storageDir } : {}),
        onNote: (note) => log.info(`corpus statistics ${label}: ${note}`),
        display: (p) => vscode.workspace.asRelativePath(p),
        onRows: (batch, bad, state) => {
          rows.push(...batch);
          unreadable.push(...bad);
          const percent = state.total ? (100 * state.done) / state.total : 0;
          progress.report({ message: `${state.done} of ${state.total} files`, increment: percent - reported });
          reported = percent;
        },
      });
      const cancel = token.onCancellationRequested(() => reader.cancel());
      try {
        const finished = await reader.read();
        return finished.cancelled ? undefined : { rows, unreadable, targets: reader.targets };
      } finally {
        cancel.dispose();
      }
    },
  );
}

export function registerShowCorpusStatistics(extensionUri: vscode.Uri, log: Log, storageDir: string | undefined): vscode.Disposable {
  const panels: ReportPanels<CorpusStatsSource> = new ReportPanels(
    extensionUri,
    log,
    (folder) => vscode.commands.executeCommand(SHOW_CORPUS_STATISTICS_COMMAND, vscode.Uri.file(folder)),
    CORPUS_STATS_EXPORTER,
  );
  const command = vscode.commands.registerCommand(SHOW_CORPUS_STATISTICS_COMMAND, async (uri?: vscode.Uri) => {
    const target = uri instanceof vscode.Uri ? uri : await pickFolder();
    if (!target) return undefined;
    if (target.scheme !== 'file') {
      void vscode.window.showErrorMessage(`Corpus statistics are read from local folders; ${target.toString()} is not one.`);
      return undefined;
    }
    const folder = target.fsPath;
    try {
      const read = await readRows(folder, storageDir, log);
      if (!read) return undefined;
      const data = corpusStatsData({ rows: read.rows, unreadable: read.unreadable, rubricsPerRepair: rubricsPerRepair(read.rows, read.targets, log) });
      // A workspace folder itself goes by its name (asRelativePath gives it back whole).
      const root = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file' && f.uri.fsPath === folder);
      const model = buildCorpusStatsModel(data, { folder, folderLabel: root ? root.name : vscode.workspace.asRelativePath(folder) });
      log.info(`corpus statistics of ${folder}: ${data.overall.trajectories} trajectories, ${data.overall.unreadable.length} unreadable`);
      return panels.show(folder, { data, model }, { model, links: new Map() });
    } catch (error) {
      const message = `Could not compute the corpus statistics of ${folder}: ${error instanceof Error ? error.message : String(error)}`;
      log.error(message);
      void vscode.window.showErrorMessage(message);
      return undefined;
    }
  });
  return vscode.Disposable.from(panels, command);
}
