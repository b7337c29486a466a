import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownText } from '../../../src/core/markdown/markdownText';
import { runCli, tempDir } from '../helpers';

const samples = join(__dirname, '..', '..', '..', 'samples');
const HOSTILE =
  '<img src=x onerror=alert(1)> <script>fetch("https://evil.example")</script> ![beacon](https://evil.example/p.png) [click](javascript:alert(1)) | cell break `code` **bold**';

/** What a Markdown renderer would turn into live HTML, a link, an image or a table cell. */
function assertInert(markdown: string): void {
  assert.doesNotMatch(markdown, /<(img|script|a|iframe)\b/i, 'raw HTML');
  assert.doesNotMatch(markdown, /(?<!\\)\[[^\]\n]*(?<!\\)\]\(/, 'a live link or image');
  assert.doesNotMatch(markdown, /(?<!\\)`code(?<!\\)`/, 'live code span');
}

describe('Markdown exports render model and trajectory text inert', () => {
  it('markdownText escapes HTML, links, images, code, emphasis and pipes, and keeps the text readable', () => {
    const escaped = markdownText(HOSTILE);
    assertInert(escaped);
    assert.equal(markdownText('a < b & c > d'), 'a &lt; b &amp; c &gt; d');
    assert.equal(markdownText('[x](y)'), '\\[x\\](y)');
    assert.equal(markdownText('one\n\ntwo  three'), 'one two three');
  });

  it('export-repairs --format md: the query, diagnosis and directives', async () => {
    const dir = tempDir();
    const trajectory = JSON.parse(readFileSync(join(samples, 'trajectories', 'openai-chat', 'browsecomp-footballer-penalties.traj.json'), 'utf8')) as {
      messages: { role: string; content: string }[];
    };
    const firstUser = trajectory.messages.find((m) => m.role === 'user');
    if (!firstUser) throw new Error('sample without a user message');
    firstUser.content = `Which club? ${HOSTILE}`;
    const file = join(dir, 'case.traj.json');
    writeFileSync(file, JSON.stringify(trajectory));
    const sidecar = JSON.parse(readFileSync(join(samples, 'trajectories', 'openai-chat', 'browsecomp-footballer-penalties.traj.json.audit.json'), 'utf8')) as {
      trajectory: { file: string };
      records: Record<string, { audits: { model: string; diagnosis: { rationale: string }; repair: { directives: string[] } }[] }>;
    };
    sidecar.trajectory.file = 'case.traj.json';
    for (const audit of sidecar.records['0'].audits) {
      audit.diagnosis.rationale = `The agent stopped. ${HOSTILE}`;
      audit.repair.directives = [`Verify first. ${HOSTILE}`, '<details open><summary>x</summary></details>'];
      audit.model = '<b>model</b>';
    }
    writeFileSync(`${file}.audit.json`, JSON.stringify(sidecar));
    const { code, out, err } = await runCli(['export-repairs', file, '--format', 'md']);
    assert.equal(code, 0, err);
    assert.match(out, /&lt;img src=x onerror=alert\(1\)&gt;/, 'the text is still there, as text');
    assertInert(out);
    assert.doesNotMatch(out, /<(details|summary|b)>/);
  });

  it('score --out report.md: notes and table cells from the run folder', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'gold_nuggets.jsonl'), JSON.stringify({ id: 'i1', fused_query: 'q', nuggets: [{ text: 'a', weight: 1 }] }));
    writeFileSync(join(dir, 'judgments.jsonl'), JSON.stringify({ id: 'i1', condition: `orig${HOSTILE}`, coverage: ['full'] }));
    const report = join(dir, 'report.md');
    const { code, err } = await runCli(['score', dir, '--out', report]);
    assert.equal(code, 0, err);
    const markdown = readFileSync(report, 'utf8');
    assert.match(markdown, /&lt;script&gt;/);
    assertInert(markdown);
  });
});
