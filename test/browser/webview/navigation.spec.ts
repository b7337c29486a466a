// Going places in the small fixture: host reveal, g, the answer trace, audit chips, the density
// strip, the shortcuts overlay; human vs audit; the saved UI state across a reload.
import { STATE_KEY } from '../harness/pageGlobals';
import { expect, expectSelectedInView, press, reveal, selected, test } from './editorTest';

test('host reveal selects and scrolls to the row', async ({ openEditor }) => {
  const { page, host } = await openEditor('small');
  await host.reveal(50);
  await expectSelectedInView(page, 50);
});

test('g goes to a typed position', async ({ openEditor }) => {
  const { page } = await openEditor('small');
  await page.locator('.tl-scroller').focus();
  await press(page, 'g');
  await page.keyboard.type('70');
  await page.keyboard.press('Enter');
  await expect.poll(() => selected(page)).toBe(70);
});

test('the answer trace shows clickable occurrences with the first flagged by its source; a chip reveals its row', async ({ openEditor }) => {
  const { page } = await openEditor('small');
  await page.locator('.trace-button').click();
  await expect.poll(() => page.locator('.trace-chip').count()).toBeGreaterThanOrEqual(3);
  await expect(page.locator('.trace-chip.is-first').first()).toHaveText(/first · (search snippet|visited page|reasoning|tool return)/);
  const chip = page.locator('.trace-chip').nth(1);
  const position = Number(await chip.getAttribute('data-position'));
  await chip.click();
  await expect.poll(() => selected(page)).toBe(position);
});

test('the audit diagnosis and its branches are listed; audit chips reveal their step', async ({ openEditor }) => {
  const { page } = await openEditor('small');
  await expect(page.locator('.audit-diag').first()).toBeVisible();
  await expect(page.locator('.branch')).toHaveCount(3);
  await page.locator('.audit-diag .step-chip').first().click();
  await expect.poll(() => selected(page)).toBe(16);
});

test('human vs audit: step within span, cause differs', async ({ openEditor }) => {
  const editor = await openEditor('small');
  const { page, host } = editor;
  for (const [position, key] of [
    [14, 'c'],
    [12, '['],
    [16, ']'],
    [16, '1'],
  ] as const) {
    const before = host.postedOf('editAnnotation').length;
    await reveal(editor, position);
    await press(page, key);
    await expect.poll(() => host.sentOf('annotation').length).toBe(before + 1);
  }
  const vsYou = page.locator('.verdicts li', { hasText: 'Audit vs you' });
  await expect(vsYou).toContainText('step within span');
  await expect(vsYou).toContainText('cause differs');
});

test('clicking the density strip jumps', async ({ openEditor }) => {
  const { page } = await openEditor('small');
  const strip = (await page.locator('.density-strip').boundingBox())!;
  await page.mouse.click(strip.x + strip.width / 2, strip.y + strip.height * 0.9);
  await expect.poll(() => selected(page)).toBeGreaterThanOrEqual(60);
});

test('? shows the shortcuts overlay and Esc closes it', async ({ openEditor }) => {
  const { page } = await openEditor('small');
  await page.locator('.tl-scroller').focus();
  await press(page, '?');
  await expect(page.locator('.overlay-backdrop')).toBeVisible();
  await press(page, 'Escape');
  await expect(page.locator('.overlay-backdrop')).toBeHidden();
});

test('a reloaded webview restores the selection; the saved state holds no trajectory text or annotation', async ({ openEditor }) => {
  const editor = await openEditor('small');
  const { page, host } = editor;
  await page.locator('.annotation textarea').first().click();
  await page.keyboard.type('Trusted the fan wiki.');
  await page.locator('.tl-scroller').focus();
  await expect.poll(() => host.postedOf('editAnnotation').length).toBe(1);
  await reveal(editor, 33);
  await expect.poll(() => page.evaluate((key) => (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { selected?: number }).selected, STATE_KEY)).toBe(33);
  await page.reload();
  await expect.poll(() => selected(page), { timeout: 30_000 }).toBe(33);
  const saved = await page.evaluate((key) => sessionStorage.getItem(key) ?? '', STATE_KEY);
  expect(saved).not.toContain('Liisa');
  expect(saved).not.toContain('fan wiki');
  expect(saved).not.toContain('rationale');
});
