// The multi-record (JSONL) fixture: the record list, H / L, filters, edits per record, reveal
// into another record.
import { join } from 'node:path';
import { expect, press, selected, shotsDir, test } from './editorTest';

test('JSONL: the record list is shown; L posts selectRecord and the view switches; H goes back', async ({ openEditor }) => {
  const { page, host } = await openEditor('multi', { theme: 'light' });
  await expect(page.locator('.records')).toBeVisible();
  await expect(page.locator('.hdr-record')).toHaveText('rec-001');
  await page.locator('.tl-scroller').focus();
  await press(page, 'L');
  await expect(page.locator('.hdr-record')).toHaveText('rec-002');
  expect(host.postedOf('selectRecord').at(-1)?.recordId).toBe('rec-002');
  await press(page, 'H');
  await expect(page.locator('.hdr-record')).toHaveText('rec-001');
});

test('record filters narrow the list', async ({ openEditor }) => {
  const { page } = await openEditor('multi', { theme: 'light' });
  await page.locator('.seg-btn', { hasText: 'Disagree' }).click();
  await expect.poll(() => page.locator('.rl-item').count()).toBeLessThan(14);
  expect(await page.locator('.rl-item').count()).toBeGreaterThan(0);
  await page.locator('.seg-btn', { hasText: 'All' }).click();
  await expect(page.locator('.rl-item')).toHaveCount(14);
});

test('unknown annotation fields are preserved on edit', async ({ openEditor }) => {
  const { page, host } = await openEditor('multi', { theme: 'light' });
  await expect(page.locator('.annotation')).toBeVisible();
  await page.locator('.tl-scroller').focus();
  await press(page, '2');
  await expect.poll(() => host.postedOf('editAnnotation').length).toBe(1);
  expect(host.postedOf('editAnnotation')[0].annotation).toMatchObject({ customField: { keep: true }, rootCause: 'search_coverage_gap', annotator: 'ada' });
});

test('a pending text edit is sent to its own record before switching; the new record shows its own (empty) rationale', async ({ openEditor }) => {
  const { page, host } = await openEditor('multi', { theme: 'light' });
  await page.locator('.annotation textarea').first().click();
  await page.keyboard.type('Typed in rec-001');
  await page.locator('.rl-item[data-id="rec-003"]').click();
  await expect(page.locator('.hdr-record')).toHaveText('rec-003');
  const edits = host.postedOf('editAnnotation');
  expect(edits).toHaveLength(1);
  expect(edits[0]).toMatchObject({ recordId: 'rec-001', annotation: { rationale: 'Typed in rec-001' } });
  expect(host.posted.map((m) => m.type).filter((t) => t === 'editAnnotation' || t === 'selectRecord')).toEqual(['editAnnotation', 'selectRecord']);
  await expect(page.locator('.annotation textarea').first()).toHaveValue('');
});

test('reveal into another record switches to it and selects the row; screenshots of the list and the shortcuts', async ({ openEditor }) => {
  const { page, host } = await openEditor('multi', { theme: 'light' });
  await host.reveal(9, 'rec-004');
  await expect(page.locator('.hdr-record')).toHaveText('rec-004');
  await expect.poll(() => selected(page)).toBe(9);
  await page.screenshot({ path: join(shotsDir, 'multi-light.png') });
  await page.locator('.tl-scroller').focus();
  await press(page, '?');
  await expect(page.locator('.overlay-backdrop')).toBeVisible();
  await page.screenshot({ path: join(shotsDir, 'shortcuts-light.png') });
});
