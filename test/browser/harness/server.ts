// The browser tests' HTTP server on 127.0.0.1: the webview pages as the extension builds them
// (src/extension/pageHtml.ts: the strict CSP with a fresh nonce, the view's meta tag, #root), with
// the fake host's page script before the view's bundle, the built bundles under /build/ and the
// theme variables under /themes/.
//   /editor/?theme=dark   the trajectory editor (bundle of webview/src/editor/main.ts)
//   /items/?theme=light   the benchmark-item views (bundle of webview/src/items/main.ts)
//   /collection/?theme=dark   the collection view (bundle of webview/src/collection/main.ts)
//   /compare/?theme=dark   the compare view (bundle of webview/src/compare/main.ts)
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve, sep } from 'node:path';
import { pageHtml } from '../../../src/extension/pageHtml';

export const THEMES = ['light', 'dark', 'hc'] as const;
export type Theme = (typeof THEMES)[number];

const themesDir = join(__dirname, 'themes');
// Page path → the extension's view name (src/extension/webviewPage.ts) and a title.
const VIEWS = {
  editor: { view: 'trajectory', title: 'Trajectory Auditor — editor (browser test)' },
  items: { view: 'items', title: 'Trajectory Auditor — item view (browser test)' },
  collection: { view: 'collection', title: 'Trajectory Auditor — collection (browser test)' },
  compare: { view: 'compare', title: 'Trajectory Auditor — compare (browser test)' },
} as const;

export interface HarnessServer {
  url: string;
  close(): Promise<void>;
}

/** Serves the pages and `buildDir` (bundles.ts writes it). */
export async function startHarnessServer(buildDir: string, port = 0): Promise<HarnessServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
      res.end(body);
    };
    const view = /^\/(editor|items|collection|compare)\/?$/.exec(url.pathname)?.[1] as keyof typeof VIEWS | undefined;
    if (view) {
      const nonce = randomBytes(16).toString('base64');
      const theme = (THEMES as readonly string[]).includes(url.searchParams.get('theme') ?? '') ? url.searchParams.get('theme') : 'dark';
      const styles = [`${origin}/themes/common.css`, `${origin}/themes/${theme}.css`, `${origin}/build/${view}.css`];
      const html = pageHtml({
        nonce,
        cspSource: origin,
        title: VIEWS[view].title,
        view: VIEWS[view].view,
        styleTag: styles.map((href) => `<link rel="stylesheet" href="${href}">`).join('\n'),
        scriptTag: `<script nonce="${nonce}" src="/build/page-host.js"></script>\n<script nonce="${nonce}" src="/build/${view}.js"></script>`,
        lazyBundles: view === 'editor' ? { panels: `${origin}/build/editor-panels.js` } : undefined,
      });
      const csp = /content="([^"]+)"/.exec(html)?.[1] ?? '';
      return send(200, 'text/html; charset=utf-8', html, { 'Content-Security-Policy': csp });
    }
    if (url.pathname === '/favicon.ico') return send(204, 'text/plain', '');
    for (const [prefix, dir] of [
      ['/build/', buildDir],
      ['/themes/', themesDir],
    ] as const) {
      if (!url.pathname.startsWith(prefix)) continue;
      const file = resolve(dir, url.pathname.slice(prefix.length));
      if (!file.startsWith(dir + sep) || !existsSync(file)) return send(404, 'text/plain', 'not found');
      const type = file.endsWith('.css') ? 'text/css' : file.endsWith('.map') ? 'application/json' : 'text/javascript';
      return send(200, `${type}; charset=utf-8`, readFileSync(file));
    }
    send(404, 'text/plain', 'not found');
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}
