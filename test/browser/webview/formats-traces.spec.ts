// Editor screenshots of the trace-export and chat-log readers' fixtures (issue 15): each opens in
// the trajectory editor through the real loader and shows its first rows; screenshots go to
// test-artifacts/webview/formats/<format id>.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../harness/paths';
import { expect, shotsDir, test } from './editorTest';

const formatsShots = join(shotsDir, 'formats');
const FIXTURES = join(repoRoot, 'test', 'fixtures', 'formats');

// [format id, fixture file, the row count of its first record, text the first rows show]
const CASES: [string, string, number, { position: number; role: string; text: string }[]][] = [
  ['tongyi-react', 'webdancer-chatml.json', 7, [{ position: 2, role: 'assistant', text: 'search' }]],
  [
    'magentic-one',
    'gaia-kestrel-bay.json',
    10,
    [
      { position: 0, role: 'user', text: 'Lanterns Over Kestrel Bay' },
      { position: 1, role: 'assistant', text: 'Initial plan' },
    ],
  ],
  ['tau-bench', 'retail-results.json', 16, [{ position: 1, role: 'user', text: 'cancel an order' }]],
  [
    'otel',
    'otlp-genai.json',
    4,
    [
      { position: 0, role: 'system', text: 'research_agent' },
      { position: 1, role: 'assistant', text: 'web_search' },
    ],
  ],
  [
    'langsmith',
    'agent-run-tree.json',
    4,
    [
      { position: 0, role: 'system', text: 'AgentExecutor' },
      { position: 2, role: 'tool', text: '146 confirmed moons' },
    ],
  ],
  ['camel', 'owl-history.json', 3, [{ position: 0, role: 'assistant', text: 'search_google' }]],
  [
    'smolagents',
    'code-agent-memory.json',
    6,
    [
      { position: 1, role: 'user', text: 'leopard' },
      { position: 2, role: 'assistant', text: 'python_interpreter' },
    ],
  ],
  [
    'openai-agents',
    'exporter-payload.json',
    10,
    [
      { position: 0, role: 'system', text: 'Travel assistant' },
      { position: 3, role: 'assistant', text: 'get_weather' },
    ],
  ],
];

test.beforeAll(() => mkdirSync(formatsShots, { recursive: true }));

for (const [format, file, rows, firstRows] of CASES) {
  test(`${format}: ${file} opens with its first rows, screenshot ${format}.png`, async ({ openEditor }) => {
    const { page } = await openEditor({ file: join(FIXTURES, format, file) }, { viewport: { width: 1280, height: 820 } });
    await expect(page.locator('.tl-row')).toHaveCount(rows);
    for (const row of firstRows) {
      const element = page.locator(`.tl-row`).nth(row.position);
      await expect(element.locator('.tl-pos')).toHaveText(String(row.position));
      await expect(element.locator('.tl-role')).toHaveAttribute('title', new RegExp(`\\(?${row.role}\\)?`));
      await expect(element).toContainText(row.text);
    }
    await page.screenshot({ path: join(formatsShots, `${format}.png`) });
  });
}
