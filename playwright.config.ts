// Browser tests (@playwright/test). Project `webview`: the editor and item-view webviews in
// Debian's Chromium against a fake host in the test process (test/browser/README.md). Project
// `workbench`: the extension in the real VS Code workbench served by code-server, one per worker
// (test/workbench/README.md); TRAJAUDIT_WORKBENCH_VSIX=<file> tests a packed VSIX instead.
// No browser download: Chromium comes from `apt-get install chromium` (scripts/setup-vscode.mjs).
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'test/browser',
  globalSetup: './test/browser/globalSetup.ts',
  outputDir: 'test-artifacts/browser/results',
  // CI is a shared 2-core machine; a flaky test is fixed, never retried.
  workers: 2,
  retries: 0,
  fullyParallel: true,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [
    // Frame-time and first-rows budgets (tests tagged @timing) run first, alone: on a 2-core
    // machine a second browser drawing beside them measures the machine, not the editor.
    { name: 'webview-timing', testMatch: ['webview/*.spec.ts'], grep: /@timing/, workers: 1 },
    {
      name: 'webview',
      testMatch: ['webview/*.spec.ts', 'items/*.spec.ts'],
      grepInvert: /@timing/,
      dependencies: ['webview-timing'],
    },
    {
      name: 'workbench',
      testDir: 'test/workbench',
      testMatch: ['*.spec.ts'],
      outputDir: 'test-artifacts/ui/results',
      // Each worker runs a code-server with its extension host beside its Chromium: two are all a
      // shared 2-core machine takes. Tests of a file run in order in one worker (each still sets up
      // its own state), files spread over the workers.
      workers: 2,
      fullyParallel: false,
      timeout: 90_000,
      use: {
        viewport: { width: 1400, height: 900 },
        launchOptions: {
          executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-dev-shm-usage',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
  ],
});
