// Stage-C pre-checks of Delegation item files as diagnostics in the Problems panel: run when an
// item file is opened or saved (setting trajaudit.harness.precheckOnOpen) and by the command
// "Trajectory Auditor: Stage-C Pre-checks of Items". Each finding points at its JSON location
// (the query span with a copied answer, the distractor missing conflict_hint, the self-referential
// phrase in a content string). Pre-checks only read the file, so they also run in untrusted workspaces.
import * as vscode from 'vscode';
import { mayHoldDelegationItems, precheckText, type LocatedFinding } from '../../core/harness/stageC/precheckFile';
import { targetUri } from '../activeFile';
import type { Log } from '../log';

export const PRECHECK_COMMAND = 'trajaudit.harness.precheckItems';
export const PRECHECK_SOURCE = 'trajaudit stage-c';

const MAX_ITEM_FILE_BYTES = 16 * 1024 * 1024;

function toDiagnostic(f: LocatedFinding): vscode.Diagnostic {
  const start = f.range?.start ?? { line: 1, column: 1 };
  const end = f.range?.end ?? { line: start.line, column: start.column + 1 };
  const range = new vscode.Range(start.line - 1, start.column - 1, end.line - 1, Math.max(end.column - 1, end.line === start.line ? start.column : 0));
  const d = new vscode.Diagnostic(
    range,
    `${f.message} (item ${f.itemId})`,
    f.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
  );
  d.source = PRECHECK_SOURCE;
  d.code = f.check;
  return d;
}

const isItemCandidate = (uri: vscode.Uri) => uri.scheme === 'file' && /\.jsonl?$/i.test(uri.path) && !uri.path.endsWith('.audit.json');

export class PrecheckDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('trajaudit-stage-c');
  readonly #disposables: vscode.Disposable[] = [];

  constructor(private readonly log: Log) {
    const auto = () => vscode.workspace.getConfiguration('trajaudit.harness').get<boolean>('precheckOnOpen', true);
    this.#disposables.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((doc) => {
        if (auto() && isItemCandidate(doc.uri)) this.check(doc.uri, doc.getText());
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (auto() && isItemCandidate(doc.uri)) this.check(doc.uri, doc.getText());
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        // Findings stay while the file is open in any editor (custom editors included); a closed file is re-checked on open.
        if (!vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => (t.input as { uri?: vscode.Uri } | undefined)?.uri?.toString() === doc.uri.toString())))
          this.collection.delete(doc.uri);
      }),
      vscode.window.tabGroups.onDidChangeTabs((e) => {
        if (!auto()) return;
        for (const tab of e.opened) {
          // Trajectories open in the trajectory editor are never Delegation items: do not re-read them.
          if (tab.input instanceof vscode.TabInputCustom && tab.input.viewType.startsWith('trajaudit.trajectory')) continue;
          const uri = (tab.input as { uri?: vscode.Uri } | undefined)?.uri;
          if (uri && isItemCandidate(uri) && !this.collection.has(uri)) void this.checkFile(uri);
        }
      }),
    );
    if (auto()) for (const doc of vscode.workspace.textDocuments) if (isItemCandidate(doc.uri)) this.check(doc.uri, doc.getText());
  }

  /** Pre-checks a text; returns the findings (none for a file without Delegation items). */
  check(uri: vscode.Uri, text: string): LocatedFinding[] {
    if (!mayHoldDelegationItems(text)) {
      this.collection.delete(uri);
      return [];
    }
    const { items, findings } = precheckText(text);
    this.collection.set(uri, findings.map(toDiagnostic));
    if (items)
      this.log.info(
        `stage-c pre-checks of ${vscode.workspace.asRelativePath(uri)}: ${items} item(s), ${findings.filter((f) => f.severity === 'error').length} error(s), ${findings.filter((f) => f.severity === 'warning').length} warning(s)`,
      );
    return findings;
  }

  async checkFile(uri: vscode.Uri): Promise<LocatedFinding[]> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    // Item files are small; a huge JSON file (a trajectory) is not worth decoding to find out.
    if (!open && (await vscode.workspace.fs.stat(uri)).size > MAX_ITEM_FILE_BYTES) return [];
    const text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    return this.check(uri, text);
  }

  dispose(): void {
    for (const d of this.#disposables) d.dispose();
  }
}

export function registerPrecheckCommand(diagnostics: PrecheckDiagnostics): vscode.Disposable {
  return vscode.commands.registerCommand(PRECHECK_COMMAND, async (uri?: vscode.Uri) => {
    const target = targetUri(uri);
    if (!target) {
      void vscode.window.showWarningMessage('Open or select a Delegation item file to pre-check.');
      return undefined;
    }
    const findings = await diagnostics.checkFile(target);
    const errors = findings.filter((f) => f.severity === 'error').length;
    if (!uri) {
      void vscode.window.showInformationMessage(
        findings.length
          ? `Stage-C pre-checks: ${errors} error(s), ${findings.length - errors} warning(s) — see the Problems panel.`
          : `Stage-C pre-checks: no problem found in ${vscode.workspace.asRelativePath(target)}.`,
      );
    }
    return findings.map((f) => ({ check: f.check, severity: f.severity, message: f.message, itemId: f.itemId, range: f.range }));
  });
}
