import * as vscode from 'vscode';

export interface Log {
  channel: vscode.LogOutputChannel;
  info(message: string): void;
  error(message: string): void;
}

/** The "Trajectory Auditor" output channel. Never log secrets or request bodies here. */
export function createLog(): Log {
  const channel = vscode.window.createOutputChannel('Trajectory Auditor', { log: true });
  return { channel, info: (m) => channel.info(m), error: (m) => channel.error(m) };
}
