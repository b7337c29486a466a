import * as vscode from 'vscode';
import { collectRepairs, repairsAsJsonl, repairsAsMarkdown, resumePayload } from '../../core/export/repairs';
import { writeFileAtomic } from '../../core/files/atomicWrite';
import { targetUri } from '../activeFile';

/** Editor command: export the repair directives of a file or folder as JSONL, Markdown or resume payloads. */
export function registerExportRepairs(): vscode.Disposable {
  return vscode.commands.registerCommand(
    'trajaudit.exportRepairs',
    async (uri?: vscode.Uri, args: { format?: 'jsonl' | 'md' | 'resume'; out?: vscode.Uri } = {}) => {
      const target = targetUri(uri) ?? uri;
      if (!target) {
        void vscode.window.showWarningMessage('Open or select an audited trajectory (or a folder) first.');
        return undefined;
      }
      const format =
        args.format ??
        ((await vscode.window.showQuickPick(['jsonl', 'md', 'resume'], { title: 'Export repairs as' })) as 'jsonl' | 'md' | 'resume' | undefined);
      if (!format) return undefined;
      const { sources } = collectRepairs(target.fsPath);
      if (sources.length === 0) {
        void vscode.window.showInformationMessage('No audit with a repair directive found: run an audit first.');
        return undefined;
      }
      const extension = format === 'md' ? 'md' : format === 'jsonl' ? 'jsonl' : 'json';
      const out =
        args.out ??
        (await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.file(`${target.fsPath.replace(/\.(jsonl?|json)$/i, '')}.repairs.${extension}`) }));
      if (!out) return undefined;
      const text =
        format === 'jsonl'
          ? repairsAsJsonl(sources)
          : format === 'md'
            ? repairsAsMarkdown(sources)
            : `${JSON.stringify(sources.length === 1 ? resumePayload(sources[0]).payload : sources.map((s) => resumePayload(s).payload), null, 2)}\n`;
      writeFileAtomic(out.fsPath, text);
      if (!args.out) void vscode.window.showInformationMessage(`${sources.length} repair(s) exported to ${vscode.workspace.asRelativePath(out)}.`);
      return out;
    },
  );
}
