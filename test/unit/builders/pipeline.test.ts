// The builder's path end to end against the mock model server (issue 18, "Done when"):
// build items → build distractors → harness stage-c → build release on samples/builder/, every
// released item passing `validate`; and the Stage-A query constraints: a scripted reply that puts
// an answer token or a golden title into the query is regenerated, or dropped with the reason.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyReviewChanges } from '../../../src/core/items/blindReviews';
import { emptySidecar, writeSidecar } from '../../../src/core/sidecar/sidecarFile';
import { startMockModelServer, type MockModelServer, type MockRequest } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';
import { ADMIN, builderModel, EXPANDED_SEED, MARATHON, PENSION, POOL, SEEDS, WIND, type Synthesis } from './helpers';

const readJsonl = (path: string): any[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

describe('build items → build distractors → harness stage-c → build release', function () {
  this.timeout(60_000);
  let server: MockModelServer;
  beforeEach(async () => {
    server = await startMockModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('releases validated items; Stage C and human validation decisions are applied and trailed', async () => {
    server.script(builderModel({ c3: { p03: 'remove_document' }, memorized: [WIND] }));
    const dir = tempDir();
    const model = ['--base-url', server.openaiBaseUrl, '--model', 'builder-a'];
    const items = join(dir, 'items.jsonl');
    const a = await runCli(['build', 'items', '--pool', POOL, '--seeds', SEEDS, '--out', items, '--json', ...model]);
    assert.equal(a.code, 0, a.err);
    assert.equal(JSON.parse(a.out).items, 3);
    const built = readJsonl(items);
    for (const item of built) {
      assert.deepEqual(item.distractor_docs, []);
      assert.deepEqual(item.provenance.fields.query, { prompt: 'stage-a/v1/synthesize', model: 'openai:builder-a' });
      assert.equal(item.provenance.stage_a.subqueries_by.prompt, 'stage-a/v1/subqueries');
      assert.ok(Object.keys(item.provenance.stage_a.subqueries).length >= 2, 'every high-authority document was analysed');
      for (const doc of [...item.golden_docs, ...item.irrelevant_docs]) assert.equal(doc.authority, undefined, 'pool labels stay out of the item');
    }
    const withDistractors = join(dir, 'items+distractors.jsonl');
    const b = await runCli([
      'build',
      'distractors',
      '--items',
      items,
      '--pool',
      POOL,
      '--out',
      withDistractors,
      '--verifier',
      `openai:verifier-b@${server.openaiBaseUrl}`,
      '--json',
      ...model,
    ]);
    assert.equal(b.code, 0, b.err);
    const stageB = readJsonl(withDistractors);
    const pension = stageB.find((i) => i.query === PENSION.synthesis.query);
    assert.equal(
      pension.distractor_docs.length,
      1,
      'of three distractors, the one stating the answer and the one with no query-constrained difference are dropped',
    );
    assert.equal(pension.distractor_docs[0].distractor_type, 'slot_mismatch');
    assert.equal(pension.distractor_docs[0].doc_id, 'p13', 'ids in the form of the pool ids, none of them reused');
    const records = pension.provenance.stage_b.distractors;
    assert.equal(records.length, 3);
    assert.match(records[1].constraints['5_no_leakage'].reasons.join(' '), /states the golden answer/);
    assert.equal(records[1].constraints['2_query_constrained_difference'].by, 'not checked', 'no verifier call for a distractor a rule rejected');
    assert.equal(records[2].constraints['2_query_constrained_difference'].by, 'verifier');
    assert.equal(records[2].constraints['2_query_constrained_difference'].passed, false);
    assert.deepEqual(pension.provenance.fields.distractor_docs, {
      prompt: 'stage-b/v1/distractors',
      model: 'openai:builder-a',
      verifier: { prompt: 'stage-b/v1/verify', model: 'openai:verifier-b' },
    });
    const stageBTrail = readJsonl(join(dir, 'items+distractors.trail.jsonl'));
    assert.deepEqual(
      stageBTrail.map((t) => [t.stage, t.action, t.item_id]),
      [
        ['stage-b', 'drop_distractor', pension.id],
        ['stage-b', 'drop_distractor', pension.id],
      ],
    );

    const stageC = join(dir, 'stagec');
    const c = await runCli([
      'harness',
      'stage-c',
      withDistractors,
      '--verifier',
      'openai:verifier-c',
      '--base-url',
      server.openaiBaseUrl,
      '--out',
      stageC,
      '--json',
    ]);
    assert.equal(c.code, 0, c.err);
    assert.equal(JSON.parse(c.out).accepted, '1 of 3', 'wind is memorized (C2) and pension has a mislabelled document (C3)');

    // Three blind reviews of the marathon item: two find it unanswerable.
    const marathon = stageB.find((i) => i.query === MARATHON.synthesis.query);
    const sidecar = emptySidecar(withDistractors, 'x', 'delegation-item');
    applyReviewChanges(
      sidecar,
      ['ann1', 'ann2', 'ann3'].map((annotator, i) => ({
        itemId: marathon.id,
        annotator,
        review: { annotator, answerability: i === 0, shortcut_free: true, blind: true, updatedAt: '2026-12-01T00:00:00Z' },
      })),
    );
    const reviews = join(dir, 'reviews.audit.json');
    writeSidecar(reviews, sidecar);

    const released = join(dir, 'released.jsonl');
    const r = await runCli([
      'build',
      'release',
      '--items',
      withDistractors,
      '--stage-c',
      stageC,
      '--out',
      released,
      '--reviews',
      reviews,
      '--with-trail',
      join(dir, 'items.trail.jsonl'),
      '--with-trail',
      join(dir, 'items+distractors.trail.jsonl'),
      '--sample',
      '2',
      '--min-per-mode',
      '1',
      '--json',
    ]);
    assert.equal(r.code, 0, r.err);
    const summary = JSON.parse(r.out);
    assert.equal(summary.stage_c_accepted, 2);
    assert.equal(summary.released, 1);
    const pool = readJsonl(released);
    assert.deepEqual(
      pool.map((i) => i.id),
      [pension.id],
    );
    assert.deepEqual(
      pool[0].irrelevant_docs.map((d: { doc_id: string }) => d.doc_id),
      pension.irrelevant_docs.map((d: { doc_id: string }) => d.doc_id).filter((id: string) => id !== 'p03'),
      'the C3 remove_document removed p03 and kept the item',
    );
    const sample = readFileSync(summary.sample, 'utf8').trim().split('\n').sort();
    assert.deepEqual(sample, [pension.id, marathon.id].sort(), 'the review sample is drawn from the Stage-C-accepted pool, one per mode');
    const trail = readJsonl(summary.trail);
    const wind = stageB.find((i) => i.query === WIND.synthesis.query);
    const find = (stage: string, action: string, id: string) => trail.find((t) => t.stage === stage && t.action === action && t.item_id === id);
    assert.match(find('stage-c', 'drop_item', wind.id).reasons.join(' '), /C2 \(openai:verifier-c\): answered correctly from the query alone/);
    assert.equal(find('stage-c', 'remove_document', pension.id).doc_id, 'p03');
    assert.match(find('human-validation', 'drop_item', marathon.id).reasons.join(' '), /majority-negative on answerability \(2 of 3 reviewers\)/);
    assert.ok(find('stage-b', 'drop_distractor', pension.id), "the earlier stages' trails are joined");

    const v = await runCli(['validate', released, '--json']);
    assert.equal(v.code, 0, v.out);
    assert.equal(JSON.parse(v.out).errors, 0);
  });
});

describe('build items: the Stage-A query constraints', function () {
  this.timeout(30_000);
  let server: MockModelServer;
  beforeEach(async () => {
    server = await startMockModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  const leakAnswer: Synthesis = { ...PENSION.synthesis, query: 'Did listed equities beat bonds by 10.1 points at the Nordhavn municipal fund in 2023?' };
  const leakTitle: Synthesis = {
    ...PENSION.synthesis,
    query: "According to the fund's “Annual Report 2023: Key Figures”, by how many percentage points did listed equities beat bonds?",
  };

  async function buildPension(before: Synthesis[], attempts: string[] = []) {
    const seen: MockRequest[] = [];
    server.script(builderModel({ before: new Map([[PENSION, before]]), seen }));
    const dir = tempDir();
    const seeds = join(dir, 'seeds.txt');
    writeFileSync(seeds, 'What return did Nordhavn Municipal Pension Fund make on listed equities compared with bonds in 2023?\n');
    const out = join(dir, 'items.jsonl');
    const r = await runCli(['build', 'items', '--pool', POOL, '--seeds', seeds, '--out', out, '--base-url', server.openaiBaseUrl, '--model', 'm', ...attempts]);
    const synth = seen.filter((q) => q.system.includes('working backward from evidence'));
    return { r, out, trail: readJsonl(join(dir, 'items.trail.jsonl')), synth };
  }

  it('an answer token or a golden title in the query is regenerated, with the broken constraint named to the model', async () => {
    const { r, out, trail, synth } = await buildPension([leakAnswer, leakTitle]);
    assert.equal(r.code, 0, r.err);
    const [item] = readJsonl(out);
    assert.equal(item.query, PENSION.synthesis.query);
    assert.equal(item.provenance.stage_a.attempts, 3);
    assert.deepEqual(
      trail.map((t) => t.action),
      ['regenerate_item', 'regenerate_item'],
    );
    assert.match(trail[0].reasons.join(' '), /answer token "10\.1" of the golden answer "10\.1 percentage points"/);
    assert.match(trail[1].reasons.join(' '), /title of golden document p01 \("Annual Report 2023: Key Figures"\)/);
    assert.equal(synth.length, 3);
    assert.doesNotMatch(synth[0].userText, /broke these constraints/);
    assert.match(synth[1].userText, /broke these constraints[\s\S]*answer token "10\.1"/);
    assert.match(synth[2].userText, /broke these constraints[\s\S]*Annual Report 2023: Key Figures/);
  });

  it('an item that keeps breaking them is dropped with the reason; no item reaches the output', async () => {
    const { r, out, trail } = await buildPension([leakAnswer, leakTitle], ['--attempts', '2']);
    assert.equal(r.code, 1);
    assert.match(r.err, /no item was built; the reasons are in .*items\.trail\.jsonl/);
    assert.equal(readFileSync(out, 'utf8'), '');
    const drop = trail.find((t) => t.action === 'drop_item');
    assert.equal(drop.stage, 'stage-a');
    assert.match(drop.seed_query, /Nordhavn/);
    assert.match(drop.reasons.join(' '), /all 2 attempt\(s\)[\s\S]*title of golden document p01/);
  });
});

describe('build items: seed-query expansion and a retrieval command', function () {
  this.timeout(30_000);
  let server: MockModelServer;
  beforeEach(async () => {
    server = await startMockModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('expands the real seeds of a domain, retrieves with the command, analyses each high-authority document once', async () => {
    const seen: MockRequest[] = [];
    server.script(builderModel({ seen }));
    const dir = tempDir();
    const seeds = join(dir, 'seeds.txt');
    writeFileSync(seeds, '# finance\nWhat return did Nordhavn Municipal Pension Fund make on listed equities compared with bonds in 2023?\n');
    const out = join(dir, 'items.jsonl');
    const retrieve = `grep -i -e Nordhavn -e pension ${POOL}; : {query}`;
    const r = await runCli([
      'build',
      'items',
      '--seeds',
      seeds,
      '--domain',
      'finance',
      '--expand',
      '1',
      '--retrieve',
      retrieve,
      '--out',
      out,
      '--base-url',
      server.openaiBaseUrl,
      '--model',
      'm',
      '--json',
    ]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out).expanded_seeds, 1);
    const items = readJsonl(out);
    assert.deepEqual(
      items.map((i) => i.query),
      [PENSION.synthesis.query, ADMIN.synthesis.query],
    );
    assert.equal(items[0].domain, 'finance');
    assert.deepEqual(items[1].provenance.stage_a.seed_source, 'expanded');
    assert.equal(items[1].provenance.stage_a.seed_query, EXPANDED_SEED);
    assert.deepEqual(items[1].provenance.stage_a.seed_prompt, { prompt: 'stage-a/v1/seed-expansion', model: 'openai:m' });
    const expansion = seen.filter((q) => q.system.includes('You write new seed queries'));
    assert.equal(expansion.length, 1);
    assert.match(expansion[0].userText, /Domain: finance[\s\S]*1\. What return did Nordhavn/);
    const analysed = seen.filter((q) => q.system.includes('list the information needs')).map((q) => /Document 1 \[(\w+)\]/.exec(q.userText)?.[1]);
    assert.deepEqual([...analysed].sort(), ['p01', 'p02'], 'one subquery call per high-authority document, shared by both seeds');
  });
});

describe('build items / build distractors: a model that fails', function () {
  this.timeout(30_000);
  let server: MockModelServer;
  beforeEach(async () => {
    server = await startMockModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('a seed or item whose model calls fail is reported by name with exit 1, the others are written; no internal error', async () => {
    const model = builderModel();
    server.script((r) => (/Seed query:\n.*Riverton/.test(r.userText) ? { text: 'no JSON here' } : model(r)));
    const dir = tempDir();
    const items = join(dir, 'items.jsonl');
    const flags = ['--base-url', server.openaiBaseUrl, '--model', 'm', '--max-retries', '0'];
    const a = await runCli(['build', 'items', '--pool', POOL, '--seeds', SEEDS, '--out', items, ...flags]);
    assert.equal(a.code, 1);
    assert.doesNotMatch(a.err, /internal error/);
    assert.match(a.err, /failed "What was the winning time of the men's race at the 2024 Riverton City Marathon/);
    assert.equal(a.err.match(/failed "/g)?.length, 1, 'each failure is named once');
    assert.match(a.err, /1 seed quer\(ies\) failed; their items are not in .*items\.jsonl — rerun to build them/);
    assert.equal(readJsonl(items).length, 2);
    assert.equal(readFileSync(join(dir, 'items.trail.jsonl'), 'utf8'), '', 'a failure is no drop decision');

    server.script((r) =>
      r.system.includes('You write adversarial documents') && r.userText.includes(PENSION.synthesis.query) ? { text: '{"oops": 1}' } : model(r),
    );
    const out = join(dir, 'items+distractors.jsonl');
    const b = await runCli(['build', 'distractors', '--items', items, '--out', out, '--json', ...flags]);
    assert.equal(b.code, 1);
    const pension = readJsonl(items).find((i) => i.query === PENSION.synthesis.query);
    assert.deepEqual(
      JSON.parse(b.out).failed.map((f: { key: string }) => f.key),
      [pension.id],
    );
    assert.deepEqual(
      readJsonl(out).map((i) => i.query),
      [WIND.synthesis.query],
    );
  });
});
