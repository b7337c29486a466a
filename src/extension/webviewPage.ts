import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { pageHtml } from './pageHtml';

/** Which UI the page shows; each has its own bundle (esbuild.mjs). */
export type WebviewView = 'trajectory' | 'items' | 'report' | 'collection' | 'compare';

/** Bundles a view loads after its first paint (esbuild.mjs LAZY_WEBVIEW_BUNDLES), by name. */
const LAZY_BUNDLES: Partial<Record<WebviewView, Record<string, string>>> = {
  trajectory: { panels: 'webview-panels.js' },
};

const BUNDLES: Record<WebviewView, string> = {
  trajectory: 'webview',
  items: 'webview-items',
  report: 'webview-report',
  collection: 'webview-collection',
  compare: 'webview-compare',
};

/**
 * The page of every webview: strict CSP (`default-src 'none'`, scripts by nonce only, styles from
 * dist/ or by nonce) with a fresh nonce and the view's bundle. The bundle and its styles are
 * inlined under the nonce: a `src=` script would be fetched through the webview's service worker
 * and the extension host (~70 ms on opening). Content arrives by postMessage and is rendered as
 * text; the one exception is `initJson`, the first host message, embedded as an inert JSON data
 * block (never executed, every `<` escaped so it cannot close the element) to save the ready →
 * init round trip on opening.
 */
export function webviewPage(webview: vscode.Webview, extensionUri: vscode.Uri, title: string, view: WebviewView, initJson?: string): string {
  const nonce = randomBytes(18).toString('base64');
  const dist = vscode.Uri.joinPath(extensionUri, 'dist');
  const bundle = (ext: 'js' | 'css') => vscode.Uri.joinPath(dist, `${BUNDLES[view]}.${ext}`);
  const css = inlineText(bundle('css'), 'style', webview);
  const styleTag =
    css === null
      ? ''
      : css === undefined
        ? `<link rel="stylesheet" href="${webview.asWebviewUri(bundle('css'))}" nonce="${nonce}">`
        : `<style nonce="${nonce}">${css}</style>`;
  const script = inlineText(bundle('js'), 'script', webview);
  const scriptTag = script ? `<script nonce="${nonce}">${script}</script>` : `<script nonce="${nonce}" src="${webview.asWebviewUri(bundle('js'))}"></script>`;
  const lazyBundles = Object.fromEntries(
    Object.entries(LAZY_BUNDLES[view] ?? {}).map(([name, file]) => [name, webview.asWebviewUri(vscode.Uri.joinPath(dist, file)).toString()]),
  );
  return pageHtml({ nonce, cspSource: webview.cspSource, title, view, styleTag, scriptTag, initJson, lazyBundles });
}

/** Bundle texts by path (dist/ does not change while the extension runs), and as inlined by map URL. */
const bundleTexts = new Map<string, string>();
const inlinedTexts = new Map<string, string | undefined>();

/**
 * A bundle's text for an inline element, its source map pointed at the webview URI; undefined
 * when the text could close the element early (then it is linked instead), null when missing.
 */
function inlineText(file: vscode.Uri, element: 'script' | 'style', webview: vscode.Webview): string | undefined | null {
  let text = bundleTexts.get(file.fsPath);
  if (text === undefined) {
    try {
      text = readFileSync(file.fsPath, 'utf8');
    } catch {
      return null;
    }
    bundleTexts.set(file.fsPath, text);
  }
  const mapUrl = webview.asWebviewUri(vscode.Uri.joinPath(file, '..', `${file.path.split('/').pop()}.map`)).toString();
  const key = `${file.fsPath}\n${element}\n${mapUrl}`;
  if (!inlinedTexts.has(key)) {
    const closes = text.toLowerCase().includes(`</${element}`);
    inlinedTexts.set(key, closes ? undefined : text.replace(/(\/[/*]# sourceMappingURL=)\S+?(\s*(\*\/)?\s*)$/, `$1${mapUrl}$2`));
  }
  return inlinedTexts.get(key);
}
