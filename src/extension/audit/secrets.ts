import * as vscode from 'vscode';
import type { ProviderName } from '../../core/providers/types';

const KEY = (provider: ProviderName) => `trajaudit.apiKey.${provider}`;

/** API keys live in VS Code's SecretStorage only (never settings, never logs). */
export class ApiKeys {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(provider: ProviderName): Thenable<string | undefined> {
    return this.secrets.get(KEY(provider));
  }

  set(provider: ProviderName, key: string): Thenable<void> {
    return this.secrets.store(KEY(provider), key);
  }

  delete(provider: ProviderName): Thenable<void> {
    return this.secrets.delete(KEY(provider));
  }
}

export function registerSetApiKey(keys: ApiKeys): vscode.Disposable {
  return vscode.commands.registerCommand('trajaudit.setApiKey', async (providerArg?: ProviderName, keyArg?: string) => {
    const provider =
      providerArg ?? ((await vscode.window.showQuickPick(['openai', 'anthropic'], { title: 'Set API key for which provider?' })) as ProviderName | undefined);
    if (!provider) return false;
    const key =
      keyArg ??
      (await vscode.window.showInputBox({
        title: `${provider} API key`,
        password: true,
        ignoreFocusOut: true,
        prompt: 'Stored in VS Code SecretStorage; never written to settings or logs. Leave empty to remove.',
      }));
    if (key === undefined) return false;
    if (key.trim() === '') await keys.delete(provider);
    else await keys.set(provider, key.trim());
    void vscode.window.showInformationMessage(key.trim() ? `${provider} API key stored.` : `${provider} API key removed.`);
    return true;
  });
}
