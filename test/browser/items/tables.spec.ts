// DeepSearchQA, Clarify-Then-Search and scenario sets.
import { expect, shot, test } from './itemTest';

test('DeepSearchQA: the table lists every row; category and answer-type filters; search filters and highlights', async ({ openItems }) => {
  const { page } = await openItems('dsqa-csv');
  const rows = page.locator('.ia-dsqa tbody tr');
  await expect(rows).toHaveCount(12);
  await page.selectOption('.ia-filterbar select >> nth=0', 'Sports');
  await expect(page.locator('.ia-filter-count')).toHaveText(/of 12 rows/);
  await expect.poll(() => rows.count()).toBeLessThan(12);
  expect(await rows.count()).toBeGreaterThan(0);
  await page.selectOption('.ia-filterbar select >> nth=0', '');
  await expect(rows).toHaveCount(12);
  await page.selectOption('.ia-filterbar select >> nth=1', 'Single Answer');
  await expect.poll(() => rows.count()).toBeLessThan(12);
  expect(await rows.count()).toBeGreaterThan(0);
  await page.selectOption('.ia-filterbar select >> nth=1', '');
  await page.fill('.ia-search', 'tungsten');
  await expect(rows).toHaveCount(1);
  await expect.poll(() => page.locator('mark.ia-hit').count()).toBeGreaterThanOrEqual(1);
});

test('DeepSearchQA JSONL: the same table', async ({ openItems }) => {
  const { page } = await openItems('dsqa-jsonl');
  await expect.poll(() => page.locator('.ia-dsqa tbody tr').count()).toBeGreaterThan(0);
});

test('Clarify: one card per instance with blurred and fused queries; nuggets with weight pips', async ({ openItems }) => {
  const { page } = await openItems('clarify');
  await expect(page.locator('.ia-card')).toHaveCount(6);
  await expect(page.locator('.ia-cmp-fused')).toHaveCount(6);
  await expect.poll(() => page.locator('.ia-nugget .ia-pips').count()).toBeGreaterThan(6);
});

test('scenarios: the list; marking a human criterion posts it, shows it and the scenario is unsaved', async ({ openItems }) => {
  const { page, host } = await openItems('scenarios');
  await expect(page.locator('.ia-slist .ia-list-item')).toHaveCount(10);
  await page.locator('.ia-crit.is-human').first().locator('.ia-yn-yes').click();
  await expect.poll(() => host.postedOf('markCriterion')).toEqual([{ type: 'markCriterion', scenarioId: 'TS-01', criterionId: 'TS01-A5', value: true }]);
  await expect(page.locator('.ia-crit.is-human.is-hit')).toHaveCount(1);
  await expect(page.locator('.ia-slist .ia-dirty')).toHaveCount(1);
});

test('scenarios: the human-only filter; silent citations are posted; selecting a scenario shows it', async ({ openItems }) => {
  const { page, host } = await openItems('scenarios');
  await page.locator('.ia-check input').check();
  await expect.poll(async () => (await page.locator('.ia-crit').count()) === (await page.locator('.ia-crit.is-human').count())).toBe(true);
  await page.locator('.ia-check input').uncheck();
  await page.locator('.ia-num').fill('2');
  await page.locator('.ia-num').press('Enter');
  await expect.poll(() => host.postedOf('setSilentCitations').at(-1)?.value).toBe(2);
  await page.locator('.ia-slist .ia-list-item').nth(1).click();
  await expect(page.locator('.ia-smain .ia-item-id').first()).toContainText('TS-02');
  await page.locator('.ia-crit.is-human').first().locator('.ia-yn-yes').click();
  await expect(page.locator('.ia-crit.is-human.is-hit')).toHaveCount(1);
  await shot(page, 'scenarios-marked-dark');
});
