// Stage-C: deterministic pre-checks (with JSON ranges), the four verifier views and what each one
// sees, the verifier pool, the report, the CLI.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadItemsList } from '../../../src/core/harness/delegation/run';
import { precheckItem } from '../../../src/core/harness/stageC/precheck';
import { precheckText } from '../../../src/core/harness/stageC/precheckFile';
import type { DelegationItem } from '../../../src/core/items/schemas';
import { startMockModelServer, type MockModelServer, type MockReply, type MockRequest } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';
import { DELEGATION_ITEMS, LEAKY_ITEM } from './helpers';

const items = loadItemsList(DELEGATION_ITEMS);
const clean = items.find((i) => i.id === 'deleg-en-0231') as DelegationItem;

/** A verifier that passes every view (C2 cannot answer); records which view each request was. */
function passingVerifier(seen: { view: string; text: string }[]): (r: MockRequest) => MockReply {
  return (r) => {
    const text = `${r.system}\n${r.userText}`;
    if (text.includes('Answer the question using ONLY the documents')) {
      seen.push({ view: 'C1', text });
      const m = /Document 1 \[([^\]]+)\][^\n]*\n(.{1,25})/.exec(r.userText);
      return {
        text: JSON.stringify({
          answer: '15.2 percentage points',
          evidence: [{ doc_id: m?.[1] ?? '', quote: m?.[2] ?? '' }],
          needs_outside_information: false,
          multiple_incompatible_answers: false,
          notes: '',
        }),
      };
    }
    if (text.includes('semantically equivalent')) {
      seen.push({ view: 'compare', text });
      return { text: JSON.stringify({ equivalent: !text.includes('I do not know'), reason: 'same value' }) };
    }
    if (text.includes('from your own knowledge alone')) {
      seen.push({ view: 'C2', text });
      return { text: JSON.stringify({ can_answer: false, answer: '', confidence: 0.1, shortcut_cues: [] }) };
    }
    if (text.includes('labelled irrelevant')) {
      seen.push({ view: 'C3', text });
      return {
        text: JSON.stringify({
          answer_bearing: false,
          intermediate_fact: false,
          duplicates_evidence: false,
          metadata_cue: false,
          severity: 'none',
          reason: 'noise',
        }),
      };
    }
    if (text.includes('Each distractor below')) {
      seen.push({ view: 'C4', text });
      const count = Number(/Distractors \((\d+)\)/.exec(text)?.[1] ?? 0);
      return {
        text: JSON.stringify({
          distractors: Array.from({ length: count }, (_, i) => ({
            index: i + 1,
            topically_relevant: true,
            plausibly_misleading: true,
            invalid_by_query_constraint: true,
            unconstrained_dimension: false,
            needs_private_knowledge: false,
            leaks_artificial: false,
            too_strong: false,
            arbitrary_fabrication: false,
            reason: 'year differs',
          })),
        }),
      };
    }
    return { text: '{}' };
  };
}

describe('harness stage-c: deterministic pre-checks', () => {
  it('the clean samples pass; the leaky sample fails on leakage, structure and self-reference', () => {
    for (const item of items) {
      const errors = precheckItem(item)
        .filter((f) => f.severity === 'error')
        .map((f) => f.check);
      if (item.id === 'deleg-en-0142') assert.deepEqual(errors.sort(), ['distractor_structure', 'self_reference', 'shortcut_leakage']);
      else assert.deepEqual(errors, [], `${item.id}`);
    }
  });

  it('finds copied values, missing audit fields, a foreign source_doc_key and test-sample phrases', () => {
    const item: DelegationItem = JSON.parse(JSON.stringify(clean));
    item.query = 'Equities beat bonds by 15.2 percentage points — by how much did NBIM equities beat fixed income in 2023?';
    (item.distractor_docs[0] as Record<string, unknown>).target_info_point = '';
    (item.distractor_docs[1] as Record<string, unknown>).source_doc_key = 'd99';
    delete (item.distractor_docs[2] as Record<string, unknown>).discriminating_constraint;
    item.irrelevant_docs[0].content += ' This is a test sample for the benchmark.';
    const f = precheckItem(item);
    const msg = (check: string) =>
      f
        .filter((x) => x.check === check)
        .map((x) => x.message)
        .join('\n');
    assert.match(msg('shortcut_leakage'), /15\.2/);
    assert.match(msg('distractor_structure'), /target_info_point is missing/);
    assert.match(msg('distractor_structure'), /source_doc_key "d99" is not a golden document/);
    assert.match(msg('distractor_structure'), /discriminating_constraint is missing/);
    assert.match(msg('self_reference'), /test sample/);
  });

  it('ranges point at the JSON location, in a JSON file, a JSON array and JSONL', () => {
    const text = readFileSync(LEAKY_ITEM, 'utf8');
    const { items: n, findings } = precheckText(text);
    assert.equal(n, 1);
    const leak = findings.find((f) => f.check === 'shortcut_leakage')!;
    const line = text.split('\n')[leak.range!.start.line - 1];
    assert.equal(line.slice(leak.range!.start.column - 1, leak.range!.end.column - 1), '16.1 percent');
    const self = findings.find((f) => f.check === 'self_reference')!;
    const selfLine = text.split('\n')[self.range!.start.line - 1];
    assert.equal(selfLine.slice(self.range!.start.column - 1, self.range!.end.column - 1), 'synthetic document');
    const value = JSON.parse(text);
    const array = JSON.stringify([JSON.parse(JSON.stringify(clean)), value], null, 1);
    const inArray = precheckText(array);
    assert.equal(inArray.items, 2);
    const a = inArray.findings.find((f) => f.check === 'shortcut_leakage')!;
    assert.equal(array.split('\n')[a.range!.start.line - 1].slice(a.range!.start.column - 1, a.range!.end.column - 1), '16.1 percent');
    const jsonl = `${JSON.stringify(clean)}\n${JSON.stringify(value)}\n`;
    const inLines = precheckText(jsonl);
    const b = inLines.findings.find((f) => f.check === 'shortcut_leakage')!;
    assert.equal(b.range!.start.line, 2);
    assert.equal(jsonl.split('\n')[1].slice(b.range!.start.column - 1, b.range!.end.column - 1), '16.1 percent');
  });

  it('CLI --precheck-only: file:line:col lines, exit 1 when an item fails, a Markdown report', async () => {
    const report = join(tempDir(), 'report.md');
    const r = await runCli(['harness', 'stage-c', DELEGATION_ITEMS, '--precheck-only', '--report', report]);
    assert.equal(r.code, 1);
    assert.match(r.out, /leaky-item\.json:3:62: error \[shortcut_leakage\] item deleg-en-0142/);
    assert.match(r.err, /2 of 3 item\(s\) pass/);
    const md = readFileSync(report, 'utf8');
    assert.match(md, /Accepted: 2 of 3/);
    const ok = await runCli(['harness', 'stage-c', join(DELEGATION_ITEMS, 'deleg-zh-0158-olympic-events.json'), '--precheck-only', '--json']);
    assert.equal(ok.code, 0);
    assert.equal(JSON.parse(ok.out)[0].findings.length, 0);
  });

  it('CLI --precheck-only on a broken file names where and why (it said "no Delegation items found")', async () => {
    const broken = join(tempDir(), 'items.json');
    writeFileSync(broken, '{"items": [ {"id": "a", ');
    const r = await runCli(['harness', 'stage-c', broken, '--precheck-only']);
    assert.equal(r.code, 1);
    assert.match(r.err, /items\.json:1:25: invalid JSON: expected '\}'/);
  });
});

describe('harness stage-c: verifier views C1–C4', () => {
  let server: MockModelServer;
  beforeEach(async () => {
    server = await startMockModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('each view sees only its controlled context; an item passes only if every view passes', async () => {
    const seen: { view: string; text: string }[] = [];
    server.script(passingVerifier(seen));
    const out = join(tempDir(), 'stagec');
    const pool = join(tempDir(), 'pool.json');
    writeFileSync(
      pool,
      JSON.stringify({
        verifiers: [
          { provider: 'openai', model: 'verifier-a', baseUrl: server.openaiBaseUrl },
          { provider: 'anthropic', model: 'verifier-b', baseUrl: server.anthropicBaseUrl },
        ],
      }),
    );
    const r = await runCli(['harness', 'stage-c', DELEGATION_ITEMS, '--verifiers', pool, '--out', out, '--json']);
    assert.equal(r.code, 0, r.err);
    const summary = JSON.parse(r.out);
    assert.equal(summary.accepted, '2 of 3', `the leaky item fails its pre-checks: ${r.out}`);
    const lines = readFileSync(join(out, 'stagec.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 3);
    const line = lines.find((l) => l.id === 'deleg-en-0231');
    assert.equal(line.passed, true);
    for (const v of ['C1', 'C2', 'C3', 'C4']) {
      assert.equal(line.views[v].passed, true);
      assert.deepEqual(
        line.views[v].verdicts.map((x: { verifier: string }) => x.verifier),
        ['openai:verifier-a', 'anthropic:verifier-b'],
      );
    }
    assert.ok(new Set(server.requests.map((q) => q.protocol)).size === 2, 'both verifiers were asked');
    const leaky = lines.find((l) => l.id === 'deleg-en-0142');
    assert.equal(leaky.passed, false);
    assert.match(leaky.views.C2.verdicts[0].reasons.join(' '), /shortcut cue \(pre-check\)/);

    const item = clean;
    const golden = item.golden_docs.map((d) => d.content.slice(0, 60));
    const distractors = item.distractor_docs.map((d) => d.content.slice(0, 60));
    const irrelevant = item.irrelevant_docs.map((d) => d.content.slice(0, 60));
    const labels = item.distractor_docs.flatMap((d) => [d.distractor_type, d.conflict_hint, d.discriminating_constraint] as string[]);
    const forItem = (v: string) => seen.filter((s) => s.view === v && s.text.includes(item.query));
    for (const s of forItem('C1')) {
      for (const g of golden) assert.ok(s.text.includes(g), 'C1 sees the golden documents');
      for (const d of [...distractors, ...irrelevant]) assert.ok(!s.text.includes(d), 'C1 sees no other document');
      for (const l of labels) assert.ok(!s.text.includes(l), 'C1 sees no construction label');
      assert.ok(!s.text.includes(String(item.golden_answer)), 'C1 answers before it sees the golden answer');
    }
    for (const s of forItem('C2')) {
      for (const d of [...golden, ...distractors, ...irrelevant]) assert.ok(!s.text.includes(d), 'C2 sees no document');
      assert.ok(!s.text.includes(String(item.golden_answer)));
    }
    assert.equal(forItem('C3').length, 2 * item.irrelevant_docs.length, 'C3 audits each irrelevant document on its own, per verifier');
    for (const s of forItem('C3')) {
      assert.equal(irrelevant.filter((d) => s.text.includes(d)).length, 1, 'one irrelevant document per request');
      for (const g of golden) assert.ok(!s.text.includes(g), 'C3 never sees the golden documents');
      for (const d of distractors) assert.ok(!s.text.includes(d));
      for (const l of labels) assert.ok(!s.text.includes(l));
    }
    for (const s of forItem('C4')) {
      for (const d of distractors) assert.ok(s.text.includes(d), 'C4 sees the distractors');
      for (const l of labels) assert.ok(s.text.includes(l), 'C4 sees their audit fields');
      for (const g of golden) assert.ok(!s.text.includes(g), 'golden documents are withheld in C4');
      for (const d of irrelevant) assert.ok(!s.text.includes(d));
    }
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    assert.match(report, /Accepted: 2 of 3/);
    assert.match(report, /\| deleg-en-0231 \| ✓ \| ✓ \| ✓ \| ✓ \| ✓ \| \*\*yes\*\* \|/);
    // Resuming does nothing more.
    const before = server.requests.length;
    const again = await runCli(['harness', 'stage-c', DELEGATION_ITEMS, '--verifiers', pool, '--out', out]);
    assert.equal(again.code, 0, again.err);
    assert.equal(server.requests.length, before);
  });

  it('a view fails when one verifier of the pool rejects (aggregate all), passes with majority of 2 of 3', async () => {
    const seen: { view: string; text: string }[] = [];
    const pass = passingVerifier(seen);
    server.script((r) => {
      if (r.model === 'strict' && `${r.userText}`.includes('from your own knowledge alone'))
        return { text: JSON.stringify({ can_answer: true, answer: 'about 15 points', confidence: 0.9, shortcut_cues: [] }) };
      return pass(r);
    });
    const base = ['harness', 'stage-c', join(DELEGATION_ITEMS, 'deleg-en-0231-oil-fund-equity-gap.json'), '--views', 'C2', '--base-url', server.openaiBaseUrl];
    const all = await runCli([...base, '--verifier', 'openai:strict', '--verifier', 'openai:lenient', '--out', join(tempDir(), 'a'), '--json']);
    assert.equal(all.code, 0, all.err);
    assert.equal(JSON.parse(all.out).accepted, '0 of 1');
    const majority = await runCli([
      ...base,
      '--verifier',
      'openai:strict',
      '--verifier',
      'openai:lenient',
      '--verifier',
      'openai:lenient2',
      '--aggregate',
      'majority',
      '--out',
      join(tempDir(), 'b'),
      '--json',
    ]);
    assert.equal(JSON.parse(majority.out).accepted, '1 of 1');
  });
});
