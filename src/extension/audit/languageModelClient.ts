import * as vscode from 'vscode';
import type { ChatRequest, ChatResult, ModelClient } from '../../core/providers/types';

/**
 * A ModelClient over the VS Code Language Model API (`vscode.lm`, e.g. Copilot models): no key
 * needed. JSON is requested in the prompt; the core's completeStructured extracts and validates.
 */
export class LanguageModelClient implements ModelClient {
  readonly provider = 'openai' as const;
  readonly structuredOutput = 'prompt' as const;

  private constructor(private readonly chat: vscode.LanguageModelChat) {}

  get model(): string {
    return `vscode-lm:${this.chat.vendor}/${this.chat.family}`;
  }

  static async select(family?: string): Promise<LanguageModelClient | undefined> {
    const models = await vscode.lm.selectChatModels(family ? { family } : {});
    return models[0] ? new LanguageModelClient(models[0]) : undefined;
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResult> {
    const started = Date.now();
    const first = [request.cacheablePrefix, request.messages[0]?.content].filter(Boolean).join('\n\n');
    const messages = [
      vscode.LanguageModelChatMessage.User([request.system, first].filter(Boolean).join('\n\n')),
      ...request.messages
        .slice(1)
        .map((m) => (m.role === 'user' ? vscode.LanguageModelChatMessage.User(m.content) : vscode.LanguageModelChatMessage.Assistant(m.content))),
    ];
    const cancel = new vscode.CancellationTokenSource();
    signal?.addEventListener('abort', () => cancel.cancel(), { once: true });
    try {
      const response = await this.chat.sendRequest(messages, { justification: 'Trajectory Auditor audits a failed agent trajectory.' }, cancel.token);
      let text = '';
      for await (const part of response.text) text += part;
      const inputTokens = (await Promise.all(messages.map((m) => this.chat.countTokens(m)))).reduce((s, n) => s + n, 0);
      const outputTokens = await this.chat.countTokens(text);
      return {
        text,
        latencyMs: Date.now() - started,
        attempts: 1,
        finishReason: 'stop',
        truncated: false,
        model: this.model,
        usage: { inputTokens, outputTokens, cachedInputTokens: 0, cacheWriteInputTokens: 0 },
      };
    } finally {
      cancel.dispose();
    }
  }
}
