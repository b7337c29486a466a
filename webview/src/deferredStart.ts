// The trajectory editor page's first script when the host wrote a static first screen into it
// (src/extension/editor/firstScreen.ts; inlined by src/extension/webviewPage.ts as
// dist/webview-start.js). The app's bundle is linked (this script's data-bundle): this fetches
// and runs it once the static screen has been presented (the page's first contentful paint;
// fetched or run earlier, it would delay that frame), or after 250 ms when no paint comes (a
// hidden page). A restored page (saved UI state: its own scroll position and selection) drops
// the static screen and starts at once. The editor's keys pressed and rows clicked meanwhile are
// kept for the app to replay (window.__trajauditEarlyInput); the VS Code API, which a page may
// acquire only once, is handed on in window.__trajauditVsCodeApi.
import { afterFirstContentfulPaint } from './afterFirstPaint';
import { earlyKeyOf, type EarlyInput, type StartGlobals, type VsCodeApi } from './startGlobals';

declare function acquireVsCodeApi(): VsCodeApi;

(() => {
  const globals = window as unknown as StartGlobals;
  const self = document.currentScript as HTMLScriptElement | null;
  const bundle = self?.dataset.bundle;
  const nonce = self?.nonce ?? '';
  const api = acquireVsCodeApi();
  globals.__trajauditVsCodeApi = api;
  const input: EarlyInput[] = [];
  const keep = (ev: KeyboardEvent) => {
    const key = earlyKeyOf(ev);
    if (key) input.push(key);
  };
  // A click on a static row means "this message": the app selects it.
  const keepClick = (ev: MouseEvent) => {
    const row = (ev.target as Element | null)?.closest?.('.first-screen .tl-row');
    const position = Number((row as HTMLElement | null)?.dataset.position);
    if (row && Number.isInteger(position)) input.push({ rowClick: position });
  };
  window.addEventListener('keydown', keep, true);
  window.addEventListener('click', keepClick, true);
  globals.__trajauditEarlyInput = () => {
    window.removeEventListener('keydown', keep, true);
    window.removeEventListener('click', keepClick, true);
    return input.splice(0);
  };
  let started = false;
  const start = () => {
    if (started || !bundle) return;
    started = true;
    const script = document.createElement('script');
    script.nonce = nonce;
    script.src = bundle;
    // Without its script the page would stay a picture: say so instead.
    script.onerror = () => {
      const note = document.createElement('p');
      note.className = 'load-error';
      note.textContent = `Trajectory Auditor could not load its editor script (${bundle.split('/').slice(-2).join('/')}). Close and reopen the editor; if it persists, reinstall the extension.`;
      document.getElementById('root')?.replaceChildren(note);
    };
    document.body.appendChild(script);
  };
  if (api.getState()) {
    document.getElementById('root')?.replaceChildren();
    start();
    return;
  }
  afterFirstContentfulPaint(start, 250);
})();
