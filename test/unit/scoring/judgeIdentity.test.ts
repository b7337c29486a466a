// Judge identity in the judgment cache (issue 17 item 5): a second judge is asked for every item,
// old cache lines are read as the manifest's judge or not reused, and the agreement of two judges
// (share alike, Cohen's κ) is in score --json and the report model.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cohenKappa } from '../../../src/core/scoring/agreement';
import { nuggetCoverageJudge } from '../../../src/core/scoring/judges/nuggetCoverage';
import { countingModel, type StructuredModel } from '../../../src/core/scoring/judges/llm';
import { buildReportModel } from '../../../src/core/scoring/report/reportModel';
import { scoreRunFolderSync } from '../../../src/core/scoring/scoreRunFolder';
import { startMockModelServer, type MockModelServer, type MockReply, type MockRequest } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';

const jsonl = (rows: unknown[]) => rows.map((r) => `${JSON.stringify(r)}\n`).join('');

// Five answers, one nugget each. Judge "judge-a" rejects answers marked REJECTA, "judge-b" those
// marked REJECTB: labels (a, b) = (full, full), (none, full), (full, none), (none, none), (full, full).
const ANSWERS = ['ANSWER-PLAIN-1', 'ANSWER-REJECTA', 'ANSWER-REJECTB', 'ANSWER-REJECTA-REJECTB', 'ANSWER-PLAIN-2'];

function nuggetsRun(manifestJudge?: unknown): string {
  const dir = tempDir();
  writeFileSync(
    join(dir, 'gold_nuggets.jsonl'),
    jsonl(ANSWERS.map((_, i) => ({ id: `i${i + 1}`, fused_query: `question ${i + 1}`, nuggets: [{ text: `fact ${i + 1}`, weight: 1 }] }))),
  );
  writeFileSync(join(dir, 'answers.jsonl'), jsonl(ANSWERS.map((answer, i) => ({ id: `i${i + 1}`, condition: 'orig', answer }))));
  if (manifestJudge !== undefined)
    writeFileSync(
      join(dir, 'trajaudit.run.json'),
      JSON.stringify({ kind: 'nuggets', gold: 'gold_nuggets.jsonl', answers: 'answers.jsonl', judge: manifestJudge }),
    );
  return dir;
}

function judgmentLines(dir: string): Record<string, unknown>[] {
  return readFileSync(join(dir, 'judgments.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("Cohen's κ (one rule for annotator and judge agreement)", () => {
  it('matches a hand computation for two categories', () => {
    // p_o = 7/10; p_e = 0.6·0.5 + 0.4·0.5 = 0.5; κ = (0.7 − 0.5) / 0.5 = 0.4.
    const a = ['y', 'y', 'y', 'y', 'y', 'y', 'n', 'n', 'n', 'n'];
    const b = ['y', 'y', 'y', 'y', 'n', 'n', 'y', 'n', 'n', 'n'];
    const kappa = cohenKappa(a.map((x, i) => [x, b[i]] as const));
    assert.ok(kappa !== null && Math.abs(kappa - 0.4) < 1e-12, String(kappa));
  });

  it('matches a hand computation for three categories', () => {
    // full/partial/none over 6 units: agree 4 (p_o = 2/3); A: f 3, p 2, n 1; B: f 2, p 2, n 2;
    // p_e = (3·2 + 2·2 + 1·2) / 36 = 1/3; κ = (2/3 − 1/3) / (2/3) = 0.5.
    const pairs = [
      ['full', 'full'],
      ['full', 'full'],
      ['full', 'partial'],
      ['partial', 'partial'],
      ['partial', 'none'],
      ['none', 'none'],
    ] as const;
    const kappa = cohenKappa(pairs);
    assert.ok(kappa !== null && Math.abs(kappa - 0.5) < 1e-12, String(kappa));
  });

  it('is null without units and when both raters use one label throughout', () => {
    assert.equal(cohenKappa([]), null);
    assert.equal(
      cohenKappa([
        ['y', 'y'],
        ['y', 'y'],
      ]),
      null,
    );
  });
});

describe('judge identity of the LLM judges', () => {
  const model: StructuredModel = { identity: { provider: 'anthropic', model: 'judge-c' }, complete: () => Promise.reject(new Error('not called')) };

  it('is the model (provider, model) and the prompt version, also through the progress counter of the extension', () => {
    const expected = { provider: 'anthropic', model: 'judge-c', prompt: 'nugget-coverage/v1' };
    assert.deepEqual(nuggetCoverageJudge(model).identity, expected);
    assert.deepEqual(nuggetCoverageJudge(countingModel(model, () => undefined)).identity, expected);
  });
});

describe('score: the judgment cache keys verdicts by judge (provider, model, prompt version)', function () {
  this.timeout(60_000);
  let server: MockModelServer;
  before(async () => {
    server = await startMockModelServer();
  });
  after(async () => server.close());

  const judges = (request: MockRequest): MockReply => {
    const rejected = request.model === 'judge-a' ? 'REJECTA' : 'REJECTB';
    const label = request.userText.includes(rejected) ? 'none' : 'full';
    return { text: JSON.stringify({ coverage: [{ nugget: 1, label, reason: 'mock' }] }) };
  };

  const score = async (dir: string, model?: string, extra: string[] = []) => {
    server.reset().script(judges);
    const args = model ? ['score', dir, '--json', '--model', model, '--base-url', server.openaiBaseUrl, ...extra] : ['score', dir, '--json', ...extra];
    const r = await runCli(args);
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    return { calls: server.requests.length, json: JSON.parse(r.out) as Record<string, unknown>, err: r.err };
  };

  it('a second judge is called for every item, the first judge again for none; score --json gives their agreement', async () => {
    const dir = nuggetsRun();
    const first = await score(dir, 'judge-a');
    assert.equal(first.calls, ANSWERS.length);
    assert.equal(first.json.judge_agreement, undefined, 'one judge: no agreement');
    const second = await score(dir, 'judge-b');
    assert.equal(second.calls, ANSWERS.length, 'the second judge judged every item itself');
    const again = await score(dir, 'judge-a');
    assert.equal(again.calls, 0, "the first judge's verdicts are still cached");

    // Each judge scored with its own verdicts: judge-a finds 3 of 5 answers full, judge-b 3 of 5 too, not the same ones.
    const lines = judgmentLines(dir);
    assert.equal(lines.length, 2 * ANSWERS.length);
    assert.deepEqual(lines[0].judge_identity, { provider: 'openai', model: 'judge-a', prompt: 'nugget-coverage/v1' });
    assert.equal(lines[0].judge, 'llm/nugget-coverage/v1', 'the judge id is kept for older readers');
    const byJudge = (model: string) =>
      lines
        .filter((l) => (l.judge_identity as { model: string }).model === model)
        .map((l) => `${String(l.id)}:${(l.coverage as string[])[0]}`)
        .sort();
    assert.deepEqual(byJudge('judge-a'), ['i1:full', 'i2:none', 'i3:full', 'i4:none', 'i5:full']);
    assert.deepEqual(byJudge('judge-b'), ['i1:full', 'i2:full', 'i3:none', 'i4:none', 'i5:full']);

    // p_o = 3/5; both judges 3 full, 2 none: p_e = 0.36 + 0.16 = 0.52; κ = 0.08 / 0.48 = 1/6.
    const offline = await score(dir);
    assert.equal(offline.calls, 0);
    const rows = offline.json.judge_agreement as { judge_a: string; judge_b: string; n: number; agreement: number; cohen_kappa: number }[];
    assert.equal(rows.length, 1);
    assert.equal(rows[0].judge_a, 'openai:judge-a:nugget-coverage/v1');
    assert.equal(rows[0].judge_b, 'openai:judge-b:nugget-coverage/v1');
    assert.equal(rows[0].n, 5);
    assert.equal(rows[0].agreement, 0.6);
    assert.ok(Math.abs(rows[0].cohen_kappa - 1 / 6) < 1e-9, String(rows[0].cohen_kappa));
    assert.deepEqual(again.json.judge_agreement, offline.json.judge_agreement, 'with a judge too');

    // The report model carries the same table; the Markdown report too.
    const result = scoreRunFolderSync(dir);
    const section = buildReportModel(result, { folderLabel: 'run', judgeMode: { model: false, text: 'cached' }, createdAt: 'now' }).model.sections.find(
      (s) => s.id === 'judge-agreement',
    );
    assert.ok(section, 'a judge agreement section');
    assert.deepEqual(
      section.tables[0].rows.map((r) => r.map((c) => c.text)),
      [['openai:judge-a:nugget-coverage/v1', 'openai:judge-b:nugget-coverage/v1', '5', '60.00%', '0.167']],
    );
    const md = join(dir, 'report.md');
    await runCli(['score', dir, '--out', md]);
    assert.match(
      readFileSync(md, 'utf8'),
      /Judge agreement[\s\S]*openai:judge-a:nugget-coverage\/v1 \| openai:judge-b:nugget-coverage\/v1 \| 5 \| 60\.00% \| 0\.167/,
    );
  });

  const oldLines = (dir: string) =>
    writeFileSync(
      join(dir, 'judgments.jsonl'),
      jsonl(ANSWERS.map((_, i) => ({ id: `i${i + 1}`, condition: 'orig', coverage: ['partial'], judge: 'llm/nugget-coverage/v1' }))),
    );

  it('old lines without judge_identity and no manifest judge: not reused for a model judge, still read offline', async () => {
    const dir = nuggetsRun();
    oldLines(dir);
    const offline = await score(dir);
    assert.equal(offline.calls, 0);
    assert.equal((offline.json.conditions as { orig: { n: number; mean: number } }).orig.n, ANSWERS.length);
    const judged = await score(dir, 'judge-a');
    assert.equal(judged.calls, ANSWERS.length, 'who made the old verdicts is unknown: the judge is asked');
    assert.equal(judged.json.judge_agreement, undefined, 'unattributed verdicts are in no agreement');
  });

  it("old lines are the manifest judge's: that judge reuses them, another judge is asked and compared with them", async () => {
    const dir = nuggetsRun({ provider: 'openai', model: 'judge-a' });
    oldLines(dir);
    assert.equal((await score(dir, 'judge-a')).calls, 0, "the manifest's judge reuses the old verdicts");
    const other = await score(dir, 'judge-b');
    assert.equal(other.calls, ANSWERS.length);
    // judge-a (old lines): partial ×5; judge-b: full, full, none, none, full → no unit alike.
    assert.deepEqual(other.json.judge_agreement, [
      { judge_a: 'openai:judge-a:nugget-coverage/v1', judge_b: 'openai:judge-b:nugget-coverage/v1', n: 5, agreement: 0, cohen_kappa: 0 },
    ]);
  });

  it('a bad manifest judge or judge_identity is a one-line error naming the file and the path', async () => {
    const badManifest = nuggetsRun({ provider: 'openai', model: 7 });
    const r1 = await runCli(['score', badManifest, '--json']);
    assert.equal(r1.code, 1);
    assert.match(r1.err, /trajaudit\.run\.json: at \$\.judge\.model: .*expected "judge" to be \{provider, model, prompt\?\}/);
    assert.doesNotMatch(r1.err, /\n\s+at /, 'no stack trace');

    const badLine = nuggetsRun();
    writeFileSync(
      join(badLine, 'judgments.jsonl'),
      jsonl([{ id: 'i1', condition: 'orig', coverage: ['full'], judge_identity: { provider: 'openai', model: 'judge-a' } }]),
    );
    const r2 = await runCli(['score', badLine, '--json']);
    assert.equal(r2.code, 1);
    assert.match(r2.err, /judgments\.jsonl:1:1: at \$\.judge_identity\.prompt: .*expected "judge_identity" to be \{provider\?, model\?, prompt\}/);
  });
});
