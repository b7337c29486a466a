import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scoreRunFolderSync } from '../../../src/core/scoring/scoreRunFolder';
import { runCli, tempDir } from '../helpers';

const SAMPLES = join(__dirname, '../../../samples/runs');

/** docs/cli.md §4 `score --json` keys by kind. */
const KEYS: Record<string, string[]> = {
  audit: ['kind', 'n', 'metrics', 'per_class', 'confusion'],
  deepsearchqa: ['kind', 'n', 'metrics', 'ci95', 'by_answer_type', 'by_category', 'pass_at'],
  nuggets: ['kind', 'conditions', 'improvement'],
  scenarios: ['kind', 'scenarios', 'dimensions', 'a_total', 'a_mean', 'gate', 'mechanical'],
  delegation: ['kind', 'n', 'metrics', 'by_setting', 'by_order', 'by_mode', 'by_language', 'by_domain', 'by_distractor_type'],
};
const METRIC_KEYS: Record<string, string[]> = {
  audit: ['cs_strict', 'cs_loose', 'rc_acc', 'rc_f1', 'diag', 'rep_at_diag', 'fps'],
  deepsearchqa: ['f1', 'precision', 'recall', 'fully_correct', 'fully_incorrect', 'partially_correct', 'correct_with_extraneous'],
};

/** A snapshot of a folder's files and contents: scoring must not change a run folder (exact judge). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const path = join(dir, name);
    try {
      out[name] = readFileSync(path, 'utf8');
    } catch {
      /* folder */
    }
  }
  return out;
}

describe('trajaudit score on samples/runs/*', () => {
  const expected = ['audit-gold-pred', 'deepsearchqa-run', 'delegation-run', 'nuggets-run', 'scenarios-run'];
  for (const name of expected) {
    it(`${name}: --json prints exactly the docs/cli.md keys`, async function () {
      const dir = join(SAMPLES, name);
      if (!existsSync(dir)) this.skip();
      const before = snapshot(dir);
      const r = await runCli(['score', dir, '--json']);
      const doc = JSON.parse(r.out);
      assert.deepEqual(Object.keys(doc), KEYS[doc.kind], r.err);
      if (METRIC_KEYS[doc.kind]) assert.deepEqual(Object.keys(doc.metrics), METRIC_KEYS[doc.kind]);
      if (doc.kind === 'audit') {
        for (const row of Object.values(doc.confusion) as Record<string, number>[]) assert.equal(Object.keys(row).length, 7);
        assert.equal(Object.keys(doc.per_class).length, 6);
      }
      if (doc.kind === 'deepsearchqa') assert.deepEqual(Object.keys(doc.ci95), METRIC_KEYS.deepsearchqa);
      if (doc.kind === 'nuggets') {
        for (const c of Object.values(doc.improvement) as { mean: number; ci95: unknown }[]) assert.deepEqual(Object.keys(c), ['mean', 'ci95']);
      }
      assert.equal(r.code, doc.kind === 'scenarios' && !doc.gate.passed ? 1 : 0, r.err);
      assert.match(r.err, /^trajaudit score: kind \w+ \(/);
      assert.deepEqual(snapshot(dir), before, 'scoring changed the sample folder');
    });
  }

  it('the readable table and the Markdown report', async function () {
    const dir = join(SAMPLES, 'deepsearchqa-run');
    if (!existsSync(dir)) this.skip();
    const out = join(tempDir(), 'report.md');
    const r = await runCli(['score', dir, '--out', out]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /kind deepsearchqa \(trajaudit\.run\.json says "kind": "deepsearchqa"\)/);
    assert.match(r.out, /fully correct/);
    assert.match(r.out, /judge: \d+ cached \(\d+ judge call\(s\) saved\)/);
    const md = readFileSync(out, 'utf8');
    assert.match(md, /^# Score report: /);
    assert.match(md, /\| metric \| value \| ci95 \|/);
  });
});

describe('run-folder detection and CLI errors', () => {
  it('says why it chose a kind, and what is missing', () => {
    const dir = tempDir();
    assert.throws(() => scoreRunFolderSync(dir), /cannot tell the run kind: no trajaudit\.run\.json, and none of gold\.jsonl \+ predictions\.jsonl \(audit\)/);
    writeFileSync(join(dir, 'responses.jsonl'), '{"id": "0", "response": "x"}\n');
    assert.throws(() => scoreRunFolderSync(dir), /deepsearchqa run \(no manifest; found responses\.jsonl\) lacks the DeepSearchQA dataset/);
    writeFileSync(join(dir, 'trajaudit.run.json'), '{"kind": "deepsearchqa", "dataset": "missing.csv"}');
    assert.throws(() => scoreRunFolderSync(dir), /missing\.csv: not found \(the dataset file of this deepsearchqa run\)/);
    writeFileSync(join(dir, 'trajaudit.run.json'), '{"kind": "deepsearch"}');
    assert.throws(
      () => scoreRunFolderSync(dir),
      /trajaudit\.run\.json:1:\d+: at \$\.kind: expected "kind" to be one of audit, deepsearchqa, nuggets, scenarios, delegation/,
    );
    assert.throws(() => scoreRunFolderSync(join(dir, 'responses.jsonl')), /is a file; expected a run folder/);
    assert.throws(() => scoreRunFolderSync(join(dir, 'nope')), /no such folder/);
  });

  it('a malformed file the detection needed is reported with its own line:column', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'results.jsonl'), '{"scenario": "S1", "criteria": {}}\n');
    writeFileSync(join(dir, 'set.json'), '{"meta": {},\n "scenarios": [,]}');
    assert.throws(() => scoreRunFolderSync(dir), /set\.json:2:\d+: invalid JSON/);
    const items = tempDir();
    writeFileSync(join(items, 'outputs.jsonl'), '{"id": "X", "setting": "full", "answer": "a", "cited_doc_ids": []}\n');
    writeFileSync(join(items, 'item.json'), '{"id": "X", "golden_docs": [}');
    assert.throws(() => scoreRunFolderSync(items), /item\.json:1:\d+: invalid JSON/);
  });

  it('manifest paths are relative to the folder', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data', 'g.jsonl'), '{"id": "a", "critical_step": 1, "root_cause": "unsupported_answer"}\n');
    writeFileSync(join(dir, 'data', 'p.jsonl'), '{"id": "a", "critical_step": 1, "root_cause": "unsupported_answer"}\n');
    writeFileSync(join(dir, 'trajaudit.run.json'), JSON.stringify({ kind: 'audit', gold: 'data/g.jsonl', predictions: 'data/p.jsonl' }));
    const r = scoreRunFolderSync(dir);
    assert.equal(r.detection.reason, 'trajaudit.run.json says "kind": "audit"');
    if (r.score.kind !== 'audit') throw new Error('kind');
    assert.equal(r.score.metrics.diag, 1);
  });

  it('an absolute manifest path is taken as it is (a dataset shared by several runs)', () => {
    const shared = tempDir();
    writeFileSync(join(shared, 'g.jsonl'), '{"id": "a", "critical_step": 1, "root_cause": "unsupported_answer"}\n');
    const dir = tempDir();
    writeFileSync(join(dir, 'predictions.jsonl'), '{"id": "a", "critical_step": 2, "root_cause": "unsupported_answer"}\n');
    writeFileSync(join(dir, 'trajaudit.run.json'), JSON.stringify({ kind: 'audit', gold: join(shared, 'g.jsonl'), predictions: 'predictions.jsonl' }));
    const r = scoreRunFolderSync(dir);
    if (r.score.kind !== 'audit') throw new Error('kind');
    assert.equal(r.score.metrics.diag, 0);
  });

  it('exit codes: 1 with a one-line message for bad input, 2 for wrong usage', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'gold.jsonl'), '{"id": "a", "critical_step": -1}\n');
    writeFileSync(join(dir, 'predictions.jsonl'), '\n');
    const bad = await runCli(['score', dir, '--json']);
    assert.equal(bad.code, 1);
    assert.equal(bad.out, '');
    assert.equal(bad.err.split('\n').length, 1);
    assert.match(bad.err, /gold\.jsonl:1:\d+: at \$\.critical_step: expected a position ≥ 0/);
    assert.equal((await runCli(['score'])).code, 2);
    assert.equal((await runCli(['score', dir, dir])).code, 2);
    assert.equal((await runCli(['score', dir, '--partial', '2'])).code, 2);
    assert.equal((await runCli(['score', dir, '--judge', 'llm'])).code, 2);
  });
});
