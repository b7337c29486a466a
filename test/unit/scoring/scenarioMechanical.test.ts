// Seed 003 mechanically: zero fabrication and silent citations against the set's registered
// sources, the evidence-grade rule (no cross-grade citation), and `harness run-agent` over a
// scenario set collecting one deliverable per scenario into a run folder `score` reads.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadScenarioSet } from '../../../src/core/scoring/runs/scenariosRun';
import { checkDeliverable, normalizeUrl } from '../../../src/core/scoring/scenarios';
import { scoreRunFolderSync } from '../../../src/core/scoring/scoreRunFolder';
import { runCli, tempDir } from '../helpers';

const FIXTURES = resolve(__dirname, '..', '..', 'fixtures');
const SET_PATH = join(FIXTURES, 'scoring', 'scenario-set-small.json');
const SCENARIO_AGENT = join(FIXTURES, 'harness', 'scenario-agent.mjs');
const set = loadScenarioSet(SET_PATH);
const [A, B] = set.scenarios;
const S1 = 'https://www.anthropic.com/engineering/built-multi-agent-research-system';

describe('scenario deliverables checked mechanically (seed 003)', () => {
  it('normalizes URLs for comparison: scheme, www., host case, trailing slash and fragment', () => {
    assert.equal(normalizeUrl('http://WWW.Anthropic.com/engineering/built-multi-agent-research-system/#top'), normalizeUrl(S1));
    assert.notEqual(normalizeUrl('https://arxiv.org/abs/2402.14207'), normalizeUrl('https://arxiv.org/pdf/2402.14207'));
  });

  it('registered citations with their registered grades pass', () => {
    const check = checkDeliverable(set, A, `见 [S1](A 级) ${S1}/\n另见 S2,证据级别 B:https://github.com/stanford-oval/storm/blob/main/README.md。`);
    assert.deepEqual(check, { failures: [], silentCitations: [] });
  });

  it('an unregistered domain fails the E4 criterion, naming the URL; it is a silent citation', () => {
    const check = checkDeliverable(set, B, 'OpenAI 官方说先做 planner/verifier 分工:https://openai.com/index/deep-research-system-card。');
    assert.deepEqual(check.failures, [
      {
        criterion: 'TSB-B1',
        reason: 'cites https://openai.com/index/deep-research-system-card, not a registered source (domain openai.com is not registered)',
      },
    ]);
    assert.deepEqual(check.silentCitations, ['https://openai.com/index/deep-research-system-card']);
  });

  it('a page of a registered domain that is not registered, an unknown source id and a source outside registered_sources_allowed fail too', () => {
    const check = checkDeliverable(set, A, 'https://www.anthropic.com/news/made-up\n见 S7\n见 S3 https://example.org/not-allowed');
    assert.equal(check.failures.length, 1);
    assert.equal(check.failures[0].criterion, 'TSA-B1');
    assert.match(check.failures[0].reason, /https:\/\/www\.anthropic\.com\/news\/made-up, not a registered source \(a page of a registered domain/);
    assert.match(check.failures[0].reason, /cites S7, not a registered source \(no registered source has this id\)/);
    assert.match(check.failures[0].reason, /cites S3, not a registered source/, 'S3 is registered but not allowed');
    assert.match(check.failures[0].reason, /cites https:\/\/example\.org\/not-allowed/);
    assert.deepEqual(check.silentCitations.sort(), ['S3', 'S7', 'https://example.org/not-allowed', 'https://www.anthropic.com/news/made-up']);
  });

  it('an unregistered source flagged as blocked or unverified on its line is recorded, not fabricated', () => {
    for (const line of [
      'blocked_sources: https://openai.com/index/introducing-deep-research (403)',
      'OpenAI 的说法(D 级未复检):https://openai.com/index/introducing-deep-research',
      'https://openai.com/x — unverified, timed out',
    ])
      assert.deepEqual(checkDeliverable(set, B, line), { failures: [], silentCitations: [] }, line);
  });

  it('a cross-grade label fails the E3 criterion (no laundering); an unregistered URL labelled A or B does too', () => {
    const relabelled = checkDeliverable(set, A, `[S1](B 级) ${S1}`);
    assert.deepEqual(relabelled.failures, [
      { criterion: 'TSA-B2', reason: `labels ${S1} grade B, but S1 is registered as grade A; labels S1 grade B, but S1 is registered as grade A` },
    ]);
    const laundered = checkDeliverable(set, A, '证据级别 A:https://openai.com/research (未复检)');
    assert.deepEqual(laundered.failures, [{ criterion: 'TSA-B2', reason: 'labels https://openai.com/research grade A, but it is not a registered source' }]);
  });

  it('score: the gate fails naming the URL; a deterministic failure overrides a hit mark (with a note)', async () => {
    const dir = tempDir();
    copyFileSync(SET_PATH, join(dir, 'scenario-set.json'));
    const fabricated = 'https://openai.com/index/deep-research-system-card';
    writeFileSync(
      join(dir, 'results.jsonl'),
      [
        { scenario: 'TS-A', criteria: { 'TSA-A1': true, 'TSA-B1': true, 'TSA-B2': true }, silent_citations: 0, deliverable: `[S1](A 级) ${S1}` },
        { scenario: 'TS-B', criteria: { 'TSB-A1': true, 'TSB-B1': true, 'TSB-B2': true }, silent_citations: 0, deliverable: `OpenAI 官方说:${fabricated}` },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    const r = scoreRunFolderSync(dir);
    if (r.score.kind !== 'scenarios') throw new Error(r.score.kind);
    assert.deepEqual(r.score.scenarios['TS-B'], { a: 100, b: 0, veto_failed: true });
    assert.deepEqual(r.score.scenarios['TS-A'], { a: 100, b: 100, veto_failed: false });
    assert.equal(r.score.silent_citations, 1);
    assert.ok(
      r.score.gate.reasons.includes(`TS-B: TSB-B1 failed: cites ${fabricated}, not a registered source (domain openai.com is not registered)`),
      r.score.gate.reasons.join('\n'),
    );
    assert.ok(r.score.gate.reasons.includes(`silent_citations total 1 ≠ 0 (TS-B: ${fabricated})`), r.score.gate.reasons.join('\n'));
    assert.ok(r.notes.some((n) => n.startsWith('TS-B: TSB-B1 is marked hit in ') && n.includes(fabricated)));
    const cli = await runCli(['score', dir, '--json']);
    assert.equal(cli.code, 1);
    assert.match(cli.err, new RegExp(`gate failed: .*TSB-B1 failed: cites ${fabricated.replace(/[.]/g, '\\.')}`));
    const json = JSON.parse(cli.out) as { mechanical: Record<string, { criterion: string; reason: string }[]> };
    assert.deepEqual(Object.keys(json.mechanical), ['TS-B']);
  });

  it('harness run-agent over a scenario set: one deliverable per scenario, scored mechanically', async function () {
    this.timeout(60_000);
    const out = join(tempDir(), 'scenarios');
    const r = await runCli(['harness', 'run-agent', SET_PATH, '--command', `node ${SCENARIO_AGENT} --id {id}`, '--out', out, '--json']);
    assert.equal(r.code, 0, r.err);
    const manifest = JSON.parse(readFileSync(join(out, 'trajaudit.run.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.kind, 'scenarios');
    assert.equal(manifest.results, 'results.jsonl');
    assert.equal(resolve(out, String(manifest.scenarios)), SET_PATH);
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { scenario: string; criteria: object; deliverable: string });
    assert.deepEqual(lines.map((l) => l.scenario).sort(), ['TS-A', 'TS-B']);
    for (const l of lines) assert.deepEqual(l.criteria, {});
    const again = await runCli(['harness', 'run-agent', SET_PATH, '--command', `node ${SCENARIO_AGENT} --id {id}`, '--out', out, '--json']);
    assert.equal((JSON.parse(again.out) as { skipped: number }).skipped, 2, 'resumed: nothing runs twice');

    const scored = await runCli(['score', out, '--json']);
    assert.equal(scored.code, 1, 'the gate fails');
    assert.match(scored.err, /TS-B: TSB-B1 failed: cites https:\/\/openai\.com\/index\/deep-research-system-card, not a registered source/);
    assert.doesNotMatch(scored.err, /introducing-deep-research/, 'the blocked source recorded as 403 / 未复检 is not a fabrication');
    const score = JSON.parse(scored.out) as { mechanical: Record<string, unknown[]>; scenarios: Record<string, { b: number | null; veto_failed: boolean }> };
    assert.equal(score.scenarios['TS-B'].veto_failed, true);
    // TS-A cites only registered sources at their grades: nothing fails mechanically (its criteria
    // are left to the marks or the criterion judge, and without either count as not hit).
    assert.deepEqual(Object.keys(score.mechanical), ['TS-B']);
    assert.match(scored.err, /TS-A: no result for TSA-A1, TSA-B1, TSA-B2 \(counted as not hit\)/);
    const samples = await runCli(['harness', 'run-agent', SET_PATH, '--command', `node ${SCENARIO_AGENT}`, '--samples', '2', '--out', join(tempDir(), 's')]);
    assert.equal(samples.code, 2);
    assert.match(samples.err, /--samples N applies to deepsearchqa and delegation datasets \(pass@n\), not to a scenarios dataset/);
  });
});
