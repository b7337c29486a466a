import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';

/**
 * Reads a file's bytes. `file:` URIs are read with Node directly: the extension host runs where
 * the files are, and vscode.workspace.fs would route each read through the workbench (tens of
 * milliseconds in a remote or web window, on the path to opening an editor). Other schemes go
 * through vscode.workspace.fs.
 */
export async function readUriBytes(uri: vscode.Uri): Promise<Uint8Array> {
  if (uri.scheme === 'file') return readFile(uri.fsPath);
  return vscode.workspace.fs.readFile(uri);
}

/** True for "no such file" from either path of readUriBytes. */
export function isFileNotFound(error: unknown): boolean {
  if (error instanceof vscode.FileSystemError) return error.code === 'FileNotFound';
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
