// Webview entry. The trajectory editor UI is built here (issue #3); until then the
// bundle only announces readiness so the host/webview protocol can be exercised.
declare function acquireVsCodeApi(): { postMessage(message: unknown): void };

const vscode = acquireVsCodeApi();
vscode.postMessage({ type: 'ready' });
