#!/usr/bin/env node
// `npm run demo`: the product on samples/. Builds the extension, packs its VSIX, installs it
// into a real VS Code (code-server) on 127.0.0.1 with the samples/ workspace, runs the CLI on
// the samples, and prints the URL; Ctrl+C stops the server.
// `npm run demo -- --check`: the same, headless, on a copy of samples/: opens a sample trajectory
// in the installed extension, runs the offline heuristic audit and scores a run folder from the
// command palette, saves screenshots to test-artifacts/demo/, exits 0 only if all of it worked.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setupVscode } from './setup-vscode.mjs';
import {
  artifactsDir,
  findFrameWith,
  installExtension,
  launchBrowser,
  makeSandbox,
  openWorkbench,
  repoRoot,
  runFromCommandPalette,
  samplesDir,
  startCodeServer,
} from '../test/runners/code-server.mjs';

const check = process.argv.includes('--check');
const log = (m) => process.stderr.write(`[demo] ${m}\n`);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: repoRoot, stdio: ['ignore', check ? 'ignore' : 'inherit', 'inherit'] });

if (!existsSync(join(repoRoot, 'node_modules'))) execFileSync('npm', ['ci'], { cwd: repoRoot, stdio: 'inherit' });
log('building and packing the VSIX');
// Under npm test (--check) the build stage has just type-checked, linted and format-checked the tree.
run('node', ['esbuild.mjs', '--production', ...(check ? ['--no-check'] : [])]);
mkdirSync(join(repoRoot, 'out'), { recursive: true });
const vsix = join(repoRoot, 'out', 'trajaudit.vsix');
// vsce lists every file under the folder it packs and matches each one against .vscodeignore; in
// the repository that is some 18,000 files, two thirds of them code-server's in .vscode-test/, and
// took 38 s of a loaded demo --check. It packs a copy without the tool and output folders, which
// .vscodeignore (an allow-list of product files) excludes anyway: the same VSIX.
const packFolder = mkdtempSync(join(tmpdir(), 'trajaudit-pack-'));
const NOT_PACKED = new Set(['.git', '.vscode-test', 'node_modules', 'out', 'test-artifacts']);
try {
  cpSync(repoRoot, packFolder, { recursive: true, filter: (src) => !NOT_PACKED.has(relative(repoRoot, src)) });
  execFileSync(join(repoRoot, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '--out', vsix], {
    cwd: packFolder,
    stdio: ['ignore', check ? 'ignore' : 'inherit', 'inherit'],
  });
} finally {
  rmSync(packFolder, { recursive: true, force: true });
}

log('the CLI on samples/');
const cli = join(repoRoot, 'dist', 'cli.js');
const trajectories = readdirSync(join(samplesDir, 'trajectories'), { recursive: true })
  .map(String)
  .filter((p) => /\.traj\.jsonl?$/.test(p))
  .sort();
for (const file of trajectories.slice(0, 2)) {
  const path = join(samplesDir, 'trajectories', file);
  process.stdout.write(`\n$ trajaudit inspect ${relative(repoRoot, path)}\n`);
  spawnSync(process.execPath, [cli, 'inspect', path], { stdio: 'inherit' });
}
process.stdout.write('\n$ trajaudit score samples/runs/audit-gold-pred\n');
const cliScore = spawnSync(process.execPath, [cli, 'score', join(samplesDir, 'runs', 'audit-gold-pred')], { stdio: 'inherit' });

const tools = setupVscode();
const sandbox = makeSandbox('trajaudit-demo-');
installExtension({ ...tools, ...sandbox, extension: vsix });
// The check works on a copy, so the audit and any saved annotation never touch samples/.
const workspace = check ? join(mkdtempSync(join(tmpdir(), 'trajaudit-demo-ws-')), 'samples') : samplesDir;
if (check) cpSync(samplesDir, workspace, { recursive: true, filter: (src) => !src.includes('.scratch') });
const server = await startCodeServer({ ...tools, ...sandbox, workspace });

if (!check) {
  const url = `${server.origin}/?folder=${encodeURIComponent(samplesDir)}`;
  process.stdout.write(`\nTrajectory Auditor is running in VS Code at ${url}\nOpen a file under samples/trajectories to see the timeline. Ctrl+C stops.\n`);
  const stop = async () => {
    await server.stop();
    sandbox.cleanup();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await server.exited;
} else {
  const shots = join(artifactsDir, 'demo');
  mkdirSync(shots, { recursive: true });
  const results = [];
  const step = async (name, fn) => {
    const started = Date.now();
    try {
      await fn();
      results.push({ name, ok: true });
      log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (error) {
      results.push({ name, ok: false });
      log(`FAIL ${name}: ${error.message.split('\n')[0]}`);
    }
  };
  const browser = await launchBrowser({ chromiumPath: tools.chromiumPath });
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const sample = join(workspace, 'trajectories', 'openai-chat', 'browsecomp-footballer-penalties.traj.json');
  let editorFrame;
  try {
    await step('the cli scores a sample run folder', async () => {
      if (cliScore.status !== 0) throw new Error(`trajaudit score exited ${cliScore.status}`);
    });
    await step('the workbench starts with the installed VSIX', () =>
      openWorkbench(page, { port: server.port, folder: workspace, extensionDevelopmentPath: null }),
    );
    await step('a sample trajectory opens in the timeline', async () => {
      await page.keyboard.press('Control+P');
      const input = page.locator('.quick-input-widget input.input');
      await input.waitFor({ state: 'visible', timeout: 15_000 });
      await input.fill('browsecomp-footballer-penalties.traj.json');
      await page
        .locator('.quick-input-widget .monaco-list-row', { hasText: 'browsecomp-footballer-penalties.traj.json' })
        .first()
        .waitFor({ state: 'visible', timeout: 15_000 });
      await input.press('Enter');
      const frame = await findFrameWith(page, '.tl-row', { timeoutMs: 30_000 });
      if (!frame) throw new Error('no timeline rows appeared');
      editorFrame = frame;
      // The editor focuses its timeline once its first rows are painted; the palette opened
      // before that would close when the webview takes focus.
      await frame.waitForFunction(() => document.activeElement?.classList.contains('tl-scroller'), null, { timeout: 30_000 });
      await page.screenshot({ path: join(shots, 'timeline.png') });
    });
    await step('the offline heuristic audit runs from the palette and lands in the sidecar', async () => {
      const sidecar = `${sample}.audit.json`;
      const before = existsSync(sidecar) ? (JSON.parse(readFileSync(sidecar, 'utf8')).records['0'].audits?.length ?? 0) : 0;
      await runFromCommandPalette(page, 'Trajectory Auditor: Audit Trajectory');
      const input = page.locator('.quick-input-widget input.input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill('heuristic');
      const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Offline heuristic' }).first();
      await row.waitFor({ state: 'visible', timeout: 10_000 });
      await row.click();
      const end = Date.now() + 30_000;
      let audits = [];
      for (;;) {
        audits = existsSync(sidecar) ? (JSON.parse(readFileSync(sidecar, 'utf8')).records['0'].audits ?? []) : [];
        if (audits.length > before && audits.at(-1).method === 'heuristic') break;
        if (Date.now() > end) throw new Error('no heuristic audit in the sidecar after 30 s');
        await new Promise((r) => setTimeout(r, 250));
      }
      // The screenshot once the editor's audit panel lists the new audit.
      const heading = `Audits (${audits.length})`;
      await editorFrame
        .waitForFunction((text) => document.querySelector('.audit .sub-head')?.textContent === text, heading, { timeout: 15_000 })
        .catch(() => {
          throw new Error(`the editor's audit panel does not show "${heading}"`);
        });
      await page.screenshot({ path: join(shots, 'audited.png') });
    });
    await step('Score Run Folder opens the report', async () => {
      await runFromCommandPalette(page, 'Trajectory Auditor: Score Run Folder');
      const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'audit-gold-pred' }).first();
      await row.waitFor({ state: 'visible', timeout: 15_000 });
      await row.click();
      const frame = await findFrameWith(page, '.report-view .rp-figure', { timeoutMs: 45_000 });
      if (!frame) throw new Error('no report appeared');
      // The report renders its figures in one update: the page is complete for the screenshot.
      await page.screenshot({ path: join(shots, 'report.png') });
    });
  } finally {
    await browser.close();
    await server.stop();
    sandbox.cleanup();
    if (check) rmSync(join(workspace, '..'), { recursive: true, force: true });
  }
  const failed = results.filter((r) => !r.ok);
  process.stdout.write(`\ndemo --check: ${results.length - failed.length}/${results.length} passed; screenshots in ${relative(repoRoot, shots)}\n`);
  process.exit(failed.length ? 1 : 0);
}
