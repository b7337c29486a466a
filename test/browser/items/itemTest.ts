// The item views' browser tests: `openItems` opens an item fixture in a fresh browser context
// against the fake item host; every test fails on a page error, a console error, an error logged
// by the webview, a CSP violation or a dialog.
import { join } from 'node:path';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { FakeItemHost, type ItemHostOptions } from '../harness/fakeItemHost';
import type { ItemFixture } from '../harness/itemFixtures';
import type { HarnessWindow } from '../harness/pageGlobals';
import { harnessUrl, itemShotsDir } from '../harness/paths';
import type { Theme } from '../harness/server';

export { expect };

export interface ItemOpenOptions extends ItemHostOptions {
  theme?: Theme;
  viewport?: { width: number; height: number };
}

export interface ItemPage {
  page: Page;
  context: BrowserContext;
  host: FakeItemHost;
}

export const test = base.extend<{ openItems: (fixture: ItemFixture, options?: ItemOpenOptions) => Promise<ItemPage> }>({
  openItems: async ({ browser }, use) => {
    const problems: string[] = [];
    const opened: ItemPage[] = [];
    await use(async (fixture, options = {}) => {
      const context = await browser.newContext({ viewport: options.viewport ?? { width: 1400, height: 900 } });
      const page = await context.newPage();
      page.on('dialog', (d) => {
        problems.push(`dialog: ${d.message()}`);
        void d.dismiss();
      });
      page.on('pageerror', (e) => problems.push(`${fixture}: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`${fixture} console: ${m.text()}`);
      });
      const host = await FakeItemHost.attach(page, fixture, options);
      await page.goto(`${harnessUrl()}/items/?theme=${options.theme ?? 'dark'}`);
      await page.locator('.ia-body > :not(.ia-loading)').first().waitFor({ timeout: 30_000 });
      const opened1 = { page, context, host };
      opened.push(opened1);
      return opened1;
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

export function shot(page: Page, name: string): Promise<Buffer> {
  return page.screenshot({ path: join(itemShotsDir, `${name}.png`) });
}
