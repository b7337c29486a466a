// The collection view in Chromium against the fake host (test/browser/harness/fakeCollectionHost.ts),
// over 10,000 rows the host's own builder made from a JSONL fixture: the row elements stay a
// screenful while scrolling, sorting and filtering; column sort, facet and text filters; j/k,
// Enter opens the selected row by id, a reload (VS Code re-creating a hidden view) comes back to
// the same row; the reading progress and Cancel; hostile text stays text; no CSP violation;
// screenshots in light and dark (test-artifacts/webview/collection-*.png).
import { join } from 'node:path';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { filterRows, sortRows } from '../../../src/core/collections/table';
import { COLLECTION_ROWS, HOSTILE_RECORD } from '../harness/collectionFixtures';
import { FakeCollectionHost, type CollectionHostOptions } from '../harness/fakeCollectionHost';
import type { HarnessWindow } from '../harness/pageGlobals';
import { editorShotsDir, harnessUrl } from '../harness/paths';
import type { Theme } from '../harness/server';

interface CollectionPage {
  page: Page;
  context: BrowserContext;
  host: FakeCollectionHost;
}

/** Fewer than this many row elements: a screenful (900 px / 24 px) plus the overscan, never 10,000. */
const MAX_DOM_ROWS = 80;

const test = base.extend<{ openCollection: (options?: CollectionHostOptions & { theme?: Theme }) => Promise<CollectionPage> }>({
  openCollection: async ({ browser }, use) => {
    const problems: string[] = [];
    const opened: CollectionPage[] = [];
    await use(async (options = {}) => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      page.on('dialog', (d) => {
        problems.push(`dialog: ${d.message()}`);
        void d.dismiss();
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      const host = await FakeCollectionHost.attach(page, options);
      await page.goto(`${harnessUrl()}/collection/?theme=${options.theme ?? 'dark'}`);
      await page.locator('.cv-row').first().waitFor({ timeout: 30_000 });
      const entry = { page, context, host };
      opened.push(entry);
      return entry;
    });
    for (const { page, context, host } of opened) {
      if (!page.isClosed()) {
        const csp = await page.evaluate(() => (window as unknown as HarnessWindow).__cspViolations).catch(() => []);
        problems.push(...csp.map((v) => `CSP violation: ${JSON.stringify(v)}`));
        const pwned = await page.evaluate(() => (window as unknown as HarnessWindow).__pwned).catch(() => undefined);
        if (pwned !== undefined) problems.push('hostile fixture content ran');
      }
      problems.push(...host.errorLogs.map((m) => `webview logged an error: ${m}`));
      problems.push(...host.invalid.map((m) => `message outside the protocol: ${JSON.stringify(m)}`));
      await context.close();
    }
    expect(problems, 'page errors, console errors, CSP violations, dialogs, protocol errors').toEqual([]);
  },
});

const rowIds = (page: Page) => page.locator('.cv-row').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.id ?? ''));
/** The ids of the rows in view, top to bottom. */
function visibleIds(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const scroller = document.querySelector('.cv-scroller') as HTMLElement;
    const box = scroller.getBoundingClientRect();
    return [...document.querySelectorAll<HTMLElement>('.cv-row')]
      .map((r) => ({ id: r.dataset.id ?? '', top: r.getBoundingClientRect().top, bottom: r.getBoundingClientRect().bottom }))
      .filter((r) => r.bottom > box.top + 1 && r.top < box.bottom - 1)
      .sort((a, b) => a.top - b.top)
      .map((r) => r.id);
  });
}
const domRows = (page: Page) => page.locator('.cv-row').count();
const selectedId = (page: Page) => page.locator('.cv-row.selected').getAttribute('data-id');

test.describe('collection view', () => {
  test('10,000 rows: a screenful of row elements, scrolled to the end and back; header counts', async ({ openCollection }) => {
    const { page, host } = await openCollection();
    const rows = host.rows;
    await expect(page.locator('.cv-shown')).toHaveText(`${COLLECTION_ROWS.toLocaleString('en-US')} of ${COLLECTION_ROWS.toLocaleString('en-US')} trajectories`);
    const annotated = rows.filter((r) => r.annotated).length;
    const audited = rows.filter((r) => r.audited).length;
    await expect(page.locator('.cv-annotated')).toHaveText(`annotated ${annotated.toLocaleString('en-US')} (${Math.round((100 * annotated) / rows.length)}%)`);
    await expect(page.locator('.cv-audited')).toHaveText(`audited ${audited.toLocaleString('en-US')} (${Math.round((100 * audited) / rows.length)}%)`);
    // Per-annotator progress: ann-1 and ann-2 split the annotated rows.
    const byAnnotator = (who: string) => rows.filter((r) => r.annotator === who).length.toLocaleString('en-US');
    await expect(page.locator('.cv-annotator')).toHaveText([`ann-1: ${byAnnotator('ann-1')}`, `ann-2: ${byAnnotator('ann-2')}`]);
    expect(await domRows(page)).toBeLessThan(MAX_DOM_ROWS);
    expect((await visibleIds(page))[0]).toBe(rows[0].id);

    await page.locator('.cv-scroller').evaluate((s) => (s.scrollTop = s.scrollHeight));
    await expect.poll(async () => (await visibleIds(page)).at(-1)).toBe(rows[rows.length - 1].id);
    expect(await domRows(page)).toBeLessThan(MAX_DOM_ROWS);
    await expect.poll(() => host.lastRendered()?.domRows ?? 0).toBeGreaterThan(0);
    expect(host.lastRendered()).toMatchObject({ shown: COLLECTION_ROWS, total: COLLECTION_ROWS });
    expect(host.lastRendered()!.domRows).toBeLessThan(MAX_DOM_ROWS);
  });

  test('sort by a column: numbers largest first, a second click reverses; rows without a value last', async ({ openCollection }) => {
    const { page, host } = await openCollection();
    const header = page.locator('.cv-col[data-column="tokens"]');
    await header.click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    const expected = sortRows(host.rows, { column: 'tokens', descending: true });
    await expect.poll(async () => (await visibleIds(page))[0]).toBe(expected[0].id);
    // Independently of the sort rule: the token cells in view do not increase.
    const tokens = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.cv-row')]
        .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
        .map((r) => Number((r.children[7] as HTMLElement).textContent?.replace(/,/g, ''))),
    );
    expect(tokens.length).toBeGreaterThan(10);
    expect(tokens).toEqual([...tokens].sort((a, b) => b - a));
    expect(await domRows(page)).toBeLessThan(MAX_DOM_ROWS);

    await header.click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(async () => (await visibleIds(page))[0]).toBe(sortRows(host.rows, { column: 'tokens', descending: false })[0].id);

    // Audit step: most rows have none; they come after every audited row.
    await page.locator('.cv-col[data-column="auditStep"]').click();
    const audited = host.rows.filter((r) => r.audit?.criticalStep !== undefined && r.audit.criticalStep !== null).length;
    await page.locator('.cv-scroller').evaluate((s, top) => (s.scrollTop = top), (audited - 3) * 24);
    await expect.poll(async () => (await visibleIds(page)).length).toBeGreaterThan(5);
    const ids = await visibleIds(page);
    const byId = new Map(host.rows.map((r) => [r.id, r]));
    const withAudit = ids.map((id) => byId.get(id)!.audited);
    expect(withAudit.indexOf(false)).toBeGreaterThan(0);
    expect(withAudit.slice(withAudit.indexOf(false)).every((a) => !a)).toBe(true);
  });

  test('facet and text filters narrow the rows and the counts; Clear filters brings every row back', async ({ openCollection }) => {
    const { page, host } = await openCollection();
    const model = page.locator('.cv-facet[data-facet="model"]');
    await model.locator('label', { hasText: 'claude-deep' }).locator('input').check();
    const byModel = filterRows(host.rows, { facets: { model: ['claude-deep'] } });
    await expect(page.locator('.cv-shown')).toHaveText(`${byModel.length.toLocaleString('en-US')} of 10,000 trajectories`);
    expect(new Set((await rowIds(page)).map((id) => host.rows.find((r) => r.id === id)?.model))).toEqual(new Set(['claude-deep']));
    // Other facets count within the selection; the model facet keeps counting every model.
    const datasetCount = byModel.filter((r) => r.dataset === 'xbench').length;
    await expect(page.locator('.cv-facet[data-facet="dataset"] label', { hasText: 'xbench' }).locator('.cv-facet-count')).toHaveText(
      datasetCount.toLocaleString('en-US'),
    );
    const qwen = filterRows(host.rows, { facets: { model: ['qwen-agent'] } }).length;
    await expect(model.locator('label', { hasText: 'qwen-agent' }).locator('.cv-facet-count')).toHaveText(qwen.toLocaleString('en-US'));

    await page.locator('.cv-filter').fill('tartu');
    const both = filterRows(host.rows, { facets: { model: ['claude-deep'] }, text: 'tartu' });
    expect(both.length).toBeGreaterThan(0);
    await expect(page.locator('.cv-shown')).toHaveText(`${both.length.toLocaleString('en-US')} of 10,000 trajectories`);
    expect(await domRows(page)).toBeLessThan(MAX_DOM_ROWS);
    await page.locator('.cv-clear').click();
    await expect(page.locator('.cv-shown')).toHaveText('10,000 of 10,000 trajectories');
    await expect(page.locator('.cv-filter')).toHaveValue('');
  });

  test('keyboard: j/k move, Enter opens the selected row by id, coming back selects the same row', async ({ openCollection }) => {
    const { page, host } = await openCollection();
    await page.locator('.cv-scroller').focus();
    for (const key of ['j', 'j', 'j', 'k']) await page.keyboard.press(key);
    await expect.poll(() => selectedId(page)).toBe(host.rows[2].id);
    await page.keyboard.press('G');
    await expect.poll(() => selectedId(page)).toBe(host.rows[COLLECTION_ROWS - 1].id);
    await page.keyboard.press('g');
    for (let i = 0; i < 40; i++) await page.keyboard.press('j');
    const chosen = host.rows[40].id;
    await expect.poll(() => selectedId(page)).toBe(chosen);
    expect(await visibleIds(page)).toContain(chosen);
    await page.keyboard.press('Enter');
    await expect.poll(() => host.postedOf('open').map((m) => m.id)).toEqual([chosen]);

    // VS Code tears a hidden webview down; showing it again starts the page anew with its saved state.
    await page.reload();
    await page.locator('.cv-row.selected').waitFor();
    expect(await selectedId(page)).toBe(chosen);
    expect(await visibleIds(page)).toContain(chosen);
    await page.keyboard.press('j');
    await expect.poll(() => selectedId(page)).toBe(host.rows[41].id);

    // '/' goes to the filter; Enter comes back to the table.
    await page.keyboard.press('/');
    await expect(page.locator('.cv-filter')).toBeFocused();
    await page.keyboard.type('Kaunas');
    await page.keyboard.press('Enter');
    await expect(page.locator('.cv-scroller')).toBeFocused();
  });

  test('n selects the next row without a saved annotation in the table order, twice', async ({ openCollection }) => {
    const { page, host } = await openCollection();
    await page.locator('.cv-col[data-column="tokens"]').click();
    await page.locator('.cv-scroller').focus();
    const order = sortRows(host.rows, { column: 'tokens', descending: true });
    // The selection (the first row read) stays through the sort; the next two unannotated rows after it in this order, wrapping.
    const start = order.findIndex((r) => r.id === host.rows[0].id);
    const expected = [...order.slice(start + 1), ...order.slice(0, start)]
      .filter((r) => !r.annotated)
      .slice(0, 2)
      .map((r) => r.id);
    await page.keyboard.press('n');
    await expect.poll(() => selectedId(page)).toBe(expected[0]);
    await page.keyboard.press('n');
    await expect.poll(() => selectedId(page)).toBe(expected[1]);
    expect(await visibleIds(page)).toContain(expected[1]);
  });

  test('rows arrive as they are read, with a progress bar and Cancel', async ({ openCollection }) => {
    const { page, host } = await openCollection({ initialRows: 100, progress: { done: 1, total: 4, finished: false } });
    await expect(page.locator('.cv-shown')).toHaveText('100 of 100 trajectories');
    await expect(page.locator('.cv-progress')).toContainText('Reading 1 of 4 files');
    await host.sendRows(400, { done: 2, total: 4, finished: false });
    await expect(page.locator('.cv-shown')).toHaveText('500 of 500 trajectories');
    await expect(page.locator('.cv-progress progress')).toHaveJSProperty('value', 2);
    await page.locator('.cv-cancel').click();
    await expect.poll(() => host.postedOf('cancel').length).toBe(1);
    await host.sendRows(0, { done: 2, total: 4, finished: true, cancelled: true });
    await expect(page.locator('.cv-progress')).toHaveText('Stopped after 2 of 4 files.');
  });

  test('hostile text in a query and a model name is shown as text', async ({ openCollection }) => {
    const { page, host } = await openCollection();
    const hostile = host.rows.find((r) => r.record === HOSTILE_RECORD)!;
    // In the model facet (listed while every model is shown) and in its row.
    await expect(page.locator(`.cv-facet[data-facet="model"] .cv-facet-name`, { hasText: 'open data link' })).toHaveText(hostile.model!);
    await page.locator('.cv-filter').fill(HOSTILE_RECORD);
    const row = page.locator(`.cv-row[data-id="${hostile.id}"]`);
    await expect(row).toBeVisible();
    await expect(row.locator('.cv-cell').nth(2)).toHaveText(hostile.model!);
    await expect(row.locator('.cv-cell').first()).toHaveAttribute('title', `${hostile.id}\n${hostile.query}`);
    expect(await page.locator('.cv img, .cv script, .cv a[href], .cv iframe, .cv svg').count()).toBe(0);
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`screenshot: ${theme}`, async ({ openCollection }) => {
      const { page } = await openCollection({ theme });
      await page.locator('.cv-col[data-column="messages"]').click();
      await page.locator('.cv-facet[data-facet="state"] label', { hasText: 'annotated' }).first().locator('input').check();
      await page.locator('.cv-scroller').focus();
      for (const key of ['j', 'j', 'j']) await page.keyboard.press(key);
      await expect(page.locator('.cv-row.selected')).toBeVisible();
      await page.screenshot({ path: join(editorShotsDir, `collection-${theme}.png`) });
    });
  }
});
