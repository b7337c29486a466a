#!/usr/bin/env node
// `npm test`: everything, in order, with a summary.
//   1. build        npm run build (tsc, eslint, esbuild bundles incl. out/test/integration)
//   2. unit         npx mocha 'test/unit/**/*.test.ts' (two worker processes, see .mocharc.json; the
//                   glob is not in .mocharc.json, so `npx mocha <file>` runs that file alone)
//   3. vscode-tools scripts/setup-vscode.mjs (Debian packages, Node 24, code-server;
//                   a no-op once installed, a few minutes the first time)
//   4. integration  test/runners/run-integration.mjs (mocha suite inside a real VS Code
//                   extension host: code-server + headless Chromium)
//   5. demo --check the production build and VSIX, the CLI on samples/, code-server serving them
//   6. ui           playwright test --project workbench --project workbench-vsix (test/workbench/:
//                   the trajectory editor, the score report and the item views driven through the
//                   real workbench UI: keyboard, search, outline, hostile content, annotate + save,
//                   hot exit, reports, blind review; the @vsix ones on the installed VSIX instead;
//                   screenshots in test-artifacts/ui/ and test-artifacts/webview/items/)
// Installs node_modules with `npm ci` first when they are missing.
// Options: --bail (stop at the first failure), --skip-unit, --skip-integration, --skip-ui (also skips
// demo --check and the VSIX UI run).
// Exits non-zero when any stage fails.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const { values: opts } = parseArgs({
  options: {
    bail: { type: 'boolean', default: false },
    'skip-unit': { type: 'boolean', default: false },
    'skip-integration': { type: 'boolean', default: false },
    'skip-ui': { type: 'boolean', default: false },
  },
});

const say = (message) => process.stdout.write(`\n[test-all] ${message}\n`);

/** The last lines each stage printed, for the failure recap at the end of the log. */
const TAIL_LINES = 60;
let stageTail = [];

function keepTail(chunk) {
  const lines = chunk
    .toString('utf8')
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .split(/\r?\n/);
  if (stageTail.length && lines.length) stageTail[stageTail.length - 1] += lines.shift();
  stageTail.push(...lines);
  if (stageTail.length > TAIL_LINES * 2) stageTail = stageTail.slice(-TAIL_LINES);
}

function runCommand(cmd, args, env = {}) {
  return new Promise((resolveRun) => {
    // Output goes through to the log as it comes, and its tail is kept: a CI log is often read
    // from its end, where the recap of a failed stage then says what failed.
    const child = spawn(cmd, args, { cwd: root, stdio: ['inherit', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      keepTail(chunk);
    });
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      keepTail(chunk);
    });
    child.once('error', (err) => {
      process.stderr.write(`[test-all] could not start ${cmd}: ${err.message}\n`);
      resolveRun(127);
    });
    child.once('close', (code, signal) => resolveRun(code ?? (signal ? 128 : 1)));
  });
}

const results = [];
let stopped = false;

/** Runs one stage unless a required stage failed; records status and duration. */
async function stage(name, { needs = [], skip = false }, body) {
  const blocker = needs.find((n) => results.find((r) => r.name === n)?.status !== 'passed');
  if (stopped || skip || blocker) {
    const why = skip ? 'skipped (option)' : stopped ? 'skipped (--bail)' : `skipped (${blocker} did not pass)`;
    results.push({ name, status: why, ms: 0 });
    say(`${name}: ${why}`);
    return;
  }
  say(`${name}: starting`);
  const started = Date.now();
  stageTail = [];
  let status;
  try {
    const code = await body();
    status = code === 0 ? 'passed' : `FAILED (exit ${code})`;
  } catch (err) {
    process.stderr.write(`${err.stack ?? err.message}\n`);
    status = 'FAILED';
  }
  const ms = Date.now() - started;
  const tail = status === 'passed' ? [] : stageTail.filter((line) => line.trim()).slice(-TAIL_LINES);
  results.push({ name, status, ms, tail });
  say(`${name}: ${status} in ${(ms / 1000).toFixed(1)} s`);
  if (status !== 'passed' && opts.bail) stopped = true;
}

const npm = 'npm';
const started = Date.now();

if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
  await stage('npm ci', {}, () => runCommand(npm, ['ci']));
}
await stage('build', {}, () => runCommand(npm, ['run', 'build']));
await stage('unit', { skip: opts['skip-unit'] }, () => runCommand('npx', ['mocha', 'test/unit/**/*.test.ts']));
await stage('vscode-tools', { skip: opts['skip-integration'] && opts['skip-ui'] }, async () => {
  const { setupVscode } = await import('./setup-vscode.mjs');
  setupVscode();
  return 0;
});
// The editor and item webviews against a fake host (playwright.config.ts, test/browser/). Needs
// Debian's Chromium, which the vscode-tools stage installs on a fresh machine.
await stage('webview (browser tests)', { needs: ['build', 'vscode-tools'], skip: opts['skip-ui'] }, () =>
  runCommand('npx', ['playwright', 'test', '--project', 'webview']),
);
await stage('integration', { needs: ['build', 'vscode-tools'], skip: opts['skip-integration'] }, () =>
  runCommand(process.execPath, [join(root, 'test', 'runners', 'run-integration.mjs')]),
);
// The packed product: demo --check builds the production bundle and the VSIX, runs the CLI on
// samples/, installs the VSIX into code-server with samples/ and checks that it serves the workbench.
await stage('demo --check', { needs: ['build', 'vscode-tools'], skip: opts['skip-ui'] }, () =>
  runCommand(process.execPath, [join(root, 'scripts', 'demo.mjs'), '--check']),
);
// The workbench tests from source (project workbench), and the ones tagged @vsix (VSIX_TAG in
// test/workbench/harness/workbenchTest.ts) again against the VSIX demo --check packed (project
// workbench-vsix: installed with --install-extension instead of loaded from source): activation,
// the palette's offline audit, and each webview bundle the VSIX ships once (the editor and its side
// panels, a markup file name, items, a report, the collection, compare), each failing on a CSP
// violation or error. Those tests run once: against the VSIX when demo --check packed it (project
// workbench leaves them out), else from source. One Playwright run, so the two projects share its
// two workers.
const vsixPacked = results.find((r) => r.name === 'demo --check')?.status === 'passed';
if (!vsixPacked && !opts['skip-ui']) say('ui: without the installed-VSIX project, since demo --check did not pass; the @vsix tests run from source');
await stage('ui', { needs: ['build', 'vscode-tools'], skip: opts['skip-ui'] }, () =>
  runCommand(
    'npx',
    ['playwright', 'test', '--project=workbench', ...(vsixPacked ? ['--project=workbench-vsix'] : [])],
    vsixPacked ? { TRAJAUDIT_WORKBENCH_SKIP_VSIX_TAGGED: '1' } : {},
  ),
);

const total = Date.now() - started;
const width = Math.max(...results.map((r) => r.name.length));
const failed = results.filter((r) => r.status !== 'passed' && !r.status.startsWith('skipped (option)'));
for (const r of failed.filter((f) => f.tail?.length)) {
  process.stdout.write(`\n[test-all] ${r.name} ${r.status}; the last lines it printed:\n${r.tail.map((line) => `  | ${line}`).join('\n')}\n`);
}
process.stdout.write('\n[test-all] summary\n');
for (const r of results) {
  process.stdout.write(`  ${r.name.padEnd(width)}  ${r.status.padEnd(18)} ${r.ms ? `${(r.ms / 1000).toFixed(1).padStart(7)} s` : ''}\n`);
}
process.stdout.write(`  ${'total'.padEnd(width)}  ${''.padEnd(18)} ${(total / 1000).toFixed(1).padStart(7)} s\n`);
process.stdout.write(failed.length ? `[test-all] FAILED: ${failed.map((r) => r.name).join(', ')}\n` : '[test-all] all passed\n');
process.exit(failed.length ? 1 : 0);
