// Delegation settings I (full context) and II (partial context, search enabled), exactly as seed
// 000 gives them: the prompts of prompts/harness/delegation/v1, the injected first search exchange,
// BM25 top-k retrieval over the item's closed pool with run-local ids rs1, rs2, …, the search
// budget, then tools disabled and the neutral final message.
import type { DelegationItem } from '../../items/schemas';
import type { ModelClient, ToolCall, ToolSpec } from '../../providers/types';
import { Bm25Index } from '../bm25';
import { fillSingleBrace, type DelegationPrompts } from '../prompts';
import { pyJson } from '../text';
import { addCall, emptyHarnessUsage, toChatRequestParts, toWireCalls, type HarnessUsage, type WireMessage } from '../wire';
import {
  chooseWithheld,
  initialContext,
  itemPool,
  orderPool,
  serializeDocument,
  settingOneIds,
  type DocGroup,
  type DocIdPolicy,
  type DocumentOrder,
  type PoolDoc,
  type VisibleFields,
} from './docs';

export type DelegationSetting = 'full' | 'search';

export interface DelegationOptions {
  prompts: DelegationPrompts;
  seed: string | number;
  /** Setting II: documents per search (top-k). */
  k: number;
  /** Setting II: model-initiated searches allowed (the injected first search is not counted). */
  budget: number;
  /** Setting II: golden documents withheld from the initial context. */
  withhold: number;
  docIds: DocIdPolicy;
  maxOutputTokens?: number;
  temperature?: number;
  reasoningEffort?: 'low' | 'medium' | 'high';
}

/** The id of the harness-injected first search call (seed 000: "{call_id}"). */
export const INITIAL_CALL_ID = 'call_0';

/** One prepared conversation: its first request, and what maps public ids back to the item's. */
export interface PreparedConversation {
  id: string;
  setting: DelegationSetting;
  order?: DocumentOrder;
  messages: WireMessage[];
  tools?: ToolSpec[];
  /** Public id → original doc_id, for every document shown so far. */
  publicIds: Map<string, string>;
  withheld: string[];
  pool: PoolDoc[];
  notes: string[];
  /** Setting II state. */
  search?: SearchState;
}

interface SearchState {
  index: Bm25Index;
  byOriginal: Map<string, PoolDoc>;
  /** original → rs id */
  assigned: Map<string, string>;
  next: number;
}

/** The seed's document record in a tool payload: doc_id, title, url, site_name, publish_time, content; missing fields omitted. */
function payloadDoc(docId: string, f: VisibleFields): Record<string, string> {
  const out: Record<string, string> = { doc_id: docId };
  if (f.title !== undefined) out.title = f.title;
  if (f.url !== undefined) out.url = f.url;
  if (f.site_name !== undefined) out.site_name = f.site_name;
  if (f.publish_time !== undefined) out.publish_time = f.publish_time;
  out.content = f.content;
  return out;
}

function rsIdFor(state: SearchState, publicIds: Map<string, string>, original: string): string {
  let id = state.assigned.get(original);
  if (!id) {
    id = `rs${state.next++}`;
    state.assigned.set(original, id);
    publicIds.set(id, original);
  }
  return id;
}

function searchPayload(state: SearchState, publicIds: Map<string, string>, query: string, docs: readonly PoolDoc[]): string {
  return pyJson({ query, docs: docs.map((d) => payloadDoc(rsIdFor(state, publicIds, d.original), d.fields)) });
}

/** Setting I: exactly two messages, system and user, with the whole pool in `order`. */
export function prepareFull(item: DelegationItem, order: DocumentOrder, options: DelegationOptions): PreparedConversation {
  const pool = itemPool(item);
  const { ids, renamed, reason } = settingOneIds(item, pool, options.docIds, options.seed);
  const ordered = orderPool(item, pool, order, options.seed);
  const serialized = ordered.map((d, i) => serializeDocument(options.prompts.document, i + 1, ids.get(d.original) as string, d.fields)).join('\n\n');
  const publicIds = new Map<string, string>();
  for (const [original, pub] of ids) publicIds.set(pub, original);
  return {
    id: String(item.id),
    setting: 'full',
    order,
    messages: [
      { role: 'system', content: options.prompts.fullSystem },
      { role: 'user', content: fillSingleBrace(options.prompts.fullUser, { query: item.query, serialized_documents: serialized }) },
    ],
    publicIds,
    withheld: [],
    pool,
    notes: renamed ? [`doc_ids renamed to web1…web${pool.length}: ${reason}`] : [],
  };
}

/** Setting II: system, user, the injected search call and its result (retained golden + distractors + irrelevant). */
export function prepareSearch(item: DelegationItem, options: DelegationOptions): PreparedConversation {
  const pool = itemPool(item);
  const withheld = chooseWithheld(item, options.withhold, options.seed);
  const notes: string[] = [];
  if (options.withhold > withheld.length) notes.push(`asked to withhold ${options.withhold} golden document(s); the item has ${item.golden_docs.length}`);
  const state: SearchState = {
    index: new Bm25Index(pool.map((d) => ({ key: d.original, text: d.searchText }))),
    byOriginal: new Map(pool.map((d) => [d.original, d])),
    assigned: new Map(),
    next: 1,
  };
  const publicIds = new Map<string, string>();
  const initial = initialContext(item, pool, withheld, options.seed);
  return {
    id: String(item.id),
    setting: 'search',
    messages: [
      { role: 'system', content: options.prompts.searchSystem },
      { role: 'user', content: fillSingleBrace(options.prompts.searchUser, { query: item.query }) },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: INITIAL_CALL_ID, type: 'function', function: { name: 'search', arguments: pyJson({ query: item.query }) } }],
      },
      { role: 'tool', tool_call_id: INITIAL_CALL_ID, content: searchPayload(state, publicIds, item.query, initial) },
    ],
    tools: [options.prompts.searchTool],
    publicIds,
    withheld,
    pool,
    notes,
    search: state,
  };
}

export interface ConversationResult {
  answer: string;
  /** 'answer': the model answered on its own; 'budget': the search budget ran out and the final message asked for the answer. */
  finish: 'answer' | 'budget';
  searches: string[];
  messages: WireMessage[];
  usage: HarnessUsage;
  /** Tool calls the model made although tools were disabled (ignored). */
  ignoredToolCalls: number;
}

function searchQueryOf(call: ToolCall): string | undefined {
  try {
    const args = JSON.parse(call.arguments) as { query?: unknown };
    if (typeof args?.query === 'string' && args.query.trim()) return args.query;
    if (Array.isArray(args?.query)) return args.query.filter((q) => typeof q === 'string').join(' ') || undefined;
  } catch {
    /* not JSON */
  }
  return undefined;
}

/** Runs a prepared conversation to its answer. */
export async function runConversation(
  client: ModelClient,
  prepared: PreparedConversation,
  options: DelegationOptions,
  signal?: AbortSignal,
): Promise<ConversationResult> {
  const messages = prepared.messages.slice();
  const usage = emptyHarnessUsage();
  const searches: string[] = [];
  const common = {
    ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.reasoningEffort ? { reasoningEffort: options.reasoningEffort } : {}),
  };
  if (prepared.setting === 'full') {
    const result = await client.complete({ ...toChatRequestParts(messages), ...common }, signal);
    addCall(usage, result.usage);
    messages.push({ role: 'assistant', content: result.text });
    return { answer: result.text, finish: 'answer', searches, messages, usage, ignoredToolCalls: 0 };
  }
  const state = prepared.search as SearchState;
  const tools = prepared.tools as ToolSpec[];
  let used = 0;
  let disabled = false;
  let ignored = 0;
  for (;;) {
    const result = await client.complete({ ...toChatRequestParts(messages), ...common, tools, toolChoice: disabled ? 'none' : 'auto' }, signal);
    addCall(usage, result.usage);
    const calls = result.toolCalls ?? [];
    if (disabled || calls.length === 0) {
      ignored += disabled ? calls.length : 0;
      messages.push({ role: 'assistant', content: result.text });
      return { answer: result.text, finish: disabled ? 'budget' : 'answer', searches, messages, usage, ignoredToolCalls: ignored };
    }
    const withIds = calls.map((c, i) => ({ ...c, id: c.id || `call_${messages.length}_${i}` }));
    messages.push({ role: 'assistant', content: result.text ? result.text : null, tool_calls: toWireCalls(withIds) });
    for (const call of withIds) {
      const query = call.name === 'search' ? searchQueryOf(call) : undefined;
      let content: string;
      if (used >= options.budget) content = pyJson({ ...(query !== undefined ? { query } : {}), error: 'search budget exhausted' });
      else if (call.name !== 'search') {
        used++;
        content = pyJson({ error: `unknown tool "${call.name}"; the only tool is search` });
      } else if (query === undefined) {
        used++;
        content = pyJson({ error: 'search needs a JSON object argument {"query": "…"}' });
      } else {
        used++;
        searches.push(query);
        const hits = state.index.search(query, options.k).map((h) => state.byOriginal.get(h.key) as PoolDoc);
        content = searchPayload(state, prepared.publicIds, query, hits);
      }
      messages.push({ role: 'tool', tool_call_id: call.id, content });
    }
    if (used >= options.budget) {
      messages.push({ role: 'user', content: options.prompts.finalMessage });
      disabled = true;
    }
  }
}

export interface Citations {
  /** Original doc_ids, in order of first citation. */
  cited: string[];
  /** Bracketed tokens that look like ids but are none shown in this conversation. */
  unknown: string[];
  groups: Record<DocGroup | 'withheld', string[]>;
}

/**
 * Citations of an answer: ids in square brackets — [web1], [rs2], [d03], also [rs1, rs3], 【rs1】 —
 * matched (case-insensitively) against the public ids shown in this conversation and mapped back
 * to the item's doc_ids and groups.
 */
export function parseCitations(answer: string, publicIds: ReadonlyMap<string, string>, pool: readonly PoolDoc[], withheld: readonly string[]): Citations {
  const lower = new Map([...publicIds].map(([pub, orig]) => [pub.toLowerCase(), orig]));
  const cited: string[] = [];
  const unknown: string[] = [];
  for (const m of answer.matchAll(/[[【［]([^\]】］[【［\n]{1,200})[\]】］]/g)) {
    for (const raw of m[1].split(/[,;，；、\s]+/)) {
      const token = raw.trim().replace(/^doc_id[:=]\s*/i, '');
      if (!token) continue;
      const original = lower.get(token.toLowerCase());
      if (original !== undefined) {
        if (!cited.includes(original)) cited.push(original);
      } else if (/^[A-Za-z]{1,8}[-_]?\d{1,5}$/.test(token) && !unknown.includes(token)) unknown.push(token);
    }
  }
  const groupOf = new Map(pool.map((d) => [d.original, d.group]));
  const hidden = new Set(withheld);
  const groups: Citations['groups'] = { golden: [], distractor: [], irrelevant: [], withheld: [] };
  for (const id of cited) {
    const g = groupOf.get(id);
    if (g) groups[g].push(id);
    if (hidden.has(id)) groups.withheld.push(id);
  }
  return { cited, unknown, groups };
}
