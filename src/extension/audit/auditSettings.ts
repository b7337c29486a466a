import * as vscode from 'vscode';
import type { AuditMethod } from '../../core/audit/types';
import type { SearchAuditorVariant } from '../../core/audit/searchAuditor';

export type ProviderSetting = 'auto' | 'openai' | 'anthropic' | 'vscode-lm' | 'none';

export interface AuditSettings {
  provider: ProviderSetting;
  model: string;
  baseUrl: string;
  concurrency: number;
  temperature: number | undefined;
  reasoningEffort: 'low' | 'medium' | 'high' | undefined;
  maxOutputTokens: number;
  contextLimit: number;
  defaultMethod: AuditMethod;
  variant: SearchAuditorVariant;
  adjudicatorSeesTrajectory: boolean;
  /** SearchAuditor: one branch first so the other two read the trajectory from the prompt cache. */
  warmCacheFirst: boolean;
  /** USD per million tokens, to show a cost estimate in the jobs view (0 = unknown). */
  pricing: { input: number; cachedInput: number; output: number };
}

/** `trajaudit.audit.*` settings. API keys are never settings: they live in SecretStorage. */
export function readAuditSettings(): AuditSettings {
  const c = vscode.workspace.getConfiguration('trajaudit.audit');
  const effort = c.get<string>('reasoningEffort', '');
  const temperature = c.get<number | null>('temperature', null);
  return {
    provider: c.get<ProviderSetting>('provider', 'auto'),
    model: c.get<string>('model', ''),
    baseUrl: c.get<string>('baseUrl', ''),
    concurrency: Math.max(1, c.get<number>('concurrency', 4)),
    temperature: temperature === null ? undefined : temperature,
    reasoningEffort: effort === 'low' || effort === 'medium' || effort === 'high' ? effort : undefined,
    maxOutputTokens: c.get<number>('maxOutputTokens', 8000),
    contextLimit: c.get<number>('contextLimit', 128000),
    defaultMethod: c.get<AuditMethod>('method', 'searchauditor'),
    variant: c.get<SearchAuditorVariant>('ablation', 'full'),
    adjudicatorSeesTrajectory: c.get<boolean>('adjudicatorSeesTrajectory', true),
    warmCacheFirst: c.get<boolean>('warmCacheFirst', false),
    pricing: c.get('pricing', { input: 0, cachedInput: 0, output: 0 }),
  };
}
