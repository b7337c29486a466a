import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { REPORT_VIEW, REPORT_VIEW_META } from '../../shared/reportProtocol';

/**
 * The report page: the same strict CSP as the trajectory editor (src/extension/editor/webviewHtml.ts)
 * — `default-src 'none'`, scripts by nonce only, styles from dist/ or by nonce — and the same
 * bundle (dist/webview.js), told to start the report UI by <meta name="trajaudit-view" content="report"> (as the item view does).
 * Chart.js draws on canvas and sizes it through the CSSOM (element.style), which style-src does
 * not govern, so no 'unsafe-inline' is needed; the page reports any violation to the host.
 */
export function reportHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
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
<meta name="${REPORT_VIEW_META}" content="${REPORT_VIEW}">
${css}
<title>${safeTitle}</title>
</head>
<body>
<div id="app" data-view="${REPORT_VIEW}" data-nonce="${nonce}"></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}
