import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';

/** Which UI the shared bundle (dist/webview.js) starts: told by <meta name="trajaudit-view">. */
export type WebviewView = 'trajectory' | 'items' | 'report';

/**
 * The page of every webview: strict CSP (`default-src 'none'`, scripts by nonce only, styles from
 * dist/ or by nonce) with a fresh nonce, the one bundle, and no content in the HTML — content
 * arrives by postMessage and is rendered as text.
 */
export function webviewPage(webview: vscode.Webview, extensionUri: vscode.Uri, title: string, view: WebviewView): string {
  const nonce = randomBytes(18).toString('base64');
  const dist = vscode.Uri.joinPath(extensionUri, 'dist');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js'));
  const cssFile = vscode.Uri.joinPath(dist, 'webview.css');
  const css = existsSync(cssFile.fsPath) ? `<link rel="stylesheet" href="${webview.asWebviewUri(cssFile)}" nonce="${nonce}">` : '';
  const csp = [
    "default-src 'none'",
    `img-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  const safeTitle = title.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta name="trajaudit-nonce" content="${nonce}">
<meta name="trajaudit-view" content="${view}">
${css}
<title>${safeTitle}</title>
</head>
<body>
<div id="root" data-view="${view}" data-nonce="${nonce}"></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}
