// The editor's forms while host updates arrive: what is being typed, and where the caret is,
// survive a re-render of the panel.
import type { Page } from '@playwright/test';
import type { HarnessWindow } from '../harness/pageGlobals';
import type { ToWebview } from '../../../src/shared/protocol';
import { expect, test, type EditorPage } from './editorTest';

/** Delivers `message` to the page as if the host had sent it. */
async function deliver(page: Page, message: ToWebview): Promise<void> {
  await page.evaluate((m) => (window as unknown as HarnessWindow).__harnessDeliver(m), message as unknown);
}

/** A host echo of an annotation edit made elsewhere (another editor of the file, an undo). */
function annotationFromElsewhere(editor: EditorPage, patch: Record<string, unknown>): ToWebview {
  const init = editor.host.sentOf('init')[0];
  return {
    type: 'annotation',
    recordId: editor.host.currentRecordId,
    annotation: { ...editor.host.annotation(), ...patch },
    records: init.records,
  };
}

function caret(page: Page): Promise<{ focused: string | null; start: number | null; end: number | null }> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLTextAreaElement | null;
    return { focused: active?.getAttribute('aria-label') ?? null, start: active?.selectionStart ?? null, end: active?.selectionEnd ?? null };
  });
}

test('typing in the rationale while a host update arrives: nothing typed is lost and the caret stays', async ({ openEditor }) => {
  const editor = await openEditor('small');
  const { page } = editor;
  const rationale = page.locator('.annotation textarea[aria-label="Rationale"]');
  await rationale.click();
  await page.keyboard.type('Trusted the wiki.');
  // The caret goes back before "wiki", as when correcting a word.
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
  const before = await caret(page);
  expect(before).toEqual({ focused: 'Rationale', start: 12, end: 12 });

  await deliver(page, annotationFromElsewhere(editor, { rootCause: 'candidate_mismanagement' }));
  await expect(page.locator('.annotation .cause-opt[data-id="candidate_mismanagement"]')).toHaveAttribute('aria-checked', 'true');

  await expect(rationale).toHaveValue('Trusted the wiki.');
  expect(await caret(page)).toEqual(before);
  await page.keyboard.type('fan ');
  await expect(rationale).toHaveValue('Trusted the fan wiki.');
  await page.locator('.tl-scroller').focus();
  await expect.poll(() => editor.host.postedOf('editAnnotation').at(-1)?.annotation.rationale).toBe('Trusted the fan wiki.');
  expect(editor.host.postedOf('editAnnotation').at(-1)!.annotation.rootCause).toBe('candidate_mismanagement');
});

test('typing in the annotator field and the span while host updates arrive keeps the typed text', async ({ openEditor }) => {
  const editor = await openEditor('small');
  const { page } = editor;
  const annotator = page.locator('.annotation vscode-textfield[aria-label="Annotator"]');
  await annotator.click();
  await page.keyboard.type('Ada');
  await deliver(page, annotationFromElsewhere(editor, { rootCause: 'candidate_mismanagement' }));
  await expect(page.locator('.annotation .cause-opt[data-id="candidate_mismanagement"]')).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.type(' L.');
  await expect.poll(() => annotator.evaluate((f) => (f as HTMLElement & { value: string }).value)).toBe('Ada L.');

  const spanStart = page.locator('.annotation vscode-textfield[aria-label="Tolerance span start"]');
  await spanStart.click();
  await page.keyboard.type('1');
  await deliver(page, annotationFromElsewhere(editor, { rootCause: 'other' }));
  await page.keyboard.type('2');
  await expect.poll(() => spanStart.evaluate((f) => (f as HTMLElement & { value: string }).value)).toBe('12');
});
