// The benchmark-item views in the real workbench: "Trajectory Auditor: Open Benchmark Item View"
// on Delegation, scenario-set, DeepSearchQA and Clarify-Then-Search samples; blind review with
// the reviewer-name prompt, judgments saved into the sidecar with Ctrl+S; scenario marks saved as
// results.jsonl; screenshots wb-*.png in test-artifacts/webview/items/ (beside the fake-host ones).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator, Page } from '@playwright/test';
import { test, expect, itemShotsDir, VSIX_TAG } from './harness/workbenchTest';
import { expectActiveTabDirty, expectWebviewTheme, frameWith, quickOpen, runCommand, setTheme } from './harness/workbenchPage';

const DELEGATION = 'deleg-en-0231-oil-fund-equity-gap.json';

/** Opens `fileName` (as text) through Quick Open, then the item view on it; returns its frame once `selector` shows. */
async function openItemView(page: Page, fileName: string, selector: string): Promise<Frame> {
  await quickOpen(page, fileName);
  await expect(page.locator('.editor-group-container.active .tab.active')).toContainText(fileName);
  await runCommand(page, 'Trajectory Auditor: Open Benchmark Item View');
  const frame = await frameWith(page, selector);
  await expect(frame.locator(selector).first()).toBeVisible();
  return frame;
}

/** Clicks a Yes/No button and waits until the view shows it chosen (the host applied the judgment). */
async function choose(button: Locator): Promise<void> {
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
}

/** Blind review is workspace state shared by every item view: turns it off if a test left it on. */
async function blindOff(frame: Frame): Promise<void> {
  if (await frame.locator('.ia-deleg.is-blind').count()) await frame.locator('.ia-switch').click();
  await expect(frame.locator('.ia-deleg')).not.toHaveClass(/\bis-blind\b/);
}

test('the Delegation item view opens with its documents and highlighted evidence spans', async ({ workbench: { page } }) => {
  const frame = await openItemView(page, DELEGATION, '.ia-doc');
  await blindOff(frame);
  await expect(frame.locator('.ia-doc')).toHaveCount(8);
  await expect(frame.locator('.ia-doc-golden mark.ia-mark'), 'evidence spans are highlighted').toHaveCount(2);
  await page.screenshot({ path: join(itemShotsDir, 'wb-deleg-full-dark.png') });
});

test('blind review asks for the reviewer name, hides the pipeline fields, and Ctrl+S saves the judgments under that name', async ({
  workbench: { page, workspace, files },
}) => {
  const frame = await openItemView(page, files.blindItem.name, '.ia-doc');
  await blindOff(frame);
  try {
    await frame.locator('.ia-switch').click();
    const prompt = page.locator('.quick-input-widget');
    await expect(prompt, 'turning blind review on asks for the reviewer name').toContainText(/reviewer name/i);
    await page.locator('.quick-input-widget input.input').fill('annotator-1');
    await page.locator('.quick-input-widget input.input').press('Enter');
    await expect(frame.locator('.ia-deleg.is-blind')).toBeVisible();
    await expect(frame.locator('.ia-reviewer'), 'the reviewer name in the form').toContainText('annotator-1');
    await expect(frame.locator('.ia-app'), 'blind mode hides the pipeline fields').not.toContainText(
      /Conflict hint|Discriminating constraint|slot mismatch|REASONING STEPS/,
    );
    await choose(frame.locator('[data-q="answerability"] .ia-yn-yes'));
    await choose(frame.locator('[data-q="shortcut_free"] .ia-yn-yes'));
    for (const id of ['d01', 'd05']) await choose(frame.locator(`[data-docq="irrelevant:${id}"] .ia-yn-yes`));
    await choose(frame.locator('[data-docq="irrelevant:d09"] .ia-yn-no'));
    await choose(frame.locator('[data-docq="distractor:d02"] .ia-yn-yes'));
    await expectActiveTabDirty(page, true);
    await frame.locator('.ia-main').evaluate((m) => m.scrollTo(0, 1200));
    await expect.poll(() => frame.locator('.ia-main').evaluate((m) => m.scrollTop), { message: 'the form scrolled' }).toBeGreaterThan(0);
    await page.screenshot({ path: join(itemShotsDir, 'wb-deleg-blind-dark.png') });
    await frame.locator('.ia-main').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+S');
    await expectActiveTabDirty(page, false);
    const sidecarPath = join(workspace, `${files.blindItem.path}.audit.json`);
    await expect.poll(() => existsSync(sidecarPath), { message: 'Ctrl+S writes the sidecar' }).toBe(true);
    const review = JSON.parse(readFileSync(sidecarPath, 'utf8')).records['deleg-en-0231'].reviews[0];
    expect(review, 'the review is saved under the reviewer name').toMatchObject({
      annotator: 'annotator-1',
      answerability: true,
      irrelevant_labels: { d09: false },
      distractor_validity: { d02: true },
    });
    await setTheme(page, 'light');
    await expectWebviewTheme(frame, 'light');
    await page.screenshot({ path: join(itemShotsDir, 'wb-deleg-blind-light.png') });
  } finally {
    await blindOff(frame);
  }
});

test.describe(() => {
  test.use({ workbenchTheme: 'light' });
  test('scenario marks dirty the tab and Ctrl+S writes results.jsonl and the manifest', async ({ workbench: { page, workspace } }) => {
    const frame = await openItemView(page, 'scenario-set.json', '.ia-crit');
    await choose(frame.locator('.ia-crit.is-human .ia-yn-no').first());
    const second = frame.locator('.ia-slist .ia-list-item').nth(1);
    await second.click();
    await expect(second).toHaveAttribute('aria-selected', 'true');
    await choose(frame.locator('.ia-crit.is-human .ia-yn-yes').first());
    await expectActiveTabDirty(page, true);
    await page.screenshot({ path: join(itemShotsDir, 'wb-scenarios-light.png') });
    await frame.locator('.ia-main').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+S');
    await expectActiveTabDirty(page, false);
    const results = join(workspace, 'items/scenarios/scenarios-run/results.jsonl');
    await expect.poll(() => existsSync(results), { message: 'results.jsonl written' }).toBe(true);
    expect(existsSync(join(workspace, 'items/scenarios/scenarios-run/trajaudit.run.json')), 'the manifest written').toBe(true);
    expect(readFileSync(results, 'utf8')).toBe('{"scenario":"TS-01","criteria":{"TS01-A5":false}}\n{"scenario":"TS-02","criteria":{"TS02-A4":true}}\n');
    await setTheme(page, 'dark');
    await expectWebviewTheme(frame, 'dark');
    await page.screenshot({ path: join(itemShotsDir, 'wb-scenarios-dark.png') });
  });
});

test('the DeepSearchQA table', { tag: VSIX_TAG }, async ({ workbench: { page } }) => {
  const frame = await openItemView(page, 'deepsearchqa-sample.csv', '.ia-dsqa');
  await expect(frame.locator('.ia-dsqa tbody tr')).toHaveCount(12);
  await page.screenshot({ path: join(itemShotsDir, 'wb-dsqa-dark.png') });
});

test('the Clarify-Then-Search cards', async ({ workbench: { page } }) => {
  const frame = await openItemView(page, 'clarify-instances.jsonl', '.ia-card');
  await expect(frame.locator('.ia-card')).toHaveCount(6);
  await page.screenshot({ path: join(itemShotsDir, 'wb-clarify-dark.png') });
});
