// Editor screenshots of the coding-agent readers' fixtures (issue 15): an OpenHands event stream
// and evaluation output.jsonl, a SWE-agent .traj and a mini-swe-agent .traj.json open in the
// trajectory editor through the real loader and show their first rows (message i = source entry
// i); screenshots go to test-artifacts/webview/formats/<format id>.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../harness/paths';
import { expect, shotsDir, test } from './editorTest';

const formatsShots = join(shotsDir, 'formats');
const FIXTURES = join(repoRoot, 'test', 'fixtures', 'formats');

// [screenshot name, format id, fixture file, what the first rows show]
const CASES: [string, string, string, { position: number; role: string; text: string }[]][] = [
  [
    'openhands',
    'openhands',
    'event-stream.json',
    [
      { position: 0, role: 'system', text: 'You are OpenHands agent' },
      { position: 1, role: 'user', text: 'Fix the bug in textstat' },
      { position: 5, role: 'assistant', text: 'Let me find where syllable_count is defined.' },
      { position: 6, role: 'tool', text: 'def syllable_count' },
    ],
  ],
  [
    'openhands-output',
    'openhands',
    'output.jsonl',
    [
      { position: 1, role: 'user', text: 'Fix the bug in textstat' },
      { position: 7, role: 'assistant', text: "I'll read the function." },
    ],
  ],
  [
    'swe-agent',
    'swe-agent',
    'slugs-7.traj',
    [
      { position: 0, role: 'system', text: 'You are a helpful assistant' },
      { position: 1, role: 'user', text: 'slugify' },
      { position: 2, role: 'assistant', text: 'Let me look at the repository layout first.' },
      { position: 3, role: 'tool', text: '/testbed/slugs/core.py' },
    ],
  ],
  [
    'mini-swe-agent',
    'mini-swe-agent',
    'wc-fix.traj.json',
    [
      { position: 1, role: 'user', text: 'The `wc` clone' },
      { position: 2, role: 'assistant', text: 'Look at the script first.' },
      { position: 3, role: 'tool', text: 'count_lines' },
    ],
  ],
];

test.beforeAll(() => mkdirSync(formatsShots, { recursive: true }));

for (const [shot, format, file, firstRows] of CASES) {
  test(`${format}: ${file} opens with its first rows, screenshot ${shot}.png`, async ({ openEditor }) => {
    const { page } = await openEditor({ file: join(FIXTURES, format, file) }, { viewport: { width: 1280, height: 820 } });
    for (const row of firstRows) {
      const element = page.locator(`#tl-row-${row.position}`);
      await expect(element.locator('.tl-pos')).toHaveText(String(row.position));
      await expect(element.locator('.tl-role')).toHaveAttribute('title', new RegExp(`\\(?${row.role}\\)?`));
      await expect(element).toContainText(row.text);
    }
    await page.screenshot({ path: join(formatsShots, `${shot}.png`) });
  });
}
