// The editor's browser tests: `openEditor` opens a fixture in a fresh browser context against the
// fake host, and every test fails on a page error, a console error, an error logged by the
// webview, a CSP violation or a dialog.
import { join } from 'node:path';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { FakeEditorHost, type EditorHostOptions } from '../harness/fakeEditorHost';
import { EDITOR_FIXTURE_FILES, type EditorFixture } from '../harness/editorFixtures';
import type { HarnessWindow } from '../harness/pageGlobals';
import type { Theme } from '../harness/server';
import { editorShotsDir, fixturesDir, harnessUrl } from '../harness/paths';

export { expect };

export interface OpenOptions extends EditorHostOptions {
  theme?: Theme;
  viewport?: { width: number; height: number };
  /** Runs in the page before any of its scripts (context.addInitScript). */
  initScript?: () => void;
  /** Wait for the first timeline row (default true). */
  waitForRows?: boolean;
}

export interface EditorPage {
  page: Page;
  context: BrowserContext;
  host: FakeEditorHost;
  /** Milliseconds from navigation to the first row. */
  loadMs: number;
}

/** Screenshots go here (test-artifacts/webview/). */
export const shotsDir = editorShotsDir;

/** A generated editor fixture, or any trajectory file by its path (the format readers' fixtures). */
export type EditorSource = EditorFixture | { file: string };

export const test = base.extend<{ openEditor: (fixture: EditorSource, options?: OpenOptions) => Promise<EditorPage> }>({
  openEditor: async ({ browser }, use) => {
    const problems: string[] = [];
    const opened: EditorPage[] = [];
    await use(async (fixture, options = {}) => {
      const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
      if (options.initScript) await context.addInitScript(options.initScript);
      const page = await context.newPage();
      page.on('dialog', (d) => {
        problems.push(`dialog: ${d.message()}`);
        void d.dismiss();
      });
      page.on('pageerror', (e) => problems.push(`${JSON.stringify(fixture)}: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`${JSON.stringify(fixture)} console: ${m.text()}`);
      });
      const host = await FakeEditorHost.attach(page, typeof fixture === 'string' ? join(fixturesDir, EDITOR_FIXTURE_FILES[fixture]) : fixture.file, options);
      const started = Date.now();
      await page.goto(`${harnessUrl()}/editor/?theme=${options.theme ?? 'dark'}`);
      if (options.waitForRows ?? true) await page.locator('.tl-row').first().waitFor({ timeout: 30_000 });
      const editor = { page, context, host, loadMs: Date.now() - started };
      opened.push(editor);
      return editor;
    });
    for (const { page, context, host } of opened) {
      if (!page.isClosed()) {
        const csp = await page.evaluate(() => (window as unknown as HarnessWindow).__cspViolations).catch(() => []);
        problems.push(...csp.map((v) => `CSP violation: ${JSON.stringify(v)}`));
      }
      problems.push(...host.errorLogs.map((m) => `webview logged an error: ${m}`));
      await context.close();
    }
    expect(problems, 'page errors, console errors, CSP violations and dialogs').toEqual([]);
  },
});

/** Position of the selected row, or null. */
export function selected(page: Page): Promise<number | null> {
  return page.evaluate(() => {
    const el = document.querySelector('.tl-row[aria-selected="true"]');
    return el ? Number(el.getAttribute('data-position')) : null;
  });
}

/** The row is drawn and its top is inside the timeline's viewport. */
export function rowInView(page: Page, position: number): Promise<boolean> {
  return page.evaluate((p) => {
    const row = document.getElementById(`tl-row-${p}`);
    const scroller = document.querySelector('.tl-scroller');
    if (!row || !scroller) return false;
    const a = row.getBoundingClientRect();
    const b = scroller.getBoundingClientRect();
    return a.top >= b.top - 1 && a.top < b.bottom - 10;
  }, position);
}

/** Waits until `position` is selected and scrolled into view. */
export async function expectSelectedInView(page: Page, position: number): Promise<void> {
  await expect.poll(() => selected(page)).toBe(position);
  await expect.poll(() => rowInView(page, position)).toBe(true);
}

export async function press(page: Page, key: string, times = 1): Promise<void> {
  for (let i = 0; i < times; i++) await page.keyboard.press(key);
}

/** Reveals a row from the host and waits until it is selected. */
export async function reveal(editor: EditorPage, position: number, recordId?: string): Promise<void> {
  await editor.host.reveal(position, recordId);
  await expect.poll(() => selected(editor.page)).toBe(position);
}

/** What hostile fixture content could have done, had it run or rendered as markup. */
export function hostileTraces(page: Page) {
  return page.evaluate(() => ({
    pwned: (window as unknown as HarnessWindow).__pwned ?? null,
    markup: document.querySelectorAll('img, iframe, object, embed, script:not([src])').length,
    liveLinks: document.querySelectorAll('a[href]').length,
    svgInContent: document.querySelectorAll('.tl-content svg, .right-scroll svg, .app-header svg').length,
    bodyVisible: getComputedStyle(document.body).display !== 'none',
  }));
}

export async function expectNothingHostile(page: Page): Promise<void> {
  expect(await hostileTraces(page)).toEqual({ pwned: null, markup: 0, liveLinks: 0, svgInContent: 0, bodyVisible: true });
}

/** Performance marks the editor's start-up sets (trajaudit/app-start, init-done, panels-mounted, early-keys). */
export function hasMark(page: Page, name: string): Promise<boolean> {
  return page.evaluate((n) => performance.getEntriesByName(`trajaudit/${n}`).length > 0, name);
}
