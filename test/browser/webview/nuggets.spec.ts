// Gold nuggets in the trajectory editor (issue 18 item 4): the sample intent run opens with its
// cts-0021.gold_nuggets.jsonl (samples/), the panel lists the nuggets with weights and evidence
// ids, clicking an evidence id selects its tool return in the timeline and shows the result's
// quote; an id the trace no longer has is shown as unresolved; no gold file, no panel.
// Screenshot: test-artifacts/webview/nuggets.png.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../harness/paths';
import { expect, selected, shotsDir, test } from './editorTest';

const SAMPLE = join(repoRoot, 'samples', 'trajectories', 'openai-chat', 'cts-0021.intent-run.traj.json');

test('the sample intent run: nuggets listed; an evidence id selects its message and shows the result quote', async ({ openEditor }) => {
  const { page, host } = await openEditor({ file: SAMPLE });
  const panel = page.locator('section.nuggets');
  await expect(panel).toBeVisible();
  await expect(panel.locator('.section-count')).toHaveText('5 nuggets');
  await expect(panel.locator('.ng-source')).toHaveText('cts-0021.gold_nuggets.jsonl, line 1 (cts-0021)');
  const first = panel.locator('.ng-item').first();
  await expect(first.locator('.ng-text')).toHaveText('故宫旺季（4月1日至10月31日）成人门票为每人60元');
  await expect(first.locator('.ng-weight')).toHaveText('w3');
  // Asked after the first paint, not part of opening; the record's own id is "0", its line is found by the file stem.
  expect(host.postedOf('nuggets').map((m) => m.recordId)).toEqual([host.currentRecordId]);
  expect(host.currentRecordId).not.toBe('cts-0021');

  // Result 2 of the search return at message 3: the row is selected, the quote is that result's.
  await panel.locator('.ng-item').nth(1).locator('button.ng-id', { hasText: 'm3.r2' }).click();
  await expect.poll(() => selected(page)).toBe(3);
  await expect(page.locator('.tl-row[data-position="3"]')).toBeInViewport();
  await expect(panel.locator('.ng-quote-head')).toHaveText('m3.r2 · search return, message 3, result 2');
  await expect(panel.locator('.ng-quote-text')).toContainText('全日制大学本科及以下学历学生凭有效证件购买学生票，20元/人');
  await expect(panel.locator('.ng-quote-text')).not.toContainText('成人票60元');
  await panel.locator('.ng-quote').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(shotsDir, 'nuggets.png') });

  // The visit return at message 5.
  await panel.locator('.ng-item').nth(2).locator('button.ng-id', { hasText: 'm5' }).click();
  await expect.poll(() => selected(page)).toBe(5);
  await expect(panel.locator('.ng-quote-text')).toContainText('现场不售票');
});

test('an evidence id the trace does not have is shown as unresolved, not dropped', async ({ openEditor }) => {
  const dir = mkdtempSync(join(tmpdir(), 'trajaudit-nuggets-'));
  const file = join(dir, 'cts-0021.intent-run.traj.json');
  writeFileSync(file, readFileSync(SAMPLE));
  const nugget = { text: 'The museum is closed on Mondays', weight: 1, evidence_ids: ['m9.r1', 'm5'] };
  writeFileSync(join(dir, 'gold_nuggets.jsonl'), `${JSON.stringify({ id: 'cts-0021', nuggets: [nugget] })}\n`);
  const { page } = await openEditor({ file });
  const ids = page.locator('section.nuggets .ng-item .ng-id');
  await expect(ids).toHaveCount(2);
  const unresolved = ids.nth(0);
  await expect(unresolved).toHaveText('m9.r1 unresolved');
  await expect(unresolved).toHaveClass(/is-unresolved/);
  expect(await unresolved.evaluate((n) => n.tagName)).toBe('SPAN');
  await expect(ids.nth(1)).toHaveText('m5');
});

test('a trajectory without gold nuggets shows no nuggets panel', async ({ openEditor }) => {
  const { page, host } = await openEditor('small');
  await expect.poll(() => host.postedOf('nuggets').length).toBe(1);
  await expect(page.locator('.audit')).toBeVisible();
  await expect(page.locator('section.nuggets')).toBeHidden();
});
