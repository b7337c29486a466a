// Dev-only HTTP server for the item-view harness: builds the item views' bundle (webview/src/itemsMain.ts) and
// items-fakeHost.js, computes fixtures from the samples with the real builders
// (items-fixtures.ts, through tsx), and serves items-harness.html with the extension's CSP.
// Usage: node test/webview-harness/items-server.mjs [--port 5180]
//   then open http://127.0.0.1:5180/?fixture=deleg-en&theme=dark[&blind=1]
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { startHarnessServer } from './harnessServer.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const buildDir = join(root, 'test-artifacts/webview/items-build');

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
  const started = await startHarnessServer({
    port,
    templateFile: join(here, 'items-harness.html'),
    buildDir,
    defaultFixture: 'deleg-en',
    fixtureScript: (name) => (fixtures[name] ? `window.__ITEM_FIXTURE__ = ${JSON.stringify(fixtures[name])};\n` : null),
  });
  return { ...started, fixtures: Object.keys(fixtures) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const { url, fixtures } = await startItemServer({ port: i > 0 ? Number(process.argv[i + 1]) : 5180 });
  console.log(`item view harness: ${url}/?fixture=deleg-en&theme=dark  (fixtures: ${fixtures.join(', ')}; themes: light, dark, hc; &blind=1)`);
}
