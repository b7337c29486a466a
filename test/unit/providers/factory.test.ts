import assert from 'node:assert/strict';
import { AnthropicMessagesClient } from '../../../src/core/providers/anthropic';
import { ModelError } from '../../../src/core/providers/errors';
import { createModelClient, describeSettings } from '../../../src/core/providers/factory';
import { OpenAIChatClient } from '../../../src/core/providers/openai';
import type { ModelSettings } from '../../../src/core/providers/types';
import { useMockServer, user } from './helpers';

function configError(settings: ModelSettings): ModelError {
  try {
    createModelClient(settings);
  } catch (error) {
    assert.ok(error instanceof ModelError, String(error));
    assert.equal(error.kind, 'config');
    return error;
  }
  throw new Error('expected a config error');
}

describe('providers: createModelClient', () => {
  const ctx = useMockServer();

  it('builds each provider; the hosted OpenAI endpoint gets max_completion_tokens, others max_tokens', () => {
    const hosted = createModelClient({ provider: 'openai', model: 'gpt-x', apiKey: 'sk-test-not-used-000000' });
    assert.ok(hosted instanceof OpenAIChatClient);
    assert.equal(hosted.provider, 'openai');
    assert.equal(hosted.model, 'gpt-x');
    assert.equal(hosted.structuredOutput, 'native');
    assert.equal(hosted.buildBody({ messages: [user('x')], maxOutputTokens: 10 }).max_completion_tokens, 10);
    const local = createModelClient({ provider: 'openai', model: 'qwen', baseUrl: 'http://127.0.0.1:1/v1', maxOutputTokens: 20 }) as OpenAIChatClient;
    assert.equal(local.buildBody({ messages: [user('x')] }).max_tokens, 20);
    const forced = createModelClient({
      provider: 'openai',
      model: 'qwen',
      baseUrl: 'http://127.0.0.1:1/v1',
      maxTokensParam: 'max_completion_tokens',
    }) as OpenAIChatClient;
    assert.equal(forced.buildBody({ messages: [user('x')], maxOutputTokens: 5 }).max_completion_tokens, 5);
    const claude = createModelClient({ provider: 'anthropic', model: 'claude-x', apiKey: 'sk-ant-test-not-used-0' });
    assert.ok(claude instanceof AnthropicMessagesClient);
    assert.equal(claude.structuredOutput, 'prompt');
  });

  it('needs a key for the hosted APIs, and sends a placeholder to local servers', async () => {
    assert.match(configError({ provider: 'openai', model: 'gpt-x' }).message, /no API key: set OPENAI_API_KEY/);
    assert.match(configError({ provider: 'anthropic', model: 'claude-x', apiKey: '  ' }).message, /no API key: set ANTHROPIC_API_KEY/);
    ctx.server.reply({ text: 'local ok' });
    const client = createModelClient({ provider: 'openai', model: 'llama', baseUrl: ctx.server.openaiBaseUrl });
    assert.equal((await client.complete({ messages: [user('hi')] })).text, 'local ok');
    assert.equal(ctx.server.requests[0].auth, 'bearer');
  });

  it('rejects bad settings with one clear line', () => {
    assert.match(configError({ provider: 'gemini' as never, model: 'x' }).message, /unknown provider "gemini"/);
    assert.match(configError({ provider: 'openai', model: ' ', apiKey: 'k' }).message, /no model name/);
    assert.match(configError({ provider: 'openai', model: 'm', baseUrl: 'localhost:8000' }).message, /must be http\(s\)|not a URL/);
    assert.match(
      configError({ provider: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:1/v1', timeoutMs: 0 }).message,
      /timeoutMs must be a positive number/,
    );
    assert.match(configError({ provider: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:1/v1', maxRetries: 1.5 }).message, /maxRetries must be an integer/);
    assert.match(configError({ provider: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:1/v1', temperature: 3 }).message, /temperature/);
    assert.match(configError({ provider: 'openai', model: 'm', baseUrl: 'http://u:p@127.0.0.1:1/v1' }).message, /must not contain credentials/);
  });

  it('describes settings without the key', () => {
    const shown = describeSettings({ provider: 'openai', model: 'm', apiKey: 'sk-secret-value-123456' });
    assert.equal(shown.apiKey, 'set');
    assert.ok(!JSON.stringify(shown).includes('sk-secret'));
  });
});
