// The builders' deterministic parts: the Stage-A query and evidence constraints, the Stage-B
// validity rules, the Stage-C decisions, the review sample, majority-negative reviews, and how
// the inputs are read.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { distractorIds, ruleChecks, statesAnswer } from '../../../src/core/builders/items/distractors';
import { loadDocumentPool, parseDocuments, parseSeeds, retrieveWithCommand } from '../../../src/core/builders/items/documents';
import { answerTokens, evidenceSpanViolations, queryViolations } from '../../../src/core/builders/items/queryConstraints';
import { applyStageC, majorityNegative, stratifiedSample, type StageCLineLike } from '../../../src/core/builders/items/release';
import type { DelegationItem } from '../../../src/core/items/schemas';
import { applyReviewChanges } from '../../../src/core/items/blindReviews';
import { emptySidecar, writeSidecar } from '../../../src/core/sidecar/sidecarFile';
import { runCli, tempDir } from '../helpers';
import { PENSION, POOL, SEEDS } from './helpers';

const pool = loadDocumentPool(POOL);
const doc = (id: string) => pool.find((d) => d.doc_id === id)!;
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v));

/** The pension item as Stage A writes it. */
function pensionItem(): DelegationItem {
  const s = PENSION.synthesis;
  const strip = (id: string) => {
    const { authority: _authority, ...rest } = doc(id);
    return rest;
  };
  return {
    id: 'built-1',
    query: s.query,
    golden_answer: s.golden_answer,
    golden_docs: s.golden_doc_ids.map(strip),
    irrelevant_docs: s.irrelevant_doc_ids.map(strip),
    distractor_docs: [],
    evidence_spans: s.evidence_spans,
    reasoning_steps: s.reasoning_steps,
    mode: 'timeliness',
    language: 'en',
  } as DelegationItem;
}

describe('Stage A: the query constraints', () => {
  const golden = [doc('p01'), doc('p02')];

  it('answer tokens: the values of a numeric answer, the words of a named answer, a year only when the answer is one', () => {
    assert.deepEqual(answerTokens('10.1 percentage points'), ['10.1']);
    assert.deepEqual(answerTokens('49 seconds, in 2024'), ['49']);
    assert.deepEqual(answerTokens('Hanna Lind'), ['hanna', 'lind']);
    assert.deepEqual(answerTokens('March 2024'), ['march']);
    assert.deepEqual(answerTokens('2019'), ['2019']);
    assert.deepEqual(answerTokens('北京'), ['北京']);
  });

  it('a clean query passes; the whole answer, an answer value or an answer word in it does not', () => {
    assert.deepEqual(queryViolations(PENSION.synthesis.query, '10.1 percentage points', golden), []);
    assert.match(queryViolations('Was it 10.1 percentage points in 2023?', '10.1 percentage points', golden).join(), /contains the golden answer/);
    assert.match(queryViolations('Did equities beat bonds by 10.1 points in 2023?', '10.1 percentage points', golden).join(), /answer token "10\.1"/);
    assert.deepEqual(queryViolations('Did equities beat bonds by 10.15 points in 2023?', '10.1 percentage points', golden), [], 'a different value is no copy');
    assert.match(queryViolations('Which runner, Lind or Wanjiru, won the 2024 women’s race?', 'Hanna Lind', golden).join(), /answer token "lind"/);
    assert.match(queryViolations('哪座城市是北京奥运会的主办城市？', '北京', []).join(), /北京/);
  });

  it('no golden title, title phrase, url host or site name; a phrase the seed query has is the topic, not a clue', () => {
    const answer = '10.1 percentage points';
    assert.match(queryViolations('What does Annual Report 2023: Key Figures say about equities?', answer, golden).join(), /title of golden document p01/);
    assert.match(
      queryViolations('In the year the pension fund reports strong equity gains, what did bonds return?', answer, golden).join(),
      /repeats "pension fund reports strong" from the title of golden document p02/,
    );
    assert.match(queryViolations('What did nordhavnpension.dk report for equities in 2023?', answer, golden).join(), /host nordhavnpension\.dk/);
    assert.match(queryViolations('What did Nordhavnpension report for equities in 2023?', answer, golden).join(), /names "nordhavnpension", the site/);
    const wind = [doc('p09')];
    const query = 'What is the installed capacity of the Kestrel Bay Offshore Wind Farm?';
    assert.match(queryViolations(query, '640 megawatts', wind).join(), /repeats "kestrel bay offshore wind"/);
    assert.deepEqual(queryViolations(query, '640 megawatts', wind, 'How large is the Kestrel Bay Offshore Wind Farm?'), []);
  });

  it('no relative-time expression', () => {
    assert.match(queryViolations('What did the fund return on equities last year?', 'x1', []).join(), /relative-time expression "last year"/);
    assert.match(queryViolations('该基金去年的股票回报是多少？', 'x1', []).join(), /去年/);
  });

  it('evidence spans are verbatim substrings of the golden documents they cite (line wraps aside)', () => {
    assert.deepEqual(evidenceSpanViolations(PENSION.synthesis.evidence_spans, golden), []);
    const wrapped = [{ doc_id: 'p01', text: 'Listed equities returned 14.2 percent and\n government and mortgage bonds' }, PENSION.synthesis.evidence_spans[1]];
    assert.deepEqual(evidenceSpanViolations(wrapped, golden), []);
    const out = evidenceSpanViolations(
      [
        { doc_id: 'p01', text: 'Listed equities gained 14.2 percent' },
        { doc_id: 'p03', text: 'returning between 7 and 11 percent' },
      ],
      golden,
    );
    assert.match(out.join('\n'), /evidence span 1 .* is not a verbatim substring of golden document p01/);
    assert.match(out.join('\n'), /evidence span 2 cites "p03", which is not a golden document/);
    assert.match(out.join('\n'), /golden document p02 has no evidence span/);
  });
});

describe('Stage B: the validity rules', () => {
  const item = pensionItem();
  const [good, statesIt, causal] = PENSION.distractors as any[];

  it('a well-formed distractor passes every rule (constraint 2 is left to the verifier)', () => {
    const c = ruleChecks(item, good, pool);
    for (const name of ['1_anchored', '3_topically_plausible', '4_audit_trail', '5_no_leakage'] as const)
      assert.equal(c[name].passed, true, `${name}: ${c[name].reasons}`);
    assert.equal(c['2_query_constrained_difference'].by, 'not checked');
    assert.equal(ruleChecks(item, causal, pool)['5_no_leakage'].passed, true);
  });

  it('each rule names what broke it', () => {
    assert.match(ruleChecks(item, statesIt, pool)['5_no_leakage'].reasons.join(), /states the golden answer "10\.1 percentage points"/);
    const unanchored = { ...good, source_doc_key: 'p03', target_info_point: '' };
    assert.match(ruleChecks(item, unanchored, pool)['1_anchored'].reasons.join(), /source_doc_key "p03" is not a golden document.*target_info_point is empty/);
    const moved = { ...good, target_evidence_text: 'Listed equities returned 14.9 percent' };
    assert.match(ruleChecks(item, moved, pool)['1_anchored'].reasons.join(), /target_evidence_text is not verbatim in golden document p01/);
    const offTopic = {
      ...good,
      title: 'Ferry timetable',
      content: 'The new ferry route from the harbour leaves every two hours on weekdays and every three hours at weekends, the operator said on Tuesday.',
    };
    assert.match(ruleChecks(item, offTopic, pool)['3_topically_plausible'].reasons.join(), /shares \d of the query's \d+ content words/);
    assert.match(
      ruleChecks(item, { ...good, content: 'Nordhavn pension fund: listed equity returns, 2022.' }, pool)['3_topically_plausible'].reasons.join(),
      /content is \d+ characters; expected 80/,
    );
    assert.match(ruleChecks(item, { ...good, content: doc('p01').content }, pool)['3_topically_plausible'].reasons.join(), /a copy of document p01/);
    const noTrail = { ...good, conflict_hint: ' ', discriminating_constraint: '', distractor_type: 'plausible_lie' };
    assert.match(
      ruleChecks(item, noTrail, pool)['4_audit_trail'].reasons.join('\n'),
      /distractor_type "plausible_lie" is none of[\s\S]*conflict_hint is empty[\s\S]*discriminating_constraint is empty/,
    );
    const selfRef = { ...good, content: `${good.content} This synthetic document was generated for the benchmark.` };
    assert.match(ruleChecks(item, selfRef, pool)['5_no_leakage'].reasons.join(), /synthetic document/);
  });

  it('statesAnswer: the whole answer, or every answer token', () => {
    assert.equal(statesAnswer('They beat bonds by 10.1 points.', '10.1 percentage points'), true);
    assert.equal(statesAnswer('They beat bonds by 10.15 points.', '10.1 percentage points'), false);
    assert.equal(statesAnswer('Lind won; Hanna was second.', 'Hanna Lind'), true);
    assert.equal(statesAnswer('Lind won.', 'Hanna Lind'), false);
  });

  it('distractor ids take the form of the item ids and are never in use', () => {
    assert.deepEqual(distractorIds(item, 2, pool), ['p13', 'p14']);
    assert.deepEqual(distractorIds(item, 1), ['p05']);
    assert.deepEqual(distractorIds({ ...item, golden_docs: [{ ...item.golden_docs[0], doc_id: 'annual' }] } as DelegationItem, 1), ['annual-1']);
  });
});

describe('Stage C to a released pool', () => {
  const line = (id: string, views: StageCLineLike['views'] = {}, prechecks: StageCLineLike['prechecks'] = []): StageCLineLike => ({
    id,
    passed: Object.values(views).every((v) => v?.passed) && !prechecks.some((p) => p.severity === 'error'),
    prechecks,
    views,
  });
  const c3 = (docs: { doc_id: string; severity: string }[]) => ({
    passed: false,
    verdicts: [
      {
        verifier: 'v',
        passed: false,
        reasons: ['flagged'],
        detail: { documents: docs.map((d) => ({ ...d, answer_bearing: d.severity !== 'none', reason: 'r' })) },
      },
    ],
  });

  it('applies each decision and trails why', () => {
    const base = pensionItem();
    const items = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => ({ ...copy(base), id }));
    const lines = [
      line('a'),
      line('b', { C3: c3([{ doc_id: 'p03', severity: 'remove_document' }]) }),
      line('c', { C3: c3([{ doc_id: 'p03', severity: 'discard_item' }]) }),
      line('d', { C1: { passed: false, verdicts: [{ verifier: 'v', passed: false, reasons: ['not equivalent'] }] } }),
      line('e', {}, [{ check: 'shortcut_leakage', severity: 'error', message: 'the query contains the golden answer' }]),
      line('x'),
    ];
    const { accepted, trail } = applyStageC(items, lines);
    assert.deepEqual(
      accepted.map((i) => i.id),
      ['a', 'b'],
    );
    assert.deepEqual(
      accepted[1].irrelevant_docs.map((d) => d.doc_id),
      ['p04'],
    );
    const why = (id: string) => trail.filter((t) => t.item_id === id).map((t) => `${t.action}: ${t.reasons.join(' ')}`);
    assert.match(why('b').join(), /^remove_document: C3/);
    assert.match(why('c').join(), /drop_item: C3: irrelevant document p03 makes the item unusable \(discard_item\)/);
    assert.match(why('d').join(), /drop_item: C1 \(v\): not equivalent/);
    assert.match(why('e').join(), /drop_item: pre-check shortcut_leakage/);
    assert.match(why('f').join(), /no Stage-C result for this item/);
  });

  it('a Stage-C result about a document the item does not have is stale: the item is dropped, not silently kept', () => {
    const { accepted, trail } = applyStageC([pensionItem()], [line('built-1', { C3: c3([{ doc_id: 'p99', severity: 'remove_document' }]) })]);
    assert.equal(accepted.length, 0);
    assert.match(trail[0].reasons.join(), /names irrelevant document\(s\) p99 that this item does not have/);
  });

  const many = (): DelegationItem[] => {
    const out: DelegationItem[] = [];
    const modes = { timeliness: 30, authority_challenge: 12, entity_confusion: 3 };
    let n = 0;
    for (const [mode, count] of Object.entries(modes))
      for (let i = 0; i < count; i++)
        out.push({ ...copy(pensionItem()), id: `i${++n}`, mode, language: i % 3 === 0 ? 'zh' : 'en', domain: i % 2 ? 'finance' : 'sports' });
    return out;
  };

  it('the review sample: proportional quotas by mode with a minimum each, reproducible from its seed', () => {
    const items = many();
    const a = stratifiedSample(items, { size: 20, seed: 7, minPerMode: 5 });
    assert.deepEqual(a.quotas, { authority_challenge: 5, entity_confusion: 3, timeliness: 12 });
    assert.equal(a.ids.length, 20);
    assert.equal(new Set(a.ids).size, 20);
    assert.deepEqual(stratifiedSample(items, { size: 20, seed: 7, minPerMode: 5 }), a);
    assert.notDeepEqual(stratifiedSample(items, { size: 20, seed: 8, minPerMode: 5 }).ids, a.ids);
    const timeliness = a.ids.map((id) => items.find((i) => i.id === id)!).filter((i) => i.mode === 'timeliness');
    const zh = timeliness.filter((i) => i.language === 'zh').length;
    assert.ok(zh >= 3 && zh <= 5, `zh is a third of the timeliness pool, so about 4 of 12 sampled: ${zh}`);
    assert.deepEqual(stratifiedSample(items, { size: 2, seed: 1, minPerMode: 5 }).ids.length, 2, 'a sample smaller than the minimums');
    assert.equal(stratifiedSample(items, { size: 500, seed: 1 }).ids.length, items.length);
  });

  it('majority-negative: per dimension, a document group positive only when every judged document is', () => {
    const item = { ...pensionItem(), distractor_docs: [{ doc_id: 'p13', content: 'x' }] } as DelegationItem;
    const r = (annotator: string, extra: Record<string, unknown>) => ({ annotator, answerability: true, shortcut_free: true, ...extra });
    assert.deepEqual(majorityNegative(item, [r('a', {}), r('b', {}), r('c', { answerability: false })]), []);
    assert.deepEqual(
      majorityNegative(item, [
        r('a', { irrelevant_labels: { p03: true, p04: false } }),
        r('b', { irrelevant_labels: { p03: false } }),
        r('c', { irrelevant_labels: { p03: true, p04: true } }),
      ]).map((x) => [x.dimension, x.negative, x.judged]),
      [['irrelevant_labels', 2, 3]],
    );
    assert.deepEqual(majorityNegative(item, [r('a', { shortcut_free: false }), r('b', {})]), [], 'a tie is no majority');
    assert.deepEqual(
      majorityNegative(item, [r('a', { distractor_validity: { p13: false, gone: true } }), r('b', { distractor_validity: { gone: false } })]).map(
        (x) => x.dimension,
      ),
      ['distractor_validity'],
      'judgments of documents the item no longer has are not counted',
    );
  });
});

describe('builder inputs', () => {
  it('a pool line that is not a document is named by file, line:column and path', () => {
    assert.throws(
      () =>
        parseDocuments(
          '{"doc_id": "a", "title": "t", "url": "u", "content": "c", "authority": "high"}\n{"doc_id": "b", "title": "t", "url": "u", "content": "c", "authority": "official"}\n',
          'pool.jsonl',
        ),
      (e: Error) => {
        assert.match(e.message, /^pool\.jsonl:2:\d+: at \$\.authority: expected authority "high", "medium" or "low"/);
        return true;
      },
    );
    assert.throws(
      () =>
        parseDocuments(
          '{"doc_id": "a", "title": "t", "url": "u", "content": "c", "authority": "high"}\n{"doc_id": "a", "title": "t", "url": "u", "content": "d", "authority": "low"}\n',
          'pool.jsonl',
        ),
      /pool\.jsonl:2:1: at \$\.doc_id: doc_id "a" is used again \(first on line 1\)/,
    );
    assert.throws(
      () => parseDocuments('{"doc_id": "a", "title": "t"\n', 'pool.jsonl'),
      /pool\.jsonl:1:\d+: invalid JSON.*\(expected one JSON document a line\)/,
    );
  });

  it('seeds: plain text (comments skipped) or JSONL', () => {
    assert.deepEqual(
      parseSeeds('# finance seeds\nWhat did X return in 2023?\n\nWho won Y in 2024?\n', 'seeds.txt', { domain: 'finance' }).map((s) => [
        s.query,
        s.domain,
        s.source,
      ]),
      [
        ['What did X return in 2023?', 'finance', 'seed'],
        ['Who won Y in 2024?', 'finance', 'seed'],
      ],
    );
    assert.throws(() => parseSeeds('{"query": ""}\n', 'seeds.jsonl'), /seeds\.jsonl:1:\d+: at \$\.query: expected a non-empty query/);
  });

  it('--retrieve: the command gets the quoted query and prints JSONL documents; a failing command is named', async () => {
    const dir = tempDir();
    const log = join(dir, 'queries.txt');
    const docs = await retrieveWithCommand(`printf '%s\\n' {query} >> ${log}; grep -i Kestrel ${POOL}`, "Kestrel Bay's capacity; rm -rf /");
    assert.deepEqual(
      docs.map((d) => d.doc_id),
      ['p09', 'p10', 'p11'],
    );
    assert.equal(readFileSync(log, 'utf8'), "Kestrel Bay's capacity; rm -rf /\n", 'the query reaches the command as one argument');
    await assert.rejects(retrieveWithCommand('search "{query}"', '$(touch x)'), /--retrieve: \{query\} at column 9 is inside double quotes/);
    await assert.rejects(
      retrieveWithCommand('exit 3', 'q'),
      /--retrieve: the command `exit 3 'q'` failed .*expected it to print documents as JSONL and exit 0/,
    );
    await assert.rejects(retrieveWithCommand('echo \'{"doc_id": 1}\'; : {query}', 'q'), /retrieval command output for "q":1:1: at \$\.title: missing title/);
  });

  it('CLI: one document source, required flags, bad input as one line with exit 1', async () => {
    const both = await runCli([
      'build',
      'items',
      '--seeds',
      SEEDS,
      '--pool',
      POOL,
      '--retrieve',
      'cat x',
      '--out',
      'x.jsonl',
      '--model',
      'm',
      '--base-url',
      'http://127.0.0.1:9/v1',
    ]);
    assert.equal(both.code, 2);
    assert.match(both.err, /needs exactly one document source/);
    const missing = await runCli(['build', 'distractors', '--out', 'x.jsonl']);
    assert.equal(missing.code, 2);
    assert.match(missing.err, /--items FILE is required/);
    const bad = join(tempDir(), 'pool.jsonl');
    writeFileSync(bad, '{"doc_id": "a", "title": "t", "url": "u", "authority": "high"}\n');
    const r = await runCli([
      'build',
      'items',
      '--seeds',
      SEEDS,
      '--pool',
      bad,
      '--out',
      join(tempDir(), 'x.jsonl'),
      '--model',
      'm',
      '--base-url',
      'http://127.0.0.1:9/v1',
    ]);
    assert.equal(r.code, 1);
    assert.equal(r.err.split('\n').length, 1, r.err);
    assert.match(r.err, /pool\.jsonl:1:\d+: at \$\.content: missing content/);
    const release = await runCli(['build', 'release', '--items', SEEDS, '--stage-c', tempDir(), '--out', 'x.jsonl']);
    assert.equal(release.code, 1);
    assert.match(release.err, /no stagec\.jsonl here; run `trajaudit harness stage-c/);
  });
});

describe('build release: reviews saved beside the items file', () => {
  it('reads <items>.audit.json when no --reviews is given and keeps majority-negative items out', async () => {
    const dir = tempDir();
    const items = join(dir, 'items.jsonl');
    const other = { ...pensionItem(), id: 'built-2' };
    writeFileSync(items, `${JSON.stringify(pensionItem())}\n${JSON.stringify(other)}\n`);
    mkdirSync(join(dir, 'stagec'));
    writeFileSync(
      join(dir, 'stagec', 'stagec.jsonl'),
      ['built-1', 'built-2'].map((id) => JSON.stringify({ id, passed: true, prechecks: [], views: {}, usage: {} })).join('\n') + '\n',
    );
    const sidecar = emptySidecar(items, 'x', 'delegation-item');
    applyReviewChanges(
      sidecar,
      ['a', 'b', 'c'].map((annotator, i) => ({ itemId: 'built-2', annotator, review: { annotator, shortcut_free: i === 2, blind: true } })),
    );
    writeSidecar(`${items}.audit.json`, sidecar);
    const out = join(dir, 'released.jsonl');
    const r = await runCli(['build', 'release', '--items', items, '--stage-c', join(dir, 'stagec'), '--out', out, '--json']);
    assert.equal(r.code, 0, r.err);
    const summary = JSON.parse(r.out);
    assert.deepEqual(summary.reviews, [`${items}.audit.json`]);
    assert.equal(summary.human_dropped, 1);
    assert.deepEqual(
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
      ['built-1'],
    );
    assert.match(
      readFileSync(summary.trail, 'utf8'),
      /"stage":"human-validation","action":"drop_item","item_id":"built-2","reasons":\["majority-negative on shortcut_free \(2 of 3 reviewers\)"\]/,
    );
  });
});
