// Dev-only HTTP server for the webview harness: builds the webview bundle and the fake host
// with esbuild, then serves harness.html with the same CSP the extension host sets:
//   default-src 'none'; img-src S; style-src S 'nonce-N'; font-src S; script-src 'nonce-N'
// Usage: node test/webview-harness/server.mjs [--port 5179]
//   then open http://127.0.0.1:5179/?fixture=small|large|multi&theme=light|dark|hc
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildFixtures } from './gen-fixtures.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const buildDir = join(root, 'test-artifacts/webview/build');
const fixtureDir = join(root, 'test-artifacts/webview/fixtures');
const THEMES = { light: 'vscode-light', dark: 'vscode-dark', hc: 'vscode-high-contrast' };

export async function buildBundles() {
  await Promise.all([
    build({ entryPoints: [join(root, 'webview/src/main.ts')], outfile: join(buildDir, 'webview.js'), bundle: true, format: 'iife', platform: 'browser', target: 'es2022', sourcemap: true, logLevel: 'warning', mainFields: ['module', 'main'] }),
    build({ entryPoints: [join(here, 'fakeHost.js')], outfile: join(buildDir, 'harness.js'), bundle: true, format: 'iife', platform: 'browser', target: 'es2022', logLevel: 'warning' }),
    build({ entryPoints: [join(root, 'webview/src/deferredStart.ts')], outfile: join(buildDir, 'webview-start.js'), bundle: true, format: 'iife', platform: 'browser', target: 'es2022', logLevel: 'warning' }),
  ]);
}

const fixtureCache = new Map();
function fixtureScript(name) {
  if (!fixtureCache.has(name)) {
    const file = join(fixtureDir, `${name}.json`);
    let json;
    if (existsSync(file)) json = readFileSync(file, 'utf8');
    else {
      const all = buildFixtures();
      if (!all[name]) return null;
      json = JSON.stringify(all[name]);
    }
    fixtureCache.set(name, `window.__FIXTURE__ = ${json};\n`);
  }
  return fixtureCache.get(name);
}

/**
 * How the page starts the app: at once (default); never (?firstScreen=only: the static first
 * screen alone); or as the extension's editor page does behind its first screen
 * (?firstScreen=deferred: the bundle as inert text, started by webview/src/deferredStart.ts).
 */
function appScript(firstScreen, nonce) {
  if (firstScreen === 'only') return '';
  if (firstScreen !== 'deferred') return `  <script nonce="${nonce}" src="/build/webview.js"></script>\n`;
  const bundle = readFileSync(join(buildDir, 'webview.js'), 'utf8');
  if (bundle.toLowerCase().includes('</script')) throw new Error('the bundle cannot be inlined: it holds </script');
  return `  <script type="text/plain" id="trajaudit-bundle">${bundle}</script>\n  <script nonce="${nonce}" src="/build/webview-start.js"></script>\n`;
}

export async function startServer({ port = 0, rebuild = true } = {}) {
  if (rebuild) await buildBundles();
  const template = readFileSync(join(here, 'harness.html'), 'utf8');
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const origin = `http://127.0.0.1:${server.address().port}`;
    const send = (status, type, body, headers = {}) => {
      res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
      res.end(body);
    };
    if (url.pathname === '/' || url.pathname === '/index.html') {
      const nonce = randomBytes(16).toString('base64');
      const csp = `default-src 'none'; img-src ${origin}; style-src ${origin} 'nonce-${nonce}'; font-src ${origin}; script-src 'nonce-${nonce}'`;
      const theme = THEMES[url.searchParams.get('theme')] ? url.searchParams.get('theme') : 'dark';
      const fixture = (url.searchParams.get('fixture') ?? 'small').replace(/[^a-z0-9-]/gi, '');
      const html = template
        .replaceAll('{{csp}}', csp)
        .replaceAll('{{nonce}}', nonce)
        .replaceAll('{{theme}}', theme)
        .replaceAll('{{bodyClass}}', THEMES[theme])
        .replaceAll('{{fixture}}', fixture)
        .replaceAll('{{appScript}}', () => appScript(url.searchParams.get('firstScreen'), nonce)); // a function: the bundle holds $ patterns
      return send(200, 'text/html; charset=utf-8', html, { 'Content-Security-Policy': csp });
    }
    if (url.pathname === '/favicon.ico') return send(204, 'text/plain', '');
    if (url.pathname.startsWith('/fixture/')) {
      const name = url.pathname.slice('/fixture/'.length).replace(/\.js$/, '');
      const js = fixtureScript(name);
      return js ? send(200, 'text/javascript; charset=utf-8', js) : send(404, 'text/plain', 'no such fixture');
    }
    const map = { '/build/': buildDir, '/themes/': join(here, 'themes') };
    for (const [prefix, dir] of Object.entries(map)) {
      if (!url.pathname.startsWith(prefix)) continue;
      const file = resolve(dir, url.pathname.slice(prefix.length));
      if (!file.startsWith(dir) || !existsSync(file)) return send(404, 'text/plain', 'not found');
      const type = file.endsWith('.css') ? 'text/css' : file.endsWith('.map') ? 'application/json' : 'text/javascript';
      return send(200, `${type}; charset=utf-8`, readFileSync(file));
    }
    send(404, 'text/plain', 'not found');
  });
  await new Promise((ok) => server.listen(port, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, server, close: () => new Promise((ok) => server.close(ok)) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const { url } = await startServer({ port: i > 0 ? Number(process.argv[i + 1]) : 5179 });
  console.log(`webview harness: ${url}/?fixture=small&theme=dark  (fixtures: small, large, multi; themes: light, dark, hc)`);
}
