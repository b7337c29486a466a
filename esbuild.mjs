// One build for everything: type-check, lint, then bundle the extension host code,
// the CLI, the webview and the integration-test module.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { chmodSync } from 'node:fs';

const watch = process.argv.includes('--watch');
const skipChecks = process.argv.includes('--no-check');
const production = process.argv.includes('--production');

if (!skipChecks) await runChecks();

/**
 * Type-check, lint and format check, side by side (they are independent and each mostly one
 * core), each with its cache in node_modules/.cache/trajaudit so a second build only looks at
 * what changed. The lint fails the build when src/core imports `vscode` at run time (see
 * eslint.config.mjs); Prettier when a file is not formatted (npm run format).
 */
async function runChecks() {
  const cache = 'node_modules/.cache/trajaudit';
  const checks = [
    ['tsc', '--noEmit', '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', `${cache}/tsconfig.tsbuildinfo`],
    ['eslint', '--cache', '--cache-strategy', 'content', '--cache-location', `${cache}/eslint`, 'src', 'webview', 'test'],
    ['prettier', '--check', '--log-level', 'warn', '--cache', '--cache-location', `${cache}/prettier`, '.'],
  ];
  const codes = await Promise.all(
    checks.map(
      (args) =>
        new Promise((resolve) => {
          const child = spawn('npx', args, { stdio: 'inherit' });
          child.once('error', () => resolve(127));
          child.once('exit', (code) => resolve(code ?? 1));
        }),
    ),
  );
  const failed = checks.filter((_, i) => codes[i] !== 0).map((args) => args[0]);
  if (failed.length) {
    process.stderr.write(`build: ${failed.join(', ')} failed (see above)\n`);
    process.exit(1);
  }
}

/** Webview bundles (and their .css) per view; src/extension/webviewPage.ts picks one. */
const WEBVIEW_ENTRIES = [
  ['webview/src/editor/main.ts', 'dist/webview.js'], // the trajectory editor
  ['webview/src/items/main.ts', 'dist/webview-items.js'],
  ['webview/src/report/main.ts', 'dist/webview-report.js'],
  ['webview/src/collection/main.ts', 'dist/webview-collection.js'],
  ['webview/src/compare/main.ts', 'dist/webview-compare.js'],
];
/**
 * Bundles a view loads after its first paint, by URL (webview/src/common/lazyBundle.ts): classic
 * scripts that leave their exports on a global. The editor's side panels with the
 * @vscode-elements components and Lit are two thirds of its code; inlined, the page would
 * tokenize and compile them before its first rows.
 */
const LAZY_WEBVIEW_BUNDLES = [['webview/src/editor/panels.ts', 'dist/webview-panels.js', 'trajauditPanels']];

const common = { bundle: true, mainFields: ['module', 'main'], sourcemap: !production, minify: production, logLevel: 'warning', legalComments: 'none' };

await Promise.all([
  build({
    ...common,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  }),
  build({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  }),
  // One bundle per view, always minified: the page's script is on the path to the first rows.
  ...WEBVIEW_ENTRIES.map(([entry, out]) =>
    build({ ...common, minify: true, entryPoints: [entry], outfile: out, platform: 'browser', format: 'iife', target: 'es2022' }),
  ),
  ...LAZY_WEBVIEW_BUNDLES.map(([entry, out, globalName]) =>
    build({ ...common, minify: true, entryPoints: [entry], outfile: out, platform: 'browser', format: 'iife', target: 'es2022', globalName }),
  ),
  build({
    ...common,
    entryPoints: ['test/integration/index.ts'],
    outfile: 'out/test/integration/index.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'mocha'],
  }),
]);
chmodSync('dist/cli.js', 0o755);
if (watch) console.log('watch mode is not supported; rerun npm run build');
