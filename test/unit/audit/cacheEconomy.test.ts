import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSearchAuditorBatch } from '../../../src/core/audit/batch/searchAuditorBatch';
import { planSearchAuditor, runSearchAuditor } from '../../../src/core/audit/searchAuditor';
import type { AuditUsage } from '../../../src/core/audit/types';
import { createBatchProvider } from '../../../src/core/providers/batch';
import { createModelClient } from '../../../src/core/providers/factory';
import type { ModelSettings } from '../../../src/core/providers/types';
import { estimateTokens, startMockModelServer, type MockModelServer } from '../../mock/mockModelServer';
import { trajectoryOf } from '../helpers';
import { searchAuditorScript } from './fixtures';

const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

/** A search run shaped like SearchAuditBench's: most of τ is tool returns (here ≈ 20K mock tokens over 40 steps). */
function longRun(caseLabel: string) {
  const messages: unknown[] = [{ role: 'user', content: `Which architect designed the clock tower? (${caseLabel})` }];
  for (let i = 0; i < 40; i++) {
    messages.push({
      role: 'assistant',
      content: '',
      reasoning_content: `Step ${i}: check the next source.`,
      tool_calls: [call(`c${i}`, 'search', { query: [`tower ${i}`] })],
    });
    messages.push({ role: 'tool', tool_call_id: `c${i}`, content: `Result ${i}: ${'the stadium clock tower is mentioned in passing; '.repeat(40)}` });
  }
  messages.push({ role: 'assistant', content: 'Erik Lallerstedt' });
  return trajectoryOf({ query: `Which architect designed the clock tower? (${caseLabel})`, predicted_answer: 'Erik Lallerstedt', trajectory: messages });
}

/** Billed-equivalent input (cached input at 0.1×, the OpenAI gpt-5 and Anthropic cache-read ratio) ÷ τ. */
const billedTau = (usage: AuditUsage, tau: number) => (usage.inputTokens - usage.cachedInputTokens + 0.1 * usage.cachedInputTokens) / tau;

describe('SearchAuditor prompt-cache economy: ≤ 2.5 τ billed per case (issue 17 item 2, mock prompt cache)', function () {
  this.timeout(60000);
  let server: MockModelServer;
  let dir: string;
  beforeEach(async () => {
    server = await startMockModelServer({ script: searchAuditorScript({}, 0) });
    dir = mkdtempSync(join(tmpdir(), 'trajaudit-economy-'));
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const settings = (): ModelSettings => ({ provider: 'openai', model: 'mock-gpt', baseUrl: server.openaiBaseUrl, apiKey: 'sk-test', timeoutMs: 5000 });

  it('sync with warmCacheFirst: branches 2 and 3 and the adjudicator read τ from the cache', async () => {
    const client = createModelClient(settings());
    const t = longRun('warm');
    const tau = estimateTokens(planSearchAuditor(t, { client }).context.text);
    assert.ok(tau > 15_000, `τ = ${tau}`);
    const audit = await runSearchAuditor(t, { client, warmCacheFirst: true });
    const ratio = billedTau(audit.usage, tau);
    assert.ok(ratio <= 2.5, `${ratio.toFixed(2)} τ billed`);
  });

  it('batch: the same, as the mock answers a batch’s items one after another', async () => {
    const client = createModelClient(settings());
    const cases = [0, 1, 2].map((i) => ({ caseId: `case-${i}`, trajectory: longRun(`batch ${i}`) }));
    const result = await runSearchAuditorBatch(cases, {
      search: { client },
      provider: createBatchProvider(settings()),
      jobDir: join(dir, 'job'),
      pollIntervalMs: 1,
    });
    for (const c of cases) {
      const outcome = result.cases.get(c.caseId);
      assert.ok(outcome && 'audit' in outcome);
      const ratio = billedTau(outcome.audit.usage, estimateTokens(planSearchAuditor(c.trajectory, { client }).context.text));
      assert.ok(ratio <= 2.5, `${c.caseId}: ${ratio.toFixed(2)} τ billed`);
    }
  });
});
