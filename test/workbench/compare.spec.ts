// The compare view in the real workbench (issue 16, "Done when": compares two trajectories):
// samples/ opened as a collection, one row marked for compare (x), "Compare with marked" (c) on
// another row opens the compare view with both sides, the alignment of `trajaudit compare` (core
// alignDecisionSteps over the same files), the first divergence marked and jumped to (d), and each
// side's human label and newest audit in its header. The palette's "Compare Two Trajectories"
// picks two files from quick picks. Screenshots in light and dark:
// test-artifacts/ui/compare-<theme>.png (the divergence in view).
import { join } from 'node:path';
import type { Frame, Page } from '@playwright/test';
import { alignDecisionSteps } from '../../src/core/collections/align';
import { collectFile } from '../../src/core/collections/collect';
import { test, expect, uiArtifactsDir } from './harness/workbenchTest';
import { expectWebviewTheme, frameWith, runCommand, type Theme } from './harness/workbenchPage';
import { SAMPLES, samplesDir } from './harness/workspace';

test.use({ workbenchViewport: { width: 1500, height: 950 }, workbenchSideBar: false });

// Their own copies under ui-compare/ (footballer with its sidecar, architect without): the
// worker's tests share a workspace, and the annotate test saves an annotation of the architect sample.
const FOOTBALLER_ID = `${SAMPLES.compareFootballer.path}#0`;
const ARCHITECT_ID = `${SAMPLES.compareArchitect.path}#0`;
/** Words of each id only (the workspace also holds the originals and other copies of the samples). */
const FOOTBALLER_WORDS = 'ui-compare/compare-footballer';
const ARCHITECT_WORDS = 'ui-compare/compare-architect';

/** The alignment `trajaudit compare` prints for the two samples, from the same core function. */
function expectedAlignment() {
  const read = (path: string) => collectFile(join(samplesDir, path)).trajectories[0].trajectory;
  // The copies under ui-compare/ hold the same bytes as these samples.
  return alignDecisionSteps(read(SAMPLES.footballer.path), read(SAMPLES.architect.path));
}

async function collectionFrame(page: Page): Promise<Frame> {
  let found: Frame | undefined;
  await expect
    .poll(
      async () => {
        for (const frame of page.frames()) {
          const title = await frame.evaluate(() => document.querySelector('.cv-title')?.textContent ?? null).catch(() => null);
          if (title !== 'workspace') continue;
          if ((await frame.locator('.cv-progress progress').count()) === 0 && (await frame.locator('.cv-row').count()) > 0) {
            found = frame;
            return true;
          }
        }
        return false;
      },
      { timeout: 60_000, message: 'the workspace collection with every file read' },
    )
    .toBe(true);
  if (!found) throw new Error('no collection frame');
  return found;
}

/** Filters the collection to one row by words of its id and selects it. */
async function selectRow(frame: Frame, words: string, id: string): Promise<void> {
  await frame.locator('.cv-filter').fill(words);
  await expect.poll(() => frame.locator('.cv-row').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.id))).toEqual([id]);
  await frame.locator('.cv-filter').press('Enter');
  await expect(frame.locator('.cv-row.selected')).toHaveAttribute('data-id', id);
}

for (const theme of ['light', 'dark'] as Theme[]) {
  test.describe(() => {
    test.use({ workbenchTheme: theme });
    test(`${theme}: samples/ as a collection, mark one row, compare with another: both sides, the divergence, the labels`, async ({ workbench: { page } }) => {
      await runCommand(page, 'Trajectory Auditor: Open as Collection');
      const picks = page.locator('.quick-input-widget .monaco-list-row');
      await picks.filter({ hasText: 'workspace folder' }).first().click();
      await expect(page.locator('.quick-input-widget')).toBeHidden();
      const collection = await collectionFrame(page);

      await selectRow(collection, FOOTBALLER_WORDS, FOOTBALLER_ID);
      await collection.locator('.cv-scroller').press('x');
      await expect(collection.locator('.cv-row.marked')).toHaveAttribute('data-id', FOOTBALLER_ID);
      await expect(collection.locator('.cv-marked')).toHaveText(`marked: ${FOOTBALLER_ID}`);
      await selectRow(collection, ARCHITECT_WORDS, ARCHITECT_ID);
      await collection.locator('.cv-scroller').press('c');

      await expect(page.locator('.editor-group-container.active .tab.active')).toContainText(
        `Compare: ${SAMPLES.compareFootballer.name} ↔ ${SAMPLES.compareArchitect.name}`,
      );
      const compare = await frameWith(page, '.cmp-pane .cmp-row');
      await expectWebviewTheme(compare, theme);
      const expected = expectedAlignment();
      await expect(compare.locator('.cmp-pane[data-side="a"] .cmp-row')).toHaveCount(expected.pairs.length);
      await expect(compare.locator('.cmp-pane[data-side="b"] .cmp-row')).toHaveCount(expected.pairs.length);
      const positions = (side: 'a' | 'b') =>
        compare.locator(`.cmp-pane[data-side="${side}"] .cmp-row`).evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.position ?? ''));
      expect(await positions('a')).toEqual(expected.pairs.map(([x]) => (x === null ? '' : String(x))));
      expect(await positions('b')).toEqual(expected.pairs.map(([, y]) => (y === null ? '' : String(y))));
      const divergence = expected.firstDivergence!;
      await expect(compare.locator('.cmp-divergence')).toHaveText(`First divergence: a ${divergence.a ?? '—'}, b ${divergence.b ?? '—'}`);
      // Different questions: the view says so.
      await expect(compare.locator('.cmp-query.cmp-warning')).toContainText('The queries differ');

      const head = (side: 'a' | 'b', part: string) => compare.locator(`.cmp-side[data-side="${side}"] .cmp-${part}`);
      await expect(head('a', 'file-name')).toHaveText(FOOTBALLER_ID);
      await expect(head('b', 'file-name')).toHaveText(ARCHITECT_ID);
      // The footballer's sidecar: l.chen's annotation (16, candidate mismanagement) and the searchauditor audit (20, constraint neglect).
      await expect(head('a', 'human')).toHaveText('Human (l.chen): critical step 16 · Candidate Mismanagement');
      await expect(head('a', 'audit')).toHaveText('Audit searchauditor (gpt-5.5): critical step 20 · Constraint Neglect');
      // The architect sample has no sidecar; its label is the gold in the file.
      await expect(head('b', 'human')).toContainText('Gold: critical step');
      await expect(head('b', 'audit')).toHaveText('Not audited');
      await expect(compare.locator('.cmp-pane[data-side="a"] .cmp-row[data-position="16"] .cmp-badge.human')).toHaveText('human critical');

      // Jump to the end, then back to the divergence with d: both sides' first divergent rows in view.
      await compare.locator('.cmp-pane[data-side="a"]').focus();
      await compare.locator('.cmp-pane[data-side="a"]').press('G');
      await compare.locator('.cmp-pane[data-side="a"]').press('d');
      const start = compare.locator('.cmp-pane[data-side="b"] .cmp-row.divergence-start');
      await expect(start).toHaveClass(/selected/);
      await expect(start).toBeInViewport();
      await expect(compare.locator('.cmp-pane[data-side="a"] .cmp-row.divergence-start')).toBeInViewport();
      await page.screenshot({ path: join(uiArtifactsDir, `compare-${theme}.png`) });
    });
  });
}

test('the palette’s Compare Two Trajectories: two quick picks, then the compare view', async ({ workbench: { page } }) => {
  await runCommand(page, 'Trajectory Auditor: Compare Two Trajectories');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  await input.fill(SAMPLES.footballer.path);
  await rows.filter({ hasText: SAMPLES.footballer.path }).first().click();
  await expect(page.locator('.quick-input-widget')).toContainText('2 of 2');
  await input.fill('trajectories/searchauditbench/sab-0417');
  await rows.filter({ hasText: 'trajectories/searchauditbench/sab-0417-delta-novel.traj.json' }).first().click();
  const compare = await frameWith(page, '.cmp-pane .cmp-row');
  await expect(compare.locator('.cmp-side[data-side="a"] .cmp-file-name')).toHaveText(`${SAMPLES.footballer.path}#0`);
  await expect(compare.locator('.cmp-side[data-side="b"] .cmp-file-name')).toHaveText('trajectories/searchauditbench/sab-0417-delta-novel.traj.json#0');
});
