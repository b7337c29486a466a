// Editor screenshots of the format readers' fixtures (issue 15): each fixture opens in the
// trajectory editor through the real loader and shows its first rows (message i = source entry i);
// screenshots go to test-artifacts/webview/formats/<shot>.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../harness/paths';
import { expect, shotsDir, test } from './editorTest';

const formatsShots = join(shotsDir, 'formats');
const FIXTURES = join(repoRoot, 'test', 'fixtures', 'formats');

interface FormatCase {
  /** Screenshot name. */
  shot: string;
  /** The format id, which is also the fixture folder. */
  format: string;
  file: string;
  /** Rows of the first record, when the test checks the count. */
  rows?: number;
  /** Rows the first screen shows: position, role (the role cell's title) and a text they contain. */
  firstRows: { position: number; role: string; text: string }[];
}

const CASES: FormatCase[] = [
  {
    shot: 'inspect',
    format: 'inspect',
    file: 'web-research-2x2.json',
    rows: 8,
    firstRows: [
      {
        position: 1,
        role: 'user',
        text: 'Gallic rooster',
      },
      {
        position: 2,
        role: 'assistant',
        text: 'web_search',
      },
      {
        position: 3,
        role: 'tool',
        text: 'en.example.org',
      },
    ],
  },
  {
    shot: 'inspect-eval',
    format: 'inspect',
    file: 'web-research-2x2-zstd.eval',
    rows: 8,
    firstRows: [
      {
        position: 4,
        role: 'assistant',
        text: 'fetch_url',
      },
      {
        position: 7,
        role: 'assistant',
        text: 'ANSWER: Paris',
      },
    ],
  },
  {
    shot: 'atif',
    format: 'atif',
    file: 'danube-v1.0.json',
    rows: 5,
    firstRows: [
      {
        position: 1,
        role: 'user',
        text: 'Vienna and Budapest',
      },
      {
        position: 2,
        role: 'assistant',
        text: 'observation',
      },
    ],
  },
  {
    shot: 'atif-v1.7',
    format: 'atif',
    file: 'uranus-subagent-v1.7.json',
    rows: 8,
    firstRows: [
      {
        position: 2,
        role: 'assistant',
        text: 'delegate',
      },
      {
        position: 3,
        role: 'system',
        text: 'Context compacted',
      },
    ],
  },
  {
    shot: 'openhands',
    format: 'openhands',
    file: 'event-stream.json',
    firstRows: [
      {
        position: 0,
        role: 'system',
        text: 'You are OpenHands agent',
      },
      {
        position: 1,
        role: 'user',
        text: 'Fix the bug in textstat',
      },
      {
        position: 5,
        role: 'assistant',
        text: 'Let me find where syllable_count is defined.',
      },
      {
        position: 6,
        role: 'tool',
        text: 'def syllable_count',
      },
    ],
  },
  {
    shot: 'openhands-output',
    format: 'openhands',
    file: 'output.jsonl',
    firstRows: [
      {
        position: 1,
        role: 'user',
        text: 'Fix the bug in textstat',
      },
      {
        position: 7,
        role: 'assistant',
        text: "I'll read the function.",
      },
    ],
  },
  {
    shot: 'swe-agent',
    format: 'swe-agent',
    file: 'slugs-7.traj',
    firstRows: [
      {
        position: 0,
        role: 'system',
        text: 'You are a helpful assistant',
      },
      {
        position: 1,
        role: 'user',
        text: 'slugify',
      },
      {
        position: 2,
        role: 'assistant',
        text: 'Let me look at the repository layout first.',
      },
      {
        position: 3,
        role: 'tool',
        text: '/testbed/slugs/core.py',
      },
    ],
  },
  {
    shot: 'mini-swe-agent',
    format: 'mini-swe-agent',
    file: 'wc-fix.traj.json',
    firstRows: [
      {
        position: 1,
        role: 'user',
        text: 'The `wc` clone',
      },
      {
        position: 2,
        role: 'assistant',
        text: 'Look at the script first.',
      },
      {
        position: 3,
        role: 'tool',
        text: 'count_lines',
      },
    ],
  },
  {
    shot: 'claude-code',
    format: 'claude-code',
    file: 'session.jsonl',
    firstRows: [
      {
        position: 0,
        role: 'system',
        text: 'Fix leap-year bug in parseDate',
      },
      {
        position: 4,
        role: 'user',
        text: 'The test for parseDate fails for 2024-02-29',
      },
      {
        position: 7,
        role: 'assistant',
        text: 'Grep',
      },
    ],
  },
  {
    shot: 'codex',
    format: 'codex',
    file: 'rollout-2025-09-22T14-03-00-0199706a-3c1e-7b52-a0d4-5e8f21c9b7aa.jsonl',
    firstRows: [
      {
        position: 0,
        role: 'system',
        text: 'cli_version 0.39.0',
      },
      {
        position: 2,
        role: 'user',
        text: 'Add a --dry-run flag',
      },
      {
        position: 6,
        role: 'assistant',
        text: 'shell',
      },
    ],
  },
  {
    shot: 'codex-exec',
    format: 'codex',
    file: 'exec-json.jsonl',
    firstRows: [
      {
        position: 3,
        role: 'assistant',
        text: 'shell',
      },
      {
        position: 4,
        role: 'tool',
        text: 'FAIL test/slug.test.js',
      },
    ],
  },
  {
    shot: 'gemini-cli',
    format: 'gemini-cli',
    file: 'session-2025-10-03T16-20-3b6f0a2e.jsonl',
    firstRows: [
      {
        position: 1,
        role: 'user',
        text: 'Why does `npm run build` fail with TS2307',
      },
      {
        position: 4,
        role: 'assistant',
        text: 'read_file',
      },
    ],
  },
  {
    shot: 'gemini-cli-checkpoint',
    format: 'gemini-cli',
    file: 'checkpoint-render.json',
    firstRows: [
      {
        position: 2,
        role: 'user',
        text: 'Which file defines the render() function?',
      },
      {
        position: 4,
        role: 'tool',
        text: 'src/render.ts:7',
      },
    ],
  },
  {
    shot: 'tongyi-react',
    format: 'tongyi-react',
    file: 'webdancer-chatml.json',
    rows: 7,
    firstRows: [
      {
        position: 2,
        role: 'assistant',
        text: 'search',
      },
    ],
  },
  {
    shot: 'magentic-one',
    format: 'magentic-one',
    file: 'gaia-kestrel-bay.json',
    rows: 10,
    firstRows: [
      {
        position: 0,
        role: 'user',
        text: 'Lanterns Over Kestrel Bay',
      },
      {
        position: 1,
        role: 'assistant',
        text: 'Initial plan',
      },
    ],
  },
  {
    shot: 'tau-bench',
    format: 'tau-bench',
    file: 'retail-results.json',
    rows: 16,
    firstRows: [
      {
        position: 1,
        role: 'user',
        text: 'cancel an order',
      },
    ],
  },
  {
    shot: 'otel',
    format: 'otel',
    file: 'otlp-genai.json',
    rows: 4,
    firstRows: [
      {
        position: 0,
        role: 'system',
        text: 'research_agent',
      },
      {
        position: 1,
        role: 'assistant',
        text: 'web_search',
      },
    ],
  },
  {
    shot: 'langsmith',
    format: 'langsmith',
    file: 'agent-run-tree.json',
    rows: 4,
    firstRows: [
      {
        position: 0,
        role: 'system',
        text: 'AgentExecutor',
      },
      {
        position: 2,
        role: 'tool',
        text: '146 confirmed moons',
      },
    ],
  },
  {
    shot: 'camel',
    format: 'camel',
    file: 'owl-history.json',
    rows: 3,
    firstRows: [
      {
        position: 0,
        role: 'assistant',
        text: 'search_google',
      },
    ],
  },
  {
    shot: 'smolagents',
    format: 'smolagents',
    file: 'code-agent-memory.json',
    rows: 6,
    firstRows: [
      {
        position: 1,
        role: 'user',
        text: 'leopard',
      },
      {
        position: 2,
        role: 'assistant',
        text: 'python_interpreter',
      },
    ],
  },
  {
    shot: 'openai-agents',
    format: 'openai-agents',
    file: 'exporter-payload.json',
    rows: 10,
    firstRows: [
      {
        position: 0,
        role: 'system',
        text: 'Travel assistant',
      },
      {
        position: 3,
        role: 'assistant',
        text: 'get_weather',
      },
    ],
  },
];

test.beforeAll(() => mkdirSync(formatsShots, { recursive: true }));

for (const { shot, format, file, rows, firstRows } of CASES) {
  test(`${format}: ${file} opens with its first rows, screenshot ${shot}.png`, async ({ openEditor }) => {
    const { page } = await openEditor({ file: join(FIXTURES, format, file) }, { viewport: { width: 1280, height: 820 } });
    if (rows !== undefined) await expect(page.locator('.tl-row')).toHaveCount(rows);
    for (const row of firstRows) {
      const element = page.locator(`#tl-row-${row.position}`);
      await expect(element.locator('.tl-pos')).toHaveText(String(row.position));
      await expect(element.locator('.tl-role')).toHaveAttribute('title', new RegExp(`\\(?${row.role}\\)?`));
      await expect(element).toContainText(row.text);
    }
    await page.screenshot({ path: join(formatsShots, `${shot}.png`) });
  });
}
