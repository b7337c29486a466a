// Workbench-level helpers for the UI tests and the editor benchmark: Quick Open, closing
// editors, the active tab's dirty state, color themes, and finding the trajectory editor's
// webview frame (the workbench nests it: iframe.webview > iframe#active-frame).
import { findFrameWith, runFromCommandPalette } from '../../runners/code-server.mjs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until it returns a truthy value; throws `message` (plus the last value) on timeout. */
export async function waitUntil(fn, { timeoutMs = 10_000, intervalMs = 50, message = 'condition' } = {}) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    last = await fn();
    if (last) return last;
    await sleep(intervalMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${message}${last === undefined ? '' : ` (last: ${JSON.stringify(last)})`}`);
}

/** Moves keyboard focus out of any webview, back to the workbench (a click on the status bar). */
export async function focusWorkbench(page) {
  const status = page.locator('.part.statusbar');
  if (await status.count()) {
    const box = await status.boundingBox();
    if (box) await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  } else {
    await page
      .locator('.monaco-workbench')
      .click({ position: { x: 5, y: 5 }, force: true })
      .catch(() => {});
  }
}

/**
 * Quick Open (Ctrl+P): types `text`, waits until the FIRST result's file name is `rowText`
 * (exactly, or containing it with exact: false), and opens it with Enter.
 */
export async function quickOpen(page, text, rowText = text, { timeoutMs = 15_000, exact = true } = {}) {
  await focusWorkbench(page);
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(text);
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: rowText }).first();
  await row.waitFor({ state: 'visible', timeout: timeoutMs });
  // The first row must be the one we want before Enter picks it.
  const firstName = async () => {
    const first = page.locator('.quick-input-widget .monaco-list-row').first();
    const name = first.locator('.label-name').first();
    return ((await name.count()) ? await name.textContent() : await first.textContent()) ?? '';
  };
  await waitUntil(
    async () => {
      const name = (await firstName()).trim();
      return exact ? name === rowText : name.includes(rowText);
    },
    { timeoutMs, message: `"${rowText}" as the first Quick Open result` },
  );
  await input.press('Enter');
  await page
    .locator('.quick-input-widget')
    .waitFor({ state: 'hidden', timeout: timeoutMs })
    .catch(() => {});
}

/** Runs a palette command; the title as the palette shows it. */
export { runFromCommandPalette };

/** The tabs of the active editor group: label, active, dirty. */
export async function tabs(page) {
  return page.locator('.editor-group-container.active .tabs-container .tab').evaluateAll((els) =>
    els.map((e) => ({
      label: e.getAttribute('aria-label') ?? e.textContent ?? '',
      active: e.classList.contains('active'),
      dirty: e.classList.contains('dirty'),
    })),
  );
}

export async function activeTab(page) {
  return (await tabs(page)).find((t) => t.active);
}

/**
 * Closes every editor ("View: Revert and Close"-free): runs workbench.action.closeAllEditors
 * through the palette, answering "Don't Save" if a dirty editor asks.
 */
export async function closeAllEditors(page, { timeoutMs = 15_000 } = {}) {
  if ((await page.locator('.tabs-container .tab').count()) === 0) return;
  await runFromCommandPalette(page, 'View: Close All Editors', { timeoutMs });
  const dontSave = page.locator('.monaco-dialog-box .monaco-button', { hasText: /Don.t Save/ });
  await waitUntil(
    async () => {
      if (await dontSave.count())
        await dontSave
          .first()
          .click()
          .catch(() => {});
      return (await page.locator('.tabs-container .tab').count()) === 0;
    },
    { timeoutMs, message: 'all editors to close' },
  );
}

/**
 * The frame of the (single) visible trajectory editor webview, once the live app shows its rows
 * (`.tl-row[id]`: the page's static first screen has rows without ids until the app replaces it).
 */
export async function editorFrame(page, { timeoutMs = 30_000, selector = '.tl-row[id]' } = {}) {
  const frame = await findFrameWith(page, selector, { timeoutMs });
  if (!frame) throw new Error(`no webview frame with ${selector} within ${timeoutMs} ms`);
  return frame;
}

/** `.monaco-workbench` theme type: 'vs' (light), 'vs-dark', 'hc-black', 'hc-light'. */
export async function workbenchThemeType(page) {
  return page.evaluate(() => {
    const cls = document.querySelector('.monaco-workbench')?.classList ?? [];
    return ['hc-light', 'hc-black', 'vs-dark', 'vs'].find((c) => [...cls].includes(c));
  });
}

/**
 * Switches between the preferred light and dark themes with the palette command
 * "Preferences: Toggle between Light/Dark Themes" (set workbench.preferredLightColorTheme /
 * preferredDarkColorTheme in the user settings), then waits for the theme type `expect`.
 * (Rewriting settings.json while the workbench runs is not picked up reliably by code-server.)
 */
export async function toggleColorTheme(page, expect, { timeoutMs = 20_000 } = {}) {
  if ((await workbenchThemeType(page)) === expect) return;
  await runFromCommandPalette(page, 'Preferences: Toggle between Light/Dark Themes');
  await waitUntil(async () => (await workbenchThemeType(page)) === expect, { timeoutMs, message: `the workbench theme to become ${expect}` });
}
