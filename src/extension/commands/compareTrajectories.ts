// "Compare Two Trajectories" (issue 16 item 4): two trajectory records side by side in the compare
// view. From the explorer with two files selected it takes them (one selected: it asks for the
// other); from the palette it asks for both (the workspace's trajectory files, or Browse…); the
// collection view passes two `{file, record}` targets ("Compare with marked"). A file of several
// records asks which one.
import * as vscode from 'vscode';
import type { CollectedTrajectory } from '../../core/collections/collect';
import { CompareInputError } from '../../core/collections/compareSides';
import { readCompareSide, type ComparePanel, type ComparePanels, type CompareTarget } from '../compare/comparePanel';

export const COMPARE_TRAJECTORIES_COMMAND = 'trajaudit.compareTrajectories';

const BROWSE = 'Browse…';
/** Sidecars and gold files sit beside trajectories but are not trajectories (as the collection walk skips them). */
const COMPANION = /\.(audit\.json|gold_nuggets\.jsonl)$/i;

function isTarget(value: unknown): value is CompareTarget {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof vscode.Uri) &&
    typeof (value as CompareTarget).file === 'string' &&
    ((value as CompareTarget).record === undefined || typeof (value as CompareTarget).record === 'string')
  );
}

async function pickFile(title: string, placeHolder: string): Promise<string | undefined> {
  const found = await vscode.workspace.findFiles('**/*.{json,jsonl,eval}', '**/{node_modules,.git,.vscode-test}/**', 5000);
  const files = found
    .filter((uri) => uri.scheme === 'file' && !COMPANION.test(uri.path))
    .map((uri) => ({ label: vscode.workspace.asRelativePath(uri), path: uri.fsPath }))
    .sort((x, y) => x.label.localeCompare(y.label));
  const choice = await vscode.window.showQuickPick([...files, { label: BROWSE, description: 'a trajectory file anywhere' }], {
    title,
    placeHolder,
    matchOnDescription: true,
  });
  if (!choice) return undefined;
  if ('path' in choice) return choice.path;
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: false,
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    filters: { Trajectories: ['json', 'jsonl', 'eval', 'traj'] },
    openLabel: 'Compare',
  });
  return picked?.[0]?.fsPath;
}

async function pickRecord(file: string, records: CollectedTrajectory[]): Promise<string | undefined> {
  const choice = await vscode.window.showQuickPick(
    records.map((r) => ({ label: r.record, description: r.trajectory.query?.replace(/\s+/g, ' ').slice(0, 120) ?? '' })),
    { title: `Compare: which record of ${vscode.workspace.asRelativePath(file)}?`, matchOnDescription: true },
  );
  return choice?.label;
}

/** The two targets from the command's arguments, asking for what they leave out; undefined when the user cancels. */
async function targetsOf(args: unknown[]): Promise<[CompareTarget, CompareTarget] | undefined> {
  const [first, second] = args;
  if (isTarget(first) && isTarget(second)) return [first, second];
  const selected = Array.isArray(second) ? second.filter((u): u is vscode.Uri => u instanceof vscode.Uri) : [];
  if (selected.length > 2) {
    void vscode.window.showErrorMessage(`Compare Two Trajectories compares two files; ${selected.length} are selected.`);
    return undefined;
  }
  const given = (selected.length ? selected : first instanceof vscode.Uri ? [first] : []).filter((u) => u.scheme === 'file').map((u) => u.fsPath);
  const a = given[0] ?? (await pickFile('Compare Two Trajectories (1 of 2)', 'The first trajectory (a)'));
  if (!a) return undefined;
  const b = given[1] ?? (await pickFile('Compare Two Trajectories (2 of 2)', `Compare ${vscode.workspace.asRelativePath(a)} with…`));
  if (!b) return undefined;
  return [{ file: a }, { file: b }];
}

export function registerCompareTrajectories(panels: ComparePanels): vscode.Disposable {
  return vscode.commands.registerCommand(COMPARE_TRAJECTORIES_COMMAND, async (...args: unknown[]): Promise<ComparePanel | undefined> => {
    const targets = await targetsOf(args);
    if (!targets) return undefined;
    try {
      const a = await readCompareSide(targets[0], pickRecord);
      if (!a) return undefined;
      const b = await readCompareSide(targets[1], pickRecord);
      if (!b) return undefined;
      return panels.show(a, b);
    } catch (error) {
      const message = error instanceof CompareInputError ? error.message : `Could not compare: ${error instanceof Error ? error.message : String(error)}`;
      void vscode.window.showErrorMessage(message);
      return undefined;
    }
  });
}
