import * as vscode from 'vscode';
import { detectJsonValue, isTrajectoryFormat } from '../../core/formats/detect';
import { OPEN_IN_EDITOR_COMMAND } from '../commands/openInEditor';

const SNIFF_LIMIT = 32 * 1024 * 1024;

/** Content detection of an open text document: a trajectory format, or undefined. */
export function sniffTrajectory(document: vscode.TextDocument): string | undefined {
  if (document.uri.scheme !== 'file' || !/\.jsonl?$/i.test(document.fileName) || document.getText().length > SNIFF_LIMIT) return undefined;
  const text = document.getText();
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
  for (const candidate of [text, firstLine]) {
    try {
      const detection = detectJsonValue(JSON.parse(candidate));
      if (detection && isTrajectoryFormat(detection.kind)) return detection.kind;
    } catch {
      /* not JSON, or JSONL: try the first line */
    }
  }
  return undefined;
}

/** When a JSON file opened as text turns out to be a trajectory, quietly offer the editor (once per file). */
export function registerEditorOffer(): vscode.Disposable {
  const offered = new Set<string>();
  return vscode.window.onDidChangeActiveTextEditor((editor) => {
    const document = editor?.document;
    if (!document || offered.has(document.uri.toString())) return;
    if (!vscode.workspace.getConfiguration('trajaudit').get<boolean>('offerEditor', true)) return;
    const format = sniffTrajectory(document);
    if (!format) return;
    offered.add(document.uri.toString());
    void vscode.window
      .showInformationMessage(
        `${vscode.workspace.asRelativePath(document.uri)} looks like a ${format} trajectory.`,
        'Open in Trajectory Auditor',
        "Don't Ask Again",
      )
      .then((choice) => {
        if (choice === 'Open in Trajectory Auditor') void vscode.commands.executeCommand(OPEN_IN_EDITOR_COMMAND, document.uri);
        else if (choice === "Don't Ask Again")
          void vscode.workspace.getConfiguration('trajaudit').update('offerEditor', false, vscode.ConfigurationTarget.Global);
      });
  });
}
