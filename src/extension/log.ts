import * as vscode from 'vscode';

export interface Log {
  channel: vscode.LogOutputChannel;
  info(message: string): void;
  error(message: string): void;
  /** The most recent lines, for diagnostics and the test that no secret is ever logged. */
  recent(): readonly string[];
}

const KEEP = 2000;

/** The "Trajectory Auditor" output channel. Never log secrets or request bodies here. */
export function createLog(): Log {
  const channel = vscode.window.createOutputChannel('Trajectory Auditor', { log: true });
  const lines: string[] = [];
  const remember = (line: string) => {
    lines.push(line);
    if (lines.length > KEEP) lines.splice(0, lines.length - KEEP);
  };
  return {
    channel,
    info: (m) => {
      remember(m);
      channel.info(m);
    },
    error: (m) => {
      remember(m);
      channel.error(m);
    },
    recent: () => lines,
  };
}
