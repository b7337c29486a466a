// Editor screenshots of the coding-agent session readers' fixtures (issue 15): Claude Code,
// Codex CLI and Gemini CLI sessions open in the trajectory editor through the real loader (a
// JSONL session is one trajectory, message i = line i) and show their first rows; screenshots go
// to test-artifacts/webview/formats/<format id>.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../harness/paths';
import { expect, shotsDir, test } from './editorTest';

const formatsShots = join(shotsDir, 'formats');
const FIXTURES = join(repoRoot, 'test', 'fixtures', 'formats');

// [screenshot name, format id, fixture file, text the first rows show]
const CASES: [string, string, string, { position: number; role: string; text: string }[]][] = [
  [
    'claude-code',
    'claude-code',
    'session.jsonl',
    [
      { position: 0, role: 'system', text: 'Fix leap-year bug in parseDate' },
      { position: 4, role: 'user', text: 'The test for parseDate fails for 2024-02-29' },
      { position: 7, role: 'assistant', text: 'Grep' },
    ],
  ],
  [
    'codex',
    'codex',
    'rollout-2025-09-22T14-03-00-0199706a-3c1e-7b52-a0d4-5e8f21c9b7aa.jsonl',
    [
      { position: 0, role: 'system', text: 'cli_version 0.39.0' },
      { position: 2, role: 'user', text: 'Add a --dry-run flag' },
      { position: 6, role: 'assistant', text: 'shell' },
    ],
  ],
  [
    'codex-exec',
    'codex',
    'exec-json.jsonl',
    [
      { position: 3, role: 'assistant', text: 'shell' },
      { position: 4, role: 'tool', text: 'FAIL test/slug.test.js' },
    ],
  ],
  [
    'gemini-cli',
    'gemini-cli',
    'session-2025-10-03T16-20-3b6f0a2e.jsonl',
    [
      { position: 1, role: 'user', text: 'Why does `npm run build` fail with TS2307' },
      { position: 4, role: 'assistant', text: 'read_file' },
    ],
  ],
  [
    'gemini-cli-checkpoint',
    'gemini-cli',
    'checkpoint-render.json',
    [
      { position: 2, role: 'user', text: 'Which file defines the render() function?' },
      { position: 4, role: 'tool', text: 'src/render.ts:7' },
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
