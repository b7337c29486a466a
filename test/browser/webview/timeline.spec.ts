// The small fixture (80 messages): first view, header, keyboard navigation, search and outline.
import { expect, expectSelectedInView, hasMark, press, selected, test } from './editorTest';

test('rows render after init', async ({ openEditor }, testInfo) => {
  const { page, loadMs } = await openEditor('small');
  await expect.poll(() => page.locator('.tl-row').count()).toBeGreaterThan(10);
  const t = await page.evaluate(() => (window as unknown as { __harnessTimings: { initSentAt: number; firstRowAt: number } }).__harnessTimings);
  testInfo.annotations.push({ type: 'timing', description: `first rows ${Math.round(t.firstRowAt - t.initSentAt)} ms after init, ${loadMs} ms page load` });
});

test('the header shows the query, the predicted and the gold answer', async ({ openEditor }) => {
  const { page } = await openEditor('small');
  await expect(page.locator('.hdr-query')).toContainText('chamber opera');
  await expect(page.locator('.ans-gold')).toContainText('Liisa Tamm');
});

test('token totals arrive after init (counted once the webview drew the record)', async ({ openEditor }) => {
  const { page, host } = await openEditor('small');
  await expect(page.locator('.stat.is-pending')).toHaveCount(0);
  await expect(page.locator('.hdr-stats')).toContainText('tool returns');
  expect(host.postedOf('rendered').length).toBeGreaterThan(0);
  expect(host.sentOf('tokens').at(-1)?.totals?.total).toBeGreaterThan(0);
});

test('decision steps stand out (accent class)', async ({ openEditor }) => {
  const { page } = await openEditor('small');
  await expect.poll(() => page.locator('.tl-row.kind-decision').count()).toBeGreaterThan(5);
});

test('the timeline is a listbox with options', async ({ openEditor }) => {
  const { page } = await openEditor('small');
  await expect.poll(() => page.locator('.tl-scroller[role="listbox"] .tl-row[role="option"][aria-label]').count()).toBeGreaterThan(5);
});

test('j/k move the selection and aria-activedescendant follows it', async ({ openEditor }) => {
  const { page } = await openEditor('small');
  await page.locator('.tl-scroller').focus();
  await expect.poll(() => selected(page)).toBe(0);
  await press(page, 'j', 2);
  await expect.poll(() => selected(page)).toBe(2);
  await press(page, 'k');
  await expect.poll(() => selected(page)).toBe(1);
  await expect(page.locator('.tl-scroller')).toHaveAttribute('aria-activedescendant', 'tl-row-1');
});

test('J/K move between decision steps', async ({ openEditor }) => {
  const { page } = await openEditor('small');
  await page.locator('.tl-scroller').focus();
  await press(page, 'J');
  await expect.poll(() => selected(page)).toBe(2);
  await press(page, 'J');
  await expect.poll(() => selected(page)).toBe(4);
  await press(page, 'K');
  await expect.poll(() => selected(page)).toBe(2);
});

test('/ focuses the search box; a search finds an off-screen match, reveals it and goes to the host with the text', async ({ openEditor }) => {
  const { page, host } = await openEditor('small');
  await page.locator('.tl-scroller').focus();
  await press(page, '/');
  await expect(page.locator('.search-input')).toBeFocused();
  await page.keyboard.type('lists Liisa Tamm as librettist');
  await page.keyboard.press('Enter');
  await expect(page.locator('.search-status')).toContainText('of');
  await expectSelectedInView(page, 40);
  const request = host.postedOf('search').at(-1);
  expect(request?.query.text).toBe('lists Liisa Tamm as librettist');
  expect(typeof request?.requestId).toBe('number');
});

test('Esc closes the search', async ({ openEditor }) => {
  const { page } = await openEditor('small');
  await page.locator('.tl-scroller').focus();
  await press(page, '/');
  await page.keyboard.type('lists Liisa Tamm as librettist');
  await page.keyboard.press('Enter');
  await expect(page.locator('.search-status')).toContainText('of');
  await page.keyboard.press('Escape');
  await expect(page.locator('.search-status')).toHaveText('');
  await expect(page.locator('.search-input')).not.toBeFocused();
});

test('n/N step through the matches', async ({ openEditor }) => {
  const { page } = await openEditor('small');
  await page.locator('.tl-scroller').focus();
  await press(page, '/');
  await page.keyboard.type('Programme booklet');
  // Typing searches as you type: the count shows, nothing is selected yet.
  await expect(page.locator('.search-status')).toHaveText(/\d+ match/);
  await page.locator('.tl-scroller').focus();
  const before = await selected(page);
  await press(page, 'n');
  await expect.poll(() => selected(page)).not.toBe(before);
  const n1 = await selected(page);
  await press(page, 'n');
  await expect.poll(() => selected(page)).not.toBe(n1);
  await press(page, 'N');
  await expect.poll(() => selected(page)).toBe(n1);
});

test('the role filter is sent with the search', async ({ openEditor }) => {
  const { page, host } = await openEditor('small');
  await page.locator('button', { hasText: 'Filters' }).click();
  await page.locator('.search-filters vscode-checkbox[label="tool"]').click();
  await page.locator('.tl-scroller').focus();
  await press(page, '/');
  await page.keyboard.type('booklet');
  await page.keyboard.press('Enter');
  await expect.poll(() => host.postedOf('search').at(-1)?.query).toMatchObject({ text: 'booklet', roles: ['system', 'user', 'assistant'] });
});

test('clicking an outline entry reveals its row', async ({ openEditor }) => {
  const { page } = await openEditor('small');
  await page.locator('.ol-scroller').evaluate((el) => (el.scrollTop = el.scrollHeight));
  await page.locator('.ol-item[data-position="77"]').click();
  await expectSelectedInView(page, 77);
});

test('the panels mount after the first rows', async ({ openEditor }) => {
  const { page } = await openEditor('small');
  await expect.poll(() => hasMark(page, 'panels-mounted')).toBe(true);
  await expect(page.locator('.annotation')).toBeVisible();
});
