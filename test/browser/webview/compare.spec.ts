// The compare view in Chromium against the fake host (test/browser/harness/fakeCompareHost.ts),
// whose view model is core buildCompareView over real trajectories: the alignment's rows on both
// sides with the first divergence marked, each side's human label and newest audit in its header,
// `d` and the button jump to the divergence, synchronized scrolling both ways with aligned rows
// level, Enter and double-click open a side's step, hostile text stays text; the rows are
// virtualized (two runs of 5,000 messages keep a screenful of row elements, and d, End, Home and
// the wheel reach their rows on both sides); no CSP violation; screenshots in light and dark
// (test-artifacts/webview/compare-*.png).
import { join } from 'node:path';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { collectFile } from '../../../src/core/collections/collect';
import type { CompareSideInput } from '../../../src/core/collections/compareView';
import { loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import { FakeCollectionHost } from '../harness/fakeCollectionHost';
import { FakeCompareHost } from '../harness/fakeCompareHost';
import type { HarnessWindow } from '../harness/pageGlobals';
import { editorShotsDir, harnessUrl, repoRoot } from '../harness/paths';
import type { Theme } from '../harness/server';

const FIXTURES = join(repoRoot, 'test/fixtures/collections/compare');

function fixtureSide(name: string, record: string): CompareSideInput {
  const found = collectFile(join(FIXTURES, name)).trajectories.find((t) => t.record === record);
  if (!found) throw new Error(`${name} has no record ${record}`);
  return { ...found, file: name };
}

type Step = { tool: string; args: Record<string, unknown> } | { reply: string };

/** An OpenAI-chat run read by the product's reader: the question at 0, each step, a tool step followed by its return. */
function run(file: string, query: string, steps: Step[]): CompareSideInput {
  const messages: unknown[] = [{ role: 'user', content: query }];
  steps.forEach((step, k) => {
    if ('reply' in step) messages.push({ role: 'assistant', content: step.reply });
    else {
      messages.push({
        role: 'assistant',
        content: '',
        tool_calls: [{ id: `c${k}`, type: 'function', function: { name: step.tool, arguments: JSON.stringify(step.args) } }],
      });
      messages.push({ role: 'tool', tool_call_id: `c${k}`, content: `result of step ${k}` });
    }
  });
  const record = loadText(JSON.stringify({ query, trajectory: messages }), file).records[0];
  if (!isTrajectoryRecord(record)) throw new Error('not a trajectory');
  return { file, record: '0', trajectory: record.trajectory };
}

const LONG_QUERY = 'Which bridges cross the Ljubljanica?';
/** Searches of different numbers are not similar ({bridge, 3} against {bridge, 4}: Jaccard 1/3), so the alignment has one answer. */
const search = (k: number): Step => ({ tool: 'search', args: { query: `bridge ${k}` } });
/** 60 searches; b has an extra visit after the 20th and its 41st search in other words, so the runs part at row 20. */
function longPair(): [CompareSideInput, CompareSideInput] {
  const a = Array.from({ length: 60 }, (_, k) => search(k));
  const b = a.slice();
  b[40] = { tool: 'search', args: { query: 'population of Slovenia in 2020' } };
  b.splice(20, 0, { tool: 'visit', args: { url: 'https://example.org/extra' } });
  return [run('long-a.json', LONG_QUERY, a), run('long-b.json', LONG_QUERY, b)];
}

interface ComparePage {
  page: Page;
  context: BrowserContext;
  host: FakeCompareHost;
}

const test = base.extend<{ openCompare: (a: CompareSideInput, b: CompareSideInput, theme?: Theme) => Promise<ComparePage> }>({
  openCompare: async ({ browser }, use) => {
    const problems: string[] = [];
    const opened: ComparePage[] = [];
    await use(async (a, b, theme = 'dark') => {
      const context = await browser.newContext({ viewport: { width: 1300, height: 800 } });
      const page = await context.newPage();
      page.on('dialog', (d) => {
        problems.push(`dialog: ${d.message()}`);
        void d.dismiss();
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      const host = await FakeCompareHost.attach(page, a, b);
      await page.goto(`${harnessUrl()}/compare/?theme=${theme}`);
      await page.locator('.cmp-pane[data-side="b"] .cmp-row').first().waitFor({ timeout: 30_000 });
      await expect.poll(() => host.postedOf('rendered').length).toBeGreaterThan(0);
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

/** Fewer row elements than this on a side: a screenful (800 px) plus the overscan, never the thousands a long pair has. */
const MAX_DOM_ROWS = 200;

/** Each mounted row of a pane, in row order: its row index, position (empty for a gap) and classes. */
function paneRows(page: Page, side: 'a' | 'b') {
  return page.locator(`.cmp-pane[data-side="${side}"] .cmp-row`).evaluateAll((rows) =>
    rows
      .map((r) => ({
        row: Number((r as HTMLElement).dataset.row),
        position: (r as HTMLElement).dataset.position ?? '',
        firstDivergence: r.classList.contains('first-divergence'),
        start: r.classList.contains('divergence-start'),
        kind: ['aligned', 'a-only', 'b-only'].find((k) => r.classList.contains(k)) ?? '',
      }))
      .sort((x, y) => x.row - y.row),
  );
}

const domRows = (page: Page, side: 'a' | 'b') => page.locator(`.cmp-pane[data-side="${side}"] .cmp-row`).count();

/** The index of the row at the top of a pane, as a user sees it: the highest mounted row whose bottom is below the pane's top edge. */
function topRow(page: Page, side: 'a' | 'b'): Promise<number> {
  return page.evaluate((s) => {
    const pane = document.querySelector(`.cmp-pane[data-side="${s}"]`) as HTMLElement;
    const edge = pane.getBoundingClientRect().top + 1;
    const below = [...pane.querySelectorAll<HTMLElement>('.cmp-row')]
      .map((r) => ({ row: Number(r.dataset.row), top: r.getBoundingClientRect().top, bottom: r.getBoundingClientRect().bottom }))
      .filter((r) => r.bottom > edge)
      .sort((x, y) => x.top - y.top);
    return below.length ? below[0].row : -1;
  }, side);
}

/** 'level' when both panes have the same row at the top, else what each has. */
async function topRowsLevel(page: Page): Promise<string> {
  const [a, b] = [await topRow(page, 'a'), await topRow(page, 'b')];
  return a === b ? 'level' : `a ${a}, b ${b}`;
}

/** Scrolls a pane as a user drags its scrollbar until row `row` is at its top (the row is mounted only once it is near the view). */
function scrollPaneToRow(page: Page, side: 'a' | 'b', row: number): Promise<void> {
  return page.evaluate(
    async ([s, i]) => {
      const pane = document.querySelector(`.cmp-pane[data-side="${s}"]`) as HTMLElement;
      const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
      for (let tries = 0; tries < 200; tries++) {
        const target = pane.querySelector<HTMLElement>(`.cmp-row[data-row="${i}"]`);
        const offBy = target ? target.getBoundingClientRect().top - pane.getBoundingClientRect().top : 0;
        if (target && Math.abs(offBy) < 1) return;
        if (target) pane.scrollTop += offBy;
        else {
          const mounted = [...pane.querySelectorAll<HTMLElement>('.cmp-row')].map((r) => Number(r.dataset.row));
          pane.scrollTop += (Math.max(...mounted) < (i as number) ? 1 : -1) * pane.clientHeight;
        }
        await frame();
        await frame();
      }
      throw new Error(`row ${i} did not reach the top of pane ${s}`);
    },
    [side, row] as const,
  );
}

/** Each row's height on both sides, for the rows mounted on both. */
function pairHeights(page: Page): Promise<{ row: number; a: number; b: number }[]> {
  return page.evaluate(() => {
    const heights = (s: string) =>
      new Map([...document.querySelectorAll<HTMLElement>(`.cmp-pane[data-side="${s}"] .cmp-row`)].map((r) => [Number(r.dataset.row), r.offsetHeight]));
    const a = heights('a');
    const b = heights('b');
    return [...a].filter(([row]) => b.has(row)).map(([row, h]) => ({ row, a: h, b: b.get(row)! }));
  });
}

/**
 * Two runs of 4,999 tool steps each (with their returns, 9,999 messages a side): the first 1,000
 * search the same, then a keeps searching and b visits pages. 1,000 pairs, then a's 3,999 steps,
 * then b's 3,999: 8,998 rows, the runs parting at row 1,000.
 */
function hugePair(): [CompareSideInput, CompareSideInput] {
  const a = Array.from({ length: 4999 }, (_, k) => search(k));
  const b = a.map((step, k): Step => (k < 1000 ? step : { tool: 'visit', args: { url: `https://example.org/page/${k}` } }));
  return [run('huge-a.json', LONG_QUERY, a), run('huge-b.json', LONG_QUERY, b)];
}

test.describe('compare view', () => {
  for (const theme of ['light', 'dark'] as Theme[]) {
    test(`${theme}: the alignment's rows on both sides, the first divergence marked, labels in the headers`, async ({ openCompare }) => {
      const { page, host } = await openCompare(fixtureSide('before.traj.json', '0'), fixtureSide('after.jsonl', 'run-1'), theme);
      // By hand (test/unit/collections/compareView.test.ts): the searches align, then a's answer, then b's visit and answer.
      const expectedKinds = ['aligned', 'a-only', 'b-only', 'b-only'];
      const a = await paneRows(page, 'a');
      const b = await paneRows(page, 'b');
      expect(a.map((r) => r.position)).toEqual(['1', '3', '', '']);
      expect(b.map((r) => r.position)).toEqual(['1', '', '3', '5']);
      for (const rows of [a, b]) {
        expect(rows.map((r) => r.kind)).toEqual(expectedKinds);
        expect(rows.map((r) => r.firstDivergence)).toEqual([false, true, true, true]);
        expect(rows.map((r) => r.start)).toEqual([false, true, false, false]);
      }
      await expect(page.locator('.cmp-aligned')).toHaveText('1 of 4 rows aligned');
      await expect(page.locator('.cmp-divergence')).toHaveText('First divergence: a 3, b 3');
      await expect(page.locator('.cmp-query')).toHaveText('Which river flows through Ljubljana?');
      const head = (side: 'a' | 'b', part: string) => page.locator(`.cmp-side[data-side="${side}"] .cmp-${part}`);
      await expect(head('a', 'file-name')).toHaveText('before.traj.json#0');
      await expect(head('a', 'human')).toHaveText('Human (ann-1): critical step 3 · Candidate Mismanagement');
      await expect(head('a', 'audit')).toHaveText('Audit searchauditor (gpt-test): critical step 3 · Unsupported Answer · newest of 2');
      await expect(head('b', 'file-name')).toHaveText('after.jsonl#run-1');
      await expect(head('b', 'human')).toHaveText('No human annotation');
      await expect(head('b', 'audit')).toHaveText('Not audited');
      // a's answer step carries both critical badges; the step text and its return are shown.
      const answer = page.locator('.cmp-pane[data-side="a"] .cmp-row[data-position="3"]');
      await expect(answer.locator('.cmp-badge')).toHaveText(['human critical', 'audit critical', 'final answer']);
      await expect(page.locator('.cmp-pane[data-side="b"] .cmp-row[data-position="3"] .cmp-text')).toHaveText(
        'visit({"url": "https://example.org/ljubljanica"})',
      );
      await expect(page.locator('.cmp-pane[data-side="b"] .cmp-row[data-position="3"] .cmp-result')).toHaveText(
        '→ The Ljubljanica flows through the centre of Ljubljana.',
      );
      expect(host.postedOf('rendered').at(-1)).toEqual({ type: 'rendered', rows: 4, domRows: 4 });
      await page.screenshot({ path: join(editorShotsDir, `compare-${theme}.png`) });
    });
  }

  test('synchronized scrolling: scrolling either side brings the other to the aligned row; pairs sit level', async ({ openCompare }) => {
    const { page, host } = await openCompare(...longPair());
    const rows = host.view.rows.length;
    // 60 searches + b's extra visit; the 41st searches differ: 59 pairs, 3 unpaired steps.
    expect(rows).toBe(62);
    expect(host.postedOf('rendered').at(-1)?.rows).toBe(rows);
    // Virtualized: the rows in view and an overscan, not all 62.
    expect(await domRows(page, 'a')).toBeLessThan(rows);
    // Every pair is as tall on both sides.
    await expect.poll(async () => (await pairHeights(page)).filter((p) => p.a !== p.b)).toEqual([]);
    expect((await pairHeights(page)).length).toBeGreaterThan(5);

    await scrollPaneToRow(page, 'a', 30);
    await expect.poll(() => topRow(page, 'a')).toBe(30);
    await expect.poll(() => topRow(page, 'b')).toBe(30);
    // The other way: b scrolled, a follows.
    await scrollPaneToRow(page, 'b', 12);
    await expect.poll(() => topRow(page, 'b')).toBe(12);
    await expect.poll(() => topRow(page, 'a')).toBe(12);
    // By the wheel, as a user scrolls: b follows a.
    await page.locator('.cmp-pane[data-side="a"]').hover();
    await page.mouse.wheel(0, 900);
    await expect.poll(() => topRow(page, 'a')).toBeGreaterThan(12);
    await expect.poll(() => topRowsLevel(page)).toBe('level');
    // The pairs mounted now (rows first measured while scrolling) sit level too.
    await expect.poll(async () => (await pairHeights(page)).filter((p) => p.a !== p.b)).toEqual([]);
  });

  test('5,000 × 5,000 steps: a screenful of row elements; d, End, Home and the wheel reach their rows on both sides', async ({ openCompare }) => {
    const { page, host } = await openCompare(...hugePair());
    const rows = host.view.rows.length;
    expect([rows, host.view.firstDivergenceRow, host.view.alignedRows]).toEqual([8998, 1000, 1000]);
    const rendered = host.postedOf('rendered').at(-1)!;
    expect(rendered.rows).toBe(rows);
    expect(rendered.domRows).toBeLessThan(MAX_DOM_ROWS);
    const selected = (side: 'a' | 'b') => page.locator(`.cmp-pane[data-side="${side}"] .cmp-row.selected`);
    const bounded = async () => {
      for (const side of ['a', 'b'] as const) expect(await domRows(page, side)).toBeLessThan(MAX_DOM_ROWS);
    };

    await page.keyboard.press('d');
    await expect(selected('a')).toHaveAttribute('data-row', '1000');
    await expect(selected('b')).toHaveAttribute('data-row', '1000');
    await expect.poll(() => topRow(page, 'a')).toBe(1000);
    await expect.poll(() => topRow(page, 'b')).toBe(1000);
    // Row 1,000 is a's first unpaired search (step 1,000 at position 2,001, after the question and 1,000 steps with returns) and a gap on b.
    await expect(selected('a')).toHaveAttribute('data-position', '2001');
    await expect(selected('b').locator('.cmp-gap')).toHaveText('no aligned step — the runs part here');
    await bounded();
    await page.screenshot({ path: join(editorShotsDir, 'compare-5000-dark.png') });

    await page.keyboard.press('End');
    await expect(selected('a')).toHaveAttribute('data-row', String(rows - 1));
    await expect(selected('b')).toHaveAttribute('data-row', String(rows - 1));
    await expect(selected('a')).toBeInViewport({ ratio: 1 });
    await expect(selected('b')).toBeInViewport({ ratio: 1 });
    // The last row is b's last visit (position 9,997), a gap on a: Enter opens b's step.
    await expect(selected('b')).toHaveAttribute('data-position', '9997');
    await expect(selected('a').locator('.cmp-gap')).toHaveText('no aligned step');
    await page.keyboard.press('Enter');
    await expect.poll(() => host.postedOf('open')).toEqual([{ type: 'open', side: 'b', position: 9997 }]);
    await bounded();

    // The wheel from the end upward: b follows a to the aligned row.
    await page.locator('.cmp-pane[data-side="a"]').hover();
    await page.mouse.wheel(0, -3000);
    await expect.poll(() => topRow(page, 'a')).toBeLessThan(rows - 20);
    // The wheel may still be scrolling a (smooth scrolling): b is at a's top row, wherever a is.
    await expect.poll(() => topRowsLevel(page)).toBe('level');
    await expect.poll(async () => (await pairHeights(page)).filter((p) => p.a !== p.b)).toEqual([]);

    await page.keyboard.press('Home');
    await expect(selected('a')).toHaveAttribute('data-row', '0');
    await expect.poll(() => topRow(page, 'a')).toBe(0);
    await expect.poll(() => topRow(page, 'b')).toBe(0);
    await bounded();
  });

  test('d and the button jump to the first divergence on both sides; j/k move; Enter and double-click open a side’s step', async ({ openCompare }) => {
    const { page, host } = await openCompare(...longPair());
    const divergence = host.view.firstDivergenceRow;
    expect(divergence).toBe(20);
    await page.keyboard.press('d');
    const selected = (side: 'a' | 'b') => page.locator(`.cmp-pane[data-side="${side}"] .cmp-row.selected`);
    await expect(selected('a')).toHaveAttribute('data-row', '20');
    await expect(selected('b')).toHaveAttribute('data-row', '20');
    await expect.poll(() => topRow(page, 'a')).toBe(20);
    await expect.poll(() => topRow(page, 'b')).toBe(20);
    // a's side of row 20 is a gap (b's extra visit); b's is the visit at position 41.
    await expect(selected('a').locator('.cmp-gap')).toHaveText('no aligned step — the runs part here');
    await expect(selected('b')).toHaveAttribute('data-position', '41');

    await page.keyboard.press('g');
    await expect.poll(() => topRow(page, 'a')).toBe(0);
    await page.locator('.cmp-jump').click();
    await expect.poll(() => topRow(page, 'b')).toBe(20);

    await page.keyboard.press('j');
    await expect(selected('a')).toHaveAttribute('data-row', '21');
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    await expect(selected('b')).toHaveAttribute('data-row', '19');
    // Enter opens the focused side's step (a), or the other side's where a has a gap.
    await page.keyboard.press('Enter');
    await expect.poll(() => host.postedOf('open')).toEqual([{ type: 'open', side: 'a', position: 39 }]);
    await page.locator('.cmp-pane[data-side="b"] .cmp-row[data-position="41"]').dblclick();
    await expect.poll(() => host.postedOf('open').at(-1)).toEqual({ type: 'open', side: 'b', position: 41 });
  });

  test('hostile text in steps, returns, queries and file names stays text', async ({ openCompare }) => {
    const markup = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    const a = run(`<b>a</b>.json`, `<i>query</i> ${markup}`, [{ tool: 'search', args: { query: markup } }, { reply: `<answer>${markup}</answer>` }]);
    const b = run('b.json', 'another <u>query</u>', [{ tool: 'search', args: { query: '<svg onload="window.__pwned=3">' } }]);
    const { page } = await openCompare(a, b);
    await expect(page.locator('.cmp-pane[data-side="a"] .cmp-row[data-position="1"] .cmp-text')).toHaveText(`search(${JSON.stringify({ query: markup })})`);
    await expect(page.locator('.cmp-side[data-side="a"] .cmp-file-name')).toHaveText('<b>a</b>.json#0');
    await expect(page.locator('.cmp-query')).toContainText('<i>query</i>');
    await expect(page.locator('.cmp-side[data-side="a"] .cmp-answer-text')).toHaveText(markup);
    const injected = await page.evaluate(() => document.querySelectorAll('.cmp img, .cmp script, .cmp svg, .cmp b, .cmp i, .cmp u').length);
    expect(injected).toBe(0);
  });

  test('the collection view: x marks the selected row (kept across a reload), c posts compare with it and the selected row', async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const host = await FakeCollectionHost.attach(page);
      await page.goto(`${harnessUrl()}/collection/?theme=dark`);
      await page.locator('.cv-row').first().waitFor({ timeout: 30_000 });
      await page.locator('.cv-scroller').focus();
      // c before anything is marked says what to do, and posts nothing.
      await page.keyboard.press('c');
      await expect(page.locator('.cv-status')).toHaveText('Mark a row for compare first (x).');
      await expect(page.locator('.cv-row.selected')).toHaveAttribute('data-id', host.rows[0].id);
      await page.keyboard.press('x');
      await expect(page.locator('.cv-row.marked')).toHaveAttribute('data-id', host.rows[0].id);
      await expect(page.locator('.cv-marked')).toHaveText(`marked: ${host.rows[0].id}`);
      // c on the marked row itself posts nothing either.
      await page.keyboard.press('c');
      await expect(page.locator('.cv-status')).toHaveText('Select another row to compare with the marked one.');

      await page.reload();
      await page.locator('.cv-row.marked').waitFor();
      await expect(page.locator('.cv-row.marked')).toHaveAttribute('data-id', host.rows[0].id);
      await page.locator('.cv-scroller').focus();
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await expect(page.locator('.cv-row.selected')).toHaveAttribute('data-id', host.rows[2].id);
      await page.keyboard.press('c');
      await expect.poll(() => host.postedOf('compare')).toEqual([{ type: 'compare', marked: host.rows[0].id, other: host.rows[2].id }]);
      // The toolbar's action does the same; x on the marked row unmarks it.
      await page.locator('.cv-compare-button').click();
      await expect.poll(() => host.postedOf('compare').length).toBe(2);
      await page.keyboard.press('k');
      await page.keyboard.press('k');
      await page.keyboard.press('x');
      await expect(page.locator('.cv-row.marked')).toHaveCount(0);
      await expect(page.locator('.cv-compare-button')).toBeDisabled();
      expect(host.invalid).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
