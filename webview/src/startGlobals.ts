// What the page's deferred start (deferredStart.ts) leaves on window for the app.

export interface EarlyKey {
  key: string;
  code: string;
  shiftKey: boolean;
}

export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

export interface StartGlobals {
  /** The page's VS Code API, acquired by the deferred start (a page may acquire it only once). */
  __trajauditVsCodeApi?: VsCodeApi;
  /** Stops keeping keys and returns those pressed before the app started. */
  __trajauditEarlyKeys?: () => EarlyKey[];
}
