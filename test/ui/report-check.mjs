#!/usr/bin/env node
// UI check of the score report in the real VS Code workbench (code-server + headless Chromium):
// runs "Trajectory Auditor: Score Run Folder" from the command palette, picks run folders in its
// quick pick, checks the report webview drew its figures, tables and Chart.js charts with no
// Content-Security-Policy violation, takes screenshots in the light, dark and high-contrast themes
// (test-artifacts/ui/report-*.png), and clicks a step link: the trajectory editor must open beside
// the report with that step selected.
//
// Usage: node esbuild.mjs && node test/ui/report-check.mjs [--keep]
// Prints `ok` / `not ok` lines and `N passed, N failed`; exits 1 when a check fails.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setupVscode } from '../../scripts/setup-vscode.mjs';
import {
  artifactsDir,
  findFrameWith,
  launchBrowser,
  makeSandbox,
  openWorkbench,
  repoRoot,
  runFromCommandPalette,
  samplesDir,
  startCodeServer,
  writeUserSettings,
} from '../runners/code-server.mjs';

const { values: opts } = parseArgs({ options: { keep: { type: 'boolean', default: false } } });
const outDir = join(artifactsDir, 'ui');
const say = (m) => process.stderr.write(`[report-ui] ${m}\n`);
const results = [];
function check(name, ok, detail = '') {
  results.push(ok);
  process.stdout.write(`${ok ? 'ok' : 'not ok'} ${results.length} - ${name}${detail ? ` (${detail})` : ''}\n`);
  return ok;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Setting values (workbench.colorTheme) and the labels the theme picker shows.
const THEMES = { light: 'Default Light Modern', dark: 'Default Dark Modern', hc: 'Default High Contrast' };
const THEME_LABELS = { light: 'Light Modern', dark: 'Dark Modern', hc: 'Dark High Contrast' };

/** A run folder of trajectories with sidecars (step links), under the ignored samples/.scratch/. */
function makeTrajectoryFolder() {
  const stamp = Date.now();
  const folder = join(samplesDir, '.scratch', `ui-report-${stamp}`, 'trajectories');
  mkdirSync(folder, { recursive: true });
  const source = join(samplesDir, 'trajectories');
  for (const sub of readdirSync(source)) {
    for (const name of readdirSync(join(source, sub)).filter((n) => n.endsWith('.audit.json'))) {
      copyFileSync(join(source, sub, name), join(folder, name));
      copyFileSync(join(source, sub, name.slice(0, -'.audit.json'.length)), join(folder, name.slice(0, -'.audit.json'.length)));
    }
  }
  return { folder, label: `.scratch/ui-report-${stamp}/trajectories`, root: join(samplesDir, '.scratch', `ui-report-${stamp}`) };
}

/** Runs Score Run Folder from the palette and picks `label` in its folder quick pick (one retry: the
 *  palette can open before the extension's contributions are loaded). */
async function scoreFromPalette(page, label) {
  try {
    await scoreFromPaletteOnce(page, label);
  } catch (error) {
    say(`retrying the palette (${error.message.split('\n')[0]})`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await sleep(2000);
    await scoreFromPaletteOnce(page, label);
  }
}

async function scoreFromPaletteOnce(page, label) {
  await page
    .locator('.monaco-workbench')
    .click({ position: { x: 5, y: 5 }, force: true })
    .catch(() => {});
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill('>Trajectory Auditor: Score Run Folder');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Score Run Folder' }).first().waitFor({ state: 'visible', timeout: 15_000 });
  await input.press('Enter');
  // The command's own quick pick: run folders found in the workspace.
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Browse' }).first().waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(label);
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ state: 'visible', timeout: 15_000 });
  await input.press('Enter');
  await page
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: 15_000 })
    .catch(() => {});
}

/** The report frame showing `label`, once its charts are painted. */
async function reportFrame(page, label, { charts, timeoutMs = 30_000 } = {}) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    for (const frame of page.frames()) {
      const shown = await frame.evaluate(() => document.querySelector('.report-view .rp-folder')?.textContent ?? null).catch(() => null);
      if (shown !== label) continue;
      const painted = await frame
        .evaluate(() =>
          [...document.querySelectorAll('canvas[data-chart]')].map((c) => {
            if (!c.width || !c.height) return 0;
            const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0;
            for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
            return n;
          }),
        )
        .catch(() => []);
      if (painted.length >= charts && painted.every((n) => n > 500)) return { frame, painted };
    }
    await sleep(250);
  }
  return { frame: undefined, painted: [] };
}

/** Switches the colour theme with "Preferences: Color Theme" and waits for the workbench to follow. */
async function setTheme(page, theme) {
  await page
    .locator('.monaco-workbench')
    .click({ position: { x: 5, y: 5 }, force: true })
    .catch(() => {});
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill('>Preferences: Color Theme');
  const command = page.locator('.quick-input-widget .monaco-list-row', { hasText: /Preferences: Color Theme$|Preferences: Color Theme[^s]/ }).first();
  await command.waitFor({ state: 'visible', timeout: 15_000 });
  await command.click();
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: THEME_LABELS.dark }).first().waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(THEME_LABELS[theme]);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: THEME_LABELS[theme] }).first().waitFor({ state: 'visible', timeout: 15_000 });
  await input.press('Enter');
  await page
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: 15_000 })
    .catch(() => {});
  const cls = theme === 'light' ? 'vscode-light' : theme === 'dark' ? 'vscode-dark' : 'vscode-high-contrast';
  await page.waitForFunction((c) => document.querySelector('.monaco-workbench')?.classList.contains(c), cls, { timeout: 15_000 }).catch(() => {});
  await sleep(800);
}

async function main() {
  const tools = setupVscode();
  mkdirSync(outDir, { recursive: true });
  for (const f of readdirSync(outDir).filter((n) => n.startsWith('report-'))) rmSync(join(outDir, f), { force: true });
  const trajectories = makeTrajectoryFolder();
  const sandbox = makeSandbox('trajaudit-ui-report-');
  writeUserSettings(sandbox.userDataDir, { 'workbench.colorTheme': THEMES.light });
  let server;
  let browser;
  const csp = [];
  let pageForFailure;
  try {
    server = await startCodeServer({ ...tools, ...sandbox, workspace: samplesDir, logFile: join(outDir, 'report-code-server.log') });
    browser = await launchBrowser({ chromiumPath: tools.chromiumPath });
    const page = await browser.newPage({ viewport: { width: 1440, height: 1500 } });
    pageForFailure = page;
    page.on('console', (m) => {
      if (/Content.Security.Policy|Refused to (apply|execute|load)/i.test(m.text())) csp.push(m.text());
    });
    await openWorkbench(page, { port: server.port });
    say('workbench ready');
    await runFromCommandPalette(page, 'View: Toggle Primary Side Bar Visibility');

    const reports = [
      { label: trajectories.label, name: 'audit', charts: 3, figures: 7, links: true },
      { label: 'runs/audit-gold-pred', name: 'audit-gold-pred', charts: 2, figures: 7 },
      { label: 'runs/deepsearchqa-run', name: 'deepsearchqa', charts: 2, figures: 4 },
      { label: 'runs/nuggets-run', name: 'nuggets', charts: 2, figures: 4 },
      { label: 'runs/scenarios-run', name: 'scenarios', charts: 2, figures: 4 },
    ];
    const plan = {
      light: reports,
      dark: reports.filter((r) => ['audit', 'deepsearchqa', 'nuggets'].includes(r.name)),
      hc: reports.filter((r) => r.name === 'audit'),
    };
    for (const [theme, list] of Object.entries(plan)) {
      if (theme !== 'light') await setTheme(page, theme);
      say(`theme ${THEMES[theme]}`);
      for (const r of list) {
        await scoreFromPalette(page, r.label);
        const { frame, painted } = await reportFrame(page, r.label, { charts: r.charts });
        if (!check(`${theme}: ${r.name} report opens and draws ${r.charts} charts`, Boolean(frame), painted.join(', '))) continue;
        const info = await frame.evaluate(() => ({
          figures: document.querySelectorAll('.rp-figure').length,
          tables: document.querySelectorAll('table.rp-table').length,
          links: document.querySelectorAll('a.rp-step').length,
          kind: document.querySelector('.rp-kind')?.textContent,
          body: document.body.className,
          describedBy: [...document.querySelectorAll('canvas[data-chart]')].every(
            (c) => document.getElementById(c.getAttribute('aria-describedby') ?? '')?.tagName === 'TABLE',
          ),
        }));
        check(
          `${theme}: ${r.name}: figures, tables, table equivalents of the charts`,
          info.figures === r.figures && info.tables >= 2 && info.describedBy,
          JSON.stringify(info),
        );
        if (theme !== 'light')
          check(
            `${theme}: ${r.name}: the webview follows the theme`,
            theme === 'dark' ? /vscode-dark/.test(info.body) : /vscode-high-contrast/.test(info.body),
            info.body,
          );
        if (r.links) check(`${theme}: ${r.name}: step links`, info.links > 10, `${info.links} links`);
        await sleep(300);
        const file = join(outDir, `report-${r.name}-${theme}.png`);
        await page.screenshot({ path: file });
        say(`screenshot ${file}`);
        if (r.name === 'audit' || r.name === 'deepsearchqa') {
          // The rest of the report (position histogram, cases / items).
          await frame.evaluate(() => document.querySelector('.report-view')?.scrollTo(0, 1e6));
          await sleep(300);
          await page.screenshot({ path: join(outDir, `report-${r.name}-${theme}-end.png`) });
          await frame.evaluate(() => document.querySelector('.report-view')?.scrollTo(0, 0));
        }

        if (r.links && theme === 'light') {
          // Export JSON through the button and the (simple) save dialog: the default is the run folder.
          await frame.locator('button[data-export="json"]').click();
          const dialogInput = page.locator('.quick-input-widget input.input');
          await dialogInput.waitFor({ state: 'visible', timeout: 15_000 });
          await sleep(300);
          check(
            'the JSON export proposes the run folder',
            (await dialogInput.inputValue()).endsWith('/trajectories/score.json'),
            await dialogInput.inputValue(),
          );
          await dialogInput.press('Enter');
          const written = join(trajectories.folder, 'score.json');
          const writtenBy = Date.now() + 10_000;
          while (!existsSync(written) && Date.now() < writtenBy) await sleep(200);
          const cli = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'score', trajectories.folder, '--json'], { encoding: 'utf8' });
          check(
            'the exported JSON is the score --json document',
            existsSync(written) && readFileSync(written, 'utf8') === cli.stdout,
            `cli exit ${cli.status}`,
          );
          const status = await frame.evaluate(() => document.querySelector('.rp-status')?.textContent ?? '');
          check('the report says where it saved', /Saved .*score\.json/.test(status), status);

          // Click the gold step of record 1188 of batch.traj.jsonl: the editor opens beside, step 6 selected.
          const link = frame.locator('tr', { hasText: 'batch.traj.jsonl#1188' }).locator('a.rp-step').first();
          const step = Number(await link.textContent());
          await link.click();
          const editor = await findFrameWith(page, '.tl-row[aria-selected="true"]', { timeoutMs: 30_000 });
          let selected = null;
          const end = Date.now() + 15_000;
          while (editor && Date.now() < end) {
            selected = await editor
              .evaluate(() => Number(document.querySelector('.tl-row[aria-selected="true"]')?.getAttribute('data-position')))
              .catch(() => null);
            if (selected === step) break;
            await sleep(200);
          }
          check('clicking a step link opens the trajectory editor at that step', Boolean(editor) && selected === step, `step ${step}, selected ${selected}`);
          const groups = await page.locator('.editor-group-container').count();
          check('the trajectory opens beside the report', groups >= 2, `${groups} editor groups`);
          await sleep(500);
          await page.screenshot({ path: join(outDir, 'report-link-editor-light.png') });
          await runFromCommandPalette(page, 'View: Close All Editor Groups');
        }
      }
      await runFromCommandPalette(page, 'View: Close All Editor Groups');
    }
    // The explorer context menu of a folder.
    await runFromCommandPalette(page, 'View: Toggle Primary Side Bar Visibility');
    await runFromCommandPalette(page, 'File: Focus on Files Explorer');
    const runs = page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^runs$/ }).first();
    await runs.waitFor({ state: 'visible', timeout: 15_000 });
    if ((await runs.getAttribute('aria-expanded')) !== 'true') await runs.click();
    const folderRow = page.locator('.explorer-folders-view .monaco-list-row', { hasText: /^scenarios-run$/ }).first();
    await folderRow.waitFor({ state: 'visible', timeout: 15_000 });
    await folderRow.click({ button: 'right' });
    const item = page.locator('.monaco-menu .action-item', { hasText: 'Score Run Folder' }).first();
    const inMenu = await item.waitFor({ state: 'visible', timeout: 10_000 }).then(
      () => true,
      () => false,
    );
    check('the explorer context menu of a folder offers Score Run Folder', inMenu);
    if (inMenu) {
      // Context-menu items sometimes ignore the first click while the menu animates in: hover,
      // click, and press Enter on the highlighted item if the menu is still open.
      await item.hover();
      await item.click();
      if (
        await page
          .locator('.monaco-menu')
          .first()
          .isVisible()
          .catch(() => false)
      )
        await page.keyboard.press('Enter');
      const { frame } = await reportFrame(page, 'runs/scenarios-run', { charts: 2 });
      check('Score Run Folder from the explorer opens the report', Boolean(frame));
      await page.screenshot({ path: join(outDir, 'report-explorer-hc.png') });
    }
    check('no Content-Security-Policy violation in the console', csp.length === 0, csp.slice(0, 3).join(' | '));
  } catch (error) {
    await pageForFailure?.screenshot({ path: join(outDir, 'report-failure.png') }).catch(() => {});
    check('the UI check ran to the end', false, `${error.stack ?? String(error)}; screenshot test-artifacts/ui/report-failure.png`);
  } finally {
    await browser?.close().catch(() => {});
    await server?.stop().catch(() => {});
    if (!opts.keep) {
      sandbox.cleanup();
      rmSync(trajectories.root, { recursive: true, force: true });
    }
  }
  const failed = results.filter((r) => !r).length;
  process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
  process.exit(failed ? 1 : 0);
}

await main();
