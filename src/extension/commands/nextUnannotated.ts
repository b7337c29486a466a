// "Next Unannotated Trajectory": in the collection shown last, selects the next row without a
// saved annotation after the selected one, in the table's current order (the view's `n` key).
import * as vscode from 'vscode';
import type { CollectionPanels } from '../collection/collectionPanel';

export const NEXT_UNANNOTATED_COMMAND = 'trajaudit.nextUnannotated';

export function registerNextUnannotated(panels: CollectionPanels): vscode.Disposable {
  return vscode.commands.registerCommand(NEXT_UNANNOTATED_COMMAND, () => {
    const panel = panels.latest;
    if (!panel) {
      void vscode.window.showWarningMessage('Open a collection first (Trajectory Auditor: Open as Collection).');
      return undefined;
    }
    panel.panel.reveal(undefined, false);
    return panel.selectNextUnannotated();
  });
}
