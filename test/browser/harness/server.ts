// The HTTP server both harnesses share (dev only): serves a page template with the extension's
// CSP — default-src 'none'; img-src S; style-src S 'nonce-N'; font-src S; script-src 'nonce-N' —
// a fixture script per name, the built bundles (/build/) and the theme variables (/themes/).
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const THEMES = { light: 'vscode-light', dark: 'vscode-dark', hc: 'vscode-high-contrast' };

/**
 * Starts the server on 127.0.0.1. `fixtureScript(name)` returns the script defining a fixture
 * (or null: 404); `pagePlaceholders(url, nonce)` adds {{placeholder}} → text replacements.
 */
export async function startHarnessServer({ port = 0, templateFile, buildDir, defaultFixture, fixtureScript, pagePlaceholders = () => ({}) }) {
  const template = readFileSync(templateFile, 'utf8');
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
      const fixture = (url.searchParams.get('fixture') ?? defaultFixture).replace(/[^a-z0-9-]/gi, '');
      const values = { csp, nonce, theme, bodyClass: THEMES[theme], fixture, ...pagePlaceholders(url, nonce) };
      // A replacer function: values may hold `$` patterns (a bundle's text does).
      const html = template.replace(/\{\{(\w+)\}\}/g, (whole, name) => (name in values ? values[name] : whole));
      return send(200, 'text/html; charset=utf-8', html, { 'Content-Security-Policy': csp });
    }
    if (url.pathname === '/favicon.ico') return send(204, 'text/plain', '');
    if (url.pathname.startsWith('/fixture/')) {
      const js = fixtureScript(url.pathname.slice('/fixture/'.length).replace(/\.js$/, ''));
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
