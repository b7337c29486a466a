// Delegation items (seed 000): the full view, blind mode, blind review, the reviewer name.
import { expect, shot, test } from './itemTest';

test('full view: evidence spans highlighted in the golden documents; 2 golden, 3 irrelevant, 3 distractor documents; distractor audit fields; reasoning steps', async ({
  openItems,
}) => {
  const { page } = await openItems('deleg-en');
  const marks = await page.locator('.ia-doc-golden mark.ia-mark').allTextContents();
  expect(marks).toContain('Equity investments returned 21.3 percent, fixed-income investments returned 6.1 percent');
  expect(marks).toContain('Equity investments 21.31; Fixed-income investments 6.13');
  await expect(page.locator('.ia-doc-golden')).toHaveCount(2);
  await expect(page.locator('.ia-doc-irrelevant')).toHaveCount(3);
  await expect(page.locator('.ia-doc-distractor')).toHaveCount(3);
  const audit = page.locator('.ia-doc-distractor .ia-audit').first();
  for (const field of [/Conflict hint/, /Discriminating constraint/, /Target info point/]) await expect(audit).toContainText(field);
  await expect(page.locator('.ia-steps li')).toHaveCount(3);
  await page.locator('.ia-group-distractor').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot(page, 'deleg-distractors-dark');
});

test('full view: clicking a span flashes its mark; no judgment controls outside blind mode', async ({ openItems }) => {
  const { page } = await openItems('deleg-en');
  await page.locator('.ia-span.is-clickable').first().click();
  await expect(page.locator('mark.ia-flash')).toHaveCount(1);
  await expect(page.locator('.ia-judge')).toHaveCount(0);
});

test('blind mode: the webview asks for it; no pipeline text and no evidence highlight in the page; one judgment row per irrelevant and distractor document', async ({
  openItems,
}) => {
  const { page, host } = await openItems('deleg-en');
  await page.locator('.ia-switch').click();
  await expect(page.locator('.ia-deleg.is-blind')).toBeVisible();
  expect(host.postedOf('setBlind').at(-1)?.blind).toBe(true);
  const text = await page.locator('.ia-app').innerText();
  const leaks = [
    /Conflict hint|Discriminating constraint|Target info point|slot.mismatch|recency.trap|source.downgrade|Golden: 2023|calendar year 2022|own recalculation/i,
    /REASONING STEPS|EVIDENCE SPANS|Compute the difference/,
  ]
    .map((re) => re.exec(text)?.[0])
    .filter(Boolean);
  expect(leaks).toEqual([]);
  await expect(page.locator('mark.ia-mark')).toHaveCount(0);
  await expect(page.locator('.ia-judge')).toHaveCount(6);
});

test('blind review: clicks post editReview patches; card and form agree; progress and the list count judgments; the chosen answer clears; the note is sent once', async ({
  openItems,
}) => {
  const { page, host } = await openItems('deleg-multi', { blind: true });
  await expect(page.locator('.ia-list-item')).toHaveCount(3);
  const clicks = [
    '[data-q="answerability"] .ia-yn-yes',
    '[data-q="shortcut_free"] .ia-yn-no',
    '.ia-doc-irrelevant .ia-judge .ia-yn-yes',
    '[data-docq^="distractor:"] .ia-yn-no',
  ];
  for (const [i, selector] of clicks.entries()) {
    await page.locator(selector).first().click();
    await expect.poll(() => host.sentOf('review').length).toBe(i + 1);
  }
  const patches = host.postedOf('editReview').map((e) => e.patch);
  expect(patches).toHaveLength(4);
  expect(patches[0].answerability).toBe(true);
  expect(patches[1].shortcut_free).toBe(false);
  expect(patches[2].irrelevant?.value).toBe(true);
  expect(patches[3].distractor?.value).toBe(false);
  await expect(page.locator('.ia-doc-irrelevant .ia-judge .ia-yn-yes.is-on')).toHaveCount(1);
  await expect(page.locator('[data-docq^="irrelevant:"] .ia-yn-yes.is-on')).toHaveCount(1);
  await expect(page.locator('.ia-progress-text')).toHaveText(/4 of 8 judgments/);
  await expect(page.locator('.ia-list-item.is-selected .ia-status-partial')).toHaveCount(1);
  await page.locator('[data-q="answerability"] .ia-yn-yes').click();
  await expect.poll(() => host.postedOf('editReview').at(-1)?.patch.answerability).toBe(null);
  await page.locator('textarea.ia-note').fill('d05 is about AI, fine');
  await expect.poll(() => host.postedOf('editReview').filter((e) => 'notes' in e.patch).length).toBe(1);
  expect(
    host
      .postedOf('editReview')
      .filter((e) => 'notes' in e.patch)
      .at(-1)?.patch.notes,
  ).toBe('d05 is about AI, fine');
  await shot(page, 'deleg-blind-reviewed-dark');
});

test('blind review: selecting another item asks the host and shows the zh item in blind mode', async ({ openItems }) => {
  const { page, host } = await openItems('deleg-multi', { blind: true });
  await page.locator('.ia-list-item').nth(1).click();
  await expect.poll(() => host.postedOf('selectItem').at(-1)?.itemId).toBe('deleg-zh-0158');
  await expect(page.locator('.ia-query')).toContainText('巴黎');
  await expect(page.locator('.ia-deleg.is-blind')).toBeVisible();
});

test('without a reviewer name the form is disabled and offers to set one; Set name asks the host', async ({ openItems }) => {
  const { page, host } = await openItems('deleg-en', { theme: 'light', blind: true, reviewer: null });
  await expect.poll(() => page.locator('.ia-yn:disabled').count()).toBeGreaterThan(0);
  await expect(page.locator('.ia-reviewer .ia-tb-primary')).toHaveCount(1);
  await page.locator('.ia-reviewer .ia-tb-primary').click();
  await expect(page.locator('.ia-yn:disabled')).toHaveCount(0);
  expect(host.postedOf('askReviewer')).toHaveLength(1);
});

test('no horizontal overflow at 900 px', async ({ openItems }) => {
  const { page } = await openItems('deleg-multi', { theme: 'light', blind: true, viewport: { width: 900, height: 800 } });
  await expect(page.locator('.ia-deleg.is-blind')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1)).toBe(false);
  await shot(page, 'deleg-blind-900-light');
});

for (const blind of [false, true]) {
  test(`hostile content stays text; bidi and zero-width characters are shown${blind ? ' (blind)' : ''}`, async ({ openItems }) => {
    const { page } = await openItems('hostile', { blind });
    await expect.poll(() => page.locator('.ctrl-char').count()).toBeGreaterThanOrEqual(2);
    const traces = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: unknown }).__pwned ?? null,
      active: document.querySelectorAll('#root img, #root iframe, #root script, #root svg, #root a[href], #root b, #root i').length,
    }));
    expect(traces).toEqual({ pwned: null, active: 0 });
    if (!blind) expect((await page.locator('mark.ia-mark').allTextContents()).some((t) => t.includes('<img src=x onerror'))).toBe(true);
  });
}
