// The editor's start-up: a blur before the panels exist, keys pressed before a late view, focus
// taken only with the page's, a restored page; read-only records and host errors.
import { STATE_KEY } from '../harness/pageGlobals';
import { expect, hasMark, press, selected, test } from './editorTest';

test('a blur before the side panels are mounted sends no edit, and the annotation shows', async ({ openEditor }) => {
  // The panels render after the first rows; a blur in between (focus moving back to the
  // workbench while the editor opens) must not commit their still-empty fields over the annotation.
  const { page, host } = await openEditor('multi', {
    initScript: () => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector('.tl-row')) return;
        observer.disconnect();
        (window as unknown as { blurredBeforePanels: boolean }).blurredBeforePanels = !document.querySelector('.annotation');
        window.dispatchEvent(new Event('blur'));
      }).observe(document, { childList: true, subtree: true });
    },
  });
  await expect(page.locator('.annotation vscode-textfield[aria-label="Annotator"]')).toHaveJSProperty('value', 'ada');
  expect(await page.evaluate(() => (window as unknown as { blurredBeforePanels: boolean }).blurredBeforePanels)).toBe(true);
  // The panels' own settling (their first render, a blur replay) has run: marks set after them.
  await expect.poll(() => hasMark(page, 'panels-mounted')).toBe(true);
  expect(host.postedOf('editAnnotation')).toEqual([]);
});

test("late view: the editor's keys pressed after the app started, before its view came, are replayed (j j J), no other key (F1, x)", async ({ openEditor }) => {
  // A view too big to embed in the page comes by message after the app starts; keys pressed in
  // that gap must not act on an empty timeline and be lost. The fake host holds the view until
  // told, so the keys surely come first.
  const { page, host } = await openEditor('small', { holdInit: true, waitForRows: false });
  await expect.poll(async () => (await hasMark(page, 'app-start')) && host.holdsInit).toBe(true);
  // F1 and x are not the editor's keys: VS Code has had them already, a replay would send them twice.
  for (const key of ['j', 'F1', 'j', 'x', 'J']) await page.keyboard.press(key);
  expect(await hasMark(page, 'init-start')).toBe(false);
  await host.sendInit();
  await expect.poll(async () => (await hasMark(page, 'panels-mounted')) && (await hasMark(page, 'early-keys'))).toBe(true);
  // The selection settles on the first decision step after 2.
  const expected = await page.evaluate(
    () =>
      [...document.querySelectorAll<HTMLElement>('.tl-row.kind-decision, .tl-row.kind-final')]
        .map((r) => Number(r.dataset.position))
        .filter((p) => p > 2)
        .sort((a, b) => a - b)[0],
  );
  await expect.poll(() => selected(page)).toBe(expected);
  expect(await page.evaluate(() => (performance.getEntriesByName('trajaudit/early-keys')[0] as PerformanceMark | undefined)?.detail)).toBe(3);
});

test('focus: without page focus the app leaves focus alone; it focuses the timeline when the page gets focus', async ({ openEditor }) => {
  // The app starts a moment after its editor appears; if the user has moved on (the command
  // palette, another editor), focusing the timeline would pull focus back into the webview.
  const { page } = await openEditor('small', {
    waitForRows: false,
    initScript: () => {
      (window as unknown as { pageFocused: boolean }).pageFocused = false;
      Document.prototype.hasFocus = () => (window as unknown as { pageFocused: boolean }).pageFocused;
    },
  });
  await expect.poll(() => hasMark(page, 'panels-mounted')).toBe(true);
  expect(await page.evaluate(() => document.activeElement?.className ?? '')).not.toMatch(/tl-scroller/);
  const focused = await page.evaluate(() => {
    (window as unknown as { pageFocused: boolean }).pageFocused = true;
    window.dispatchEvent(new FocusEvent('focus'));
    return document.activeElement?.className ?? '';
  });
  expect(focused).toMatch(/tl-scroller/);
});

test('a restored page (saved UI state) asks for its view and restores the selection', async ({ openEditor }) => {
  // When VS Code brings a hidden tab back, the page starts again with its saved state: its
  // embedded view may be older than the document, so it asks for a fresh one.
  const { page, host } = await openEditor('small');
  await expect.poll(() => hasMark(page, 'panels-mounted')).toBe(true);
  await page.evaluate(([key, id]) => sessionStorage.setItem(key, JSON.stringify({ v: 1, recordId: id, selected: 40 })), [STATE_KEY, host.currentRecordId]);
  await page.reload();
  await expect.poll(() => hasMark(page, 'init-done'), { timeout: 30_000 }).toBe(true);
  await expect.poll(() => selected(page)).toBe(40);
  expect(host.postedOf('ready')).toHaveLength(2);
  expect(host.postedOf('ready').every((m) => !m.embeddedInit)).toBe(true);
});

test('read-only: no edits are sent and the reason is shown; host errors show in a banner', async ({ openEditor }) => {
  const { page, host } = await openEditor('small', { theme: 'light', readOnlyReason: 'The file changed on disk' });
  await expect(page.locator('.annotation .note', { hasText: 'Read-only' })).toContainText('The file changed on disk');
  await page.locator('.tl-scroller').focus();
  await press(page, 'J');
  await expect.poll(() => selected(page)).toBe(2);
  await press(page, 'c');
  await host.error('Could not parse line 12: unexpected token');
  await expect(page.locator('.banner')).toContainText('Could not parse line 12');
  expect(host.postedOf('editAnnotation')).toEqual([]);
});

test('the first rows are drawn before the side panels and the @vscode-elements components are evaluated; the search box works then', async ({ openEditor }) => {
  // Start-up evaluates only what the timeline and header need (editor/panels.ts is loaded after
  // the first paint). The search box is on the first screen, so it must take focus before then.
  const { page } = await openEditor('small', {
    initScript: () => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector('.tl-row')) return;
        observer.disconnect();
        const search = document.querySelector<HTMLElement>('.search-input');
        search?.focus();
        (window as unknown as { atFirstRows: unknown }).atFirstRows = {
          textfieldDefined: customElements.get('vscode-textfield') !== undefined,
          collapsibleDefined: customElements.get('vscode-collapsible') !== undefined,
          panels: !!document.querySelector('.annotation, .ol-scroller'),
          shortcutsSheet: !!document.querySelector('.keys-table'),
          searchFocused: !!search && document.activeElement === search,
        };
      }).observe(document, { childList: true, subtree: true });
    },
  });
  expect(await page.evaluate(() => (window as unknown as { atFirstRows: unknown }).atFirstRows)).toEqual({
    textfieldDefined: false,
    collapsibleDefined: false,
    panels: false,
    shortcutsSheet: false,
    searchFocused: true,
  });
  await expect.poll(() => hasMark(page, 'panels-mounted')).toBe(true);
  expect(await page.evaluate(() => customElements.get('vscode-textfield') !== undefined && customElements.get('vscode-collapsible') !== undefined)).toBe(true);
  await expect(page.locator('.annotation vscode-textfield[aria-label="Annotator"]')).toBeVisible();
  // The timeline, focused after the first paint, leaves the search box the focus it had.
  await expect(page.locator('.search-input')).toBeFocused();
  // The shortcuts sheet is built when first asked for.
  await page.locator('.tl-scroller').focus();
  await press(page, '?');
  await expect(page.locator('.overlay-backdrop .keys-table')).toContainText('go to a message position');
});

test('the timeline takes focus once the first rows are on screen, not in the task that draws them', async ({ openEditor }) => {
  // focus() in the start-up task would lay out the whole page before the first frame, which then
  // lays out again what the rest of start-up changed.
  const { page } = await openEditor('small', {
    initScript: () => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector('.tl-row')) return;
        observer.disconnect();
        (window as unknown as { focusAtFirstRows: string }).focusAtFirstRows = document.activeElement?.tagName ?? '';
      }).observe(document, { childList: true, subtree: true });
    },
  });
  expect(await page.evaluate(() => (window as unknown as { focusAtFirstRows: string }).focusAtFirstRows)).toBe('BODY');
  await expect(page.locator('.tl-scroller')).toBeFocused();
});

test('a view too big to embed: its first window is drawn at once; a click and keys before the whole view survive it', async ({ openEditor }) => {
  // The page carries the first rows of a 5,000-message view; the whole view comes by message
  // (held here until told). The window is drawn by the app itself, so a click selects there; the
  // editor's keys wait for the whole view, which takes over the selection the user made.
  const { page, host } = await openEditor('large', { embedFirstWindow: true, holdInit: true });
  await expect.poll(async () => (await hasMark(page, 'first-window')) && host.holdsInit).toBe(true);
  expect(await hasMark(page, 'init-done')).toBe(false);
  expect(host.postedOf('ready')).toEqual([{ type: 'ready', embeddedInit: false }]);
  expect(host.postedOf('rendered')).toEqual([]);
  await expect(page.locator('.tl-row#tl-row-2')).toBeVisible();
  expect(await page.locator('#tl-row-200').count()).toBe(0);
  await page.locator('#tl-row-2').click();
  await expect.poll(() => selected(page)).toBe(2);
  await page.locator('.tl-scroller').focus();
  await press(page, 'j');
  expect(await selected(page)).toBe(2);
  await host.sendInit();
  await expect.poll(async () => (await hasMark(page, 'panels-mounted')) && (await hasMark(page, 'early-keys'))).toBe(true);
  await expect.poll(() => selected(page)).toBe(3);
  expect(host.postedOf('rendered')).toHaveLength(1);
  // The whole view is there: End reaches the last message.
  await press(page, 'End');
  await expect.poll(() => selected(page)).toBe(4999);
});
