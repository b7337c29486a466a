// Reusable pieces for running the extension in a real VS Code workbench served by
// code-server (installed by scripts/setup-vscode.mjs) and driven by Playwright with
// Debian's Chromium. Used by run-integration.mjs (mocha suite in the extension host),
// and meant for the UI tests and the demo script too.
//
//   const tools = setupVscode();
//   const sandbox = makeSandbox('trajaudit-ui-');
//   const server = await startCodeServer({ ...tools, ...sandbox, workspace });
//   const browser = await launchBrowser({ chromiumPath: tools.chromiumPath });
//   const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
//   await openWorkbench(page, { port: server.port });   // samples/ + this extension from source
//   await runFromCommandPalette(page, 'Trajectory Auditor: Inspect Trajectory (statistics)');
//   const frame = await findFrameWith(page, '#some-webview-element');
//   ...
//   await browser.close(); await server.stop(); sandbox.cleanup();
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const artifactsDir = join(repoRoot, 'test-artifacts');
export const samplesDir = join(repoRoot, 'samples');

/** Settings that keep the workbench quiet and deterministic in tests. */
export const DEFAULT_USER_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'chat.disableAIFeatures': true,
  'window.restoreWindows': 'none',
  // VS Code for the Web defaults to afterDelay (1 s); desktop VS Code to off. Tests use the desktop
  // default so a dirty editor stays dirty until they save it (and hot exit is what keeps edits).
  'files.autoSave': 'off',
};

const log = (message) => process.stderr.write(`[code-server] ${message}\n`);

/**
 * Fresh temporary directories for one code-server instance: user data, extensions,
 * XDG config/data homes (so nothing is written to ~/.config or ~/.local) and an
 * empty config file. `cleanup()` removes them all.
 */
export function makeSandbox(prefix = 'trajaudit-vscode-') {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const sandbox = {
    root,
    userDataDir: join(root, 'user-data'),
    extensionsDir: join(root, 'extensions'),
    xdgDir: join(root, 'xdg'),
    configFile: join(root, 'config.yaml'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
  for (const dir of [sandbox.userDataDir, sandbox.extensionsDir, sandbox.xdgDir]) mkdirSync(dir, { recursive: true });
  writeFileSync(sandbox.configFile, 'auth: none\n'); // the rest is passed on the command line
  return sandbox;
}

/** Writes <userDataDir>/User/settings.json (DEFAULT_USER_SETTINGS merged with `settings`). */
export function writeUserSettings(userDataDir, settings = {}) {
  const file = join(userDataDir, 'User', 'settings.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ ...DEFAULT_USER_SETTINGS, ...settings }, null, 2)}\n`);
  return file;
}

function sandboxEnv({ xdgDir, env = {} }) {
  const result = { ...process.env };
  // Things inherited from an outer VS Code, npm or tsx that must not leak into the server.
  for (const key of Object.keys(result)) {
    if (/^(VSCODE_|ELECTRON_)/.test(key)) delete result[key];
  }
  for (const key of ['NODE_OPTIONS', 'PORT', 'PASSWORD', 'HASHED_PASSWORD', 'GITHUB_TOKEN']) delete result[key];
  if (xdgDir) {
    result.XDG_CONFIG_HOME = join(xdgDir, 'config');
    result.XDG_DATA_HOME = join(xdgDir, 'data');
    result.XDG_CACHE_HOME = join(xdgDir, 'cache');
  }
  return { ...result, ...env };
}

function commonArgs({ userDataDir, extensionsDir, configFile }) {
  const args = ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];
  if (configFile) args.unshift('--config', configFile);
  return args;
}

/**
 * Installs a VSIX (or extension id available offline) into `extensionsDir`.
 * Synchronous; throws with code-server's output when it fails.
 */
export function installExtension({ node24, codeServerBin, userDataDir, extensionsDir, configFile, xdgDir, extension }) {
  const result = spawnSync(node24, [codeServerBin, ...commonArgs({ userDataDir, extensionsDir, configFile }), '--force', '--install-extension', extension], {
    env: sandboxEnv({ xdgDir }),
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) {
    throw new Error(`code-server --install-extension ${extension} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/**
 * Starts code-server on 127.0.0.1 with a free port (the OS picks it) and resolves when
 * it prints "HTTP server listening on". The server runs in its own process group;
 * `stop()` ends that group (server, extension host, pty host, ...). The group is also
 * killed if this process exits without calling stop().
 *
 * Returns { port, origin, child, stop(), output() }; `output()` is everything the
 * server printed so far. `logFile` (optional) receives the same.
 */
export async function startCodeServer({
  node24,
  codeServerBin,
  workspace,
  userDataDir,
  extensionsDir,
  configFile,
  xdgDir,
  extraArgs = [],
  env = {},
  logFile,
  echo = false,
  startTimeoutMs = 90_000,
}) {
  for (const [what, path] of [
    ['Node 24', node24],
    ['code-server', codeServerBin],
  ]) {
    if (!existsSync(path)) throw new Error(`${what} not found at ${path}; run node scripts/setup-vscode.mjs`);
  }
  if (workspace && !existsSync(workspace)) throw new Error(`workspace folder ${workspace} does not exist`);
  const args = [
    codeServerBin,
    ...commonArgs({ userDataDir, extensionsDir, configFile }),
    '--bind-addr',
    '127.0.0.1:0',
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--vscode-option',
    'enable-smoke-test-driver',
    ...extraArgs,
    ...(workspace ? [workspace] : []),
  ];
  const child = spawn(node24, args, {
    cwd: repoRoot,
    env: sandboxEnv({ xdgDir, env }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group, so stop() reaches the extension host too
  });
  const killGroup = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  process.on('exit', killGroup);

  let output = '';
  const fileStream = logFile ? (mkdirSync(dirname(logFile), { recursive: true }), createWriteStream(logFile)) : undefined;
  const exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));

  const listening = new Promise((resolveListening, rejectListening) => {
    const onData = (chunk) => {
      const text = chunk.toString();
      output += text;
      fileStream?.write(text);
      if (echo) process.stderr.write(text);
      const match = /HTTP server listening on (https?:\/\/[^\s/]+:(\d+))/.exec(output);
      if (match) resolveListening({ origin: match[1], port: Number(match[2]) });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', rejectListening);
    exited.then(({ code, signal }) => rejectListening(new Error(`code-server exited (${code ?? signal}) before listening:\n${output.slice(-4000)}`)));
  });

  let timer;
  const timeout = new Promise((_, rejectTimeout) => {
    timer = setTimeout(
      () => rejectTimeout(new Error(`code-server did not print "HTTP server listening on" within ${startTimeoutMs} ms:\n${output.slice(-4000)}`)),
      startTimeoutMs,
    );
  });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      const graceful = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
      if (!graceful) log('code-server did not stop within 5 s; killing it');
    }
    killGroup(); // children (extension host, pty host) may outlive the server
    process.off('exit', killGroup);
    await new Promise((r) => (fileStream ? fileStream.end(r) : r()));
  };

  try {
    const { origin, port } = await Promise.race([listening, timeout]);
    return { port, origin, child, exited, stop, output: () => output };
  } catch (err) {
    await stop();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Chromium flags that work here (root, no GPU, no network, no display). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launches Debian's Chromium through playwright-core; headless unless told otherwise. */
export async function launchBrowser({ chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless = true, args = [] } = {}) {
  if (!existsSync(chromiumPath)) throw new Error(`Chromium not found at ${chromiumPath}; run node scripts/setup-vscode.mjs`);
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: chromiumPath, headless, args: [...CHROMIUM_ARGS, ...args] });
}

/** vscode-remote URI for an absolute path on the code-server machine. */
export function remoteUri(port, absolutePath) {
  return `vscode-remote://127.0.0.1:${port}${encodeURI(resolve(absolutePath))}`;
}

/**
 * Workbench URL. `payload` is a list of [key, value] pairs read by the workbench when
 * the server runs with enable-smoke-test-driver (see testRunPayload()).
 */
export function workbenchUrl({ port, folder, payload }) {
  const params = new URLSearchParams();
  if (folder) params.set('folder', resolve(folder));
  if (payload) params.set('payload', JSON.stringify(payload));
  return `http://127.0.0.1:${port}/?${params.toString()}`;
}

/** Payload that makes the workbench load an extension from source and run its tests. */
export function testRunPayload({ port, extensionDevelopmentPath = repoRoot, extensionTestsPath }) {
  const payload = [
    ['extensionDevelopmentPath', remoteUri(port, extensionDevelopmentPath)],
    ['skipWelcome', 'true'],
    ['skipReleaseNotes', 'true'],
  ];
  if (extensionTestsPath) payload.splice(1, 0, ['extensionTestsPath', remoteUri(port, extensionTestsPath)]);
  return payload;
}

/**
 * Opens the workbench in `page` with the extension loaded from `extensionDevelopmentPath`
 * (default: this repo; pass null for installed extensions only) and waits until the
 * workbench is restored (window.driver exists because of enable-smoke-test-driver).
 */
export async function openWorkbench(page, { port, folder = samplesDir, extensionDevelopmentPath = repoRoot, timeoutMs = 60_000 }) {
  const payload = extensionDevelopmentPath ? testRunPayload({ port, extensionDevelopmentPath }) : [['skipWelcome', 'true']];
  await page.goto(workbenchUrl({ port, folder, payload }), { waitUntil: 'domcontentloaded' });
  await waitForWorkbench(page, { timeoutMs });
}

/** Waits for the workbench to be restored (lifecycle phase Restored, contributions done). */
export async function waitForWorkbench(page, { timeoutMs = 60_000 } = {}) {
  await page.waitForFunction(() => Boolean(globalThis.driver), null, { timeout: timeoutMs });
  await page.evaluate(() => globalThis.driver.whenWorkbenchRestored());
  await page.locator('.monaco-workbench').waitFor({ timeout: timeoutMs });
}

/**
 * Runs a command through the command palette: F1, type `title` (as shown in the
 * palette, e.g. 'Trajectory Auditor: Show Trajectory Outline'), pick the exact match.
 */
export async function runFromCommandPalette(page, title, { timeoutMs = 15_000 } = {}) {
  await page
    .locator('.monaco-workbench')
    .click({ position: { x: 5, y: 5 }, force: true })
    .catch(() => {});
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(`>${title}`);
  // The row whose label is exactly the title: rows are sorted by recent use, so Enter on the first
  // row may run a longer title that contains this one.
  const label = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const row = page
    .locator('.quick-input-widget .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: label }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  await row.click();
  await page
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: timeoutMs })
    .catch(() => {});
}

/** The frame (of the nested webview iframes) that contains `selector`, or undefined. */
export async function findFrameWith(page, selector, { timeoutMs = 15_000 } = {}) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    for (const frame of page.frames()) {
      if (
        await frame
          .locator(selector)
          .count()
          .catch(() => 0)
      )
        return frame;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return undefined;
}

/** Rejects with `message` after `ms`; `cancel()` clears the timer. */
export function deadline(ms, message) {
  let timer;
  const promise = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref?.();
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** Seconds with one decimal, for summaries. */
export function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}
