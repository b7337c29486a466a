// The workbench driven through its UI, as a user would: Quick Open, the command palette, closing
// editors, the active tab's dirty state, colour themes, the side bar, and finding a webview's
// frame (the workbench nests each webview: iframe.webview > iframe#active-frame). Every wait is
// on a condition of the page.
import { expect, type Frame, type Page } from '@playwright/test';

const quickInput = (page: Page) => page.locator('.quick-input-widget');
const quickInputBox = (page: Page) => page.locator('.quick-input-widget input.input');
const quickRows = (page: Page) => page.locator('.quick-input-widget .monaco-list-row');

/** Moves keyboard focus out of any webview, back to the workbench (a click on the status bar). */
export async function focusWorkbench(page: Page): Promise<void> {
  const box = await page.locator('.part.statusbar').boundingBox();
  if (box) await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  else await page.locator('.monaco-workbench').click({ position: { x: 5, y: 5 }, force: true });
}

/** The label of the first row of the open quick input (file name, command title or theme). */
function firstRowLabel(page: Page) {
  return quickRows(page).first().locator('.label-name').first();
}

/**
 * Quick Open (Ctrl+P): types `text`, waits until the FIRST result's file name is `rowText`
 * (exactly, or containing it with exact: false) and opens it with Enter.
 */
export async function quickOpen(page: Page, text: string, rowText = text, { exact = true } = {}): Promise<void> {
  await focusWorkbench(page);
  await page.keyboard.press('Control+P');
  await expect(quickInputBox(page)).toBeVisible();
  await quickInputBox(page).fill(text);
  // Enter picks the first row: it must be the one we want.
  if (exact) await expect(firstRowLabel(page)).toHaveText(rowText);
  else await expect(firstRowLabel(page)).toContainText(rowText);
  await quickInputBox(page).press('Enter');
  await expect(quickInput(page)).toBeHidden();
}

/**
 * Runs a command through the palette: F1, type the title as the palette shows it (e.g.
 * 'Trajectory Auditor: Show Trajectory Outline'), Enter once the first row is that command.
 * Does not wait for the palette to close: a command may open a quick pick of its own.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  await focusWorkbench(page);
  await page.keyboard.press('F1');
  await expect(quickInputBox(page)).toBeVisible();
  await quickInputBox(page).fill(`>${title}`);
  await pickRow(page, title);
}

/** Clicks the row of the open quick input whose label is exactly `label` (rows are sorted by use, so it need not be first). */
async function pickRow(page: Page, label: string): Promise<void> {
  const row = quickRows(page).filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) });
  await row.first().click();
}

/** Runs a command that shows no quick pick of its own, and waits for the palette to close. */
export async function runPlainCommand(page: Page, title: string): Promise<void> {
  await runCommand(page, title);
  await expect(quickInput(page)).toBeHidden();
}

export interface Tab {
  label: string;
  active: boolean;
  dirty: boolean;
}

/** The tabs of the active editor group. */
export function tabs(page: Page): Promise<Tab[]> {
  return page.locator('.editor-group-container.active .tabs-container .tab').evaluateAll((els) =>
    els.map((e) => ({
      label: e.getAttribute('aria-label') ?? e.textContent ?? '',
      active: e.classList.contains('active'),
      dirty: e.classList.contains('dirty'),
    })),
  );
}

export async function activeTab(page: Page): Promise<Tab | undefined> {
  return (await tabs(page)).find((t) => t.active);
}

/** Waits until the active tab is dirty (or clean). */
export async function expectActiveTabDirty(page: Page, dirty: boolean): Promise<void> {
  await expect.poll(async () => (await activeTab(page))?.dirty, { message: `the active tab to be ${dirty ? 'dirty' : 'clean'}` }).toBe(dirty);
}

/** Closes every editor group and editor, answering "Don't Save" when a dirty editor asks. */
export async function closeAllEditors(page: Page): Promise<void> {
  const allTabs = page.locator('.tabs-container .tab');
  if ((await allTabs.count()) === 0 && (await page.locator('.editor-group-container').count()) <= 1) return;
  await runPlainCommand(page, 'View: Close All Editor Groups');
  const dontSave = page.locator('.monaco-dialog-box .monaco-button', { hasText: /Don.t Save/ });
  await expect
    .poll(
      async () => {
        if (await dontSave.count()) await dontSave.first().click();
        return (await allTabs.count()) === 0;
      },
      { message: 'every editor to close' },
    )
    .toBe(true);
}

/** The frame (of the workbench's nested webview iframes) that contains `selector`. */
export async function frameWith(page: Page, selector: string, { timeout = 30_000 } = {}): Promise<Frame> {
  let found: Frame | undefined;
  await expect
    .poll(
      async () => {
        for (const frame of page.frames()) {
          if (
            await frame
              .locator(selector)
              .count()
              .catch(() => 0)
          ) {
            found = frame;
            return true;
          }
        }
        return false;
      },
      { timeout, message: `a webview frame with ${selector}` },
    )
    .toBe(true);
  if (!found) throw new Error(`no webview frame with ${selector}`);
  return found;
}

/** The trajectory editor's frame once the live app shows rows (rows of the static first screen have no id). */
export function editorFrame(page: Page, { timeout = 30_000 } = {}): Promise<Frame> {
  return frameWith(page, '.tl-row[id]', { timeout });
}

export type Theme = 'dark' | 'light' | 'hc';

/** Theme ids as workbench.colorTheme takes them, and the labels the theme picker shows. */
export const THEMES: Record<Theme, { setting: string; label: string; workbenchClass: string; webviewClass: string }> = {
  dark: { setting: 'Default Dark Modern', label: 'Dark Modern', workbenchClass: 'vs-dark', webviewClass: 'vscode-dark' },
  light: { setting: 'Default Light Modern', label: 'Light Modern', workbenchClass: 'vs', webviewClass: 'vscode-light' },
  hc: { setting: 'Default High Contrast', label: 'Dark High Contrast', workbenchClass: 'hc-black', webviewClass: 'vscode-high-contrast' },
};

/** The workbench's theme type: the first of its classes hc-light, hc-black, vs-dark, vs. */
export function workbenchTheme(page: Page): Promise<Theme | undefined> {
  return page.evaluate(() => {
    const classes = [...(document.querySelector('.monaco-workbench')?.classList ?? [])];
    if (classes.includes('hc-black')) return 'hc';
    if (classes.includes('vs-dark')) return 'dark';
    if (classes.includes('vs')) return 'light';
    return undefined;
  });
}

/** Switches the colour theme with "Preferences: Color Theme" (a no-op when it is already on). */
export async function setTheme(page: Page, theme: Theme): Promise<void> {
  if ((await workbenchTheme(page)) === theme) return;
  await runCommand(page, 'Preferences: Color Theme');
  await expect(quickRows(page).filter({ hasText: THEMES.dark.label }).first()).toBeVisible();
  await quickInputBox(page).fill(THEMES[theme].label);
  await pickRow(page, THEMES[theme].label);
  await expect(quickInput(page)).toBeHidden();
  await expect.poll(() => workbenchTheme(page), { message: `the workbench theme to become ${theme}` }).toBe(theme);
}

/** Waits until the webview in `frame` follows `theme` (its body class). */
export async function expectWebviewTheme(frame: Frame, theme: Theme): Promise<void> {
  await expect(frame.locator('body')).toHaveClass(new RegExp(`\\b${THEMES[theme].webviewClass}\\b`));
}

/** Shows or hides the primary side bar. */
export async function setSideBarVisible(page: Page, visible: boolean): Promise<void> {
  const sideBar = page.locator('.part.sidebar');
  if ((await sideBar.isVisible()) === visible) return;
  await runPlainCommand(page, 'View: Toggle Primary Side Bar Visibility');
  if (visible) await expect(sideBar).toBeVisible();
  else await expect(sideBar).toBeHidden();
}

/** Workbench log lines that are expected offline (gallery look-ups, fonts) and say nothing. */
export const OFFLINE_NOISE = [
  /extensionGalleryService|marketplace|gallery|open-vsx|update\.code\.visualstudio|vscode-unpkg|vscode-cdn/i,
  /Failed to fetch|ERR_NAME_NOT_RESOLVED|ERR_INTERNET_DISCONNECTED|getaddrinfo|ENOTFOUND|net::ERR_/i,
  /Failed to load resource: the server responded with a status of 404/,
];

/** CSP violations in workbench log lines. */
export const CSP_VIOLATION = /Content.Security.Policy|Refused to (load|execute|apply)/i;
