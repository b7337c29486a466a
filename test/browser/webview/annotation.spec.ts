// Annotating with the keyboard and the panel: each edit goes to the host as one whole annotation.
import { expect, press, reveal, test, type EditorPage } from './editorTest';

/** Reveals `position`, presses `key` and waits for the edit it posts. */
async function annotate(editor: EditorPage, position: number, key: string) {
  const before = editor.host.postedOf('editAnnotation').length;
  await reveal(editor, position);
  await press(editor.page, key);
  await expect.poll(() => editor.host.postedOf('editAnnotation').length).toBe(before + 1);
  // The host's echo is drawn before the next edit builds on it.
  await expect.poll(() => editor.host.sentOf('annotation').length).toBe(before + 1);
  return editor.host.postedOf('editAnnotation').at(-1)!;
}

test('c marks the selected decision step critical', async ({ openEditor }) => {
  const edit = await annotate(await openEditor('small'), 14, 'c');
  expect(edit.annotation.criticalStep).toBe(14);
  expect(edit.label).toBe('Set critical step 14');
  expect(edit.annotation.updatedAt ?? '').toMatch(/\d{4}-\d\d-\d\dT/);
});

test('[ and ] set the span start and end', async ({ openEditor }) => {
  const editor = await openEditor('small');
  await annotate(editor, 14, 'c');
  let edit = await annotate(editor, 12, '[');
  expect(edit.annotation.toleranceSpan).toEqual([12, 14]);
  expect(edit.annotation.criticalStep).toBe(14);
  edit = await annotate(editor, 16, ']');
  expect(edit.annotation.toleranceSpan).toEqual([12, 16]);
});

test('1 picks the first root cause, keeping the other fields, and its definition is shown', async ({ openEditor }) => {
  const editor = await openEditor('small');
  await annotate(editor, 14, 'c');
  await annotate(editor, 12, '[');
  await annotate(editor, 16, ']');
  await press(editor.page, '1');
  await expect.poll(() => editor.host.postedOf('editAnnotation').length).toBe(4);
  const edit = editor.host.postedOf('editAnnotation').at(-1)!;
  expect(edit.annotation).toMatchObject({ rootCause: 'candidate_mismanagement', criticalStep: 14, toleranceSpan: [12, 16] });
  await expect(editor.page.locator('.cause-def')).toContainText('fails to maintain, compare, or update candidate answers');
});

test('an invalid span is not sent and shows an inline error', async ({ openEditor }) => {
  const editor = await openEditor('small');
  await annotate(editor, 14, 'c');
  await annotate(editor, 12, '[');
  await annotate(editor, 16, ']');
  await reveal(editor, 20);
  await press(editor.page, '[');
  await expect(editor.page.locator('.annotation .field-msg.is-error').first()).toBeVisible();
  expect(editor.host.postedOf('editAnnotation')).toHaveLength(3);
});

test('c on a tool return is refused', async ({ openEditor }) => {
  const editor = await openEditor('small');
  await reveal(editor, 13);
  await press(editor.page, 'c');
  // Then a decision step: its edit is the first one posted.
  await annotate(editor, 14, 'c');
  expect(editor.host.postedOf('editAnnotation').map((e) => e.annotation.criticalStep)).toEqual([14]);
});

test('the rationale posts one edit on blur with the whole annotation; host undo re-renders the panel', async ({ openEditor }) => {
  const editor = await openEditor('small');
  const { page, host } = editor;
  await annotate(editor, 14, 'c');
  await press(page, '1');
  await expect.poll(() => host.postedOf('editAnnotation').length).toBe(2);
  const rationale = page.locator('.annotation textarea').first();
  await rationale.click();
  await page.keyboard.type('Trusted the fan wiki.');
  expect(host.postedOf('editAnnotation')).toHaveLength(2);
  await page.locator('.tl-scroller').focus();
  await expect.poll(() => host.postedOf('editAnnotation').length).toBe(3);
  const edit = host.postedOf('editAnnotation').at(-1)!;
  expect(edit.label).toBe('Edit rationale');
  expect(edit.annotation).toMatchObject({ rationale: 'Trusted the fan wiki.', rootCause: 'candidate_mismanagement', criticalStep: 14 });
  await expect(rationale).toHaveValue('Trusted the fan wiki.');
  await host.undo();
  await expect(rationale).toHaveValue('');
  expect(host.postedOf('editAnnotation')).toHaveLength(3);
});
