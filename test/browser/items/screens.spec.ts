// Screenshots of every item view in light and dark (and blind review in high contrast) into
// test-artifacts/webview/items/.
import type { ItemFixture } from '../harness/itemFixtures';
import type { Theme } from '../harness/server';
import { expect, shot, test } from './itemTest';

const views: [ItemFixture, boolean, string, string][] = [
  ['deleg-en', false, 'deleg-full', '.ia-doc-golden'],
  ['deleg-multi', true, 'deleg-blind', '.ia-deleg.is-blind'],
  ['deleg-zh', false, 'deleg-zh-full', '.ia-doc-golden'],
  ['dsqa-csv', false, 'dsqa', '.ia-dsqa tbody tr'],
  ['clarify', false, 'clarify', '.ia-card'],
  ['scenarios', false, 'scenarios', '.ia-slist .ia-list-item'],
];

for (const theme of ['light', 'dark'] as Theme[]) {
  for (const [fixture, blind, name, drawn] of views) {
    test(`screenshot ${name}-${theme}`, async ({ openItems }) => {
      const { page } = await openItems(fixture, { theme, blind });
      await expect(page.locator(drawn).first()).toBeVisible();
      await shot(page, `${name}-${theme}`);
    });
  }
}

test('screenshot deleg-blind-hc', async ({ openItems }) => {
  const { page } = await openItems('deleg-en', { theme: 'hc', blind: true });
  await expect(page.locator('.ia-deleg.is-blind')).toBeVisible();
  await shot(page, 'deleg-blind-hc');
});
