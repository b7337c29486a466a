// The workbench tests' fixtures. Per worker: a temporary copy of samples/ (plus the generated
// files of workspace.ts) as the workspace, one code-server (real VS Code on 127.0.0.1) with this
// extension — from source, or installed from the packed VSIX named by TRAJAUDIT_WORKBENCH_VSIX —
// and one workbench page in the project's Chromium. Per test (`workbench`): the page comes back to
// a known state first (no quick input, no editor, the test's theme, viewport and side bar), and
// afterwards the test fails on an error the extension or its webviews logged meanwhile.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import { test as base, expect, type Page } from '@playwright/test';
import { codeServerModule, repoRoot, setupModule } from './tools';
import { prepareWorkspace, type WorkspaceFiles } from './workspace';
import { closeAllEditors, CSP_VIOLATION, OFFLINE_NOISE, setSideBarVisible, setTheme, THEMES, workbenchTheme, type Theme } from './workbenchPage';

export { expect };

/** Screenshots and logs, as the old UI scripts wrote them (test-artifacts/ is ignored by git). */
export const uiArtifactsDir = join(repoRoot, 'test-artifacts', 'ui');
/** The item views' workbench screenshots (wb-*.png) stay beside the fake-host item screenshots. */
export const itemShotsDir = join(repoRoot, 'test-artifacts', 'webview', 'items');

/** A packed VSIX to install and test instead of the extension from source. */
export const VSIX_VARIABLE = 'TRAJAUDIT_WORKBENCH_VSIX';
/**
 * The tag of the tests that `npm test` runs again against the packed VSIX (stage "ui (installed
 * VSIX)", `--grep @vsix`): what packing can break is the files the VSIX ships and their
 * production build, so the set opens each webview bundle once (editor and its side panels, items,
 * report, collection, compare) after activation, each test failing on a CSP violation or error.
 */
export const VSIX_TAG = '@vsix';
/** Another extensionDevelopmentPath (a built copy with package.json and dist/, e.g. a candidate fix). */
export const EXTENSION_VARIABLE = 'TRAJAUDIT_WORKBENCH_EXTENSION';

export interface WorkbenchSession {
  page: Page;
  workspace: string;
  files: WorkspaceFiles;
  userDataDir: string;
  /** The extension's folder when loaded from source, undefined for an installed VSIX. */
  extensionPath: string | undefined;
  /** Every dialog (alert, confirm, beforeunload) the page opened, dismissed. */
  dialogs: string[];
  /** Workbench log lines: page errors, console messages, the smoke-test driver's log. */
  log: string[];
}

/** The workbench projects' worker options (playwright.config.ts). */
export interface WorkbenchOptions {
  /** A packed VSIX to install instead of loading the extension from source (project `workbench-vsix`, or TRAJAUDIT_WORKBENCH_VSIX). */
  workbenchVsix: string | undefined;
}

interface WorkerFixtures extends WorkbenchOptions {
  workbenchSession: WorkbenchSession;
}

interface TestFixtures {
  /** The worker's session, brought back to a known state for this test. */
  workbench: WorkbenchSession;
  workbenchTheme: Theme;
  workbenchViewport: { width: number; height: number };
  workbenchSideBar: boolean;
}

/** Waits for the workbench to be restored (window.driver exists because of enable-smoke-test-driver). */
export async function waitForWorkbench(page: Page): Promise<void> {
  await page.waitForFunction(() => Boolean((globalThis as { driver?: unknown }).driver), null, { timeout: 60_000 });
  await page.evaluate(() => (globalThis as unknown as { driver: { whenWorkbenchRestored(): Promise<void> } }).driver.whenWorkbenchRestored());
  await expect(page.locator('.monaco-workbench')).toBeVisible();
}

/** The text of every "Trajectory Auditor" output log (one per extension-host start), oldest first. */
export function extensionLogs(userDataDir: string): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === 'Trajectory Auditor.log') files.push(path);
    }
  };
  const logsDir = join(userDataDir, 'logs');
  if (existsSync(logsDir)) walk(logsDir);
  return files
    .sort()
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

/** Error lines (page errors, console errors, workbench errors) that mention the extension or its webviews. */
export function extensionErrors(lines: string[], extensionPath: string | undefined): string[] {
  return lines
    .filter((l) => /^\[(pageerror|error)\]|^\[console\.error\]/.test(l) && !OFFLINE_NOISE.some((re) => re.test(l)))
    .filter((l) => /trajaudit|webview(-items|-report)?\.js|Trajectory/i.test(l) || (extensionPath !== undefined && l.includes(join(extensionPath, 'dist'))));
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  workbenchTheme: ['dark', { option: true }],
  workbenchViewport: [{ width: 1400, height: 900 }, { option: true }],
  workbenchSideBar: [true, { option: true }],

  workbenchVsix: [process.env[VSIX_VARIABLE], { option: true, scope: 'worker' }],

  workbenchSession: [
    async ({ browser, workbenchVsix: vsix }, use, workerInfo) => {
      const extensionPath = vsix ? undefined : (process.env[EXTENSION_VARIABLE] ?? repoRoot);
      if (vsix && !existsSync(vsix)) throw new Error(`${vsix}: no such VSIX (run \`npm run package\` first)`);
      if (extensionPath) {
        const missing = ['dist/extension.js', 'dist/webview.js'].filter((f) => !existsSync(join(extensionPath, f)));
        if (missing.length) throw new Error(`${missing.join(' and ')} missing in ${extensionPath}: run \`npm run build\` first`);
      }
      const codeServer = await codeServerModule();
      const tools = (await setupModule()).setupVscode();
      const sandbox = codeServer.makeSandbox(`trajaudit-wb-${workerInfo.workerIndex}-`);
      const workspace = join(sandbox.root, 'workspace');
      const files = prepareWorkspace(workspace);
      codeServer.writeUserSettings(sandbox.userDataDir, {
        'workbench.colorTheme': THEMES.dark.setting,
        'workbench.preferredDarkColorTheme': THEMES.dark.setting,
        'workbench.preferredLightColorTheme': THEMES.light.setting,
      });
      if (vsix) codeServer.installExtension({ ...tools, ...sandbox, extension: vsix });
      mkdirSync(uiArtifactsDir, { recursive: true });
      const logName = `workbench-${vsix ? 'vsix-' : ''}${workerInfo.parallelIndex}`;
      const server = await codeServer.startCodeServer({ ...tools, ...sandbox, workspace, logFile: join(uiArtifactsDir, `${logName}-code-server.log`) });
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const log: string[] = [];
      const dialogs: string[] = [];
      try {
        const page = await context.newPage();
        page.on('dialog', (dialog) => {
          dialogs.push(`${dialog.type()}: ${dialog.message()}`);
          void dialog.dismiss().catch(() => {});
        });
        page.on('pageerror', (err) => log.push(`[pageerror] ${err.stack ?? err.message}`));
        page.on('console', (msg) => log.push(`[console.${msg.type()}] ${msg.text()}`));
        // The smoke-test driver sends the workbench's own log lines here.
        await page.exposeFunction('codeAutomationLog', (level: string, message: unknown) => {
          log.push(`[${level}] ${Array.isArray(message) ? format(...message) : String(message)}`);
        });
        const payload: [string, string][] = extensionPath
          ? codeServer.testRunPayload({ port: server.port, extensionDevelopmentPath: extensionPath })
          : [['skipWelcome', 'true']];
        await page.goto(codeServer.workbenchUrl({ port: server.port, folder: workspace, payload }), { waitUntil: 'domcontentloaded' });
        await waitForWorkbench(page);
        // The workbench restores with its fallback light theme and applies the configured one once
        // the built-in theme extensions have registered (the theme picker lists them from then on).
        await expect.poll(() => workbenchTheme(page), { timeout: 60_000, message: 'the configured dark theme applied' }).toBe('dark');
        await use({ page, workspace, files, userDataDir: sandbox.userDataDir, extensionPath, dialogs, log });
      } finally {
        writeFileSync(join(uiArtifactsDir, `${logName}.log`), `${log.join('\n')}\n`);
        await context.close().catch(() => {});
        await server.stop();
        sandbox.cleanup();
      }
    },
    { scope: 'worker', timeout: 240_000 },
  ],

  workbench: async ({ workbenchSession, workbenchTheme, workbenchViewport, workbenchSideBar }, use, testInfo) => {
    const { page } = workbenchSession;
    const size = page.viewportSize();
    if (size?.width !== workbenchViewport.width || size?.height !== workbenchViewport.height) await page.setViewportSize(workbenchViewport);
    // A quick input or menu a previous test left open.
    for (let i = 0; i < 3 && (await page.locator('.quick-input-widget:visible, .monaco-menu:visible').count()); i++) await page.keyboard.press('Escape');
    await closeAllEditors(page);
    await setTheme(page, workbenchTheme);
    await setSideBarVisible(page, workbenchSideBar);
    const logStart = workbenchSession.log.length;
    await use(workbenchSession);
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('workbench', { body: await page.screenshot(), contentType: 'image/png' }).catch(() => {});
    }
    const lines = workbenchSession.log.slice(logStart);
    expect(extensionErrors(lines, workbenchSession.extensionPath), 'errors mentioning the extension or its webviews').toEqual([]);
    expect(
      lines.filter((l) => CSP_VIOLATION.test(l)),
      'Content-Security-Policy violations',
    ).toEqual([]);
  },
});
