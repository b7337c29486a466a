// The trajectory editor in the real workbench: opening (Quick Open, "Open in Trajectory
// Auditor"), the keyboard (j/k/J, / and search), the outline, and the timeline's marker badges.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, uiArtifactsDir, VSIX_TAG } from './harness/workbenchTest';
import { activeTab, editorFrame, quickOpen, runCommand } from './harness/workbenchPage';
import { clickRow, expectRowInView, expectSelected, layoutMetrics, openSample, rowInView, visibleRowCount } from './harness/timeline';
import { SAMPLES } from './harness/workspace';

test('a1. Quick Open of a *.traj.json opens the Trajectory Auditor editor and the timeline renders', { tag: VSIX_TAG }, async ({ workbench: { page } }) => {
  const frame = await openSample(page, SAMPLES.footballer);
  expect((await activeTab(page))?.label).toContain(SAMPLES.footballer.name);
  // The custom editor, not the text editor.
  await expect(page.locator('.editor-group-container.active .editor-container .monaco-editor'), 'a text editor is showing').toHaveCount(0);
  await expect(frame.locator('.app-header-slot')).toContainText(SAMPLES.footballer.name);
  // The built-in tool names apply when the settings are unset (VS Code reads an unset array
  // setting as []): the sample's 17 search and 18 visit calls, 64 atomic operations, as the CLI counts them.
  await expect(frame.locator('.app-header-slot')).toContainText(/search\s*17/);
  await expect(frame.locator('.app-header-slot')).toContainText(/visit\s*18/);
  await expect(frame.locator('.app-header-slot')).toContainText(/atomic ops\s*64/);
  await expect(frame.locator('.tl-row[id]').first(), 'aria-setsize = message count').toHaveAttribute('aria-setsize', String(SAMPLES.footballer.messages));
  const layout = await layoutMetrics(frame);
  expect(layout.docOverflowX, 'horizontal overflow').toBeLessThanOrEqual(0);
});

test('a2. "Trajectory Auditor: Open in Trajectory Auditor" from the palette opens a plain .json trajectory', async ({ workbench: { page } }) => {
  await quickOpen(page, SAMPLES.whowhen.name);
  await expect(page.locator('.editor-group-container.active .monaco-editor .view-lines').first()).toBeVisible();
  await runCommand(page, 'Trajectory Auditor: Open in Trajectory Auditor');
  const frame = await editorFrame(page);
  await expect.poll(() => visibleRowCount(frame), { message: 'rows' }).toBeGreaterThan(3);
  expect((await activeTab(page))?.label).toContain(SAMPLES.whowhen.name);
  await expect(frame.locator('.app-header-slot'), 'the header names the who-and-when format').toContainText(/who-and-when/i);
});

test('b1. j / k move the selection (timeline focused); J jumps to the next decision step', async ({ workbench: { page } }) => {
  const frame = await openSample(page, SAMPLES.footballer);
  await clickRow(frame, 0);
  expect(await frame.evaluate(() => document.activeElement?.classList.contains('tl-scroller')), 'the click focuses the timeline').toBe(true);
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expectSelected(frame, 2, 'selection at 2 after j j');
  await page.keyboard.press('k');
  await expectSelected(frame, 1, 'selection at 1 after k');
  await expect(frame.locator('.tl-scroller')).toHaveAttribute('aria-activedescendant', 'tl-row-1');
  await page.keyboard.press('Shift+J');
  await expectSelected(frame, 2, 'J to decision step 2');
  await expect(frame.locator('#tl-row-2'), 'row 2 is a decision step').toHaveClass(/\bkind-decision\b/);
  await page.keyboard.press('k');
  await expectSelected(frame, 1, 'back to 1');
  await expect(frame.locator('.statusline')).toContainText('Message 1 (2 of 73)');
});

test('b2. / focuses the search box; typing finds matches (count shown); Enter reveals an off-screen one', async ({ workbench: { page } }) => {
  const frame = await openSample(page, SAMPLES.footballer);
  await clickRow(frame, 1);
  expect(await rowInView(frame, 15), 'row 15 starts off-screen').toBe(false);
  await page.keyboard.press('/');
  await expect.poll(() => frame.evaluate(() => !!document.activeElement?.closest('.search-input')), { message: 'the search box to have focus' }).toBe(true);
  await page.keyboard.type('almgren');
  const status = frame.locator('.search-status');
  // Almgren occurs in messages 15, 16, 43 and 44.
  await expect(status).toHaveText('4 matches');
  await page.keyboard.press('Enter');
  await expect(status).toHaveText('1 of 4');
  await expectSelected(frame, 15, 'message 15 selected');
  await expectRowInView(frame, 15);
  await expect(frame.locator('#tl-row-15'), 'row 15 marked as the current match').toHaveClass(/\bis-current-match\b/);
  await page.keyboard.press('Enter');
  await expect(status).toHaveText('2 of 4');
  await expectSelected(frame, 16, 'Enter moves to the next match (16)');
  await page.keyboard.press('Escape');
  await expect(status, 'Escape closes the search').toHaveText('');
});

test('c. clicking an outline entry selects and scrolls to that step', { tag: VSIX_TAG }, async ({ workbench: { page } }) => {
  const frame = await openSample(page, SAMPLES.footballer);
  await frame.locator('.ol-scroller').evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  // The next-to-last outline entry fully inside the scrolled outline, once the scroll has landed.
  const lateVisibleEntry = () =>
    frame.evaluate(() => {
      const box = document.querySelector('.ol-scroller')?.getBoundingClientRect();
      if (!box) return -1;
      const visible = [...document.querySelectorAll('.ol-item')].filter((i) => {
        const r = i.getBoundingClientRect();
        return r.top >= box.top && r.bottom <= box.bottom;
      });
      return Number(visible.at(-2)?.getAttribute('data-position') ?? -1);
    });
  await expect.poll(lateVisibleEntry, { message: 'a late outline entry is visible' }).toBeGreaterThan(40);
  const target = await lateVisibleEntry();
  expect(await rowInView(frame, target), `row ${target} starts off-screen`).toBe(false);
  await frame.locator(`.ol-item[data-position="${target}"]`).click();
  await expectSelected(frame, target);
  await expectRowInView(frame, target);
  await expect(frame.locator(`.ol-item[data-position="${target}"]`), 'the outline marks the entry current').toHaveClass(/\bis-current\b/);
  expect(await frame.evaluate(() => document.activeElement?.classList.contains('tl-scroller')), 'focus moves to the timeline').toBe(true);
  await page.keyboard.press('j');
  await expectSelected(frame, target + 1, 'j continues from the revealed step');
});

// Found while reviewing the screenshots: marker badges must not be cut off by the gutter.
test('f0. marker badges (critical, audit, branch, cited) in the timeline gutter and the outline are not clipped', async ({ workbench: { page } }) => {
  const frame = await openSample(page, SAMPLES.footballer);
  await clickRow(frame, 12);
  await page.keyboard.press('j'); // rows 16 (critical + cited + branch F) and 20 (audit + cited + branch B) into view
  await expect(frame.locator('#tl-row-20 .mk').first(), 'badges of rows 16 and 20 mounted').toBeAttached();
  const clipped = await frame.evaluate(() => {
    const out: string[] = [];
    const within = (el: Element, box: DOMRect, where: string) => {
      const b = el.getBoundingClientRect();
      if (b.width > 0 && (b.left < box.left - 0.5 || b.right > box.right + 0.5))
        out.push(
          `${where} badge "${el.textContent}" (${(el as HTMLElement).title}) at ${Math.round(b.left)}–${Math.round(b.right)} px, box ${Math.round(box.left)}–${Math.round(box.right)} px`,
        );
    };
    for (const g of document.querySelectorAll('.tl-row .tl-gutter')) {
      const box = g.getBoundingClientRect();
      for (const m of g.querySelectorAll('.mk')) within(m, box, `row ${(g.closest('.tl-row') as HTMLElement | null)?.dataset.position}`);
    }
    for (const item of document.querySelectorAll<HTMLElement>('.ol-item')) {
      const box = item.getBoundingClientRect();
      for (const m of item.querySelectorAll('.ol-badges .mk')) within(m, box, `outline ${item.dataset.position}`);
    }
    return out;
  });
  expect(clipped, 'badges cut off').toEqual([]);
  expect(await frame.locator('.tl-row .tl-gutter .mk').count()).toBeGreaterThan(0);
});

/** The audits of record 0 in a trajectory's sidecar (none when there is no sidecar yet). */
function sidecarAudits(trajectory: string): { method: string }[] {
  const sidecar = `${trajectory}.audit.json`;
  if (!existsSync(sidecar)) return [];
  return (JSON.parse(readFileSync(sidecar, 'utf8')) as { records: Record<string, { audits?: { method: string }[] }> }).records['0']?.audits ?? [];
}

test(
  'a3. Audit Trajectory from the palette (offline heuristic): the audit lands in the sidecar and the editor lists it',
  { tag: VSIX_TAG },
  async ({ workbench: { page, workspace } }) => {
    const trajectory = join(workspace, SAMPLES.auditFootballer.path);
    const before = sidecarAudits(trajectory).map((a) => a.method);
    const frame = await openSample(page, SAMPLES.auditFootballer);
    await runCommand(page, 'Trajectory Auditor: Audit Trajectory');
    const method = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Offline heuristic' }).first();
    await expect(method).toBeVisible();
    await method.click();
    await expect
      .poll(() => sidecarAudits(trajectory).map((a) => a.method), { message: 'a new heuristic audit in the sidecar', timeout: 30_000 })
      .toEqual([...before, 'heuristic']);
    await expect(frame.locator('.audit .sub-head')).toHaveText(`Audits (${before.length + 1})`);
    // The audited editor, as the demo check used to photograph it (test-artifacts/demo/audited.png).
    await page.screenshot({ path: join(uiArtifactsDir, 'audited.png') });
  },
);
