import * as vscode from 'vscode';
import type { SearchAuditorOptions } from '../../core/audit/searchAuditor';
import { createModelClient } from '../../core/providers/factory';
import type { ModelClient, ModelSettings, ProviderName } from '../../core/providers/types';
import type { AuditSettings } from './auditSettings';
import { LanguageModelClient } from './languageModelClient';
import type { ApiKeys } from './secrets';

/** `settings` (API key included: never log it) is given for OpenAI and Anthropic only, whose batch APIs a folder audit can use. */
export type ClientChoice = { client: ModelClient; options: SearchAuditorOptions; settings?: ModelSettings } | { unavailable: string };

/**
 * The model a model-backed audit uses: the configured provider with its key from SecretStorage
 * (or a base URL of a local server), or the VS Code language models. `auto` picks the first
 * that is ready, in that order.
 */
export async function resolveModel(settings: AuditSettings, keys: ApiKeys): Promise<ClientChoice> {
  const order: ProviderName[] = settings.provider === 'openai' || settings.provider === 'anthropic' ? [settings.provider] : ['openai', 'anthropic'];
  if (settings.provider !== 'vscode-lm' && settings.provider !== 'none') {
    for (const provider of order) {
      const apiKey = await keys.get(provider);
      if (!apiKey && !settings.baseUrl) continue;
      if (!settings.model) return { unavailable: `Set "trajaudit.audit.model" to the ${provider} model to use.` };
      const modelSettings: ModelSettings = { provider, model: settings.model, maxOutputTokens: settings.maxOutputTokens };
      if (apiKey) modelSettings.apiKey = apiKey;
      if (settings.baseUrl) modelSettings.baseUrl = settings.baseUrl;
      if (settings.temperature !== undefined) modelSettings.temperature = settings.temperature;
      if (settings.reasoningEffort) modelSettings.reasoningEffort = settings.reasoningEffort;
      const client = createModelClient(modelSettings);
      return { client, options: optionsFor(client, settings), settings: modelSettings };
    }
  }
  if (settings.provider === 'vscode-lm' || settings.provider === 'auto') {
    const client = await LanguageModelClient.select(settings.model || undefined).then(undefined, () => undefined);
    if (client) return { client, options: optionsFor(client, settings) };
  }
  return { unavailable: 'No model is configured.' };
}

function optionsFor(client: ModelClient, settings: AuditSettings): SearchAuditorOptions {
  return {
    client,
    variant: settings.variant,
    adjudicatorSeesTrajectory: settings.adjudicatorSeesTrajectory,
    ...(settings.warmCacheFirst ? { warmCacheFirst: true } : {}),
    contextLimit: settings.contextLimit,
    maxOutputTokens: settings.maxOutputTokens,
    ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
    ...(settings.reasoningEffort ? { reasoningEffort: settings.reasoningEffort } : {}),
  };
}

/** When no model is ready: offer the heuristic auditor, the VS Code language models, or a key. */
export async function offerAlternatives(reason: string): Promise<'heuristic' | undefined> {
  const heuristic = 'Use the Offline Heuristic';
  const key = 'Set API Key';
  const lm = 'Use VS Code Language Models';
  const choice = await vscode.window.showWarningMessage(
    `${reason} Model audits need an API key (SecretStorage), a local OpenAI-compatible server (trajaudit.audit.baseUrl), or a VS Code language model.`,
    heuristic,
    key,
    lm,
  );
  if (choice === heuristic) return 'heuristic';
  if (choice === key) await vscode.commands.executeCommand('trajaudit.setApiKey');
  if (choice === lm) await vscode.workspace.getConfiguration('trajaudit.audit').update('provider', 'vscode-lm', vscode.ConfigurationTarget.Global);
  return undefined;
}
