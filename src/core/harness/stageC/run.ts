// `trajaudit harness stage-c`: pre-checks + verifier views per item into a resumable folder:
//   stagec.jsonl     one line per item {id, passed, prechecks, views: {C1…C4}, usage}
//   stagec.run.json  the run's configuration (checked on resume), the verifier pool, usage
//   report.md        the Markdown report, rewritten at the end of every session
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DelegationItem } from '../../items/schemas';
import { isAbortError } from '../../providers/errors';
import { mapWithConcurrency } from '../../audit/runAudit';
import { writeFileAtomic } from '../../files/atomicWrite';
import type { HarnessRunSummary } from '../delegation/run';
import { appendJsonLine, checkSameConfig, ensureFolder, readForResume, type ProgressSink } from '../runFolder';
import { sumUsage, usageLine, type HarnessUsage, type Pricing } from '../wire';
import { precheckItem, precheckPassed, type PrecheckFinding } from './precheck';
import { renderStageCReport } from './report';
import { runView, STAGE_C_PROMPT_VERSION, type Aggregate, type StageCOptions, type Verifier, type ViewName, type ViewResult } from './views';

export const STAGE_C_FILE = 'stagec.jsonl';
export const STAGE_C_CONFIG = 'stagec.run.json';

export interface StageCLine {
  id: string;
  passed: boolean;
  prechecks: PrecheckFinding[];
  views: Partial<Record<ViewName, ViewResult>>;
  usage: HarnessUsage;
}

/** An item passes only when its pre-checks have no error and every view run passes. */
export function stageCLine(item: DelegationItem, views: Partial<Record<ViewName, ViewResult>>, prechecks = precheckItem(item)): StageCLine {
  const viewsPass = Object.values(views).every((v) => v?.passed);
  const usage = sumUsage(Object.values(views).flatMap((v) => (v ? v.verdicts.map((x) => x.usage) : [])));
  return { id: String(item.id), passed: precheckPassed(prechecks) && viewsPass, prechecks, views, usage };
}

export interface StageCRunOptions extends StageCOptions {
  items: DelegationItem[];
  itemsPath: string;
  out: string;
  verifiers: Verifier[];
  views: ViewName[];
  aggregate: Aggregate;
  concurrency: number;
  onProgress?: ProgressSink;
  pricing?: Pricing;
}

export async function runStageC(options: StageCRunOptions): Promise<HarnessRunSummary & { accepted: number; reportPath: string }> {
  const folder = options.out;
  ensureFolder(folder);
  const configPath = join(folder, STAGE_C_CONFIG);
  const config = {
    prompt_version: STAGE_C_PROMPT_VERSION,
    views: options.views,
    aggregate: options.aggregate,
    verifiers: options.verifiers.map((v) => v.label),
  };
  let stored: { config?: unknown } | undefined;
  try {
    stored = JSON.parse(readFileSync(configPath, 'utf8')) as { config?: unknown };
  } catch {
    stored = undefined;
  }
  checkSameConfig(folder, 'stage-c', stored?.config, config);
  writeFileAtomic(configPath, `${JSON.stringify({ tool: 'trajaudit harness stage-c', items: options.itemsPath, config }, null, 2)}\n`);

  const path = join(folder, STAGE_C_FILE);
  const previous = readForResume<StageCLine>(path);
  const notes: string[] = previous.repaired ? [`${STAGE_C_FILE}: a partial last line (an interrupted write) was removed`] : [];
  const done = new Set(previous.lines.map((l) => String(l.id)));
  const todo = options.items.filter((i) => !done.has(String(i.id)));
  const skipped = options.items.length - todo.length;
  const failed: HarnessRunSummary['failed'] = [];
  const session: HarnessUsage[] = [];
  let finished = 0;
  let aborted = false;
  options.onProgress?.({
    done: 0,
    total: todo.length,
    skipped,
    message: `${todo.length} item(s) to check, ${skipped} already done; verifiers: ${options.verifiers.map((v) => v.label).join(', ') || 'none'}`,
  });
  await mapWithConcurrency(todo, Math.max(1, options.concurrency), async (item) => {
    if (options.signal?.aborted) {
      aborted = true;
      return;
    }
    try {
      const prechecks = precheckItem(item);
      const views: Partial<Record<ViewName, ViewResult>> = {};
      for (const view of options.views) views[view] = await runView(view, item, options.verifiers, options.aggregate, options, prechecks);
      const line = stageCLine(item, views, prechecks);
      appendJsonLine(path, line);
      session.push(line.usage);
      finished++;
      const viewText = options.views.map((v) => `${v} ${views[v]?.passed ? 'pass' : 'FAIL'}`).join(', ');
      options.onProgress?.({
        done: finished + failed.length,
        total: todo.length,
        skipped,
        message: `${item.id}: ${line.passed ? 'accepted' : 'REJECTED'} (pre-checks ${precheckPassed(prechecks) ? 'pass' : 'FAIL'}${viewText ? `, ${viewText}` : ''}) — ${usageLine(line.usage, options.pricing)}`,
      });
    } catch (error) {
      if (isAbortError(error) || options.signal?.aborted) {
        aborted = true;
        return;
      }
      const message = (error as Error).message.split('\n')[0];
      failed.push({ key: String(item.id), error: message });
      options.onProgress?.({ done: finished + failed.length, total: todo.length, skipped, message: `${item.id}: failed — ${message}` });
    }
  });
  const lines = readForResume<StageCLine>(path).lines;
  const reportPath = join(folder, 'report.md');
  writeFileAtomic(
    reportPath,
    renderStageCReport(lines, { verifiers: config.verifiers, views: options.views, aggregate: options.aggregate, pricing: options.pricing }),
  );
  return {
    folder,
    total: options.items.length,
    skipped,
    completed: finished,
    failed,
    aborted,
    usage: sumUsage(session),
    runUsage: sumUsage(lines.map((l) => l.usage)),
    notes,
    accepted: lines.filter((l) => l.passed).length,
    reportPath,
  };
}
