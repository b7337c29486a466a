// Workbench helpers of the editor benchmark (test/bench/editor.mjs): focus back to the workbench
// and closing every editor. The workbench tests have their own, in TypeScript, that wait on
// conditions only (test/workbench/harness/workbenchPage.ts).
import { runFromCommandPalette } from '../../runners/code-server.mjs';

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
