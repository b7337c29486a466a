import assert from 'node:assert/strict';
import { planSearchAuditor, runSearchAuditor, SEARCHAUDITOR_PROMPT_VERSION } from '../../../src/core/audit/searchAuditor';
import { createModelClient } from '../../../src/core/providers/factory';
import type { ChatRequest, ChatResult, ModelClient, ModelSettings } from '../../../src/core/providers/types';
import { estimateTokens, startMockModelServer, type MockModelServer } from '../../mock/mockModelServer';
import { auditedTrajectory, kindOf, searchAuditorScript } from './fixtures';

/** The client with every call's request and result kept, to read per-stage cache usage. */
function recording(client: ModelClient): { client: ModelClient; calls: { request: ChatRequest; result: ChatResult }[] } {
  const calls: { request: ChatRequest; result: ChatResult }[] = [];
  return {
    calls,
    client: {
      provider: client.provider,
      model: client.model,
      ...(client.structuredOutput ? { structuredOutput: client.structuredOutput } : {}),
      complete: async (request, signal) => {
        const result = await client.complete(request, signal);
        calls.push({ request, result });
        return result;
      },
    },
  };
}

describe('SearchAuditor stages share one cacheable prefix (mock prompt cache)', function () {
  this.timeout(30000);
  let server: MockModelServer;
  const t = auditedTrajectory();
  beforeEach(async () => {
    server = await startMockModelServer({ script: searchAuditorScript({}, 0), cacheMinTokens: 16 });
  });
  afterEach(async () => server.close());

  const settingsFor = (provider: 'openai' | 'anthropic'): ModelSettings =>
    provider === 'openai'
      ? { provider, model: 'mock-gpt', baseUrl: server.openaiBaseUrl, apiKey: 'sk-test', timeoutMs: 5000 }
      : { provider, model: 'mock-claude', baseUrl: server.anthropicBaseUrl, apiKey: 'sk-ant-test', timeoutMs: 5000, structuredOutput: 'native' };

  for (const provider of ['openai', 'anthropic'] as const) {
    it(`${provider}, native structured output: the adjudicator reads the trajectory the branches cached`, async () => {
      const { client, calls } = recording(createModelClient(settingsFor(provider)));
      const audit = await runSearchAuditor(t, { client, warmCacheFirst: true }, 'a'.repeat(64));
      assert.equal(audit.promptVersion, SEARCHAUDITOR_PROMPT_VERSION);
      const kinds = server.requests.map(kindOf);
      assert.deepEqual([...kinds].sort(), ['adjudicator', 'backward', 'forward', 'holistic', 'repair']);
      const adjudication = calls.find((c) => c.request.messages[0].content.includes('evidence-grounded adjudication'))!;
      const context = planSearchAuditor(t, { client }).context.text;
      // The whole of τ is read from the cache, not only a few tokens of a shared schema opening.
      assert.ok(
        adjudication.result.usage.cachedInputTokens >= estimateTokens(context),
        `adjudication cached ${adjudication.result.usage.cachedInputTokens} of ${adjudication.result.usage.inputTokens} input tokens; τ is ≈ ${estimateTokens(context)}`,
      );
      // The same schema on the wire for every stage that reads τ, and the same routing key.
      const wire = server.requests.filter((r) => kindOf(r) !== 'repair');
      const schemaOf = (body: any) => JSON.stringify(provider === 'openai' ? body.response_format : body.output_config?.format);
      assert.equal(new Set(wire.map((r) => schemaOf(r.body))).size, 1);
      assert.notEqual(schemaOf(wire[0].body), undefined);
      if (provider === 'openai') assert.deepEqual(new Set(wire.map((r) => r.body.prompt_cache_key)), new Set(['a'.repeat(64)]));
    });
  }

  it('the mock keys the cache on the schema: a different schema before the same system and τ misses (OpenAI) or rewrites (Anthropic)', async () => {
    for (const provider of ['openai', 'anthropic'] as const) {
      const client = createModelClient(settingsFor(provider));
      const prefix = 'τ '.repeat(400);
      const ask = (name: string): ChatRequest => ({
        system: 'system',
        cacheablePrefix: prefix,
        messages: [{ role: 'user', content: 'go' }],
        json: { name, schema: { type: 'object', properties: { [name]: { type: 'string' } }, required: [name], additionalProperties: false } },
      });
      server.script(() => ({ text: '{}' }));
      const first = await client.complete(ask('one'));
      const same = await client.complete(ask('one'));
      const other = await client.complete(ask('two'));
      assert.equal(first.usage.cachedInputTokens, 0, provider);
      assert.ok(same.usage.cachedInputTokens >= estimateTokens(prefix), `${provider}: the same schema reads the prefix`);
      assert.ok(other.usage.cachedInputTokens < 16, `${provider}: another schema reads ${other.usage.cachedInputTokens} cached tokens`);
      server.reset();
    }
  });
});
