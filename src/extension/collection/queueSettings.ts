// The collection view's annotation-queue settings (issue 16 item 6): whose annotations count
// (trajaudit.collection.annotator), blind mode (trajaudit.collection.blind) and the assignment
// file (trajaudit.collection.assignmentsFile, absolute or relative to the collection's workspace
// folder), read with the collection's folder as the settings scope. The rules are core's
// (core/collections/queue.ts); this only reads them.
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { parseAssignments, type Assignments } from '../../core/collections/queue';
import { parseJson } from '../../core/input/jsonText';
import { readTextFile } from '../../core/input/readText';

export const QUEUE_SECTION = 'trajaudit.collection';

export interface QueueSettings {
  annotator: string | null;
  blind: boolean;
  /** The assignment file: as the user named it, and where it is. */
  assignmentsFile?: { shown: string; path: string };
}

/** The folder a collection path's relative settings are read against: its workspace folder, else the folder it is (in). */
function baseFolder(collectionPath: string): string {
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(collectionPath));
  if (folder) return folder.uri.fsPath;
  return existsSync(collectionPath) && statSync(collectionPath).isDirectory() ? collectionPath : dirname(collectionPath);
}

export function readQueueSettings(collectionPath: string): QueueSettings {
  const config = vscode.workspace.getConfiguration(QUEUE_SECTION, vscode.Uri.file(collectionPath));
  const annotator = config.get<string>('annotator')?.trim() || null;
  const blind = config.get<boolean>('blind') === true;
  const file = config.get<string>('assignmentsFile')?.trim();
  return {
    annotator,
    blind,
    ...(file ? { assignmentsFile: { shown: file, path: isAbsolute(file) ? file : join(baseFolder(collectionPath), file) } } : {}),
  };
}

/**
 * Where the collection view's Blind toggle writes trajaudit.collection.blind: the settings layer
 * its value comes from now, so no narrower layer keeps shadowing the new value; a value set
 * nowhere goes to the workspace's settings (the user's without a workspace). Writing is allowed in
 * an untrusted workspace too: blind mode is not one of package.json's restrictedConfigurations,
 * so VS Code applies its workspace value there.
 */
export function blindTarget(collectionPath: string): vscode.ConfigurationTarget {
  const set = vscode.workspace.getConfiguration(QUEUE_SECTION, vscode.Uri.file(collectionPath)).inspect<boolean>('blind');
  if (set?.workspaceFolderValue !== undefined) return vscode.ConfigurationTarget.WorkspaceFolder;
  if (set?.workspaceValue !== undefined) return vscode.ConfigurationTarget.Workspace;
  if (set?.globalValue !== undefined) return vscode.ConfigurationTarget.Global;
  return vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
}

/** Writes blind mode where blindTarget says; VS Code's configuration change event then reaches every open collection. */
export async function writeBlindSetting(collectionPath: string, blind: boolean): Promise<void> {
  await vscode.workspace.getConfiguration(QUEUE_SECTION, vscode.Uri.file(collectionPath)).update('blind', blind, blindTarget(collectionPath));
}

/** The assignment file read and checked, or the one-line reason it cannot be (names the file, and the JSON path when the shape is wrong). */
export function loadAssignments(file: { shown: string; path: string }): { assignments: Assignments } | { problem: string } {
  try {
    return { assignments: parseAssignments(parseJson(readTextFile(file.path, file.shown), file.shown), file.shown) };
  } catch (error) {
    return { problem: `Assignment file not read: ${error instanceof Error ? error.message : String(error)}` };
  }
}
