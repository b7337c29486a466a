import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { ITEM_VIEW_META, ITEM_VIEW_META_VALUE } from '../../shared/itemProtocol';

/**
 * The item view's page: the same strict CSP and nonce as the trajectory editor (editorHtml), the
 * same bundle (dist/webview.js), and a meta tag that makes the bundle start the item UI.
 * No item content is ever put in the HTML: it arrives by postMessage and is rendered as text.
 */
export function itemViewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
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
<meta name="${ITEM_VIEW_META}" content="${ITEM_VIEW_META_VALUE}">
${css}
<title>${safeTitle}</title>
</head>
<body>
<div id="root" data-nonce="${nonce}"></div>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}
