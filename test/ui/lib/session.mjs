// One workbench session of the editor benchmark (test/bench/editor.mjs; the workbench tests have
// a Playwright worker fixture instead, test/workbench/harness/workbenchTest.ts): a temporary copy
// of the samples workspace (so it can write files), a fresh code-server (real VS Code 1.139 on
// 127.0.0.1) with this extension loaded from source (extensionDevelopmentPath = repo), headless
// Debian Chromium and one workbench page. Everything lives in a sandbox folder that stop()
// removes (unless keep).
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { format } from 'node:util';
import { setupVscode } from '../../../scripts/setup-vscode.mjs';
import {
  launchBrowser,
  makeSandbox,
  openWorkbench,
  repoRoot,
  samplesDir,
  installExtension,
  startCodeServer,
  writeUserSettings,
} from '../../runners/code-server.mjs';

/** Copies samples/ into `target`, leaving out scratch and temp files other tools leave there. */
export function copySamples(target) {
  cpSync(samplesDir, target, {
    recursive: true,
    filter: (src) => !/^(\.scratch|\.trajaudit-tmp-.*|.*\.tmp-\d+-[0-9a-f]+)$/.test(basename(src)),
  });
  return target;
}

/** Writes <userDataDir>/User/keybindings.json. */
export function writeKeybindings(userDataDir, keybindings) {
  const file = join(userDataDir, 'User', 'keybindings.json');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(keybindings, null, 2)}\n`);
  return file;
}

/**
 * Starts everything. The workspace is a fresh copy of samples/ (or an empty folder with
 * withSamples: false, or `workspace` as given, used in place). `prepareWorkspace(dir)` may add
 * files before the server starts. `settings` are merged into the quiet test defaults;
 * `keybindings` are written as the user's keybindings.json.
 */
export async function startSession({
  prefix = 'trajaudit-ui-',
  prepareWorkspace,
  workspace: givenWorkspace,
  withSamples = true,
  settings = {},
  keybindings = [],
  viewport = { width: 1400, height: 900 },
  logDir,
  logPrefix = '',
  extensionDevelopmentPath = repoRoot,
  /** A packed VSIX to install with --install-extension (pass extensionDevelopmentPath: null). */
  vsix,
  keep = false,
  say = () => {},
}) {
  const tools = setupVscode();
  const sandbox = makeSandbox(prefix);
  const workspace = givenWorkspace ?? join(sandbox.root, 'workspace');
  if (givenWorkspace) mkdirSync(workspace, { recursive: true });
  else if (withSamples) copySamples(workspace);
  else mkdirSync(workspace, { recursive: true });
  await prepareWorkspace?.(workspace);
  writeUserSettings(sandbox.userDataDir, settings);
  if (vsix) installExtension({ ...tools, ...sandbox, extension: vsix });
  writeKeybindings(sandbox.userDataDir, keybindings);

  const workbenchLog = [];
  const dialogs = [];
  const pageErrors = [];
  let server;
  let browser;
  const stop = async () => {
    if (logDir) {
      mkdirSync(logDir, { recursive: true });
      writeFileSync(join(logDir, `${logPrefix}workbench.log`), `${workbenchLog.join('\n')}\n`);
    }
    await browser?.close().catch(() => {});
    await server?.stop().catch(() => {});
    if (keep) say(`kept ${sandbox.root}`);
    else rmSync(sandbox.root, { recursive: true, force: true });
  };
  try {
    server = await startCodeServer({ ...tools, ...sandbox, workspace, logFile: logDir ? join(logDir, `${logPrefix}code-server.log`) : undefined });
    say(`code-server listening on ${server.origin}`);
    browser = await launchBrowser({ chromiumPath: tools.chromiumPath });
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss().catch(() => {});
    });
    page.on('pageerror', (err) => {
      pageErrors.push(err.message);
      workbenchLog.push(`[pageerror] ${err.stack ?? err.message}`);
    });
    page.on('console', (msg) => workbenchLog.push(`[console.${msg.type()}] ${msg.text()}`));
    // The smoke-test driver sends the workbench's own log lines here.
    await page
      .exposeFunction('codeAutomationLog', (level, message) => {
        workbenchLog.push(`[${level}] ${Array.isArray(message) ? format(...message) : String(message)}`);
      })
      .catch(() => {});
    await openWorkbench(page, { port: server.port, folder: workspace, extensionDevelopmentPath });
    say('workbench restored');
    return { tools, sandbox, workspace, server, browser, context, page, dialogs, pageErrors, workbenchLog, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
