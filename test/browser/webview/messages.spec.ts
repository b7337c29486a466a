// Message bodies of the small fixture: expanding and collapsing, hostile markup as text, control
// characters made visible, invalid tool-call JSON, a 1 MB single line.
import { expect, expectNothingHostile, press, reveal, test } from './editorTest';

test('Enter expands a tool return and shows its text (hostile markup as plain text); getMessage carries recordId and position; o collapses it', async ({
  openEditor,
}) => {
  const editor = await openEditor('small');
  const { page, host } = editor;
  await reveal(editor, 5);
  await press(page, 'Enter');
  const body = page.locator('#tl-row-5 .msg-body');
  await expect(body).toContainText('<img src=x onerror');
  await expect(body).toContainText(/Search results for|Title:/);
  expect(host.postedOf('getMessage').some((m) => m.position === 5 && m.recordId === host.currentRecordId)).toBe(true);
  await press(page, 'o');
  await expect(body).toHaveCount(0);
});

test('bidi and zero-width characters are shown as visible escapes; hostile returns stay inert', async ({ openEditor }) => {
  const editor = await openEditor('small');
  const { page } = editor;
  for (const p of [13, 21, 29, 37, 45, 53, 61, 69, 78]) {
    await reveal(editor, p);
    await press(page, 'Enter');
    await expect(page.locator(`#tl-row-${p} .msg-body`)).toBeVisible();
  }
  await expect.poll(() => page.locator('.ctrl-char').count()).toBeGreaterThan(0);
  await expectNothingHostile(page);
});

test('invalid tool-call JSON is flagged', async ({ openEditor }) => {
  const editor = await openEditor('small');
  await reveal(editor, 44);
  await press(editor.page, 'Enter');
  await expect(editor.page.locator('#tl-row-44 .msg-body')).toBeVisible();
  await expect(editor.page.locator('#tl-row-44 .pill-error').first()).toBeVisible();
});

test('a 1 MB single line is chunked, capped at 60vh and wraps', async ({ openEditor }) => {
  const editor = await openEditor('small');
  const { page } = editor;
  await reveal(editor, 63);
  await press(page, 'Enter');
  await expect(page.locator('#tl-row-63 .msg-body .msg-more').first()).toBeVisible();
  const big = await page.evaluate(() => {
    const body = document.querySelector('#tl-row-63 .msg-body')!;
    const text = body.querySelector('.msg-text')!;
    return { height: body.getBoundingClientRect().height, viewport: window.innerHeight, scrollWidth: text.scrollWidth, clientWidth: text.clientWidth };
  });
  expect(big.height).toBeLessThanOrEqual(big.viewport * 0.6 + 2);
  expect(big.scrollWidth).toBeLessThanOrEqual(big.clientWidth + 1);
  // Its box takes its direction from its first strong character: per-paragraph (plaintext)
  // direction made Chromium lay out a 1 MB paragraph in seconds. Short texts keep plaintext.
  const bidiOf = (selector: string) =>
    page.evaluate((sel) => {
      const box = document.querySelector<HTMLElement>(sel)!;
      return { unicodeBidi: getComputedStyle(box).unicodeBidi, dir: box.dir };
    }, selector);
  expect(await bidiOf('#tl-row-63 .msg-content .msg-text')).toEqual({ unicodeBidi: 'isolate', dir: 'auto' });
  await page.locator('#tl-row-63 .msg-more button', { hasText: 'Show all' }).click();
  await expect(page.locator('#tl-row-63 .msg-more')).toHaveCount(0);
  await reveal(editor, 1);
  await press(page, 'Enter');
  await expect(page.locator('#tl-row-1 .msg-body')).toBeVisible();
  expect(await bidiOf('#tl-row-1 .msg-text')).toEqual({ unicodeBidi: 'plaintext', dir: '' });
});
