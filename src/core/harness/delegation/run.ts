// `trajaudit harness delegation`: settings I/II over Delegation items into a resumable
// `delegation` run folder that `trajaudit score` scores:
//   trajaudit.run.json  {kind: "delegation", items: <relative path>, outputs: "outputs.jsonl", harness: {…}}
//   outputs.jsonl       one line per item × setting × order (docs/run-folders.md §3, plus withheld_doc_ids,
//                       cited_groups, trajectory, usage, …)
//   trajectories/       every conversation as an openai-chat *.traj.json (query, predicted_answer)
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { isAbortError } from '../../providers/errors';
import type { ModelClient } from '../../providers/types';
import type { DelegationItem } from '../../items/schemas';
import { loadDelegationItems } from '../../scoring/runs/delegationRun';
import { mapWithConcurrency } from '../../audit/runAudit';
import { safeNameComponent } from '../../files/safeName';
import { sumUsage, usageLine, type HarnessUsage, type Pricing } from '../wire';
import {
  appendJsonLine,
  checkSameConfig,
  ensureFolder,
  manifestPath,
  readForResume,
  readManifest,
  writeFileAtomicMkdir,
  writeManifest,
  type ProgressSink,
} from '../runFolder';
import {
  parseCitations,
  prepareFull,
  prepareSearch,
  runConversation,
  type DelegationOptions,
  type DelegationSetting,
  type PreparedConversation,
} from './conversation';
import type { DocumentOrder } from './docs';

export const OUTPUTS_FILE = 'outputs.jsonl';

export interface DelegationUnit {
  item: DelegationItem;
  setting: DelegationSetting;
  order?: DocumentOrder;
}

export const unitKey = (id: string, setting: string, order?: string | null): string => `${id}#${setting}#${order ?? ''}`;

/** The units of a run: every item × order (setting I) or every item once (setting II). */
export function delegationUnits(items: readonly DelegationItem[], setting: DelegationSetting, orders: readonly DocumentOrder[]): DelegationUnit[] {
  return setting === 'full' ? items.flatMap((item) => orders.map((order) => ({ item, setting, order }))) : items.map((item) => ({ item, setting }));
}

export function prepareUnit(unit: DelegationUnit, options: DelegationOptions): PreparedConversation {
  return unit.setting === 'full' ? prepareFull(unit.item, unit.order as DocumentOrder, options) : prepareSearch(unit.item, options);
}

/** What --dry-run prints per unit: the first request `{id, setting, order, messages, tools}` (no tools in setting I). */
export function dryRunEntry(prepared: PreparedConversation): Record<string, unknown> {
  return {
    id: prepared.id,
    setting: prepared.setting,
    order: prepared.order ?? null,
    messages: prepared.messages,
    ...(prepared.tools ? { tools: prepared.tools } : {}),
  };
}

export function loadItemsList(path: string): DelegationItem[] {
  return [...loadDelegationItems(path).values()];
}

export function itemsSha256(items: readonly DelegationItem[]): string {
  return createHash('sha256').update(JSON.stringify(items)).digest('hex');
}

export interface DelegationRunOptions extends DelegationOptions {
  setting: DelegationSetting;
  orders: DocumentOrder[];
  itemsPath: string;
  items: DelegationItem[];
  /** sha256 of the whole items input (default: of `items`); a resumed run must have the same. */
  itemsSha?: string;
  out: string;
  client: ModelClient;
  concurrency: number;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  pricing?: Pricing;
}

export interface HarnessRunSummary {
  folder: string;
  /** Units of the whole run, units already done before this session, units finished now. */
  total: number;
  skipped: number;
  completed: number;
  failed: { key: string; error: string }[];
  aborted: boolean;
  /** This session's usage, and the whole run's (every output line so far). */
  usage: HarnessUsage;
  runUsage: HarnessUsage;
  notes: string[];
}

function fileNameFor(unit: DelegationUnit): string {
  // The setting and order are the harness's own names; only the item id comes from data.
  return `${safeNameComponent(String(unit.item.id))}.${unit.setting}${unit.order ? `.${unit.order}` : ''}.traj.json`;
}

export async function runDelegation(options: DelegationRunOptions): Promise<HarnessRunSummary> {
  const folder = options.out;
  ensureFolder(folder);
  const notes: string[] = [];
  const outputsPath = join(folder, OUTPUTS_FILE);
  const config = {
    prompt_version: options.prompts.version,
    provider: options.client.provider,
    model: options.client.model,
    seed: options.seed,
    doc_ids: options.docIds,
    ...(options.setting === 'search' ? { k: options.k, budget: options.budget, withhold: options.withhold } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
  };
  const sha = options.itemsSha ?? itemsSha256(options.items);
  const manifest = readManifest(folder) ?? {};
  const harness = (manifest.harness ?? {}) as { items_sha256?: string; settings?: Record<string, unknown> };
  if (manifest.kind !== undefined && manifest.kind !== 'delegation') checkSameConfig(folder, 'run kind', manifest.kind, 'delegation');
  checkSameConfig(folder, 'delegation (items)', harness.items_sha256, sha);
  checkSameConfig(folder, `setting ${options.setting}`, harness.settings?.[options.setting], config);
  const write = (usage?: HarnessUsage) =>
    writeManifest(folder, {
      ...manifest,
      kind: 'delegation',
      items: manifestPath(folder, options.itemsPath),
      outputs: OUTPUTS_FILE,
      harness: {
        ...harness,
        tool: 'trajaudit harness delegation',
        items_sha256: sha,
        settings: { ...(harness.settings ?? {}), [options.setting]: config },
        ...(usage ? { usage } : {}),
      },
    });
  write();

  const previous = readForResume<{ id: string; setting: string; order?: string | null; usage?: HarnessUsage }>(outputsPath);
  if (previous.repaired) notes.push(`${OUTPUTS_FILE}: a partial last line (an interrupted write) was removed`);
  const done = new Set(previous.lines.map((l) => unitKey(String(l.id), l.setting, l.order)));
  const all = delegationUnits(options.items, options.setting, options.orders);
  const todo = all.filter((u) => !done.has(unitKey(String(u.item.id), u.setting, u.order)));
  const skipped = all.length - todo.length;
  const failed: HarnessRunSummary['failed'] = [];
  const sessionUsage: HarnessUsage[] = [];
  let finished = 0;
  let aborted = false;
  options.onProgress?.({ done: 0, total: todo.length, skipped, message: `${todo.length} to run, ${skipped} already done` });

  await mapWithConcurrency(todo, Math.max(1, options.concurrency), async (unit) => {
    const key = unitKey(String(unit.item.id), unit.setting, unit.order);
    const label = `${unit.item.id} ${unit.setting}${unit.order ? `/${unit.order}` : ''}`;
    if (options.signal?.aborted) {
      aborted = true;
      return;
    }
    try {
      const prepared = prepareUnit(unit, options);
      const result = await runConversation(options.client, prepared, options, options.signal);
      const citations = parseCitations(result.answer, prepared.publicIds, prepared.pool, prepared.withheld);
      const trajectoryRel = `trajectories/${fileNameFor(unit)}`;
      const golden = unit.item.golden_answer;
      const trajectory = {
        id: String(unit.item.id),
        query: unit.item.query,
        predicted_answer: result.answer,
        gold_answer: Array.isArray(golden) ? golden.map(String).join('; ') : String(golden),
        messages: result.messages,
        ...(prepared.tools ? { tools: prepared.tools } : {}),
        harness: {
          kind: 'delegation',
          setting: unit.setting,
          ...(unit.order ? { order: unit.order } : {}),
          provider: options.client.provider,
          model: options.client.model,
          prompt_version: options.prompts.version,
          finish: result.finish,
          searches: result.searches,
          public_ids: Object.fromEntries(prepared.publicIds),
          ...(unit.setting === 'search' ? { withheld_doc_ids: prepared.withheld } : {}),
          ...(prepared.notes.length ? { notes: prepared.notes } : {}),
        },
      };
      writeFileAtomicMkdir(join(folder, trajectoryRel), `${JSON.stringify(trajectory, null, 2)}\n`);
      const line = {
        id: String(unit.item.id),
        setting: unit.setting,
        ...(unit.order ? { order: unit.order } : {}),
        answer: result.answer,
        cited_doc_ids: citations.cited,
        ...(unit.setting === 'search' ? { searches: result.searches, withheld_doc_ids: prepared.withheld } : {}),
        cited_groups: citations.groups,
        ...(citations.unknown.length ? { unknown_citations: citations.unknown } : {}),
        finish: result.finish,
        ...(result.ignoredToolCalls ? { ignored_tool_calls: result.ignoredToolCalls } : {}),
        trajectory: trajectoryRel,
        provider: options.client.provider,
        model: options.client.model,
        usage: result.usage,
      };
      appendJsonLine(outputsPath, line);
      sessionUsage.push(result.usage);
      finished++;
      const g = citations.groups;
      options.onProgress?.({
        done: finished + failed.length,
        total: todo.length,
        skipped,
        message: `${label}: ${result.finish === 'budget' ? 'answered at the budget' : 'answered'}${unit.setting === 'search' ? ` after ${result.searches.length} search(es)` : ''}; cited ${citations.cited.length} (golden ${g.golden.length}, distractor ${g.distractor.length}, irrelevant ${g.irrelevant.length}${unit.setting === 'search' ? `, withheld ${g.withheld.length}` : ''}) — ${usageLine(result.usage, options.pricing)}`,
      });
    } catch (error) {
      if (isAbortError(error) || options.signal?.aborted) {
        aborted = true;
        return;
      }
      const message = (error as Error).message.split('\n')[0];
      failed.push({ key, error: message });
      options.onProgress?.({ done: finished + failed.length, total: todo.length, skipped, message: `${label}: failed — ${message}` });
    }
  });

  const all2 = readForResume<{ usage?: HarnessUsage }>(outputsPath).lines;
  const runUsage = sumUsage(all2.map((l) => l.usage));
  write(runUsage);
  return { folder, total: all.length, skipped, completed: finished, failed, aborted, usage: sumUsage(sessionUsage), runUsage, notes };
}
