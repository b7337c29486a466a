// The HTML of every webview page. webviewPage.ts adds what needs `vscode` (resource URIs, the
// webview's CSP source, the bundles read from dist/); no `vscode` import here, so the
// webview harness and unit tests build pages with the same code.
import { EMBEDDED_INIT_ID } from '../shared/protocol';

export interface PageParts {
  nonce: string;
  /** The webview's CSP source: images, fonts and linked styles come from the extension. */
  cspSource: string;
  title: string;
  view: string;
  /** Styles, inline or linked, under the nonce. */
  styleTag: string;
  /** The view's bundle, inline or linked, under the nonce. */
  scriptTag: string;
  /** The first host message, embedded as an inert JSON data block. */
  initJson?: string;
  /** URLs of the bundles the view loads after its first paint, by name (webview/src/common/lazyBundle.ts). */
  lazyBundles?: Record<string, string>;
}

/** Strict CSP: `default-src 'none'`, scripts by nonce only, styles from the extension or by nonce. */
export function pageHtml(p: PageParts): string {
  const csp = [
    "default-src 'none'",
    `img-src ${p.cspSource}`,
    `font-src ${p.cspSource}`,
    `style-src ${p.cspSource} 'nonce-${p.nonce}'`,
    `script-src 'nonce-${p.nonce}'`,
  ].join('; ');
  const escapeAttr = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const safeTitle = escapeAttr(p.title);
  const lazy = Object.entries(p.lazyBundles ?? {})
    .map(([name, url]) => `<meta name="trajaudit-bundle-${escapeAttr(name)}" content="${escapeAttr(url)}">\n`)
    .join('');
  const init = p.initJson === undefined ? '' : embeddedInitElement(p.initJson);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta name="trajaudit-nonce" content="${p.nonce}">
<meta name="trajaudit-view" content="${p.view}">
${lazy}${p.styleTag}
<title>${safeTitle}</title>
</head>
<body>
<div id="root" data-view="${p.view}" data-nonce="${p.nonce}"></div>
${init}${p.scriptTag}
</body>
</html>`;
}

/** The first host message as an inert JSON data block; every `<` escaped, so the JSON cannot close its element. */
export function embeddedInitElement(initJson: string): string {
  return `<script type="application/json" id="${EMBEDDED_INIT_ID}">${initJson.replace(/</g, '\\u003c')}</script>\n`;
}
