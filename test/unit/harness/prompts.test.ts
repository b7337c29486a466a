// The Delegation prompts, tool schema and final message against the seed (seed 000) text, and
// what a model may and may not see: serialization, orders, truncation, omitted fields, no labels.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { delegationPrompts } from '../../../src/core/harness/prompts';
import {
  idsRevealGroups,
  itemPool,
  MAX_CONTENT_CHARS,
  orderPool,
  parsePublishTime,
  serializeDocument,
  settingOneIds,
  visibleFields,
} from '../../../src/core/harness/delegation/docs';
import { prepareFull, prepareSearch, type DelegationOptions } from '../../../src/core/harness/delegation/conversation';
import { loadItemsList } from '../../../src/core/harness/delegation/run';
import type { DelegationItem } from '../../../src/core/items/schemas';
import { DELEGATION_ITEMS, ROOT } from './helpers';

const SEED_EXCERPT = join(ROOT, 'test', 'fixtures', 'harness', 'seed-000-evaluation-prompts.txt');
const SEED_FILE = '/work/shared/seeds/000_7157eb05a662eb11.txt';
const seed = readFileSync(SEED_EXCERPT, 'utf8');
const prompts = delegationPrompts();
const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The text between two markers of the seed excerpt (exclusive), as printed. */
function between(start: string, end: string, from = 0): string {
  const i = seed.indexOf(start, from);
  assert.ok(i !== -1, `seed marker not found: ${start}`);
  const j = seed.indexOf(end, i + start.length);
  assert.ok(j !== -1, `seed marker not found: ${end}`);
  return seed.slice(i, j);
}

/** A JSON string of the seed as printed: the quoted text after `"content":` (wraps included). */
function printedString(block: string): string {
  const m = /"content":\s*\n?\s*"([\s\S]*?)"\s*\n\s*}/.exec(block);
  assert.ok(m, 'no content string in the seed block');
  return m[1];
}

describe('harness prompts vs seed 000 (character for character)', () => {
  it('the fixture is the seed text itself, when the seed is present', function () {
    if (!existsSync(SEED_FILE)) this.skip();
    assert.ok(
      readFileSync(SEED_FILE, 'utf8').includes(seed.trimEnd()),
      'test/fixtures/harness/seed-000-evaluation-prompts.txt must be a verbatim excerpt of seed 000',
    );
  });

  it('Setting I system message', () => {
    const printed = printedString(between('"role": "system"', '"role": "user"'));
    assert.equal(collapse(prompts.fullSystem), collapse(printed));
    assert.equal(
      prompts.fullSystem,
      'You are a helpful research assistant. Answer the user’s question based on the retrieved documents provided below. Base your answer on the information contained in these documents. When you use information from a document, cite its doc_id in square brackets, e.g. [web1]. Give a clear, accurate, and concise final answer.',
    );
  });

  it('Setting I user message: Question:, blank lines, placeholders', () => {
    const block = between('"role": "user"', 'Here, serialized_documents');
    const printed = /"content":\s*\n\s*"([\s\S]*?)"\s*\n\s*}/.exec(block)?.[1] ?? '';
    assert.equal(collapse(prompts.fullUser), collapse(printed));
    assert.equal(
      prompts.fullUser,
      'Question:\n{query}\n\nRetrieved documents:\n\n{serialized_documents}\n\nAnswer the question above, citing the doc_ids you used.',
    );
  });

  it('document serialization template', () => {
    const printed = between('Document {index}', '\n\nMissing metadata');
    assert.equal(collapse(prompts.document), collapse(printed));
    assert.equal(prompts.document, 'Document {index} [{doc_id}] | title: {title} | site: {site_name} | url: {url} | publish_time: {publish_time}\n{content}');
  });

  it('Setting II system prompt', () => {
    const printed = between('You are a helpful research assistant. You may call', '\n\nThe exposed tool');
    assert.equal(prompts.searchSystem, collapse(printed));
    assert.ok(prompts.searchSystem.includes('‘search(query)‘'), 'the seed quotes the tool as ‘search(query)‘');
  });

  it('the search tool schema', () => {
    const printed = between('{\n  "type": "function"', '\n\nTo present the initial') + '';
    const json = JSON.parse(printed.replace(/\n\s*/g, ' '));
    assert.deepEqual(prompts.searchTool, json);
    assert.equal(
      prompts.searchTool.function.description,
      'Search the web for documents relevant to the user’s question. Returns a JSON object with a ‘docs‘ array; each doc has ‘doc_id‘, ‘title‘, ‘url‘, ‘site_name‘, ‘publish_time‘, and ‘content‘.',
    );
  });

  it('Setting II user message', () => {
    const block = between('{"role": "system", "content": "{system_prompt_above}"}', '"role": "assistant"');
    const printed = /"content":\s*\n\s*"([\s\S]*?)"\s*\n\s*}/.exec(block)?.[1] ?? '';
    assert.equal(collapse(prompts.searchUser), collapse(printed));
    assert.equal(prompts.searchUser, '{query}\n\nWhen answering, cite the doc_ids you used in square brackets (e.g. [web1]).');
  });

  it('the neutral final message, verbatim', () => {
    const printed = seed.slice(seed.indexOf('Please give your final answer now')).trimEnd();
    assert.equal(prompts.finalMessage, printed);
    assert.equal(
      prompts.finalMessage,
      'Please give your final answer now based on the information you have.\nRemember to cite the doc_ids you used in square brackets (e.g. [web1]).',
    );
  });
});

const options: DelegationOptions = { prompts, seed: 7, k: 3, budget: 2, withhold: 1, docIds: 'auto' };
const items = loadItemsList(DELEGATION_ITEMS);
const byId = (id: string) => items.find((i) => i.id === id) as DelegationItem;

/** Every construction label value of an item (must never reach the evaluated model). */
function labelValues(item: DelegationItem): string[] {
  const out: string[] = [];
  for (const d of item.distractor_docs as Record<string, unknown>[]) {
    for (const k of ['distractor_type', 'target_info_point', 'conflict_hint', 'discriminating_constraint', 'target_evidence_text']) {
      if (typeof d[k] === 'string' && (k !== 'target_evidence_text' || !item.golden_docs.some((g) => g.content.includes(d[k] as string))))
        out.push(d[k] as string);
    }
  }
  for (const k of ['mode']) if (typeof (item as Record<string, unknown>)[k] === 'string') out.push((item as Record<string, unknown>)[k] as string);
  return out;
}

describe('harness delegation: what the evaluated model sees', () => {
  it('serializes a document with the seed header; missing fields are omitted', () => {
    const t = prompts.document;
    assert.equal(
      serializeDocument(t, 2, 'web3', { title: 'T', url: 'https://x.org/a', site_name: 'X', publish_time: '2024-01-30', content: 'Body' }),
      'Document 2 [web3] | title: T | site: X | url: https://x.org/a | publish_time: 2024-01-30\nBody',
    );
    assert.equal(serializeDocument(t, 1, 'd1', { title: 'T', content: 'Body {query}' }), 'Document 1 [d1] | title: T\nBody {query}');
    assert.equal(serializeDocument(t, 1, 'd1', { url: 'u', content: '' }), 'Document 1 [d1] | url: u\n');
  });

  it('truncates bodies at 4,000 characters (code points) and parses publish times', () => {
    const long = '字'.repeat(3999) + '😀' + 'x'.repeat(50);
    const f = visibleFields({ doc_id: 'a', content: long, publish_time: '发布于2024年1月30日 10:00', title: '  ', url: null } as never);
    assert.equal(Array.from(f.content).length, MAX_CONTENT_CHARS);
    assert.ok(f.content.endsWith('😀'));
    assert.equal(f.title, undefined);
    assert.equal(f.url, undefined);
    assert.equal(f.publish_time, '2024年1月30日 10:00');
    assert.equal(parsePublishTime('Published 2024-01-30T10:00:00Z by NBIM'), '2024-01-30T10:00:00');
    assert.equal(parsePublishTime('yesterday'), undefined);
    assert.equal(parsePublishTime('March 2021'), '2021');
  });

  it('orders: golden first / middle / last; the rest shuffled reproducibly, the same in every order', () => {
    const item = byId('deleg-en-0231');
    const pool = itemPool(item);
    const golden = item.golden_docs.map((d) => d.doc_id);
    const first = orderPool(item, pool, 'golden_first', 7).map((d) => d.original);
    const middle = orderPool(item, pool, 'golden_middle', 7).map((d) => d.original);
    const last = orderPool(item, pool, 'golden_last', 7).map((d) => d.original);
    assert.deepEqual(first.slice(0, 2), golden);
    assert.deepEqual(last.slice(-2), golden);
    assert.deepEqual(middle.slice(3, 5), golden, 'six non-golden documents: three before, three after');
    const rest = first.slice(2);
    assert.deepEqual(last.slice(0, -2), rest);
    assert.deepEqual([...middle.slice(0, 3), ...middle.slice(5)], rest);
    assert.deepEqual(
      orderPool(item, pool, 'golden_first', 7).map((d) => d.original),
      first,
      'reproducible',
    );
    assert.notDeepEqual(
      rest,
      pool.filter((d) => d.group !== 'golden').map((d) => d.original),
      'not in group order (seed 7)',
    );
  });

  it('doc ids: kept when they reveal nothing, renamed when they reveal the group', () => {
    const item = byId('deleg-en-0231');
    assert.equal(idsRevealGroups(itemPool(item)), undefined);
    const leaky: DelegationItem = {
      ...item,
      golden_docs: item.golden_docs.map((d, i) => ({ ...d, doc_id: `g${i + 1}` })),
      distractor_docs: item.distractor_docs.map((d, i) => ({ ...d, doc_id: `d${i + 1}` })),
      irrelevant_docs: item.irrelevant_docs.map((d, i) => ({ ...d, doc_id: `i${i + 1}` })),
    };
    assert.match(idsRevealGroups(itemPool(leaky)) ?? '', /differ in form/);
    const { ids, renamed } = settingOneIds(leaky, itemPool(leaky), 'auto', 7);
    assert.ok(renamed);
    assert.deepEqual([...ids.values()].sort(), ['web1', 'web2', 'web3', 'web4', 'web5', 'web6', 'web7', 'web8'].sort());
    const prepared = prepareFull(leaky, 'golden_first', options);
    const user = prepared.messages[1].content as string;
    assert.ok(!/\[(g|d|i)\d\]/.test(user), 'no group-revealing id is shown');
    assert.match(prepared.notes[0], /renamed/);
    assert.match(idsRevealGroups(itemPool({ ...item, golden_docs: [{ ...item.golden_docs[0], doc_id: 'golden-1' }] })) ?? '', /construction label/);
  });

  it('setting I: exactly two messages, no tools, the whole pool; no construction label anywhere', () => {
    for (const item of items) {
      for (const order of ['golden_first', 'golden_middle', 'golden_last'] as const) {
        const p = prepareFull(item, order, options);
        assert.equal(p.messages.length, 2);
        assert.equal(p.tools, undefined);
        assert.equal(p.messages[0].content, prompts.fullSystem);
        const user = p.messages[1].content as string;
        assert.ok(user.startsWith(`Question:\n${item.query}\n\nRetrieved documents:\n\nDocument 1 [`));
        assert.ok(user.endsWith('\n\nAnswer the question above, citing the doc_ids you used.'));
        const n = item.golden_docs.length + item.distractor_docs.length + item.irrelevant_docs.length;
        assert.equal([...user.matchAll(/^Document \d+ \[/gm)].length, n);
        const all = JSON.stringify(p.messages);
        for (const label of labelValues(item)) assert.ok(!all.includes(label), `label "${label}" reached the model`);
        for (const word of ['golden', 'distractor', 'irrelevant', 'withheld', 'conflict_hint', 'target_info_point'])
          assert.ok(!all.toLowerCase().includes(word), `"${word}" reached the model`);
      }
    }
  });

  it('setting II: the injected first exchange, rs ids, the withheld golden document absent', () => {
    for (const item of items) {
      const p = prepareSearch(item, options);
      assert.deepEqual(
        p.messages.map((m) => m.role),
        ['system', 'user', 'assistant', 'tool'],
      );
      assert.equal(p.messages[0].content, prompts.searchSystem);
      assert.equal(p.messages[1].content, `${item.query}\n\nWhen answering, cite the doc_ids you used in square brackets (e.g. [web1]).`);
      const call = p.messages[2] as { content: null; tool_calls: { id: string; function: { name: string; arguments: string } }[] };
      assert.equal(call.content, null);
      assert.equal(call.tool_calls[0].function.name, 'search');
      assert.equal(call.tool_calls[0].function.arguments, `{"query": ${JSON.stringify(item.query)}}`);
      const tool = p.messages[3] as { tool_call_id: string; content: string };
      assert.equal(tool.tool_call_id, call.tool_calls[0].id);
      const payload = JSON.parse(tool.content) as { query: string; docs: Record<string, string>[] };
      assert.ok(tool.content.startsWith(`{"query": ${JSON.stringify(item.query)}, "docs": [{"doc_id": "rs1", `));
      assert.equal(payload.docs.length, item.golden_docs.length + item.distractor_docs.length + item.irrelevant_docs.length - 1);
      assert.deepEqual(
        payload.docs.map((d) => d.doc_id),
        payload.docs.map((_, i) => `rs${i + 1}`),
      );
      for (const d of payload.docs)
        assert.deepEqual(
          Object.keys(d).filter((k) => !['doc_id', 'title', 'url', 'site_name', 'publish_time', 'content'].includes(k)),
          [],
        );
      assert.equal(p.withheld.length, 1);
      const withheld = item.golden_docs.find((g) => g.doc_id === p.withheld[0]);
      assert.ok(withheld && !payload.docs.some((d) => d.content === withheld.content.slice(0, MAX_CONTENT_CHARS)), 'the withheld golden document is absent');
      assert.deepEqual(p.tools, [prompts.searchTool]);
      const all = JSON.stringify(p.messages);
      for (const label of labelValues(item)) assert.ok(!all.includes(label), `label "${label}" reached the model`);
      for (const d of [...item.golden_docs, ...item.distractor_docs, ...item.irrelevant_docs])
        assert.ok(!all.includes(`"${d.doc_id}"`), 'original ids stay hidden');
      assert.deepEqual(prepareSearch(item, options).withheld, p.withheld, 'withheld choice is reproducible');
    }
  });
});
