// The fake host's page side (bundled to /build/page-host.js, loaded before the view's bundle):
// `acquireVsCodeApi` as VS Code defines it, posting to the Node-side fake host through an exposed
// binding; host messages delivered as `message` events; the theme's body class; the saved UI
// state in sessionStorage (it survives a reload, as VS Code's webview state does); CSP
// violations and first-row timing recorded for the tests.
import { POST_BINDING, STATE_KEY, type HarnessWindow } from './pageGlobals';

const w = window as unknown as HarnessWindow;
const THEME_CLASS: Record<string, string> = { light: 'vscode-light', dark: 'vscode-dark', hc: 'vscode-high-contrast' };
const themeClass = THEME_CLASS[new URLSearchParams(location.search).get('theme') ?? 'dark'] ?? 'vscode-dark';
document.body.classList.add(themeClass);
document.body.dataset.vscodeThemeKind = themeClass;

w.__harnessTimings = {};
w.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  w.__cspViolations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
});

let acquired = false;
w.acquireVsCodeApi = () => {
  if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
  acquired = true;
  const post = w[POST_BINDING as '__harnessPost'];
  return {
    postMessage(message: unknown) {
      // Structured clone, as VS Code's postMessage does; a closing page may drop the call.
      post(JSON.parse(JSON.stringify(message))).catch(() => undefined);
    },
    getState() {
      const raw = sessionStorage.getItem(STATE_KEY);
      return raw ? JSON.parse(raw) : undefined;
    },
    setState(state: unknown) {
      sessionStorage.setItem(STATE_KEY, JSON.stringify(state));
      return state;
    },
  };
};

w.__harnessDeliver = (message) => {
  if ((message as { type?: string }).type === 'init') w.__harnessTimings.initSentAt = performance.now();
  window.postMessage(message, location.origin);
};

// First-rows timing: when the first timeline row appears after the view was delivered.
new MutationObserver((_, observer) => {
  if (w.__harnessTimings.initSentAt !== undefined && document.querySelector('.tl-row')) {
    w.__harnessTimings.firstRowAt = performance.now();
    observer.disconnect();
  }
}).observe(document.documentElement, { childList: true, subtree: true });
