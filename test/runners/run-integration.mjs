#!/usr/bin/env node
// Runs the mocha integration suite (out/test/integration/index.js) inside a REAL VS Code
// extension host: code-server serves the workbench, headless Chromium opens it with a
// smoke-test-driver payload that loads the extension from this repo
// (extensionDevelopmentPath) and runs the tests (extensionTestsPath), then reports the
// exit code through window.codeAutomationExit. See /work/shared/notes/vscode-offline-testing.md.
//
// Usage: node test/runners/run-integration.mjs [--grep <pattern>] [--timeout <ms>] [--keep] [--verbose]
//   --grep      only run tests whose full title matches (mocha grep)
//   --timeout   overall time limit in ms (default 600000, env TRAJAUDIT_IT_TIMEOUT_MS)
//   --keep      keep the temporary user-data/extensions directories
//   --verbose   print every workbench log line, not only the test output
//   env TRAJAUDIT_IT_WORKSPACE overrides the workspace folder (default <repo>/samples)
// Artifacts (ignored folder test-artifacts/): integration-workbench.png (screenshot when
// the tests end), integration-code-server.log, integration-workbench.log, integration-logs/.
//
// Prerequisite: `npm run build` (dist/extension.js and out/test/integration/index.js).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { format, parseArgs } from 'node:util';
import { setupVscode } from '../../scripts/setup-vscode.mjs';
import {
  artifactsDir,
  deadline,
  launchBrowser,
  makeSandbox,
  repoRoot,
  samplesDir,
  seconds,
  startCodeServer,
  testRunPayload,
  workbenchUrl,
  writeUserSettings,
} from './code-server.mjs';

const { values: opts } = parseArgs({
  options: {
    grep: { type: 'string' },
    timeout: { type: 'string' },
    keep: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});

const overallTimeoutMs = Number(opts.timeout ?? process.env.TRAJAUDIT_IT_TIMEOUT_MS ?? 600_000);
const extensionMain = join(repoRoot, 'dist', 'extension.js');
const testsModule = join(repoRoot, 'out', 'test', 'integration', 'index.js');
const workspace = process.env.TRAJAUDIT_IT_WORKSPACE || samplesDir;
const screenshotFile = join(artifactsDir, 'integration-workbench.png');
const OUTPUT_MARKER = '[trajaudit-integration]'; // printed by test/integration/index.ts
const say = (message) => process.stderr.write(`[integration] ${message}\n`);

function fail(message) {
  say(`ERROR: ${message}`);
  process.exit(2);
}

/** Every suite/*.test.ts must be listed in index.ts, since the bundle cannot glob. */
function checkSuiteList() {
  const suiteDir = join(repoRoot, 'test', 'integration', 'suite');
  const index = readFileSync(join(repoRoot, 'test', 'integration', 'index.ts'), 'utf8');
  const missing = readdirSync(suiteDir)
    .filter((f) => f.endsWith('.test.ts'))
    .filter((f) => !index.includes(`./suite/${f.replace(/\.ts$/, '')}`));
  if (missing.length) fail(`test/integration/index.ts does not load ${missing.map((f) => `suite/${f}`).join(', ')}; add it to SUITES.`);
}

function checkPrerequisites() {
  const missing = [extensionMain, testsModule].filter((f) => !existsSync(f)).map((f) => relative(repoRoot, f));
  if (missing.length) fail(`${missing.join(' and ')} missing: run \`npm run build\` first.`);
  if (!existsSync(join(repoRoot, 'node_modules', 'mocha'))) fail('node_modules/mocha missing: run `npm ci` first.');
  if (!existsSync(workspace)) fail(`workspace folder ${workspace} does not exist (the samples/ folder of the repo).`);
  checkSuiteList();
}

// Workbench log lines that are expected offline and say nothing about the tests.
const NOISE = [
  /extensionGalleryService|marketplace|gallery|open-vsx|update\.code\.visualstudio|vscode-unpkg|vscode-cdn/i,
  /Failed to fetch|ERR_NAME_NOT_RESOLVED|ERR_INTERNET_DISCONNECTED|getaddrinfo|ENOTFOUND|net::ERR_/i,
  /\[driver\]/,
  /^Canceled(: Canceled)*\n/, // extension hosts being stopped after the run
];
// Workbench info lines that can interleave with the test output.
const CHATTER =
  /^\[(AccountPolicyGate|AgentHost[^\]]*|Service Worker|reconnection-grace-time)\]|^(Creating a socket|Resolving connection token|Resolved connection token|Updating additional builtin extensions)/;

async function main() {
  const started = Date.now();
  checkPrerequisites();

  say('checking the VS Code test tools (scripts/setup-vscode.mjs)');
  const setupStarted = Date.now();
  const tools = setupVscode();
  const setupMs = Date.now() - setupStarted;

  mkdirSync(artifactsDir, { recursive: true });
  for (const name of ['integration-workbench.png', 'integration-workbench.log', 'integration-code-server.log', 'integration-logs']) {
    rmSync(join(artifactsDir, name), { recursive: true, force: true });
  }

  const sandbox = makeSandbox('trajaudit-it-');
  writeUserSettings(sandbox.userDataDir);
  const workbenchLog = [];
  let server;
  let browser;
  let exitCode = 1;
  const limit = deadline(
    overallTimeoutMs,
    `the integration run did not finish within ${seconds(overallTimeoutMs)} ` +
      '(is the extension host hanging, or was the test payload ignored? see test-artifacts/integration-*.log)',
  );
  const stopOnSignal = (signal) => {
    say(`received ${signal}; stopping`);
    Promise.allSettled([browser?.close(), server?.stop()]).finally(() => process.exit(130));
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);

  try {
    say(`starting code-server ${relative(repoRoot, tools.codeServerBin).split('/').slice(0, 2).join('/')} with ${workspace}`);
    const env = {};
    if (opts.grep) env.TRAJAUDIT_TEST_GREP = opts.grep;
    server = await Promise.race([
      startCodeServer({
        ...tools,
        ...sandbox,
        workspace,
        env,
        logFile: join(artifactsDir, 'integration-code-server.log'),
      }),
      limit.promise,
    ]);
    say(`code-server listening on ${server.origin} (${seconds(Date.now() - started)} after start)`);

    browser = await launchBrowser({ chromiumPath: tools.chromiumPath });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });

    let resolveExit;
    const testsExited = new Promise((r) => {
      resolveExit = r;
    });
    // Every workbench log line arrives here, the extension host's console output
    // (mocha's spec reporter) included, as console-style argument lists. Print what
    // index.ts logs between its start/end markers, and the workbench's warnings and
    // errors that are not known offline noise; everything goes to the log file.
    let inTests = false;
    await page.exposeFunction('codeAutomationLog', (level, message) => {
      const text = Array.isArray(message) ? format(...message) : String(message);
      workbenchLog.push(`[${level}] ${text}`);
      if (text.startsWith(`${OUTPUT_MARKER} start`)) {
        inTests = true;
        return;
      }
      if (text.startsWith(`${OUTPUT_MARKER} end`)) {
        inTests = false;
        return;
      }
      if (opts.verbose) process.stdout.write(`[${level}] ${text}\n`);
      else if (inTests && !CHATTER.test(text)) process.stdout.write(`${text}\n`);
      else if ((level === 'error' || level === 'warn') && !NOISE.some((re) => re.test(text))) {
        process.stdout.write(`[workbench ${level}] ${text}\n`);
      }
    });
    await page.exposeFunction('codeAutomationExit', async (code, logs) => {
      try {
        await page.screenshot({ path: screenshotFile });
      } catch (err) {
        say(`could not take the screenshot: ${err.message}`);
      }
      for (const { relativePath, contents } of Array.isArray(logs) ? logs : []) {
        const file = join(artifactsDir, 'integration-logs', relativePath);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, contents);
      }
      resolveExit(Number(code));
    });
    page.on('pageerror', (err) => workbenchLog.push(`[pageerror] ${err.stack ?? err.message}`));
    page.on('console', (msg) => workbenchLog.push(`[console.${msg.type()}] ${msg.text()}`));

    const url = workbenchUrl({
      port: server.port,
      folder: workspace,
      payload: testRunPayload({ port: server.port, extensionDevelopmentPath: repoRoot, extensionTestsPath: testsModule }),
    });
    say(`opening the workbench: ${url}`);
    await page.goto(url, { waitUntil: 'domcontentloaded' });

    const serverDied = server.exited.then(({ code, signal }) => {
      throw new Error(`code-server exited unexpectedly (${code ?? signal}); see test-artifacts/integration-code-server.log`);
    });
    exitCode = await Promise.race([testsExited, serverDied, limit.promise]);
  } catch (err) {
    say(`ERROR: ${err.message}`);
    exitCode = 1;
    if (browser) {
      try {
        const [page] = browser.contexts().flatMap((c) => c.pages());
        await page?.screenshot({ path: screenshotFile });
      } catch {
        /* browser already gone */
      }
    }
  } finally {
    limit.cancel();
    writeFileSync(join(artifactsDir, 'integration-workbench.log'), `${workbenchLog.join('\n')}\n`);
    await browser?.close().catch(() => {});
    await server?.stop();
    if (opts.keep) say(`kept ${sandbox.root}`);
    else sandbox.cleanup();
  }

  const total = Date.now() - started;
  if (existsSync(screenshotFile)) say(`screenshot: ${relative(repoRoot, screenshotFile)}`);
  say(`tool setup check ${seconds(setupMs)}, total ${seconds(total)}`);
  say(exitCode === 0 ? 'PASSED' : `FAILED (exit code ${exitCode}); logs in test-artifacts/`);
  process.exit(exitCode);
}

main().catch((err) => {
  say(`ERROR: ${err.stack ?? err.message}`);
  process.exit(1);
});
