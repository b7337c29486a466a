// Flags and plumbing shared by the `trajaudit harness …` subcommands.
import { basename, extname, join } from 'node:path';
import { createModelClient } from '../../core/providers/factory';
import type { ModelClient, ModelSettings } from '../../core/providers/types';
import type { HarnessRunSummary } from '../../core/harness/delegation/run';
import type { HarnessProgress } from '../../core/harness/runFolder';
import { costUsd, usageLine, type Pricing } from '../../core/harness/wire';
import { CliUsageError, type CliIo } from '../io';
import { modelSettingsFrom } from './auditWithModel';

export function intFlag(values: Record<string, unknown>, name: string, fallback: number, min = 0): number {
  const v = values[name];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new CliUsageError(`--${name} expects a whole number ≥ ${min}, got "${String(v)}"`);
  return n;
}

export function seedFlag(values: Record<string, unknown>): string | number {
  const v = values.seed;
  if (v === undefined) return 0;
  const s = String(v).trim();
  if (!s) throw new CliUsageError('--seed needs a value');
  return /^-?\d+$/.test(s) ? Number(s) : s;
}

/** `--price input,cachedInput,output` in USD per million tokens. */
export function pricingFlag(values: Record<string, unknown>): Pricing | undefined {
  if (values.price === undefined) return undefined;
  const parts = String(values.price)
    .split(',')
    .map((p) => Number(p.trim()));
  if (parts.length !== 3 || parts.some((p) => !Number.isFinite(p) || p < 0))
    throw new CliUsageError('--price expects "input,cachedInput,output" in USD per million tokens, e.g. 1.25,0.125,10');
  return { input: parts[0], cachedInput: parts[1], output: parts[2] };
}

export function defaultOut(kind: string, input: string): string {
  return join('trajaudit-runs', `${kind}-${basename(input, extname(input)) || 'run'}`);
}

export function modelClientFrom(values: Record<string, unknown>): { client: ModelClient; settings: ModelSettings } {
  const settings = modelSettingsFrom(values);
  return { client: createModelClient(settings), settings };
}

/** An AbortSignal tied to Ctrl-C for the duration of `run` (the run stops; rerun to resume). */
export async function withInterrupt<T>(
  io: CliIo,
  run: (signal: AbortSignal) => Promise<T>,
  note = 'trajaudit harness: interrupted — finishing nothing more; rerun the same command to resume',
): Promise<T> {
  const controller = new AbortController();
  const onSigint = () => {
    io.err(note);
    controller.abort();
  };
  process.once('SIGINT', onSigint);
  try {
    return await run(controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

export function progressPrinter(io: CliIo, name: string): (event: HarnessProgress) => void {
  return (e) => io.err(e.done === 0 ? `trajaudit harness ${name}: ${e.message}` : `[${e.done}/${e.total}] ${e.message}`);
}

/** Prints a run summary; returns the exit code (1 when a unit failed or the run was interrupted). */
export function reportSummary(
  io: CliIo,
  name: string,
  summary: HarnessRunSummary,
  values: Record<string, unknown>,
  pricing: Pricing | undefined,
  extra: Record<string, unknown> = {},
): number {
  const cost = costUsd(summary.runUsage, pricing);
  for (const note of summary.notes) io.err(`trajaudit harness ${name}: note: ${note}`);
  if (values.json) {
    io.out(
      JSON.stringify(
        {
          folder: summary.folder,
          total: summary.total,
          skipped: summary.skipped,
          completed: summary.completed,
          failed: summary.failed,
          aborted: summary.aborted,
          usage: summary.usage,
          run_usage: summary.runUsage,
          ...(cost !== undefined ? { run_cost_usd: cost } : {}),
          ...extra,
        },
        null,
        2,
      ),
    );
  } else {
    io.out(
      `${summary.folder}: ${summary.total} unit(s); ${summary.skipped} done earlier, ${summary.completed} now, ${summary.failed.length} failed${summary.aborted ? ', interrupted' : ''}`,
    );
    io.out(`this session: ${usageLine(summary.usage, pricing)}`);
    io.out(`whole run:    ${usageLine(summary.runUsage, pricing)}`);
    for (const f of summary.failed) io.out(`  failed ${f.key.split('#').filter(Boolean).join(' / ')}: ${f.error}`);
    for (const [k, v] of Object.entries(extra)) if (typeof v === 'string') io.out(`${k}: ${v}`);
  }
  if (summary.failed.length || summary.aborted) {
    io.err(
      `trajaudit harness ${name}: ${summary.failed.length} failed${summary.aborted ? ', interrupted' : ''}; rerun the same command to run what is missing`,
    );
    return 1;
  }
  return 0;
}
