// The score report in the real workbench: "Trajectory Auditor: Score Run Folder" from the palette
// (and from the explorer's context menu) opens the report webview, which draws its figures, tables
// and Chart.js charts in the light, dark and high-contrast themes (test-artifacts/ui/report-*.png);
// the JSON export is the CLI's `score --json` document; a step link opens the trajectory editor
// beside the report at that step.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from '@playwright/test';
import { test, expect, uiArtifactsDir, VSIX_TAG } from './harness/workbenchTest';
import { frameWith, runCommand, runPlainCommand, setSideBarVisible, THEMES, type Theme } from './harness/workbenchPage';
import { expectSelected } from './harness/timeline';
import { repoRoot } from './harness/tools';

test.use({ workbenchViewport: { width: 1440, height: 1500 }, workbenchSideBar: false });

interface ReportCase {
  name: string;
  /** The run folder relative to the workspace (the quick pick's label and the report's subtitle). */
  label: string;
  charts: number;
  figures: number;
  links?: boolean;
  /** Also a screenshot of the report's end (position histogram, cases / items). */
  end?: boolean;
}

/** The folder of sample trajectories with sidecars that workspace.ts copies (the "audit" report). */
const AUDIT_LABEL = 'ui-report/trajectories';
const EXPORT_LABEL = 'ui-export/trajectories';

const REPORTS: ReportCase[] = [
  { name: 'audit', label: AUDIT_LABEL, charts: 3, figures: 7, links: true, end: true },
  { name: 'audit-gold-pred', label: 'runs/audit-gold-pred', charts: 2, figures: 7 },
  { name: 'deepsearchqa', label: 'runs/deepsearchqa-run', charts: 2, figures: 4, end: true },
  { name: 'nuggets', label: 'runs/nuggets-run', charts: 2, figures: 4 },
  { name: 'scenarios', label: 'runs/scenarios-run', charts: 2, figures: 4 },
];
const PLAN: Record<Theme, string[]> = {
  light: REPORTS.map((r) => r.name),
  dark: ['audit', 'deepsearchqa', 'nuggets'],
  hc: ['audit'],
};

/** Runs Score Run Folder from the palette and picks `label` in its quick pick of the workspace's run folders. */
async function scoreFromPalette(page: Page, label: string): Promise<void> {
  await runCommand(page, 'Trajectory Auditor: Score Run Folder');
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  await expect(rows.filter({ hasText: 'Browse' }).first()).toBeVisible();
  await page.locator('.quick-input-widget input.input').fill(label);
  await expect(rows.first(), 'the run folder as the first row').toContainText(label);
  await page.locator('.quick-input-widget input.input').press('Enter');
  await expect(page.locator('.quick-input-widget')).toBeHidden();
}

/** The report frame showing `label`, once each of its `charts` canvases has painted (more than 500 pixels drawn). */
async function reportFrame(page: Page, label: string, charts: number): Promise<Frame> {
  let found: Frame | undefined;
  let painted: number[] = [];
  await expect
    .poll(
      async () => {
        for (const frame of page.frames()) {
          const shown = await frame.evaluate(() => document.querySelector('.report-view .rp-folder')?.textContent ?? null).catch(() => null);
          if (shown !== label) continue;
          painted = await frame
            .evaluate(() =>
              [...document.querySelectorAll<HTMLCanvasElement>('canvas[data-chart]')].map((c) => {
                const context = c.getContext('2d');
                if (!c.width || !c.height || !context) return 0;
                const data = context.getImageData(0, 0, c.width, c.height).data;
                let n = 0;
                for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
                return n;
              }),
            )
            .catch(() => []);
          if (painted.length >= charts && painted.every((n) => n > 500)) {
            found = frame;
            return true;
          }
        }
        return `${label}: painted ${JSON.stringify(painted)}`;
      },
      { timeout: 30_000, message: `the ${label} report with ${charts} painted charts` },
    )
    .toBe(true);
  if (!found) throw new Error(`no report frame for ${label}`);
  return found;
}

/** Scrolls the report to its end (or top) and waits until it is there. */
async function scrollReport(frame: Frame, to: 'end' | 'top'): Promise<void> {
  await frame.evaluate((where) => document.querySelector('.report-view')?.scrollTo(0, where === 'end' ? 1e6 : 0), to);
  await expect
    .poll(() =>
      frame.evaluate((where) => {
        const view = document.querySelector('.report-view');
        if (!view) return false;
        return where === 'end' ? view.scrollTop + view.clientHeight >= view.scrollHeight - 1 : view.scrollTop === 0;
      }, to),
    )
    .toBe(true);
}

for (const theme of ['light', 'dark', 'hc'] as Theme[]) {
  test.describe(() => {
    test.use({ workbenchTheme: theme });
    for (const r of REPORTS.filter((c) => PLAN[theme].includes(c.name))) {
      // One report (the quickest to score) runs against the packed VSIX too: the report bundle.
      const tag = theme === 'light' && r.name === 'scenarios' ? [VSIX_TAG] : [];
      test(
        `${theme}: the ${r.name} report opens, draws ${r.charts} charts, figures and tables${theme === 'light' ? '' : ', follows the theme'}`,
        { tag },
        async ({ workbench: { page } }) => {
          await scoreFromPalette(page, r.label);
          const frame = await reportFrame(page, r.label, r.charts);
          const info = await frame.evaluate(() => ({
            figures: document.querySelectorAll('.rp-figure').length,
            tables: document.querySelectorAll('table.rp-table').length,
            links: document.querySelectorAll('a.rp-step').length,
            // Every chart has its table equivalent.
            describedBy: [...document.querySelectorAll('canvas[data-chart]')].every(
              (c) => document.getElementById(c.getAttribute('aria-describedby') ?? '')?.tagName === 'TABLE',
            ),
          }));
          expect(info.figures, 'figures').toBe(r.figures);
          expect(info.tables, 'tables').toBeGreaterThanOrEqual(2);
          expect(info.describedBy, 'each chart is described by a table').toBe(true);
          if (theme !== 'light') await expect(frame.locator('body')).toHaveClass(new RegExp(`\\b${THEMES[theme].webviewClass}\\b`));
          if (r.links) expect(info.links, 'step links').toBeGreaterThan(10);
          await page.screenshot({ path: join(uiArtifactsDir, `report-${r.name}-${theme}.png`) });
          if (r.end) {
            await scrollReport(frame, 'end');
            await page.screenshot({ path: join(uiArtifactsDir, `report-${r.name}-${theme}-end.png`) });
          }
        },
      );
    }
  });
}

test('the JSON export proposes the run folder and writes the score --json document', async ({ workbench: { page, files } }) => {
  await scoreFromPalette(page, EXPORT_LABEL);
  const frame = await reportFrame(page, EXPORT_LABEL, 3);
  // Export through the button and the (simple) save dialog: the default is the run folder.
  await frame.locator('button[data-export="json"]').click();
  const dialogInput = page.locator('.quick-input-widget input.input');
  await expect(dialogInput).toHaveValue(/\/trajectories\/score\.json$/);
  await dialogInput.press('Enter');
  const written = join(files.exportTrajectories.folder, 'score.json');
  await expect.poll(() => existsSync(written), { message: 'score.json written' }).toBe(true);
  await expect(frame.locator('.rp-status'), 'the report says where it saved').toHaveText(/Saved .*score\.json/);
  const cli = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'score', files.exportTrajectories.folder, '--json'], { encoding: 'utf8' });
  expect(cli.status, cli.stderr).toBe(0);
  expect(readFileSync(written, 'utf8'), 'the exported JSON is the score --json document').toBe(cli.stdout);
});

test('clicking a step link opens the trajectory editor beside the report at that step', async ({ workbench: { page } }) => {
  await scoreFromPalette(page, AUDIT_LABEL);
  const frame = await reportFrame(page, AUDIT_LABEL, 3);
  // The gold step of record 1188 of batch.traj.jsonl.
  const link = frame.locator('tr', { hasText: 'batch.traj.jsonl#1188' }).locator('a.rp-step').first();
  const step = Number(await link.textContent());
  expect(step, 'the link names a step').toBeGreaterThan(0);
  await link.click();
  const editor = await frameWith(page, '.tl-row[aria-selected="true"]');
  await expectSelected(editor, step);
  expect(await page.locator('.editor-group-container').count(), 'the trajectory opens beside the report').toBeGreaterThanOrEqual(2);
  await expect(editor.locator(`#tl-row-${step}`)).toBeInViewport();
  await page.screenshot({ path: join(uiArtifactsDir, 'report-link-editor-light.png') });
});

test.describe(() => {
  test.use({ workbenchTheme: 'hc', workbenchSideBar: true });
  test('the explorer context menu of a folder offers Score Run Folder, which opens the report', async ({ workbench: { page } }) => {
    await setSideBarVisible(page, true);
    await runPlainCommand(page, 'File: Focus on Files Explorer');
    // runs/ at the top level, and its scenarios-run (items/scenarios/ has a scenarios-run folder too, a level deeper).
    const runs = page.locator('.explorer-folders-view .monaco-list-row[aria-level="1"]', { hasText: /^runs$/ });
    await expect(runs).toBeVisible();
    if ((await runs.getAttribute('aria-expanded')) !== 'true') await runs.click();
    await expect(runs).toHaveAttribute('aria-expanded', 'true');
    const folderRow = page.locator('.explorer-folders-view .monaco-list-row[aria-level="2"]', { hasText: /^scenarios-run$/ });
    await expect(folderRow).toBeVisible();
    await folderRow.click({ button: 'right' });
    const menu = page.locator('.monaco-menu').first();
    const item = menu.locator('.action-item', { hasText: 'Score Run Folder' }).first();
    await expect(item, 'the context menu offers Score Run Folder').toBeVisible();
    // A context-menu item can ignore a click while the menu animates in: click until the menu closes.
    await expect(async () => {
      if (await menu.isVisible()) await item.click({ timeout: 2_000 });
      await expect(menu).toBeHidden({ timeout: 2_000 });
    }).toPass();
    await reportFrame(page, 'runs/scenarios-run', 2);
    await page.screenshot({ path: join(uiArtifactsDir, 'report-explorer-hc.png') });
  });
});
