import { z } from 'zod';
import { normalizeRootCause, ROOT_CAUSES, type RootCause } from '../model/rootCauses';
import { completeStructured } from '../providers/structured';
import type { ChatRequest, ModelClient } from '../providers/types';
import type { AuditUsage } from './types';

/** A root cause id; display names are accepted, anything outside the taxonomy is rejected (and re-asked). */
export const rootCauseField = z.preprocess((v) => normalizeRootCause(v) ?? v, z.enum(ROOT_CAUSES));

export interface CallSettings {
  client: ModelClient;
  maxOutputTokens?: number;
  temperature?: number;
  reasoningEffort?: 'low' | 'medium' | 'high';
  signal?: AbortSignal;
}

/** The request as sent: the output limit, temperature and reasoning effort of the settings added (sync and batch alike). */
export function withCallSettings(settings: Omit<CallSettings, 'client'>, request: ChatRequest): ChatRequest {
  const full: ChatRequest = { ...request };
  if (settings.maxOutputTokens) full.maxOutputTokens = settings.maxOutputTokens;
  if (settings.temperature !== undefined) full.temperature = settings.temperature;
  if (settings.reasoningEffort) full.reasoningEffort = settings.reasoningEffort;
  return full;
}

/** A structured call not yet made: what a synchronous call sends directly and a batch submits as an item. */
export interface StructuredAsk<T> {
  request: ChatRequest;
  schema: z.ZodType<T>;
  /** The schema name sent to the server. */
  name: string;
}

/** One structured model call, with its usage added to `usage` (attempts count as calls). */
export async function structuredCall<T>(settings: CallSettings, usage: AuditUsage, request: ChatRequest, schema: z.ZodType<T>, name: string): Promise<T> {
  const result = await completeStructured(settings.client, withCallSettings(settings, request), schema, { name, signal: settings.signal });
  usage.calls += result.attempts;
  usage.inputTokens += result.usage.inputTokens;
  usage.outputTokens += result.usage.outputTokens;
  usage.cachedInputTokens += result.usage.cachedInputTokens;
  return result.value;
}

export type { RootCause };
