// Corpus statistics in the real workbench (issue 16 item 3): "Trajectory Auditor: Show Corpus
// Statistics" from the palette on the workspace folder (a copy of samples/ with the UI fixtures)
// opens the report page with the corpus-statistics model: the figures and tables say what
// `trajaudit stats --json` says of the same folder, the charts paint (the critical-position
// histogram among them), text from trajectories stays text, and the Markdown export writes the
// tables. Screenshots: test-artifacts/ui/corpus-stats-{light,dark}.png (top) and -positions.png.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Page } from '@playwright/test';
import { test, expect, uiArtifactsDir } from './harness/workbenchTest';
import { expectWebviewTheme, runCommand, type Theme } from './harness/workbenchPage';
import { repoRoot } from './harness/tools';

test.use({ workbenchViewport: { width: 1440, height: 1300 }, workbenchSideBar: false });

async function showWorkspaceStatistics(page: Page): Promise<void> {
  await runCommand(page, 'Trajectory Auditor: Show Corpus Statistics');
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  await expect(rows.filter({ hasText: 'Browse' }).first()).toBeVisible();
  await rows.filter({ hasText: 'workspace folder' }).first().click();
  await expect(page.locator('.quick-input-widget')).toBeHidden();
}

/** The corpus-statistics frame, once every chart canvas has painted (more than 500 pixels drawn). */
async function statsFrame(page: Page): Promise<Frame> {
  let found: Frame | undefined;
  await expect
    .poll(
      async () => {
        for (const frame of page.frames()) {
          const kind = await frame.evaluate(() => document.querySelector('.report-view .rp-kind')?.textContent ?? null).catch(() => null);
          if (kind !== 'corpus-stats') continue;
          const painted = await frame
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
          if (painted.length >= 4 && painted.every((n) => n > 500)) {
            found = frame;
            return true;
          }
          return `painted ${JSON.stringify(painted)}`;
        }
        return 'no corpus-statistics frame';
      },
      { timeout: 60_000, message: 'the corpus-statistics report with its charts painted' },
    )
    .toBe(true);
  if (!found) throw new Error('no corpus-statistics frame');
  return found;
}

/** `trajaudit stats --json` of the folder, with an index cache of its own. */
function cliStats(folder: string): { trajectories: number; by_format: Record<string, number>; messages: { max: number }; annotated?: number } {
  const cli = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'stats', folder, '--json'], {
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), 'trajaudit-stats-ui-')) },
  });
  expect(cli.stdout, cli.stderr).not.toBe('');
  return JSON.parse(cli.stdout);
}

const tableRows = (frame: Frame, id: string) =>
  frame.evaluate((tableId) => [...document.querySelectorAll(`#${tableId} tbody tr`)].map((tr) => [...tr.children].map((c) => c.textContent?.trim() ?? '')), id);

for (const theme of ['light', 'dark'] as Theme[]) {
  test.describe(() => {
    test.use({ workbenchTheme: theme });
    test(`${theme}: Show Corpus Statistics on the workspace: the figures and tables of trajaudit stats, painted charts`, async ({
      workbench: { page, workspace },
    }) => {
      await showWorkspaceStatistics(page);
      const frame = await statsFrame(page);
      await expectWebviewTheme(frame, theme);
      const cli = cliStats(workspace);
      await expect(frame.locator('h1')).toContainText('Corpus statistics');
      await expect(frame.locator('.rp-figure[data-figure="Trajectories"] .rp-figure-value')).toHaveText(String(cli.trajectories));
      await expect(frame.locator('.rp-figure[data-figure="Annotated"] .rp-figure-value')).toHaveText(String(cli.annotated ?? 0));
      const formats = await tableRows(frame, 'stats-by-format');
      expect(Object.fromEntries(formats.map((r) => [r[0], Number(r[1])]))).toEqual(cli.by_format);
      const distribution = await tableRows(frame, 'stats-distribution');
      expect(distribution.map((r) => r[0])).toEqual(['messages', 'decision steps', 'tool calls', 'atomic operations', 'tokens (o200k_base)']);
      expect(distribution[0][4], 'max messages').toBe(String(cli.messages.max));
      for (const id of ['stats-by-model', 'stats-by-dataset', 'stats-position-histogram', 'stats-root-causes'])
        expect((await tableRows(frame, id)).length, `${id} has rows`).toBeGreaterThan(0);
      // The histogram's table holds every labelled critical step; a chart is drawn from it.
      const bins = await tableRows(frame, 'stats-position-histogram');
      expect(bins).toHaveLength(10);
      await expect(frame.locator('canvas[data-chart="chart-stats-positions"]')).toHaveAttribute('aria-describedby', 'stats-position-histogram');
      // Text from trajectories (the UI fixtures' hostile model names and ids) is text: no element came of it.
      expect(await frame.locator('.report-view img, .report-view iframe, .report-view script').count()).toBe(0);
      await page.screenshot({ path: join(uiArtifactsDir, `corpus-stats-${theme}.png`) });
      await frame.locator('#sec-positions').scrollIntoViewIfNeeded();
      await expect(frame.locator('#sec-positions')).toBeInViewport();
      await page.screenshot({ path: join(uiArtifactsDir, `corpus-stats-${theme}-positions.png`) });
    });
  });
}

test('the Markdown export writes every table of the page', async ({ workbench: { page, workspace } }) => {
  await showWorkspaceStatistics(page);
  const frame = await statsFrame(page);
  await frame.locator('button[data-export="md"]').click();
  const dialogInput = page.locator('.quick-input-widget input.input');
  await expect(dialogInput, 'the default is the folder').toHaveValue(/\/corpus-stats\.md$/);
  const target = join(workspace, 'ui-corpus-stats-export.md');
  await dialogInput.fill(target);
  await dialogInput.press('Enter');
  await expect.poll(() => existsSync(target), { message: 'the Markdown file written' }).toBe(true);
  await expect(frame.locator('.rp-status')).toHaveText(/Saved .*ui-corpus-stats-export\.md/);
  const markdown = readFileSync(target, 'utf8');
  const captions = await frame.locator('table.rp-table caption').allTextContents();
  for (const caption of captions) expect(markdown, caption).toContain(`**${caption.replace(/</g, '&lt;')}**`);
  expect(markdown).toContain('| messages |');
});
