// The item views' forms while host updates arrive: what is being typed, and where the caret is,
// survive a re-render.
import type { Page } from '@playwright/test';
import type { HarnessWindow } from '../harness/pageGlobals';
import type { ItemToWebview } from '../../../src/shared/itemProtocol';
import { expect, test } from './itemTest';

/** Delivers `message` to the page as if the host had sent it. */
async function deliver(page: Page, message: ItemToWebview): Promise<void> {
  await page.evaluate((m) => (window as unknown as HarnessWindow).__harnessDeliver(m), message as unknown);
}

function caret(page: Page): Promise<{ focused: string | null; start: number | null }> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLTextAreaElement | null;
    return { focused: active?.getAttribute('aria-label') ?? null, start: active?.selectionStart ?? null };
  });
}

test('blind review: typing a note while an older review update arrives keeps the text, the focus and the caret', async ({ openItems }) => {
  const { page, host } = await openItems('deleg-en', { blind: true });
  await page.locator('[data-q="answerability"] .ia-yn-yes').click();
  await expect.poll(() => host.sentOf('review').length).toBe(1);
  const stale = host.sentOf('review')[0];
  const note = page.locator('textarea.ia-note');
  await expect(note).toBeEnabled();
  await note.click();
  await page.keyboard.type('abc def');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
  expect(await caret(page)).toEqual({ focused: 'Note', start: 3 });

  // A review without the note (sent before it was typed), and one judging shortcut leakage.
  await deliver(page, stale);
  await deliver(page, { ...stale, myReview: { ...stale.myReview!, shortcut_free: false } });
  await expect(page.locator('[data-q="shortcut_free"] .ia-yn-no')).toHaveAttribute('aria-pressed', 'true');

  await expect(note).toHaveValue('abc def');
  expect(await caret(page)).toEqual({ focused: 'Note', start: 3 });
  await page.keyboard.type('X');
  await expect(note).toHaveValue('abcX def');
  await page.locator('[data-q="answerability"] .ia-q-help').click();
  await expect.poll(() => host.postedOf('editReview').at(-1)?.patch.notes).toBe('abcX def');
});

test('scenarios: typing a silent-citation count while a state update arrives keeps it', async ({ openItems }) => {
  const { page, host } = await openItems('scenarios');
  const init = host.sentOf('init')[0];
  if (init.payload.kind !== 'scenarios') throw new Error(`expected a scenario set, got ${init.payload.kind}`);
  const field = page.locator('.ia-num');
  await field.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('1');
  await deliver(page, { type: 'scenarioState', state: init.payload.state });
  await expect(field).toBeFocused();
  await page.keyboard.type('2');
  await expect(field).toHaveValue('12');
  await page.keyboard.press('Enter');
  await expect.poll(() => host.postedOf('setSilentCitations').at(-1)?.value).toBe(12);
});

test('Delegation text is shown exactly as in the item (pre-wrapped fields carry no template whitespace)', async ({ openItems }) => {
  const { page, host } = await openItems('deleg-en');
  const init = host.sentOf('init')[0];
  if (init.payload.kind !== 'delegation') throw new Error(`expected a Delegation item, got ${init.payload.kind}`);
  const view = init.payload.state.view;
  expect(await page.locator('.ia-answer').textContent()).toBe(view.goldenAnswer.join(''));
  expect(await page.locator('.ia-query').textContent()).toBe(view.query);
  expect(await page.locator('.ia-doc-golden .ia-doc-content').first().textContent()).toBe(view.golden[0].content);
});
