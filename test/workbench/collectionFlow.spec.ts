// The whole collection flow in the real workbench (issue 16, "Done when"), one test per theme, in
// one collection panel: "Trajectory Auditor: Open as Collection" from the palette opens the
// workspace (a copy of samples/) as a collection; the rows are every sample trajectory; sort by a
// column; filter by a facet and by words; Enter opens the selected row's trajectory in the
// trajectory editor at its critical step, and going back to the collection's tab selects the same
// row; x marks it, c on another row opens the compare view with both sides, the alignment of
// `trajaudit compare` (core alignDecisionSteps over the same files), the first divergence marked
// and jumped to (d), and each side's human label and newest audit; back in the collection, Export…
// writes the rows shown as CSV and every row as Parquet through the save dialog, with the
// annotations and audits beside them, read back from disk. Screenshots in light and dark:
// test-artifacts/ui/collection-<theme>.png (sorted), collection-<theme>-filtered.png and
// compare-<theme>.png (the divergence in view).
// Beside it: the editor's "Open collection" status-bar link opens the file's folder, and the
// palette's "Compare Two Trajectories" picks two files from quick picks.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { parquetReadObjects } from 'hyparquet';
import { alignDecisionSteps } from '../../src/core/collections/align';
import { collectFile } from '../../src/core/collections/collect';
import { test, expect, uiArtifactsDir, VSIX_TAG } from './harness/workbenchTest';
import { expectWebviewTheme, frameWith, runCommand, type Theme } from './harness/workbenchPage';
import { expectSelected } from './harness/timeline';
import { SAMPLES, samplesDir } from './harness/workspace';

test.use({ workbenchViewport: { width: 1500, height: 950 }, workbenchSideBar: false });

// The flow reads, opens and compares its own copies under ui-compare/ (the footballer with its
// sidecar, the architect without): the worker's tests share a workspace, and the annotate test
// saves an annotation of the architect sample.
const FOOTBALLER = SAMPLES.compareFootballer;
const ARCHITECT = SAMPLES.compareArchitect;
const FOOTBALLER_ID = `${FOOTBALLER.path}#0`;
const ARCHITECT_ID = `${ARCHITECT.path}#0`;
/** Words of the two copies' ids only (the workspace also holds the originals and other copies). */
const COPIES_WORDS = 'ui-compare/';
/** The footballer's sidecar: l.chen's critical step. */
const FOOTBALLER_CRITICAL_STEP = 16;
/** The architect sample has no sidecar: its gold critical step, in the file. */
const ARCHITECT_GOLD_STEP = 22;

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

/** Back to the collection's tab: the view is re-created from its saved state. */
async function backToCollection(page: Page): Promise<Frame> {
  await page.locator('.editor-group-container.active .tab', { hasText: 'Collection: workspace' }).click();
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

/** The alignment `trajaudit compare` prints for the two samples, from the same core function. */
function expectedAlignment() {
  const read = (path: string) => collectFile(join(samplesDir, path)).trajectories[0].trajectory;
  // The copies under ui-compare/ hold the same bytes as these samples.
  return alignDecisionSteps(read(SAMPLES.footballer.path), read(SAMPLES.architect.path));
}

/** A missing copy fails the test here, by name, rather than as a filter that finds nothing. */
function expectFixtures(workspace: string, paths: string[]): void {
  for (const path of paths) expect(existsSync(join(workspace, path)), `the fixture ${path} in the test workspace`).toBe(true);
}

for (const theme of ['light', 'dark'] as Theme[]) {
  test.describe(() => {
    test.use({ workbenchTheme: theme });
    test(`${theme}: samples/ as a collection: sort, filter, open a row at its critical step and back, mark and compare two rows, export`, async ({
      workbench: { page, workspace },
    }) => {
      expectFixtures(workspace, [FOOTBALLER.path, `${FOOTBALLER.path}.audit.json`, ARCHITECT.path]);
      expect(existsSync(join(workspace, `${ARCHITECT.path}.audit.json`)), 'the architect copy has no sidecar (its label is its gold)').toBe(false);

      // One panel for the whole flow: its frame is re-created each time its tab comes back.
      let collection!: Frame;
      // Open: one row per trajectory, JSONL records included.
      const ids = await test.step('open samples/ as a collection', async () => {
        collection = await openWorkspaceCollection(page);
        await expectWebviewTheme(collection, theme);
        const shown = await rowIds(collection);
        expect(shown).toEqual(expect.arrayContaining([FOOTBALLER_ID, ARCHITECT_ID, `${SAMPLES.footballer.path}#0`]));
        expect(
          shown.some((id) => id.startsWith('trajectories/searchauditbench/batch.traj.jsonl#')),
          'one row per JSONL record',
        ).toBe(true);
        await expect(collection.locator('.cv-shown')).toHaveText(`${shown.length} of ${shown.length} trajectories`);
        return shown;
      });
      const total = ids.length;

      // Sort by messages, largest first: the footballer sample (73 messages) is the longest.
      await test.step('sort by a column', async () => {
        const messages = collection.locator('.cv-col[data-column="messages"]');
        await messages.click();
        await expect(messages).toHaveAttribute('aria-sort', 'descending');
        const counts = await collection.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('.cv-row')]
            .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
            .map((r) => Number(r.children[5].textContent)),
        );
        expect(counts[0]).toBe(SAMPLES.footballer.messages);
        expect(counts).toEqual([...counts].sort((a, b) => b - a));
        await page.screenshot({ path: join(uiArtifactsDir, `collection-${theme}.png`) });
      });

      // Filter: a facet (only the openai-chat rows), then words (only the copies).
      await test.step('filter by a facet and by words', async () => {
        const openaiChat = collection.locator('.cv-facet[data-facet="format"] label', { hasText: 'openai-chat' }).locator('input');
        await openaiChat.check();
        const formats = await collection.evaluate(() => [...document.querySelectorAll('.cv-row')].map((r) => r.children[1].textContent));
        expect(formats.length).toBeGreaterThan(0);
        expect(new Set(formats)).toEqual(new Set(['openai-chat']));
        await collection.locator('.cv-filter').fill(COPIES_WORDS);
        await expect.poll(() => rowIds(collection)).toEqual([FOOTBALLER_ID]);
        await expect(collection.locator('.cv-shown')).toHaveText(`1 of ${total} trajectories`);
        await page.screenshot({ path: join(uiArtifactsDir, `collection-${theme}-filtered.png`) });
      });

      // Enter opens the selected row in the trajectory editor at its critical step.
      await test.step('open the row in the editor at its critical step', async () => {
        await collection.locator('.cv-filter').press('Enter');
        await expect(collection.locator('.cv-row.selected')).toHaveAttribute('data-id', FOOTBALLER_ID);
        await collection.locator('.cv-scroller').press('Enter');
        await expect(page.locator('.editor-group-container.active .tab.active')).toContainText(FOOTBALLER.name);
        const editor = await frameWith(page, '.tl-row[id]');
        await expectSelected(editor, FOOTBALLER_CRITICAL_STEP);
      });

      // Back to the collection's tab: the same row, filter and sort.
      await test.step('back to the same row', async () => {
        collection = await backToCollection(page);
        await expect(collection.locator('.cv-row.selected')).toHaveAttribute('data-id', FOOTBALLER_ID);
        await expect(collection.locator('.cv-filter')).toHaveValue(COPIES_WORDS);
        await expect(collection.locator('.cv-facet[data-facet="format"] label', { hasText: 'openai-chat' }).locator('input')).toBeChecked();
        await expect(collection.locator('.cv-col[data-column="messages"]')).toHaveAttribute('aria-sort', 'descending');
      });

      // Mark it (x), drop the facet, c on the other copy: the compare view.
      await test.step('mark one row and compare it with another', async () => {
        await collection.locator('.cv-scroller').press('x');
        await expect(collection.locator('.cv-row.marked')).toHaveAttribute('data-id', FOOTBALLER_ID);
        await expect(collection.locator('.cv-marked')).toHaveText(`marked: ${FOOTBALLER_ID}`);
        await collection.locator('.cv-facet[data-facet="format"] label', { hasText: 'openai-chat' }).locator('input').uncheck();
        // Still sorted by messages: the footballer (73) above the architect (65), the selection kept.
        await expect.poll(() => rowIds(collection)).toEqual([FOOTBALLER_ID, ARCHITECT_ID]);
        await expect(collection.locator('.cv-row.selected')).toHaveAttribute('data-id', FOOTBALLER_ID);
        await collection.locator('.cv-scroller').press('j');
        await expect(collection.locator('.cv-row.selected')).toHaveAttribute('data-id', ARCHITECT_ID);
        await collection.locator('.cv-scroller').press('c');

        await expect(page.locator('.editor-group-container.active .tab.active')).toContainText(`Compare: ${FOOTBALLER.name} ↔ ${ARCHITECT.name}`);
        const compare = await frameWith(page, '.cmp-pane .cmp-row');
        await expectWebviewTheme(compare, theme);
        // Both sides, aligned as core aligns them: the summary counts every row, and each row element
        // (the panes are virtual lists: the rows in view and an overscan) shows its pair's side.
        const expected = expectedAlignment();
        const aligned = expected.pairs.filter(([x, y]) => x !== null && y !== null).length;
        await expect(compare.locator('.cmp-aligned')).toHaveText(`${aligned} of ${expected.pairs.length} rows aligned`);
        const positions = (side: 'a' | 'b') =>
          compare
            .locator(`.cmp-pane[data-side="${side}"] .cmp-row`)
            .evaluateAll((rows) =>
              rows
                .map((r): [number, string] => [Number((r as HTMLElement).dataset.row), (r as HTMLElement).dataset.position ?? ''])
                .sort((x, y) => x[0] - y[0]),
            );
        for (const [k, side] of (['a', 'b'] as const).entries()) {
          const shown = await positions(side);
          expect(shown.map(([row]) => row).slice(0, 3)).toEqual([0, 1, 2]);
          expect(shown).toEqual(shown.map(([row]): [number, string] => [row, expected.pairs[row][k] === null ? '' : String(expected.pairs[row][k])]));
        }
        // The divergence.
        const divergence = expected.firstDivergence!;
        await expect(compare.locator('.cmp-divergence')).toHaveText(`First divergence: a ${divergence.a ?? '—'}, b ${divergence.b ?? '—'}`);
        // Different questions: the view says so.
        await expect(compare.locator('.cmp-query.cmp-warning')).toContainText('The queries differ');
        // The labels.
        const head = (side: 'a' | 'b', part: string) => compare.locator(`.cmp-side[data-side="${side}"] .cmp-${part}`);
        await expect(head('a', 'file-name')).toHaveText(FOOTBALLER_ID);
        await expect(head('b', 'file-name')).toHaveText(ARCHITECT_ID);
        // The footballer's sidecar: l.chen's annotation (16, candidate mismanagement) and the searchauditor audit (20, constraint neglect).
        await expect(head('a', 'human')).toHaveText(`Human (l.chen): critical step ${FOOTBALLER_CRITICAL_STEP} · Candidate Mismanagement`);
        await expect(head('a', 'audit')).toHaveText('Audit searchauditor (gpt-5.5): critical step 20 · Constraint Neglect');
        await expect(head('b', 'human')).toHaveText(`Gold: critical step ${ARCHITECT_GOLD_STEP} · Entity–Relation Misbinding`);
        await expect(head('b', 'audit')).toHaveText('Not audited');
        await expect(compare.locator(`.cmp-pane[data-side="a"] .cmp-row[data-position="${FOOTBALLER_CRITICAL_STEP}"] .cmp-badge.human`)).toHaveText(
          'human critical',
        );
        // Jump to the end, then back to the divergence with d: both sides' first divergent rows in view.
        const paneA = compare.locator('.cmp-pane[data-side="a"]');
        await paneA.focus();
        await paneA.press('G');
        await paneA.press('d');
        const start = compare.locator('.cmp-pane[data-side="b"] .cmp-row.divergence-start');
        await expect(start).toHaveClass(/selected/);
        await expect(start).toBeInViewport();
        await expect(compare.locator('.cmp-pane[data-side="a"] .cmp-row.divergence-start')).toBeInViewport();
        // What the screenshot shows: the divergence line and both sides' names and labels, in view.
        for (const label of [
          compare.locator('.cmp-divergence'),
          ...(['a', 'b'] as const).flatMap((side) => ['file-name', 'human', 'audit'].map((part) => head(side, part))),
        ])
          await expect(label).toBeInViewport();
        await page.screenshot({ path: join(uiArtifactsDir, `compare-${theme}.png`) });
      });

      // Back to the collection (the same panel): the compared row, the mark kept.
      await test.step('back to the collection', async () => {
        collection = await backToCollection(page);
        await expect.poll(() => rowIds(collection)).toEqual([FOOTBALLER_ID, ARCHITECT_ID]);
        await expect(collection.locator('.cv-row.selected')).toHaveAttribute('data-id', ARCHITECT_ID);
        await expect(collection.locator('.cv-marked')).toHaveText(`marked: ${FOOTBALLER_ID}`);
      });

      // Export… the rows shown as CSV: the save dialog proposes the collection's folder.
      await test.step('export the rows shown as CSV', async () => {
        const csvFile = join(workspace, `collection-${theme}.rows.csv`);
        await exportThroughDialog(page, collection, 'csv', 'shown', `collection-${theme}.rows.csv`);
        await expect.poll(() => existsSync(csvFile), { message: 'the rows CSV written' }).toBe(true);
        await expect(collection.locator('.cv-status')).toHaveText(
          `Exported the rows shown: 2 rows to collection-${theme}.rows.csv, 1 annotation to collection-${theme}.annotations.csv, 1 audit to collection-${theme}.audits.csv.`,
        );
        const csvText = readFileSync(csvFile, 'utf8');
        expect(csvText.split('\r\n')[0]).toMatch(/^id,file,record,format,model,dataset,query,/);
        const csvRows = parse(csvText, { columns: true }) as Record<string, string>[];
        // The rows in the table's order, each with its messages and human label (the sidecar's, else the gold).
        expect(csvRows.map((r) => [r.id, r.format, r.messages, r.human_critical_step, r.human_source])).toEqual([
          [FOOTBALLER_ID, 'openai-chat', String(SAMPLES.footballer.messages), String(FOOTBALLER_CRITICAL_STEP), 'annotation'],
          [ARCHITECT_ID, 'searchauditbench', String(SAMPLES.architect.messages), String(ARCHITECT_GOLD_STEP), 'gold'],
        ]);
        const annotations = parse(readFileSync(join(workspace, `collection-${theme}.annotations.csv`), 'utf8'), { columns: true }) as Record<string, string>[];
        expect(annotations.map((a) => [a.row_id, a.annotator, a.critical_step])).toEqual([[FOOTBALLER_ID, 'l.chen', String(FOOTBALLER_CRITICAL_STEP)]]);
        const audits = parse(readFileSync(join(workspace, `collection-${theme}.audits.csv`), 'utf8'), { columns: true }) as Record<string, string>[];
        expect(audits.map((a) => [a.row_id, a.method, a.critical_step])).toEqual([[FOOTBALLER_ID, 'searchauditor', '20']]);
      });

      // Every row as Parquet, read back with hyparquet: one record per row of the table.
      await test.step('export every row as Parquet', async () => {
        const parquetFile = join(workspace, `collection-${theme}.rows.parquet`);
        await exportThroughDialog(page, collection, 'parquet', 'all', `collection-${theme}.rows.parquet`);
        await expect.poll(() => existsSync(parquetFile), { message: 'the rows Parquet written' }).toBe(true);
        await expect(collection.locator('.cv-status')).toContainText(`Exported every row: ${total} rows to collection-${theme}.rows.parquet`);
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
        expect(
          existsSync(join(workspace, `collection-${theme}.annotations.parquet`)) && existsSync(join(workspace, `collection-${theme}.audits.parquet`)),
        ).toBe(true);
      });
    });
  });
}

test(
  'the trajectory editor’s “Open collection” status-bar link opens the file’s folder as a collection',
  { tag: VSIX_TAG },
  async ({ workbench: { page, workspace } }) => {
    expectFixtures(workspace, [SAMPLES.footballer.path]);
    const footballerId = `${SAMPLES.footballer.path}#0`;
    const frame = await openWorkspaceCollection(page);
    // Words of the original's id only (the workspace also holds copies of it under ui-compare/, ui-report/ and ui-export/).
    await frame.locator('.cv-filter').fill('openai-chat/browsecomp-footballer');
    await expect.poll(() => rowIds(frame)).toEqual([footballerId]);
    await frame.locator('.cv-filter').press('Enter');
    await frame.locator('.cv-scroller').press('Enter');
    await frameWith(page, '.tl-row[id]');
    await page.locator('.statusbar-item', { hasText: 'Open collection' }).click();
    const folder = await collectionFrame(page, 'trajectories/openai-chat');
    // Every trajectory of that folder and nothing from elsewhere.
    const ids = await rowIds(folder);
    expect(ids).toContain(footballerId);
    expect(ids.filter((id) => !id.startsWith('trajectories/openai-chat/'))).toEqual([]);
    await expect(folder.locator('.cv-shown')).toHaveText(`${ids.length} of ${ids.length} trajectories`);
  },
);

test('the palette’s Compare Two Trajectories: two quick picks, then the compare view', { tag: VSIX_TAG }, async ({ workbench: { page, workspace } }) => {
  const other = 'trajectories/searchauditbench/sab-0417-delta-novel.traj.json';
  expectFixtures(workspace, [SAMPLES.footballer.path, other]);
  await runCommand(page, 'Trajectory Auditor: Compare Two Trajectories');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  await input.fill(SAMPLES.footballer.path);
  await rows.filter({ hasText: SAMPLES.footballer.path }).first().click();
  await expect(page.locator('.quick-input-widget')).toContainText('2 of 2');
  await input.fill('trajectories/searchauditbench/sab-0417');
  await rows.filter({ hasText: other }).first().click();
  const compare = await frameWith(page, '.cmp-pane .cmp-row');
  await expect(compare.locator('.cmp-side[data-side="a"] .cmp-file-name')).toHaveText(`${SAMPLES.footballer.path}#0`);
  await expect(compare.locator('.cmp-side[data-side="b"] .cmp-file-name')).toHaveText(`${other}#0`);
});
