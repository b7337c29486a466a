import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadFile, loadText } from '../../../src/core/load/loadFile';
import type { DelegationItem } from '../../../src/core/items/schemas';
import { blindItemView, fullItemView, PIPELINE_FIELDS } from '../../../src/core/items/itemViews';

const samples = join(__dirname, '..', '..', '..', 'samples', 'items', 'delegation');
const NAMES = ['deleg-en-0231-oil-fund-equity-gap.json', 'deleg-zh-0158-olympic-events.json', 'leaky-item.json'];

function itemOf(value: unknown): DelegationItem {
  const r = loadText(JSON.stringify(value), 'inline.json').records[0];
  if (r.kind !== 'delegation-item') throw new Error('not an item');
  return r.item;
}

function keysDeep(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysDeep(v, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysDeep(v, out);
    }
  return out;
}

/** Pipeline-generated texts that must never reach a blind reviewer. */
function pipelineTexts(item: DelegationItem): string[] {
  const texts: string[] = [];
  for (const d of item.distractor_docs as Record<string, unknown>[]) {
    for (const key of ['conflict_hint', 'discriminating_constraint', 'target_info_point', 'distractor_type']) {
      if (typeof d[key] === 'string') texts.push(d[key] as string);
    }
  }
  for (const s of item.reasoning_steps) texts.push(typeof s === 'string' ? s : JSON.stringify(s));
  return texts;
}

const ALLOWED_KEYS = new Set([
  'mode',
  'id',
  'query',
  'goldenAnswer',
  'golden',
  'irrelevant',
  'distractors',
  'doc_id',
  'title',
  'url',
  'site_name',
  'publish_time',
  'content',
]);

describe('item view: blind review strips every pipeline field', () => {
  for (const name of NAMES) {
    it(`${name}: only model-visible fields, no pipeline text`, () => {
      const r = loadFile(join(samples, name)).records[0];
      if (r.kind !== 'delegation-item') throw new Error('not an item');
      const blind = blindItemView(r.item);
      const keys = keysDeep(blind);
      for (const k of keys) assert.ok(ALLOWED_KEYS.has(k), `unexpected key "${k}" in the blind view`);
      for (const f of PIPELINE_FIELDS) if (f !== 'mode') assert.ok(!keys.has(f), `pipeline field ${f} leaked`);
      assert.equal(blind.mode, 'blind', 'the only "mode" key is the view mode');
      const json = JSON.stringify(blind);
      for (const t of pipelineTexts(r.item)) assert.ok(!json.includes(JSON.stringify(t).slice(1, -1)), `pipeline text leaked: ${t.slice(0, 60)}`);
      // The groups and the model-visible documents are all there.
      assert.equal(blind.golden.length, r.item.golden_docs.length);
      assert.equal(blind.irrelevant.length, r.item.irrelevant_docs.length);
      assert.equal(blind.distractors.length, r.item.distractor_docs.length);
      for (const d of blind.distractors) assert.ok(d.content.length > 0 && d.doc_id);
    });
  }

  it('is an allowlist: unknown fields at any level are withheld too, synthetic url/time stand in for missing ones', () => {
    const item = itemOf({
      id: 'x1',
      query: 'Q?',
      golden_answer: ['A', 'B'],
      mode: 'entity_confusion',
      language: 'en',
      domain: 'sports',
      stage_c: { verdict: 'accept', verifier_reasoning: 'SECRET-C' },
      golden_docs: [{ doc_id: 'g1', title: 'T', content: 'gold text', authority_label: 'golden', withheld: false }],
      irrelevant_docs: [{ doc_id: 'i1', content: 'noise', c3_note: 'SECRET-I' }],
      distractor_docs: [
        {
          doc_id: 'x9',
          content: 'fake',
          distractor_type: 'recency_trap',
          source_doc_key: 'g1',
          target_info_point: 'SECRET-TIP',
          target_evidence_text: 'SECRET-TET',
          synthetic_url: 'https://blog.example/x',
          pseudo_publish_time: '2030-01-01',
          discriminating_constraint: 'SECRET-DC',
          conflict_hint: 'SECRET-CH',
          stage_b_reasoning: 'SECRET-B',
        },
      ],
      evidence_spans: [{ doc_id: 'g1', text: 'gold' }],
      reasoning_steps: ['SECRET-STEP'],
    });
    const blind = blindItemView(item);
    const json = JSON.stringify(blind);
    assert.ok(!/SECRET|authority_label|withheld|recency_trap|entity_confusion|sports|evidence|reasoning/.test(json), json);
    assert.deepEqual(blind.distractors[0], { doc_id: 'x9', url: 'https://blog.example/x', publish_time: '2030-01-01', content: 'fake' });
    assert.deepEqual(blind.goldenAnswer, ['A', 'B']);
    // The full view keeps everything, labelled.
    const full = fullItemView(item);
    assert.equal(full.distractors[0].audit.conflict_hint, 'SECRET-CH');
    assert.equal(full.distractors[0].audit.source_doc_key, 'g1');
    assert.deepEqual(full.distractors[0].extra, [{ key: 'stage_b_reasoning', value: 'SECRET-B' }]);
    assert.deepEqual(
      full.golden[0].extra.map((f) => f.key),
      ['authority_label', 'withheld'],
    );
    assert.deepEqual(
      full.extra.map((f) => f.key),
      ['stage_c'],
    );
    assert.deepEqual(
      full.meta.map((f) => f.key),
      ['mode', 'language', 'domain'],
    );
    assert.deepEqual(full.reasoning, ['SECRET-STEP']);
  });
});
