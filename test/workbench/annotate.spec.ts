// Annotating through the UI: `c` marks the selected decision step critical, the tab turns dirty,
// Ctrl+S writes the sidecar (the trajectory file untouched), and an unsaved annotation survives a
// window reload through VS Code's hot exit.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from '@playwright/test';
import { test, expect, extensionLogs, waitForWorkbench } from './harness/workbenchTest';
import { activeTab, editorFrame, expectActiveTabDirty, runCommand } from './harness/workbenchPage';
import { clickRow, openSample, selectedPosition } from './harness/timeline';
import { SAMPLES } from './harness/workspace';

interface Sidecar {
  schema: string;
  trajectory?: { sha256?: string };
  records?: Record<string, { annotation?: { criticalStep?: number } }>;
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const annotations = (sidecar: Sidecar) =>
  Object.values(sidecar.records ?? {})
    .map((r) => r.annotation)
    .filter((a) => a !== undefined);

/** Presses J (next decision step) until the selection is a decision step other than `avoid`; returns it. */
async function selectDecisionStep(page: Page, frame: Frame, { presses = 1, avoid }: { presses?: number; avoid?: number } = {}): Promise<number> {
  let step = 0;
  for (let i = 0; i < 8 && (i < presses || step === 0 || step === avoid); i++) {
    const before = step;
    await page.keyboard.press('Shift+J');
    await expect.poll(() => selectedPosition(frame), { message: 'the next decision step selected' }).not.toBe(before);
    step = (await selectedPosition(frame)) ?? 0;
  }
  expect(step, 'a decision step other than the saved one').not.toBe(avoid);
  await expect(frame.locator(`#tl-row-${step}`), `row ${step} is a decision step`).toHaveClass(/\bkind-decision\b/);
  return step;
}

/** `c` on the selected step: the tab turns dirty and the row is marked critical. */
async function markCritical(page: Page, frame: Frame, step: number): Promise<void> {
  await page.keyboard.press('c');
  await expectActiveTabDirty(page, true);
  await expect(frame.locator(`#tl-row-${step}`), `row ${step} marked critical in the timeline`).toHaveClass(/\bis-critical\b/);
}

const readSidecar = (file: string): Sidecar => JSON.parse(readFileSync(file, 'utf8')) as Sidecar;

test('e. c marks the selected decision step critical: tab dirty, Ctrl+S writes the sidecar, tab clean', async ({ workbench: { page, workspace } }) => {
  const trajectory = join(workspace, SAMPLES.architect.path);
  const sidecar = `${trajectory}.audit.json`;
  expect(existsSync(sidecar), 'the sample has no sidecar to begin with').toBe(false);
  const shaBefore = sha256(trajectory);
  const frame = await openSample(page, SAMPLES.architect);
  await clickRow(frame, 0);
  const step = await selectDecisionStep(page, frame, { presses: 3 });
  expect((await activeTab(page))?.dirty, 'the tab starts clean').toBe(false);
  await markCritical(page, frame, step);
  // The field is a vscode-textfield (a custom element with a value property, not an <input>).
  await expect
    .poll(() => frame.evaluate(() => String((document.querySelector('.annotation .num-field') as HTMLInputElement | null)?.value)), {
      message: 'the annotation panel shows the critical step',
    })
    .toBe(String(step));
  await page.keyboard.press('Control+S');
  await expectActiveTabDirty(page, false);
  await expect.poll(() => existsSync(sidecar), { message: 'the sidecar on disk' }).toBe(true);
  const saved = readSidecar(sidecar);
  expect(
    annotations(saved).map((a) => a.criticalStep),
    'one annotated record, the critical step',
  ).toEqual([step]);
  expect(saved.schema).toBe('trajaudit.audit/v2');
  expect(saved.trajectory?.sha256, 'the sidecar records the trajectory hash').toBe(shaBefore);
  expect(sha256(trajectory), 'the trajectory file was not modified').toBe(shaBefore);
});

test('e2. an unsaved annotation survives Developer: Reload Window (hot exit): restored from the backup, tab dirty, sidecar untouched until Ctrl+S', async ({
  workbench: { page, workspace, userDataDir, dialogs },
}) => {
  test.setTimeout(150_000);
  const trajectory = join(workspace, SAMPLES.hotExitArchitect.path);
  const sidecar = `${trajectory}.audit.json`;
  // A saved annotation first: the reload must bring back the unsaved one, not the one on disk.
  let frame = await openSample(page, SAMPLES.hotExitArchitect);
  await clickRow(frame, 0);
  const savedStep = await selectDecisionStep(page, frame);
  await markCritical(page, frame, savedStep);
  await page.keyboard.press('Control+S');
  await expectActiveTabDirty(page, false);
  await expect.poll(() => existsSync(sidecar) && annotations(readSidecar(sidecar))[0]?.criticalStep, { message: 'the first annotation saved' }).toBe(savedStep);
  const savedText = readFileSync(sidecar, 'utf8');

  const step = await selectDecisionStep(page, frame, { avoid: savedStep });
  await markCritical(page, frame, step);
  // VS Code backs up dirty editors a moment after an edit (our provider logs each backup).
  await expect
    .poll(() => /backed up unsaved annotations of .*hot-exit-architect/.test(extensionLogs(userDataDir)), {
      timeout: 30_000,
      message: 'VS Code to back up the dirty editor',
    })
    .toBe(true);
  // "Developer: Reload Window" goes through the workbench's shutdown (backups, then the editor
  // state) like a desktop reload.
  const dialogsBefore = dialogs.length;
  const navigated = page.waitForEvent('framenavigated', { predicate: (f) => f === page.mainFrame(), timeout: 30_000 });
  await runCommand(page, 'Developer: Reload Window');
  await navigated;
  expect(dialogs.slice(dialogsBefore), 'the reload asked before unloading').toEqual([]);
  await waitForWorkbench(page);
  frame = await editorFrame(page, { timeout: 60_000 });
  await expect(frame.locator(`#tl-row-${step}`), `row ${step} critical again after the reload`).toHaveClass(/\bis-critical\b/, { timeout: 30_000 });
  await expectActiveTabDirty(page, true);
  expect(extensionLogs(userDataDir), 'the document was opened from the backup').toMatch(/restored unsaved annotations of .*hot-exit-architect/);
  expect(readFileSync(sidecar, 'utf8'), 'the sidecar on disk is untouched by the reload').toBe(savedText);
  await frame.locator(`#tl-row-${step}`).click();
  await page.keyboard.press('Control+S');
  await expectActiveTabDirty(page, false);
  await expect.poll(() => readFileSync(sidecar, 'utf8') !== savedText, { message: 'the sidecar rewritten' }).toBe(true);
  expect(annotations(readSidecar(sidecar))[0]?.criticalStep, 'the saved critical step is the one restored from the backup').toBe(step);
});
