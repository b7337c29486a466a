import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { deferredStartTag, pageHtml } from './pageHtml';

/** Which UI the page shows; each has its own bundle (esbuild.mjs). */
export type WebviewView = 'trajectory' | 'items' | 'report';

const BUNDLES: Record<WebviewView, string> = { trajectory: 'webview', items: 'webview-items', report: 'webview-report' };

/**
 * The page of every webview: strict CSP (`default-src 'none'`, scripts by nonce only, styles from
 * dist/ or by nonce) with a fresh nonce and the view's bundle. The bundle and its styles are
 * inlined under the nonce: a `src=` script would be fetched through the webview's service worker
 * and the extension host (~70 ms on opening). Content arrives by postMessage and is rendered as
 * text; the one exception is `initJson`, the first host message, embedded as an inert JSON data
 * block (never executed, every `<` escaped so it cannot close the element) to save the ready →
 * init round trip on opening.
 *
 * With a `firstScreen` (static HTML of the first rows, escaped by its writer) the page shows it
 * before any script runs. The bundle is then linked, not inlined: VS Code parses every page twice
 * before its first frame (its pre/index.html re-serializes it, then writes it into the frame), and
 * the static screen does not need the bundle, so its 215 KB would only delay that frame. A small
 * inline script (webview/src/deferredStart.ts, dist/webview-start.js) fetches and runs it once
 * that frame has been presented (a preload during the page's parsing cost that frame as much as
 * it saved: test/bench/editorPage.mjs), and the app then replaces the static screen.
 */
export function webviewPage(webview: vscode.Webview, extensionUri: vscode.Uri, title: string, view: WebviewView, initJson?: string, firstScreen?: string): string {
  const nonce = randomBytes(18).toString('base64');
  const dist = vscode.Uri.joinPath(extensionUri, 'dist');
  const bundle = (ext: 'js' | 'css') => vscode.Uri.joinPath(dist, `${BUNDLES[view]}.${ext}`);
  const css = inlineText(bundle('css'), 'style', webview);
  const styleTag = css === null ? '' : css === undefined ? `<link rel="stylesheet" href="${webview.asWebviewUri(bundle('css'))}" nonce="${nonce}">` : `<style nonce="${nonce}">${css}</style>`;
  const bundleUri = webview.asWebviewUri(bundle('js')).toString();
  // Behind a static first screen the bundle is not needed for the first frame: it is linked and
  // fetched after it, which keeps its 215 KB out of the page VS Code parses twice before that frame.
  const start = firstScreen === undefined ? undefined : inlineText(vscode.Uri.joinPath(dist, 'webview-start.js'), 'script', webview);
  const script = start ? undefined : inlineText(bundle('js'), 'script', webview);
  const scriptTag = start ? deferredStartTag(nonce, bundleUri, start) : script ? `<script nonce="${nonce}">${script}</script>` : `<script nonce="${nonce}" src="${bundleUri}"></script>`;
  return pageHtml({ nonce, cspSource: webview.cspSource, title, view, styleTag, scriptTag, firstScreen: start ? firstScreen : undefined, initJson });
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
