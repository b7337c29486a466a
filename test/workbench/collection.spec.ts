// The collection view in the real workbench (issue 16, "Done when"): "Trajectory Auditor: Open as
// Collection" from the palette opens the workspace (a copy of samples/) as a collection; the
// rows are every sample trajectory; sorting by a column, a facet and a text filter; Enter opens
// the selected row's trajectory in the trajectory editor at its critical step, and going back to
// the collection's tab selects the same row; the editor's "Open collection" status-bar link opens
// the file's folder; Export… writes the rows shown as CSV and every row as Parquet through the save
// dialog, with the annotations and audits beside them, read back from disk. Screenshots in light
// and dark: test-artifacts/ui/collection-<theme>.png (sorted) and collection-<theme>-filtered.png.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { parquetReadObjects } from 'hyparquet';
import { test, expect, uiArtifactsDir } from './harness/workbenchTest';
import { expectWebviewTheme, frameWith, runCommand, type Theme } from './harness/workbenchPage';
import { expectSelected } from './harness/timeline';
import { SAMPLES } from './harness/workspace';

test.use({ workbenchViewport: { width: 1500, height: 950 }, workbenchSideBar: false });

/** The footballer sample: 73 messages, its sidecar's critical step 16. */
const FOOTBALLER_ID = `${SAMPLES.footballer.path}#0`;
const FOOTBALLER_CRITICAL_STEP = 16;
/** Words of its id only (the workspace also holds copies of it under ui-report/ and ui-export/). */
const FOOTBALLER_WORDS = 'openai-chat/browsecomp-footballer';

/** The collection frame showing `title`, once every file has been read. */
async function collectionFrame(page: Page, title: string): Promise<Frame> {
  let found: Frame | undefined;
  await expect
    .poll(
      async () => {
        for (const frame of page.frames()) {
          const shown = await frame.evaluate(() => document.querySelector('.cv-title')?.textContent ?? null).catch(() => null);
          if (shown !== title) continue;
          const reading = await frame.locator('.cv-progress progress').count();
          if (!reading && (await frame.locator('.cv-row').count()) > 0) {
            found = frame;
            return true;
          }
        }
        return false;
      },
      { timeout: 60_000, message: `the collection ${title} with every file read` },
    )
    .toBe(true);
  if (!found) throw new Error(`no collection frame for ${title}`);
  return found;
}

const rowIds = (frame: Frame) => frame.locator('.cv-row').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.id ?? ''));

async function openWorkspaceCollection(page: Page): Promise<Frame> {
  await runCommand(page, 'Trajectory Auditor: Open as Collection');
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  await expect(rows.filter({ hasText: 'Browse' }).first()).toBeVisible();
  // The workspace folder itself (the first row, described as such).
  await rows.filter({ hasText: 'workspace folder' }).first().click();
  await expect(page.locator('.quick-input-widget')).toBeHidden();
  return collectionFrame(page, 'workspace');
}

/**
 * Export… with this format and scope: the save dialog proposes <collection>.rows.<format> in the
 * collection's folder; the file is renamed to `name` there (the worker's tests share a workspace).
 */
async function exportThroughDialog(page: Page, frame: Frame, format: 'csv' | 'parquet', scope: 'shown' | 'all', name: string): Promise<void> {
  await frame.locator('.cv-export-format').selectOption(format);
  await frame.locator('.cv-export-scope').selectOption(scope);
  await frame.locator('.cv-export-button').click();
  const dialogInput = page.locator('.quick-input-widget input.input');
  const proposed = new RegExp(`/workspace\\.rows\\.${format}$`);
  await expect(dialogInput).toHaveValue(proposed);
  await dialogInput.fill((await dialogInput.inputValue()).replace(proposed, `/${name}`));
  await dialogInput.press('Enter');
  await expect(page.locator('.quick-input-widget')).toBeHidden();
}

for (const theme of ['light', 'dark'] as Theme[]) {
  test.describe(() => {
    test.use({ workbenchTheme: theme });
    test(`${theme}: samples/ as a collection: sort, filter, open a row at its critical step, back to the same row, export`, async ({
      workbench: { page, workspace },
    }) => {
      let frame = await openWorkspaceCollection(page);
      await expectWebviewTheme(frame, theme);
      const ids = await rowIds(frame);
      expect(ids).toContain(FOOTBALLER_ID);
      expect(
        ids.some((id) => id.startsWith('trajectories/searchauditbench/batch.traj.jsonl#')),
        'one row per JSONL record',
      ).toBe(true);
      const total = ids.length;
      await expect(frame.locator('.cv-shown')).toHaveText(`${total} of ${total} trajectories`);

      // Sort by messages, largest first: the footballer sample (73 messages) is the longest.
      const messages = frame.locator('.cv-col[data-column="messages"]');
      await messages.click();
      await expect(messages).toHaveAttribute('aria-sort', 'descending');
      const counts = await frame.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.cv-row')]
          .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
          .map((r) => Number(r.children[5].textContent)),
      );
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
      await page.screenshot({ path: join(uiArtifactsDir, `collection-${theme}.png`) });

      // A facet: only the openai-chat rows; then words.
      await frame.locator('.cv-facet[data-facet="format"] label', { hasText: 'openai-chat' }).locator('input').check();
      const formats = await frame.evaluate(() => [...document.querySelectorAll('.cv-row')].map((r) => r.children[1].textContent));
      expect(formats.length).toBeGreaterThan(0);
      expect(new Set(formats)).toEqual(new Set(['openai-chat']));
      await frame.locator('.cv-filter').fill(FOOTBALLER_WORDS);
      await expect.poll(() => rowIds(frame)).toEqual([FOOTBALLER_ID]);
      await expect(frame.locator('.cv-shown')).toHaveText(`1 of ${total} trajectories`);
      await page.screenshot({ path: join(uiArtifactsDir, `collection-${theme}-filtered.png`) });

      // Back to the table, Enter opens the selected row in the trajectory editor at its critical step.
      await frame.locator('.cv-filter').press('Enter');
      await expect(frame.locator('.cv-row.selected')).toHaveAttribute('data-id', FOOTBALLER_ID);
      await frame.locator('.cv-scroller').press('Enter');
      await expect(page.locator('.editor-group-container.active .tab.active')).toContainText(SAMPLES.footballer.name);
      const editor = await frameWith(page, '.tl-row[id]');
      await expectSelected(editor, FOOTBALLER_CRITICAL_STEP);

      // The editor's status-bar link to its folder's collection.
      await expect(page.locator('.statusbar-item', { hasText: 'Open collection' })).toBeVisible();

      // Back to the collection's tab: the view is re-created with the same filter and row.
      await page.locator('.editor-group-container.active .tab', { hasText: 'Collection: workspace' }).click();
      frame = await collectionFrame(page, 'workspace');
      await expect(frame.locator('.cv-row.selected')).toHaveAttribute('data-id', FOOTBALLER_ID);
      await expect(frame.locator('.cv-filter')).toHaveValue(FOOTBALLER_WORDS);
      await expect(frame.locator('.cv-col[data-column="messages"]')).toHaveAttribute('aria-sort', 'descending');

      // Export… the row shown as CSV: the save dialog proposes the collection's folder.
      const csvFile = join(workspace, `collection-${theme}.rows.csv`);
      await exportThroughDialog(page, frame, 'csv', 'shown', `collection-${theme}.rows.csv`);
      await expect.poll(() => existsSync(csvFile), { message: 'the rows CSV written' }).toBe(true);
      await expect(frame.locator('.cv-status')).toHaveText(
        `Exported the rows shown: 1 row to collection-${theme}.rows.csv, 1 annotation to collection-${theme}.annotations.csv, 1 audit to collection-${theme}.audits.csv.`,
      );
      const csvText = readFileSync(csvFile, 'utf8');
      expect(csvText.split('\r\n')[0]).toMatch(/^id,file,record,format,model,dataset,query,/);
      const csvRows = parse(csvText, { columns: true }) as Record<string, string>[];
      expect(csvRows.map((r) => [r.id, r.messages, r.human_critical_step])).toEqual([
        [FOOTBALLER_ID, String(SAMPLES.footballer.messages), String(FOOTBALLER_CRITICAL_STEP)],
      ]);
      const annotations = parse(readFileSync(join(workspace, `collection-${theme}.annotations.csv`), 'utf8'), { columns: true }) as Record<string, string>[];
      expect(annotations.map((a) => [a.row_id, a.critical_step])).toEqual([[FOOTBALLER_ID, String(FOOTBALLER_CRITICAL_STEP)]]);

      // Every row as Parquet, read back with hyparquet: one record per row of the table, in its order.
      const parquetFile = join(workspace, `collection-${theme}.rows.parquet`);
      await exportThroughDialog(page, frame, 'parquet', 'all', `collection-${theme}.rows.parquet`);
      await expect.poll(() => existsSync(parquetFile), { message: 'the rows Parquet written' }).toBe(true);
      await expect(frame.locator('.cv-status')).toContainText(`Exported every row: ${total} rows to collection-${theme}.rows.parquet`);
      const bytes = readFileSync(parquetFile);
      const records = (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })) as Record<
        string,
        unknown
      >[];
      expect(records.length).toBe(total);
      expect(new Set(records.map((r) => r.id))).toEqual(new Set(ids));
      expect(records.find((r) => r.id === FOOTBALLER_ID)).toMatchObject({
        messages: BigInt(SAMPLES.footballer.messages),
        human_critical_step: BigInt(FOOTBALLER_CRITICAL_STEP),
      });
      expect(existsSync(join(workspace, `collection-${theme}.annotations.parquet`)) && existsSync(join(workspace, `collection-${theme}.audits.parquet`))).toBe(
        true,
      );
    });
  });
}

test('the trajectory editor’s “Open collection” status-bar link opens the file’s folder as a collection', async ({ workbench: { page } }) => {
  const frame = await openWorkspaceCollection(page);
  await frame.locator('.cv-filter').fill(FOOTBALLER_WORDS);
  await expect.poll(() => rowIds(frame)).toEqual([FOOTBALLER_ID]);
  await frame.locator('.cv-filter').press('Enter');
  await frame.locator('.cv-scroller').press('Enter');
  await frameWith(page, '.tl-row[id]');
  await page.locator('.statusbar-item', { hasText: 'Open collection' }).click();
  const folder = await collectionFrame(page, 'trajectories/openai-chat');
  // Every trajectory of that folder and nothing from elsewhere.
  const ids = await rowIds(folder);
  expect(ids).toContain(FOOTBALLER_ID);
  expect(ids.filter((id) => !id.startsWith('trajectories/openai-chat/'))).toEqual([]);
  await expect(folder.locator('.cv-shown')).toHaveText(`${ids.length} of ${ids.length} trajectories`);
});
