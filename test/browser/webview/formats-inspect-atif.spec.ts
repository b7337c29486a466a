// Editor screenshots of the Inspect AI and Harbor ATIF fixtures (issue 15): each opens in the
// trajectory editor through the real loader (an .eval zip too) and shows its first rows;
// screenshots go to test-artifacts/webview/formats/<name>.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../harness/paths';
import { expect, shotsDir, test } from './editorTest';

const formatsShots = join(shotsDir, 'formats');
const FIXTURES = join(repoRoot, 'test', 'fixtures', 'formats');

// [screenshot name, format folder, fixture file, rows of the first record, rows it shows]
const CASES: [string, string, string, number, { position: number; role: string; text: string }[]][] = [
  [
    'inspect',
    'inspect',
    'web-research-2x2.json',
    8,
    [
      { position: 1, role: 'user', text: 'Gallic rooster' },
      { position: 2, role: 'assistant', text: 'web_search' },
      { position: 3, role: 'tool', text: 'en.example.org' },
    ],
  ],
  [
    'inspect-eval',
    'inspect',
    'web-research-2x2-zstd.eval',
    8,
    [
      { position: 4, role: 'assistant', text: 'fetch_url' },
      { position: 7, role: 'assistant', text: 'ANSWER: Paris' },
    ],
  ],
  [
    'atif',
    'atif',
    'danube-v1.0.json',
    5,
    [
      { position: 1, role: 'user', text: 'Vienna and Budapest' },
      { position: 2, role: 'assistant', text: 'observation' },
    ],
  ],
  [
    'atif-v1.7',
    'atif',
    'uranus-subagent-v1.7.json',
    8,
    [
      { position: 2, role: 'assistant', text: 'delegate' },
      { position: 3, role: 'system', text: 'Context compacted' },
    ],
  ],
];

test.beforeAll(() => mkdirSync(formatsShots, { recursive: true }));

for (const [name, format, file, rows, firstRows] of CASES) {
  test(`${format}: ${file} opens with its first rows, screenshot ${name}.png`, async ({ openEditor }) => {
    const { page } = await openEditor({ file: join(FIXTURES, format, file) }, { viewport: { width: 1280, height: 820 } });
    await expect(page.locator('.tl-row')).toHaveCount(rows);
    for (const row of firstRows) {
      const element = page.locator('.tl-row').nth(row.position);
      await expect(element.locator('.tl-pos')).toHaveText(String(row.position));
      await expect(element.locator('.tl-role')).toHaveAttribute('title', new RegExp(`\\(?${row.role}\\)?`));
      await expect(element).toContainText(row.text);
    }
    await page.screenshot({ path: join(formatsShots, `${name}.png`) });
  });
}
