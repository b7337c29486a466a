import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DelegationItem } from '../../../src/core/items/schemas';
import { scoreDelegation, type DelegationOutput } from '../../../src/core/scoring/delegation';
import { scoreRunFolderSync } from '../../../src/core/scoring/scoreRunFolder';
import { tempDir } from '../helpers';

const doc = (doc_id: string, extra: Record<string, unknown> = {}) => ({ doc_id, title: doc_id, content: `text of ${doc_id}`, ...extra });
const ITEM = {
  id: 'X',
  query: 'By how many points?',
  golden_answer: '15.2 percentage points (equities 21.3% vs 6.1%)',
  golden_docs: [doc('g1'), doc('g2')],
  irrelevant_docs: [doc('i1')],
  distractor_docs: [doc('d1', { distractor_type: 'slot_mismatch' }), doc('d2', { distractor_type: 'recency_trap' })],
  evidence_spans: [],
  reasoning_steps: [],
};

const close = (actual: number | null | undefined, expected: number) =>
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-12, `expected ${expected}, got ${actual}`);

describe('delegation outputs (seed 000)', () => {
  const outputs: DelegationOutput[] = [
    { id: 'X', setting: 'full', order: 'golden_first', answer: 'a', cited: ['g1', 'g2'], correct: true },
    { id: 'X', setting: 'full', order: 'golden_last', answer: 'b', cited: ['g1', 'd1', 'i1'], correct: false },
    { id: 'X', setting: 'search', answer: 'c', cited: ['g2', 'rs9'], withheld: ['g2'], searches: 3, correct: true },
  ];
  const items = new Map([['X', ITEM as unknown as DelegationItem]]);

  it('golden recall, distractor / irrelevant citation rates, withheld recovery, searches, accuracy', () => {
    const s = scoreDelegation(outputs, items);
    assert.equal(s.n, 3);
    close(s.metrics.golden_citation_recall, (1 + 0.5 + 0.5) / 3);
    close(s.metrics.distractor_citation_rate, 1 / 6); // 1 of 2 distractors × 3 outputs
    close(s.metrics.outputs_citing_distractor, 1 / 3);
    close(s.metrics.irrelevant_citation_rate, 1 / 3);
    assert.equal(s.metrics.withheld_recovery, 1); // g2 withheld and cited
    assert.equal(s.metrics.searches_mean, 3);
    close(s.metrics.answer_accuracy, 2 / 3);
    assert.equal(s.unknown_citations, 1);
    assert.deepEqual(Object.keys(s.by_setting), ['full', 'search']);
    assert.equal(s.by_setting.full.withheld_recovery, null);
    assert.equal(s.by_setting.full.searches_mean, null);
    assert.deepEqual(Object.keys(s.by_order), ['(unspecified)', 'golden_first', 'golden_last']);
    assert.equal(s.by_order.golden_last.golden_citation_recall, 0.5);
    assert.deepEqual(s.by_distractor_type, { recency_trap: { documents: 3, cited: 0, rate: 0 }, slot_mismatch: { documents: 3, cited: 1, rate: 1 / 3 } });
  });

  it('empty outputs: nulls, not NaN', () => {
    const s = scoreDelegation([], items);
    assert.equal(s.n, 0);
    assert.equal(s.metrics.golden_citation_recall, null);
    assert.equal(s.metrics.answer_accuracy, null);
  });

  it('a run folder: items folder + outputs.jsonl, answers judged by the exact judge', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'items'));
    writeFileSync(join(dir, 'items', 'x.json'), JSON.stringify(ITEM));
    writeFileSync(
      join(dir, 'outputs.jsonl'),
      [
        { id: 'X', setting: 'full', order: 'golden_first', answer: 'Equities beat bonds by 15.2 percentage points [g1].', cited_doc_ids: ['g1'] },
        {
          id: 'X',
          setting: 'search',
          answer: 'About 17 percentage points.',
          cited_doc_ids: ['g1', 'g2'],
          withheld_doc_ids: ['g2'],
          searches: [{ query: 'a' }, { query: 'b' }],
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const r = scoreRunFolderSync(dir);
    assert.equal(r.detection.reason, 'no manifest; found outputs.jsonl');
    if (r.score.kind !== 'delegation') throw new Error('kind');
    assert.equal(r.score.metrics.answer_accuracy, 0.5);
    assert.equal(r.score.metrics.withheld_recovery, 1);
    assert.equal(r.score.metrics.searches_mean, 2);
    writeFileSync(join(dir, 'outputs.jsonl'), '{"id": "Y", "setting": "full", "answer": "a", "cited_doc_ids": []}\n');
    assert.throws(() => scoreRunFolderSync(dir), /outputs\.jsonl:1:1: item "Y" is not among the Delegation items/);
  });
});
