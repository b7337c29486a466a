// Screenshots of a worked state (annotated, answer trace open, a search, a hostile return
// expanded) in the light, dark and high-contrast themes and at 1000 px, into test-artifacts/webview/;
// nothing hostile runs or renders as markup in any of them.
import { join } from 'node:path';
import type { Theme } from '../harness/server';
import { expect, expectNothingHostile, hasMark, hostileTraces, press, reveal, shotsDir, test, type EditorPage } from './editorTest';

async function workedState(editor: EditorPage): Promise<void> {
  const { page, host } = editor;
  await expect.poll(() => hasMark(page, 'panels-mounted')).toBe(true);
  for (const [position, key] of [
    [14, 'c'],
    [12, '['],
    [16, ']'],
    [14, '4'],
  ] as const) {
    const before = host.sentOf('annotation').length;
    await reveal(editor, position);
    await press(page, key);
    await expect.poll(() => host.sentOf('annotation').length).toBe(before + 1);
  }
  await page.locator('.trace-button').click();
  await expect(page.locator('.trace-chip').first()).toBeVisible();
  await page.locator('.tl-scroller').focus();
  await press(page, '/');
  await page.keyboard.type('booklet');
  await expect(page.locator('.search-status')).toHaveText(/\d+ match/);
  await reveal(editor, 13);
  await press(page, 'Enter');
  await expect(page.locator('#tl-row-13 .msg-body')).toBeVisible();
  await reveal(editor, 12);
}

for (const [theme, file] of [
  ['light', 'small-light.png'],
  ['dark', 'small-dark.png'],
  ['hc', 'small-hc.png'],
] as [Theme, string][]) {
  test(`screenshot ${file} (and its audits panel)`, async ({ openEditor }) => {
    const editor = await openEditor('small', { theme, viewport: { width: 1280, height: 820 } });
    await workedState(editor);
    await editor.page.screenshot({ path: join(shotsDir, file) });
    await editor.page.locator('.audit').scrollIntoViewIfNeeded();
    await editor.page.screenshot({ path: join(shotsDir, file.replace('.png', '-audits.png')) });
    await expectNothingHostile(editor.page);
  });
}

test('the layout works at 1000 px wide', async ({ openEditor }) => {
  const editor = await openEditor('small', { viewport: { width: 1000, height: 760 } });
  await workedState(editor);
  await editor.page.screenshot({ path: join(shotsDir, 'small-dark-1000px.png') });
  expect((await hostileTraces(editor.page)).bodyVisible).toBe(true);
  expect(await editor.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
});

test('after every kind of interaction, no hostile content executed or rendered as markup', async ({ openEditor }) => {
  const editor = await openEditor('small');
  await workedState(editor);
  for (const p of [5, 21, 29, 37, 45, 53, 61, 69, 78]) {
    await reveal(editor, p);
    await press(editor.page, 'Enter');
    await expect(editor.page.locator(`#tl-row-${p} .msg-body`)).toBeVisible();
  }
  await editor.page.locator('.audit').scrollIntoViewIfNeeded();
  await expectNothingHostile(editor.page);
});
