// Shared helpers for the integration suites (they run inside the VS Code
// extension host; the workspace folder opened is <repo>/samples).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'trajaudit.trajaudit';

/** The commands package.json contributes and the extension must register. */
export const EXPECTED_COMMANDS = [
  'trajaudit.inspectFile',
  'trajaudit.showOutline',
  'trajaudit.validateFile',
  'trajaudit.openInEditor',
  'trajaudit.revealStep',
  'trajaudit.auditTrajectory',
  'trajaudit.auditFolder',
  'trajaudit.setApiKey',
  'trajaudit.exportRepairs',
] as const;

export function getExtension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not installed in the extension host`);
  return ext;
}

/** Activates the extension (idempotent) and returns it. */
export async function activateExtension(): Promise<vscode.Extension<unknown>> {
  const ext = getExtension();
  if (!ext.isActive) await ext.activate();
  return ext;
}

/** The samples workspace folder. */
export function samplesRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder is open (the runner opens <repo>/samples)');
  return folder.uri;
}

/** URI of a file in the samples workspace, e.g. sampleUri('traj/one.json'). */
export function sampleUri(relativePath: string): vscode.Uri {
  return vscode.Uri.joinPath(samplesRoot(), ...relativePath.split('/').filter(Boolean));
}

/** Sample files matching a glob relative to the samples folder, sorted by path. */
export async function findSamples(glob: string): Promise<vscode.Uri[]> {
  const found = await vscode.workspace.findFiles(new vscode.RelativePattern(samplesRoot(), glob));
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

/** Path of a sample URI relative to the samples folder ('trajectories/x/y.json'). */
export function sampleRelativePath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

/** Throws a clear error when a sample file is missing. */
export async function assertSampleExists(relativePath: string): Promise<vscode.Uri> {
  const uri = sampleUri(relativePath);
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    assert.fail(`sample file samples/${relativePath} does not exist`);
  }
  return uri;
}

/** Opens a sample file in an editor and makes it the active editor. */
export async function openSample(relativePath: string, options: vscode.TextDocumentShowOptions = {}): Promise<vscode.TextEditor> {
  const uri = await assertSampleExists(relativePath);
  const document = await vscode.workspace.openTextDocument(uri);
  return vscode.window.showTextDocument(document, { preview: false, ...options });
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` until it returns a truthy value (returned) or the timeout expires. */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 100, message = 'condition' }: { timeoutMs?: number; intervalMs?: number; message?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (last) return last as NonNullable<T>;
    await sleep(intervalMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${message} (last value: ${String(last)})`);
}
