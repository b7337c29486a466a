// What the evaluated model may see of a Delegation item (seed 000): documents reduced to the
// model-visible fields, their serialization, the three document orders, run-local public ids and
// the withheld golden documents. Pure and reproducible (every random choice is seeded).
//
// Model-visible fields (seed 000: "doc_id, title, URL, site name, publication time (regular
// expression parsing), and content (snippet)"): each is copied by name from the item document —
// nothing else is ever spread into a prompt, so construction labels (distractor_type,
// conflict_hint, target_info_point, source_doc_key, discriminating_constraint, the group names,
// `withheld`) cannot reach the model. A distractor's public url / time are `url` / `publish_time`,
// else its `synthetic_url` / `pseudo_publish_time`.
import type { DelegationItem } from '../../items/schemas';
import { fillSingleBrace } from '../prompts';
import { seededRandom, shuffled } from '../../random';
import { truncateChars } from '../text';

export const MAX_CONTENT_CHARS = 4000;
export const DOCUMENT_ORDERS = ['golden_first', 'golden_middle', 'golden_last'] as const;
export type DocumentOrder = (typeof DOCUMENT_ORDERS)[number];
export type DocGroup = 'golden' | 'distractor' | 'irrelevant';
export type DocIdPolicy = 'auto' | 'original' | 'rename';

/** The model-visible fields of a document; missing ones are absent. */
export interface VisibleFields {
  title?: string;
  url?: string;
  site_name?: string;
  publish_time?: string;
  content: string;
}

/** A document of the item's closed pool. `original` is the item's doc_id (never shown in setting II). */
export interface PoolDoc {
  original: string;
  group: DocGroup;
  fields: VisibleFields;
  /** Title + full content, for retrieval. */
  searchText: string;
}

const nonEmpty = (v: unknown): string | undefined => {
  if (v === null || v === undefined) return undefined;
  const s = String(v).trim();
  return s ? s : undefined;
};

const DATE_PATTERNS = [
  /\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?/u,
  /\d{4}\s*[-/.年]\s*\d{1,2}\s*月?/u,
  /\b(?:1[5-9]|20|21)\d{2}\b/u,
];

/**
 * The publication time as the seed's "regular expression parsing" gives it: the first date-like
 * substring (date with optional time, else year-month, else a year); a value with none is missing.
 */
export function parsePublishTime(value: unknown): string | undefined {
  const text = nonEmpty(value);
  if (!text) return undefined;
  for (const pattern of DATE_PATTERNS) {
    const m = pattern.exec(text);
    if (m) return m[0].trim();
  }
  return undefined;
}

type AnyDoc = DelegationItem['golden_docs'][number] & { synthetic_url?: string | null; pseudo_publish_time?: string | null };

export function visibleFields(doc: AnyDoc): VisibleFields {
  const fields: VisibleFields = { content: truncateChars(String(doc.content ?? ''), MAX_CONTENT_CHARS) };
  const title = nonEmpty(doc.title);
  const url = nonEmpty(doc.url) ?? nonEmpty(doc.synthetic_url);
  const site = nonEmpty(doc.site_name);
  const time = parsePublishTime(doc.publish_time) ?? parsePublishTime(doc.pseudo_publish_time);
  if (title !== undefined) fields.title = title;
  if (url !== undefined) fields.url = url;
  if (site !== undefined) fields.site_name = site;
  if (time !== undefined) fields.publish_time = time;
  return fields;
}

/** Every document of the item with its group; duplicate doc_ids are an error (citations could not be mapped back). */
export function itemPool(item: DelegationItem): PoolDoc[] {
  const pool: PoolDoc[] = [];
  const seen = new Set<string>();
  const add = (docs: readonly AnyDoc[], group: DocGroup) => {
    for (const d of docs) {
      const original = String(d.doc_id);
      if (seen.has(original)) throw new Error(`item ${item.id}: doc_id "${original}" appears twice; citations could not be mapped back`);
      seen.add(original);
      pool.push({ original, group, fields: visibleFields(d), searchText: `${nonEmpty(d.title) ?? ''}\n${String(d.content ?? '')}` });
    }
  };
  add(item.golden_docs, 'golden');
  add(item.distractor_docs as AnyDoc[], 'distractor');
  add(item.irrelevant_docs, 'irrelevant');
  return pool;
}

const LABEL_WORDS = /gold|golden|distract|irrelev|noise|withheld|synth|fake|adversar|negative|positive|support/i;

/**
 * Why the item's doc_ids would tell the model which group a document is in (undefined: they do
 * not): a label word in an id, or an id prefix (the id without its digits) that one group alone
 * uses, as in g1/g2 vs d1/d2 vs i1.
 */
export function idsRevealGroups(pool: readonly PoolDoc[]): string | undefined {
  const labelled = pool.find((d) => LABEL_WORDS.test(d.original));
  if (labelled) return `doc_id "${labelled.original}" contains a construction label`;
  const prefix = (id: string) =>
    id
      .toLowerCase()
      .replace(/\d+/g, '#')
      .replace(/[#_\-.\s]+$/g, '');
  const groups = [...new Set(pool.map((d) => d.group))];
  if (groups.length < 2) return undefined;
  for (const g of groups) {
    const mine = new Set(pool.filter((d) => d.group === g).map((d) => prefix(d.original)));
    const others = new Set(pool.filter((d) => d.group !== g).map((d) => prefix(d.original)));
    if ([...mine].every((p) => !others.has(p)))
      return `the ${g} documents' ids (${[...mine].map((p) => `"${p.replace(/#/g, 'N')}…"`).join(', ')}) differ in form from the others'`;
  }
  return undefined;
}

/** Public ids of setting I: the item's doc_ids, or web1…webN (seeded, stable across orders) when they would leak groups or `rename` is asked. */
export function settingOneIds(
  item: DelegationItem,
  pool: readonly PoolDoc[],
  policy: DocIdPolicy,
  seed: string | number,
): { ids: Map<string, string>; renamed: boolean; reason?: string } {
  const reason = policy === 'rename' ? 'asked (--doc-ids rename)' : policy === 'auto' ? idsRevealGroups(pool) : undefined;
  const ids = new Map<string, string>();
  if (!reason) {
    for (const d of pool) ids.set(d.original, d.original);
    return { ids, renamed: false };
  }
  shuffled(pool, seededRandom(seed, item.id, 'public-ids')).forEach((d, i) => ids.set(d.original, `web${i + 1}`));
  return { ids, renamed: true, reason };
}

/**
 * Setting I document order. The golden block keeps the item's order; the non-golden documents
 * (distractors and irrelevant ones together) are shuffled reproducibly, so their position tells
 * nothing about their group. golden_middle puts the golden block after ⌊n/2⌋ of them.
 */
export function orderPool(item: DelegationItem, pool: readonly PoolDoc[], order: DocumentOrder, seed: string | number): PoolDoc[] {
  const golden = pool.filter((d) => d.group === 'golden');
  const rest = shuffled(
    pool.filter((d) => d.group !== 'golden'),
    seededRandom(seed, item.id, 'rest-order'),
  );
  if (order === 'golden_first') return [...golden, ...rest];
  if (order === 'golden_last') return [...rest, ...golden];
  const half = Math.floor(rest.length / 2);
  return [...rest.slice(0, half), ...golden, ...rest.slice(half)];
}

/** `Document {index} [{doc_id}] | title: … | site: … | url: … | publish_time: …` + newline + content; missing fields omitted. */
export function serializeDocument(template: string, index: number, docId: string, fields: VisibleFields): string {
  const newline = template.indexOf('\n');
  const header = newline === -1 ? template : template.slice(0, newline);
  const body = newline === -1 ? '' : template.slice(newline);
  const values: Record<string, string | number> = { index, doc_id: docId, content: fields.content };
  for (const key of ['title', 'url', 'site_name', 'publish_time'] as const) {
    if (fields[key] !== undefined) values[key] = fields[key] as string;
  }
  // A header segment whose placeholder has no value is left out, with its " | " separator.
  const segments = header.split(' | ').filter((segment) => [...segment.matchAll(/\{(\w+)\}/g)].every((m) => m[1] in values));
  return fillSingleBrace(segments.join(' | ') + body, values);
}

/** The golden documents withheld from setting II's initial context: `count` of them, chosen reproducibly. */
export function chooseWithheld(item: DelegationItem, count: number, seed: string | number): string[] {
  const golden = item.golden_docs.map((d) => String(d.doc_id));
  const n = Math.max(0, Math.min(count, golden.length));
  const chosen = new Set(shuffled(golden, seededRandom(seed, item.id, 'withheld')).slice(0, n));
  return golden.filter((id) => chosen.has(id));
}

/** Setting II's initial payload: retained golden + all distractors + all irrelevant documents, shuffled reproducibly. */
export function initialContext(item: DelegationItem, pool: readonly PoolDoc[], withheld: readonly string[], seed: string | number): PoolDoc[] {
  const hidden = new Set(withheld);
  return shuffled(
    pool.filter((d) => !hidden.has(d.original)),
    seededRandom(seed, item.id, 'initial-context'),
  );
}
