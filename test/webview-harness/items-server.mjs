// Dev-only HTTP server for the item-view harness: builds the item views' bundle (webview/src/itemsMain.ts) and
// items-fakeHost.js, computes fixtures from the samples with the real builders
// (items-fixtures.ts, through tsx), and serves items-harness.html with the extension's CSP.
// Usage: node test/webview-harness/items-server.mjs [--port 5180]
//   then open http://127.0.0.1:5180/?fixture=deleg-en&theme=dark[&blind=1]
import { createServer } from 'node:http';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const buildDir = join(root, 'test-artifacts/webview/items-build');
const THEMES = { light: 'vscode-light', dark: 'vscode-dark', hc: 'vscode-high-contrast' };

export async function buildItemBundles() {
  await Promise.all([
    build({ entryPoints: [join(root, 'webview/src/itemsMain.ts')], outfile: join(buildDir, 'webview.js'), bundle: true, format: 'iife', platform: 'browser', target: 'es2022', sourcemap: true, logLevel: 'warning', mainFields: ['module', 'main'] }),
    build({ entryPoints: [join(here, 'items-fakeHost.js')], outfile: join(buildDir, 'items-harness.js'), bundle: true, format: 'iife', platform: 'browser', target: 'es2022', logLevel: 'warning' }),
  ]);
}

export function itemFixtures() {
  const out = execFileSync(join(root, 'node_modules/.bin/tsx'), [join(here, 'items-fixtures.ts')], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out.toString('utf8'));
}

export async function startItemServer({ port = 0, rebuild = true } = {}) {
  if (rebuild) await buildItemBundles();
  const fixtures = itemFixtures();
  const template = readFileSync(join(here, 'items-harness.html'), 'utf8');
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
      const fixture = (url.searchParams.get('fixture') ?? 'deleg-en').replace(/[^a-z0-9-]/gi, '');
      const html = template.replaceAll('{{csp}}', csp).replaceAll('{{nonce}}', nonce).replaceAll('{{theme}}', theme).replaceAll('{{bodyClass}}', THEMES[theme]).replaceAll('{{fixture}}', fixture);
      return send(200, 'text/html; charset=utf-8', html, { 'Content-Security-Policy': csp });
    }
    if (url.pathname === '/favicon.ico') return send(204, 'text/plain', '');
    if (url.pathname.startsWith('/fixture/')) {
      const name = url.pathname.slice('/fixture/'.length).replace(/\.js$/, '');
      const f = fixtures[name];
      return f ? send(200, 'text/javascript; charset=utf-8', `window.__ITEM_FIXTURE__ = ${JSON.stringify(f)};\n`) : send(404, 'text/plain', 'no such fixture');
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
  return { url, server, fixtures: Object.keys(fixtures), close: () => new Promise((ok) => server.close(ok)) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const { url, fixtures } = await startItemServer({ port: i > 0 ? Number(process.argv[i + 1]) : 5180 });
  console.log(`item view harness: ${url}/?fixture=deleg-en&theme=dark  (fixtures: ${fixtures.join(', ')}; themes: light, dark, hc; &blind=1)`);
}
