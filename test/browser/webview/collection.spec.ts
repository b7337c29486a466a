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
import { FakeCollectionHost, collectionFixtureRows, type CollectionHostOptions } from '../harness/fakeCollectionHost';
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

  test('Export…: CSV or Parquet, the rows shown (with the table’s filters) or all; the host’s answer in the header', async ({ openCollection }) => {
    const { page, host } = await openCollection();
    await page.locator('.cv-filter').fill('tartu');
    const shown = filterRows(host.rows, { text: 'tartu' }).length;
    await expect(page.locator('.cv-shown')).toHaveText(`${shown.toLocaleString('en-US')} of 10,000 trajectories`);
    await expect(page.locator('.cv-export-scope option')).toHaveText([`rows shown (${shown.toLocaleString('en-US')})`, 'all rows (10,000)']);
    await page.locator('.cv-export-button').click();
    await expect.poll(() => host.postedOf('export').length).toBe(1);
    expect(host.postedOf('export')[0]).toMatchObject({ type: 'export', format: 'csv', scope: 'shown', text: 'tartu' });

    await page.locator('.cv-col[data-column="tokens"]').click();
    await page.locator('.cv-export-format').selectOption('parquet');
    await page.locator('.cv-export-scope').selectOption('all');
    await page.locator('.cv-export-button').click();
    await expect.poll(() => host.postedOf('export').length).toBe(2);
    expect(host.postedOf('export')[1]).toMatchObject({ format: 'parquet', scope: 'all', text: 'tartu', sort: { column: 'tokens', descending: true } });

    // The host writes and answers in one line (here: a folder it cannot write).
    const failure = 'Export failed: Could not write /read-only/collection.rows.parquet: EACCES; expected a writable folder';
    await host.send({ type: 'status', text: failure, kind: 'error' });
    await expect(page.locator('.cv-status.error')).toHaveText(failure);
  });

  test('header: each annotator’s annotated / assigned rows of the assignment file, updated when an annotation is saved', async ({ openCollection }) => {
    const rows = collectionFixtureRows();
    const mine = rows.slice(0, 30);
    const { page, host } = await openCollection({
      queue: {
        annotator: 'ann-1',
        blind: false,
        assignmentsFile: 'assignments.json',
        // ann-1: thirty row ids; ann-2: the whole file by its name (every record).
        assignments: { annotators: { 'ann-1': mine.map((r) => r.id), 'ann-2': [rows[0].file] } },
      },
    });
    // By hand: of records 0–29, ann-1 annotated 1, 15 and 29 (i % 7 == 1, odd i).
    expect(mine.filter((r) => r.annotator === 'ann-1').map((r) => r.record)).toEqual(['run-00001', 'run-00015', 'run-00029']);
    const ann2 = rows.filter((r) => r.annotator === 'ann-2').length.toLocaleString('en-US');
    await expect(page.locator('.cv-assignee')).toHaveText(['ann-1 3/30', `ann-2 ${ann2}/10,000`]);
    await expect(page.locator('.cv-assignee.me')).toHaveText('ann-1 3/30');
    await expect(page.locator('.cv-assignments')).toHaveAttribute('title', 'assignments.json');

    const next = mine.find((r) => !r.annotated)!;
    await host.saveAnnotation(next.id, 'ann-1');
    await expect(page.locator('.cv-assignee.me')).toHaveText('ann-1 4/30');
    await expect(page.locator('.cv-annotated')).toHaveText(/^annotated /);
    await page.locator('.cv-filter').fill(next.record);
    await expect(page.locator(`.cv-row[data-id="${next.id}"]`)).toHaveAttribute('data-state', next.audited ? 'annotated+audited' : 'annotated');

    // An assignment file the host could not read is one line in the header.
    const problem =
      'Assignment file not read: assignments.json: at $.annotators.ann-1[0]: expected a row id; expected {"annotators": {"<name>": ["<file>#<record>", …]}}';
    await host.send({ type: 'queue', queue: { annotator: 'ann-1', blind: false, assignmentsFile: 'assignments.json', problem } });
    await expect(page.locator('.cv-queue-problem')).toHaveText(problem);
    await expect(page.locator('.cv-assignee')).toHaveCount(0);
  });

  test('blind mode: audit step, root cause and agreement read "hidden" until the annotator has saved the row', async ({ openCollection }) => {
    const { page, host } = await openCollection({ queue: { annotator: 'ann-1', blind: true } });
    await expect(page.locator('.cv-blind')).toHaveText('Blind: audits hidden until ann-1 has saved');
    // run-00002: audited, not annotated; run-00057: audited and annotated by ann-1.
    const hidden = host.rows.find((r) => r.record === 'run-00002')!;
    const open = host.rows.find((r) => r.record === 'run-00057')!;
    expect([hidden.audited, hidden.annotated, open.audited, open.annotator]).toEqual([true, false, true, 'ann-1']);
    const cells = (id: string) => page.locator(`.cv-row[data-id="${id}"] .cv-cell`);
    const auditCells = async (id: string) => [
      await cells(id).nth(16).textContent(),
      await cells(id).nth(17).textContent(),
      await cells(id).nth(18).textContent(),
    ];

    await page.locator('.cv-filter').fill('run-00002');
    await expect(page.locator(`.cv-row[data-id="${hidden.id}"]`)).toBeVisible();
    expect(await auditCells(hidden.id)).toEqual(['hidden', 'hidden', 'hidden']);
    await expect(page.locator(`.cv-row[data-id="${hidden.id}"] .cv-cell.audit-hidden`)).toHaveCount(3);
    // Nor does the audit's root cause reach the facets: only ann-1's audited rows are counted there.
    const visibleAudits = host.rows.filter((r) => r.audited && r.annotator === 'ann-1');
    await page.locator('.cv-filter').fill('');
    const auditFacetTotal = await page
      .locator('.cv-facet[data-facet="auditRootCause"] .cv-facet-value')
      .evaluateAll((labels) =>
        labels
          .filter((l) => l.querySelector('.cv-facet-name')?.getAttribute('title') !== '(none)')
          .reduce((sum, l) => sum + Number(l.querySelector('.cv-facet-count')!.textContent!.replace(/,/g, '')), 0),
      );
    expect(auditFacetTotal).toBe(visibleAudits.length);

    await page.locator('.cv-filter').fill('run-00057');
    await expect(page.locator(`.cv-row[data-id="${open.id}"]`)).toBeVisible();
    expect((await auditCells(open.id))[0]).toBe(String(open.audit!.criticalStep));
    await expect(page.locator(`.cv-row[data-id="${open.id}"] .cv-cell.audit-hidden`)).toHaveCount(0);

    // ann-1 saves run-00002: the host sends it again with its audit.
    await host.saveAnnotation(hidden.id, 'ann-1');
    await page.locator('.cv-filter').fill('run-00002');
    await expect.poll(() => cells(hidden.id).nth(16).textContent()).toBe(String(hidden.audit!.criticalStep));
    await expect(page.locator(`.cv-row[data-id="${hidden.id}"] .cv-cell.audit-hidden`)).toHaveCount(0);
  });

  test('the Blind toggle in the header posts setBlind and shows the state the host answers with (aria-pressed)', async ({ openCollection }) => {
    const { page, host } = await openCollection({ queue: { annotator: 'ann-1', blind: false } });
    const toggle = page.locator('.cv-queue .cv-blind-toggle');
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await expect(toggle).toHaveText('Blind mode: off');
    await expect(page.locator('.cv-blind')).toHaveCount(0);
    // run-00002: audited, not annotated by ann-1: its audit step shows until blind mode is on.
    const hidden = host.rows.find((r) => r.record === 'run-00002')!;
    const auditStep = page.locator(`.cv-row[data-id="${hidden.id}"] .cv-cell`).nth(16);
    await page.locator('.cv-filter').fill('run-00002');
    await expect(auditStep).toHaveText(String(hidden.audit!.criticalStep));

    // The page does not flip the toggle itself: a host that has not answered leaves it off.
    host.answerSetBlind = false;
    await toggle.click();
    await expect.poll(() => host.postedOf('setBlind')).toEqual([{ type: 'setBlind', blind: true }]);
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    // The host's answer (the setting written): the queue says blind, the rows come again without the audits.
    host.answerSetBlind = true;
    await toggle.click();
    await expect.poll(() => host.postedOf('setBlind').length).toBe(2);
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await expect(toggle).toHaveText('Blind mode: on');
    await expect(page.locator('.cv-blind')).toHaveText('Blind: audits hidden until ann-1 has saved');
    await expect(auditStep).toHaveText('hidden');
    // And off again.
    await toggle.click();
    await expect.poll(() => host.postedOf('setBlind').at(-1)).toEqual({ type: 'setBlind', blind: false });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await expect(auditStep).toHaveText(String(hidden.audit!.criticalStep));
    // A setting changed elsewhere (the Settings editor): the host's queue message alone moves the toggle.
    await host.send({ type: 'queue', queue: { annotator: 'ann-1', blind: true } });
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`screenshot: ${theme}`, async ({ openCollection }) => {
      const rows = collectionFixtureRows();
      const assignments = { annotators: { 'ann-1': rows.slice(0, 400).map((r) => r.id), 'ann-2': rows.slice(400, 800).map((r) => r.id) } };
      const { page } = await openCollection({ theme, queue: { annotator: 'ann-1', blind: true, assignments, assignmentsFile: 'assignments.json' } });
      await page.locator('.cv-col[data-column="messages"]').click();
      await page.locator('.cv-facet[data-facet="state"] label', { hasText: 'annotated' }).first().locator('input').check();
      await page.locator('.cv-scroller').focus();
      for (const key of ['j', 'j', 'j']) await page.keyboard.press(key);
      await expect(page.locator('.cv-row.selected')).toBeVisible();
      await page.screenshot({ path: join(editorShotsDir, `collection-${theme}.png`) });
    });
  }
});
