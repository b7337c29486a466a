// Seed 004 diagnostics: the region classifier on question framings ("你指的是…", "Do you mean…"),
// the region-only unknown rate (Table 10), and backbone stability across two UA/Rewriter backbones
// (Table 11: UA agreement, rewrite similarity, unknown preservation).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backboneStability, rewriteSimilarity, type StabilityLine } from '../../../src/core/scoring/backboneStability';
import { classifyQuestion } from '../../../src/core/scoring/cqRegion';
import { scoreNuggets } from '../../../src/core/scoring/nuggets';
import { runCli, tempDir } from '../helpers';

describe('clarification-question dimensions', () => {
  it('a framing ("do you mean", "你指的是") is not a definition question; "specific" is no scope', () => {
    assert.equal(classifyQuestion('你指的是哪个城市？'), 'region');
    assert.equal(classifyQuestion('Do you mean a specific region or city?'), 'region');
    assert.equal(classifyQuestion('您是指哪个国家的政策？'), 'region');
    assert.equal(classifyQuestion('Are you referring to a particular country?'), 'region');
    // Definition questions stay definition questions.
    assert.equal(classifyQuestion('“旺季”指的是什么？'), 'definition');
    assert.equal(classifyQuestion('What do you mean by "student ticket"?'), 'definition');
    assert.equal(classifyQuestion('What does "GPFG" stand for?'), 'definition');
    // Region with another dimension is still mixed; scope words still count.
    assert.equal(classifyQuestion('Do you mean a specific city in a specific year?'), 'mixed');
    assert.equal(classifyQuestion('Which types of tickets do you need?'), 'scope');
  });
});

describe('region-only unknown rate', () => {
  it('the share of region-only questions answered unknown, per condition', () => {
    const s = scoreNuggets(
      [],
      [
        {
          id: 'i1',
          condition: 'k2',
          turns: [
            { question: '你指的是哪个城市？', answer: 'unknown' },
            { question: 'Which year?', answer: '2024' },
          ],
        },
        {
          id: 'i2',
          condition: 'k2',
          turns: [
            { question: 'Which country?', answer: 'France' },
            { question: 'Any region?', answer: '未知' },
          ],
        },
        { id: 'i3', condition: 'k1', turns: [{ question: 'Which year?', answer: 'unknown' }] },
      ],
    );
    // k2: region-only turns are i1#1 (unknown), i2#1 (France), i2#2 (unknown) → 2 / 3.
    assert.equal(s.conditions.k2.region_unknown_rate, 2 / 3);
    assert.equal(s.conditions.k1.region_unknown_rate, null, 'no region-only question');
  });
});

describe('backbone stability (two UA / Rewriter backbones)', () => {
  it('rewrite similarity is 1 − Levenshtein / longer length over normalized text', () => {
    assert.equal(rewriteSimilarity('2024年 故宫门票多少钱？', '2024年故宫门票多少钱'), 1);
    assert.equal(rewriteSimilarity('故宫门票多少钱', '故宫学生票多少钱'), 1 - 2 / 8); // 门→学生 : one substitution, one insertion
    assert.equal(rewriteSimilarity('', ''), 1);
    assert.equal(rewriteSimilarity('abc', ''), 0);
  });

  const line = (id: string, condition: string, answers: (string | null)[], rewritten: string, unelicited: string[] = []): StabilityLine => ({
    id,
    condition,
    turns: answers.map((answer, i) => ({ question: `Q${i + 1}?`, answer })),
    rewritten_query: rewritten,
    leakage: { unelicited },
  });

  it('UA agreement on known/unknown per paired turn, mean rewrite similarity, unknown preservation per backbone', () => {
    const a = [line('i1', 'k2', ['2024', 'unknown'], 'abcd'), line('i2', 'k1', ['unknown'], 'wxyz'), line('i3', 'k1', ['x'], 'only in a')];
    const b = [line('i1', 'k2', ['2024年', '北京'], 'abce', ['北京']), line('i2', 'k1', ['unknown'], 'wxyz', ['2024'])];
    const s = backboneStability(a, b);
    // Paired turns: i1#1 known/known, i1#2 unknown/known, i2#1 unknown/unknown → 2 / 3.
    assert.equal(s.paired_turns, 3);
    assert.equal(s.ua_agreement, 2 / 3);
    // Rewrites: i1 abcd/abce 0.75, i2 1 → 0.875.
    assert.equal(s.paired_rewrites, 2);
    assert.equal(s.rewrite_similarity, 0.875);
    // Unknown preservation: lines with an unknown turn whose rewrite adds no unelicited constraint.
    assert.deepEqual(s.unknown_preservation, { a: 1, b: 0 }); // a: i1, i2 both clean; b: only i2 has an unknown, and it leaks
    assert.equal(s.unpaired, 1);
  });

  it('turns whose questions differ are not paired (the Clarifier asked something else)', () => {
    const a = [line('i1', 'k1', ['unknown'], 'q')];
    const b = [{ ...line('i1', 'k1', ['2024'], 'q'), turns: [{ question: 'Another question?', answer: '2024' }] }];
    const s = backboneStability(a, b);
    assert.equal(s.paired_turns, 0);
    assert.equal(s.ua_agreement, null);
    assert.equal(s.rewrite_similarity, 1);
  });

  it('score --backbone DIR adds backbone_stability to a nuggets run', async () => {
    const dir = tempDir();
    const write = (folder: string, lines: StabilityLine[]) => {
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'gold_nuggets.jsonl'), `${JSON.stringify({ id: 'i1', nuggets: [{ text: 'n', weight: 1 }] })}\n`);
      writeFileSync(join(folder, 'judgments.jsonl'), `${JSON.stringify({ id: 'i1', condition: 'k1', coverage: ['full'] })}\n`);
      writeFileSync(join(folder, 'clarifications.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    };
    write(join(dir, 'a'), [line('i1', 'k1', ['unknown'], 'abcd')]);
    write(join(dir, 'b'), [line('i1', 'k1', ['unknown'], 'abce')]);
    const r = await runCli(['score', join(dir, 'a'), '--backbone', join(dir, 'b'), '--json']);
    assert.equal(r.code, 0, r.err);
    const json = JSON.parse(r.out) as { backbone_stability: Record<string, unknown> };
    assert.deepEqual(json.backbone_stability, {
      paired_turns: 1,
      ua_agreement: 1,
      paired_rewrites: 1,
      rewrite_similarity: 0.75,
      unknown_preservation: { a: 1, b: 1 },
      unpaired: 0,
    });
    const wrongKind = await runCli(['score', join(dir, 'a'), '--backbone', join(dir, 'missing')]);
    assert.equal(wrongKind.code, 1);
    assert.match(wrongKind.err, /missing.*clarifications\.jsonl/);
  });
});
