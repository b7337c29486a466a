// The trajectory editor page's first script when the host wrote a static first screen into it
// (src/extension/editor/firstScreen.ts; inlined by src/extension/webviewPage.ts as
// dist/webview-start.js). The app's bundle sits in the page as inert text (#trajaudit-bundle):
// this starts it once the static screen has been presented (the page's first contentful paint;
// started earlier, its parsing and first render would delay that frame), or after 250 ms when no
// paint comes (a hidden page). A restored page (saved UI state: its own scroll position and
// selection) drops the static screen and starts at once. Plain keys pressed meanwhile are kept
// for the app to replay (window.__trajauditEarlyKeys); the VS Code API, which a page may acquire
// only once, is handed on in window.__trajauditVsCodeApi.
import { afterFirstContentfulPaint } from './afterFirstPaint';
import { earlyKeyOf, type EarlyKey, type StartGlobals, type VsCodeApi } from './startGlobals';

declare function acquireVsCodeApi(): VsCodeApi;

(() => {
  const globals = window as unknown as StartGlobals;
  const bundle = document.getElementById('trajaudit-bundle');
  const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';
  const api = acquireVsCodeApi();
  globals.__trajauditVsCodeApi = api;
  const keys: EarlyKey[] = [];
  const keep = (ev: KeyboardEvent) => {
    const key = earlyKeyOf(ev);
    if (key) keys.push(key);
  };
  window.addEventListener('keydown', keep, true);
  globals.__trajauditEarlyKeys = () => {
    window.removeEventListener('keydown', keep, true);
    return keys.splice(0);
  };
  let started = false;
  const start = () => {
    if (started || !bundle) return;
    started = true;
    const script = document.createElement('script');
    script.nonce = nonce;
    script.textContent = bundle.textContent;
    bundle.remove();
    document.body.appendChild(script);
  };
  if (api.getState()) {
    document.getElementById('root')?.replaceChildren();
    start();
    return;
  }
  afterFirstContentfulPaint(start, 250);
})();
