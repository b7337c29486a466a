import type { TrajectoryRecord } from '../../core/load/loadRecord';
import { mapWithConcurrency, promptVersionOf, runModelAudit } from '../../core/audit/runAudit';
import { SEARCHAUDITOR_VARIANTS, type SearchAuditorOptions, type SearchAuditorVariant } from '../../core/audit/searchAuditor';
import type { AuditMethod, AuditResult } from '../../core/audit/types';
import { createModelClient } from '../../core/providers/factory';
import type { ModelClient, ModelSettings, ProviderName, ReasoningEffort } from '../../core/providers/types';
import type { ToolNames } from '../../core/stats/statistics';
import { CliUsageError, type CliIo } from '../io';
import { REASONING_EFFORTS } from '../options';

export interface ModelAuditContext {
  sha: string;
  names: ToolNames;
  cached: (recordId: string, key: { method: string; model: string; promptVersion: string; options?: unknown }) => AuditResult | undefined;
}

function positiveInt(value: unknown, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new CliUsageError(`${flag} expects a positive whole number`);
  return n;
}

/** Model settings from flags; keys only from OPENAI_API_KEY / ANTHROPIC_API_KEY (never flags, never logged). */
export function modelSettingsFrom(values: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): ModelSettings {
  const provider = (values.provider ?? env.TRAJAUDIT_PROVIDER ?? 'openai') as ProviderName;
  if (provider !== 'openai' && provider !== 'anthropic') throw new CliUsageError('--provider must be openai or anthropic');
  const model = (values.model ?? env.TRAJAUDIT_MODEL) as string | undefined;
  if (!model) throw new CliUsageError('--model is required for model-backed methods (or set TRAJAUDIT_MODEL); --method heuristic needs no model');
  const baseUrl = (values['base-url'] ?? env.TRAJAUDIT_BASE_URL) as string | undefined;
  const apiKey = provider === 'openai' ? env.OPENAI_API_KEY : env.ANTHROPIC_API_KEY;
  if (!apiKey && !baseUrl)
    throw new CliUsageError(`set ${provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY'}, or point --base-url at a local OpenAI-compatible server`);
  const settings: ModelSettings = { provider, model };
  if (baseUrl) settings.baseUrl = baseUrl;
  if (apiKey) settings.apiKey = apiKey;
  if (values.temperature !== undefined) {
    const temperature = Number(values.temperature);
    if (String(values.temperature).trim() === '' || !(temperature >= 0 && temperature <= 2))
      throw new CliUsageError(`--temperature expects a number from 0 to 2, got "${String(values.temperature)}"`);
    settings.temperature = temperature;
  }
  if (values['reasoning-effort'] !== undefined) {
    const effort = values['reasoning-effort'];
    if (!REASONING_EFFORTS.includes(effort as ReasoningEffort))
      throw new CliUsageError(`--reasoning-effort must be ${REASONING_EFFORTS.join(', ')}, got "${String(effort)}"`);
    settings.reasoningEffort = effort as ReasoningEffort;
  }
  if (values['max-output-tokens'] !== undefined) settings.maxOutputTokens = positiveInt(values['max-output-tokens'], '--max-output-tokens', 8000);
  if (values['timeout-ms'] !== undefined) settings.timeoutMs = positiveInt(values['timeout-ms'], '--timeout-ms', 120_000);
  if (values['max-retries'] !== undefined) {
    const retries = Number(values['max-retries']);
    if (!Number.isInteger(retries) || retries < 0) throw new CliUsageError('--max-retries expects a whole number ≥ 0');
    settings.maxRetries = retries;
  }
  return settings;
}

/** The audit options of the flags, and the options part of the result-cache key (shared by sync and batch audits). */
export function auditOptionsFrom(
  method: AuditMethod,
  values: Record<string, unknown>,
  settings: ModelSettings,
  client: ModelClient,
): { options: SearchAuditorOptions; keyOptions: Record<string, unknown> | undefined } {
  const variant = (values.ablation ?? 'full') as SearchAuditorVariant;
  if (!SEARCHAUDITOR_VARIANTS.includes(variant)) throw new CliUsageError(`--ablation must be one of ${SEARCHAUDITOR_VARIANTS.join(', ')}`);
  if (variant !== 'full' && method !== 'searchauditor') throw new CliUsageError('--ablation applies to --method searchauditor only');
  const options: SearchAuditorOptions = {
    client,
    variant,
    adjudicatorSeesTrajectory: !values['no-full-trajectory'],
    ...(values['warm-cache'] ? { warmCacheFirst: true } : {}),
    contextLimit: positiveInt(values['context-limit'], '--context-limit', 128_000),
    ...(settings.maxOutputTokens ? { maxOutputTokens: settings.maxOutputTokens } : {}),
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.reasoningEffort ? { reasoningEffort: settings.reasoningEffort } : {}),
  };
  const keyOptions = method === 'searchauditor' ? { variant, adjudicatorSeesTrajectory: options.adjudicatorSeesTrajectory } : undefined;
  return { options, keyOptions };
}

/** Model-backed audit methods (SearchAuditor and the baselines), records audited concurrently. */
export async function runModelAudits(
  records: TrajectoryRecord[],
  method: AuditMethod,
  values: Record<string, unknown>,
  io: CliIo,
  context: ModelAuditContext,
): Promise<{ recordId: string; audit?: AuditResult; error?: string; cached?: boolean }[]> {
  const settings = modelSettingsFrom(values);
  const { options, keyOptions } = auditOptionsFrom(method, values, settings, createModelClient(settings));
  const concurrency = positiveInt(values.concurrency, '--concurrency', 4);
  let done = 0;
  return mapWithConcurrency(records, concurrency, async (record) => {
    const cached = context.cached(record.id, {
      method,
      model: settings.model,
      promptVersion: promptVersionOf(method),
      ...(keyOptions ? { options: keyOptions } : {}),
    });
    if (cached) return { recordId: record.id, audit: cached, cached: true };
    try {
      const audit = await runModelAudit(record.trajectory, method, options, context.sha);
      io.err(
        `[${++done}/${records.length}] record ${record.id}: ${audit.usage.calls} calls, ${audit.usage.inputTokens} input tokens (${audit.usage.cachedInputTokens} cached), ${(audit.usage.latencyMs / 1000).toFixed(1)} s`,
      );
      return { recordId: record.id, audit };
    } catch (error) {
      io.err(`[${++done}/${records.length}] record ${record.id}: failed — ${(error as Error).message.split('\n')[0]}`);
      return { recordId: record.id, error: (error as Error).message.split('\n')[0] };
    }
  });
}
