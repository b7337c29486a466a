// The large fixture: 5,000 messages with three 1 MB single-line tool returns. How fast the
// timeline draws, scrolls and expands them is measured by npm run bench:timeline
// (test/bench/webview/timeline.spec.ts), against baselines from the same run, not here.
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectNothingHostile, expectSelectedInView, press, shotsDir, test } from './editorTest';

test('5,000 messages: only rows near the viewport are in the DOM, the outline too', async ({ openEditor }) => {
  const { page } = await openEditor('large');
  expect(await page.locator('.tl-row').count()).toBeLessThan(150);
  expect(await page.locator('.ol-item').count()).toBeLessThan(120);
});

test('End jumps to the last message', async ({ openEditor }) => {
  const { page } = await openEditor('large');
  await page.locator('.tl-scroller').focus();
  await press(page, 'End');
  await expectSelectedInView(page, 4999);
});

/**
 * Scrolls 40 times, by 120 px (wheel) or to 40 places across the file (jump), and after each waits, frame
 * by frame (up to 10), until rows cover the middle of the viewport, which they must: what a user
 * sees. The DOM stays bounded throughout.
 */
function scrollThrough(page: Page, mode: 'wheel' | 'jump') {
  return page.evaluate(async (m) => {
    const s = document.querySelector('.tl-scroller')!;
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const middleCovered = () => {
      const box = s.getBoundingClientRect();
      const middle = box.top + box.height / 2;
      return [...s.querySelectorAll('.tl-row')].some((row) => {
        const r = row.getBoundingClientRect();
        return r.top <= middle && r.bottom >= middle;
      });
    };
    s.scrollTop = s.scrollHeight / 3;
    await frame();
    let mostRows = 0;
    const uncovered: number[] = [];
    for (let i = 0; i < 40; i++) {
      if (m === 'wheel') s.scrollTop += 120;
      else s.scrollTop = (s.scrollHeight * ((i * 17) % 40)) / 40;
      let frames = 0;
      do await frame();
      while (!middleCovered() && ++frames < 10);
      if (!middleCovered()) uncovered.push(Math.round(s.scrollTop));
      mostRows = Math.max(mostRows, s.querySelectorAll('.tl-row').length);
    }
    return { mostRows, uncovered };
  }, mode);
}

test('scrolling and jumping through 5,000 rows: the viewport always shows rows, the DOM stays bounded', async ({ openEditor }) => {
  const { page } = await openEditor('large');
  for (const mode of ['wheel', 'jump'] as const) {
    const seen = await scrollThrough(page, mode);
    expect(seen.uncovered, `${mode}: scroll positions whose viewport had no row 10 frames later`).toEqual([]);
    expect(seen.mostRows).toBeLessThan(150);
  }
});

test('search over 5,000 messages including 1 MB returns; a 1 MB return expands; nothing hostile runs', async ({ openEditor }) => {
  const { page } = await openEditor('large');
  await page.locator('.tl-scroller').focus();
  await press(page, '/');
  await page.keyboard.type('needle!!');
  await page.keyboard.press('Enter');
  await expect(page.locator('.search-status')).toHaveText('1 of 3');
  const position = Number(await page.locator('.tl-row[aria-selected="true"]').getAttribute('data-position'));
  await page.locator('.tl-scroller').focus();
  await press(page, 'Enter');
  await expect(page.locator(`#tl-row-${position} .msg-more`).first()).toBeVisible();
  await page.screenshot({ path: join(shotsDir, 'large-dark.png') });
  await expectNothingHostile(page);
});
