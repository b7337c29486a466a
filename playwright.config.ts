// Browser tests (@playwright/test). Project `webview`: the editor and item-view webviews in
// Debian's Chromium against a fake host in the test process (test/browser/README.md). Project
// `workbench`: the extension in the real VS Code workbench served by code-server, one per worker
// (test/workbench/README.md); TRAJAUDIT_WORKBENCH_VSIX=<file> tests a packed VSIX instead.
// No browser download: Chromium comes from `apt-get install chromium` (scripts/setup-vscode.mjs).
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import type { WorkbenchOptions } from './test/workbench/harness/workbenchTest';

/** The projects named on the command line (`--project a`, `--project=a b`, `-p a`); empty means all. */
function projectsOnCommandLine(argv: string[]): string[] {
  const names: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const inline = /^--project=(.*)$/.exec(argv[i]);
    if (inline) names.push(inline[1]);
    else if (argv[i] === '--project' || argv[i] === '-p') {
      while (i + 1 < argv.length && !argv[i + 1].startsWith('-')) names.push(argv[++i]);
    }
  }
  return names;
}
/** Set to 1: project `workbench` leaves out the tests tagged @vsix, which project `workbench-vsix` runs. */
const SKIP_VSIX_TAGGED = 'TRAJAUDIT_WORKBENCH_SKIP_VSIX_TAGGED';
const selected = projectsOnCommandLine(process.argv);
// The fake host's global setup (bundles, fixtures, harness server) serves the webview projects only;
// a run of the workbench project alone neither waits for it nor fails on a webview bundle it does not load.
const workbenchOnly = selected.length > 0 && selected.every((name) => name.startsWith('workbench'));

/** The extension in the real workbench (test/workbench/README.md). */
const workbench = {
  name: 'workbench',
  testDir: 'test/workbench',
  testMatch: ['*.spec.ts'],
  outputDir: 'test-artifacts/ui/results',
  // Each worker runs a code-server with its extension host beside its Chromium: two are all a
  // shared 2-core machine takes. Every test sets up its own state, so tests (not files) are
  // spread over the workers, which balances the long report and editor files.
  workers: 2,
  fullyParallel: true,
  // npm test runs the @vsix tests against the packed VSIX (project workbench-vsix) and, when it
  // packed one, not again from source (scripts/test-all.mjs sets this): same code, one run.
  grepInvert: process.env[SKIP_VSIX_TAGGED] === '1' ? /@vsix/ : undefined,
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
};

export default defineConfig<object, WorkbenchOptions>({
  testDir: 'test/browser',
  globalSetup: workbenchOnly ? undefined : './test/browser/globalSetup.ts',
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
    { name: 'webview', testMatch: ['webview/*.spec.ts', 'items/*.spec.ts'] },
    // Not in npm test: the timeline's frame times and first rows, measured against baselines from
    // the same run (npm run bench:timeline). Alone, on one worker: on a 2-core machine a second
    // browser drawing beside them measures the machine, not the editor.
    { name: 'webview-bench', testDir: 'test/bench/webview', testMatch: ['*.spec.ts'], workers: 1, fullyParallel: false },
    workbench,
    // The tests tagged @vsix against the VSIX that `npm run demo -- --check` packs
    // (out/trajaudit.vsix), installed with --install-extension: what packing can break.
    {
      ...workbench,
      name: 'workbench-vsix',
      grep: /@vsix/,
      grepInvert: undefined,
      use: { ...workbench.use, workbenchVsix: join(__dirname, 'out', 'trajaudit.vsix') },
    },
  ],
});
