// Dev-only HTTP server for the webview harness: builds the webview bundle and the fake host
// with esbuild, then serves harness.html with the same CSP the extension host sets
// (harnessServer.mjs).
// Usage: node test/webview-harness/server.mjs [--port 5179]
//   then open http://127.0.0.1:5179/?fixture=small|large|multi&theme=light|dark|hc
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildFixtures } from './gen-fixtures.mjs';
import { startHarnessServer } from './harnessServer.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const buildDir = join(root, 'test-artifacts/webview/build');
const fixtureDir = join(root, 'test-artifacts/webview/fixtures');

export async function buildBundles() {
  await Promise.all([
    build({ entryPoints: [join(root, 'webview/src/main.ts')], outfile: join(buildDir, 'webview.js'), bundle: true, format: 'iife', platform: 'browser', target: 'es2022', sourcemap: true, logLevel: 'warning', mainFields: ['module', 'main'] }),
    build({ entryPoints: [join(here, 'fakeHost.js')], outfile: join(buildDir, 'harness.js'), bundle: true, format: 'iife', platform: 'browser', target: 'es2022', logLevel: 'warning' }),
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


export async function startServer({ port = 0, rebuild = true } = {}) {
  if (rebuild) await buildBundles();
  return startHarnessServer({
    port,
    templateFile: join(here, 'harness.html'),
    buildDir,
    defaultFixture: 'small',
    fixtureScript,
    pagePlaceholders: (url, nonce) => ({ appScript: `  <script nonce="${nonce}" src="/build/webview.js"></script>\n` }),
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const { url } = await startServer({ port: i > 0 ? Number(process.argv[i + 1]) : 5179 });
  console.log(`webview harness: ${url}/?fixture=small&theme=dark  (fixtures: small, large, multi; themes: light, dark, hc)`);
}
