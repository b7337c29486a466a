// What the fake host's page script (pageHost.ts) puts on `window`, shared by that script and the
// Node side (fakeEditorHost.ts, fakeItemHost.ts, the specs' page.evaluate callbacks).

/** The binding through which the page posts to the fake host (Page.exposeFunction). */
export const POST_BINDING = '__harnessPost';
/** sessionStorage key of the page's saved UI state (what VS Code keeps as webview state). */
export const STATE_KEY = 'trajaudit-harness-state';

export interface CspViolation {
  directive: string;
  blocked: string;
  sample: string;
}

export interface HarnessWindow {
  /** Exposed by the fake host: the page's postMessage to the extension. */
  __harnessPost(message: unknown): Promise<void>;
  /** Called by the fake host: delivers one host message as VS Code does (a `message` event). */
  __harnessDeliver(message: unknown): void;
  __harnessTimings: { initSentAt?: number; firstRowAt?: number };
  __cspViolations: CspViolation[];
  /** Set only if hostile fixture content ever ran. */
  __pwned?: unknown;
  acquireVsCodeApi(): { postMessage(message: unknown): void; getState(): unknown; setState(state: unknown): unknown };
}
