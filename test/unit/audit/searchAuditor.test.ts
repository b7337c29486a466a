import assert from 'node:assert/strict';
import { runModelAudit } from '../../../src/core/audit/runAudit';
import { runSearchAuditor, SEARCHAUDITOR_VARIANTS } from '../../../src/core/audit/searchAuditor';
import { createModelClient } from '../../../src/core/providers/factory';
import type { ModelClient } from '../../../src/core/providers/types';
import { faults, startMockModelServer, type MockModelServer } from '../../mock/mockModelServer';
import { auditedTrajectory, FAR_TOOL_TEXT, GOLD_ANSWER, GOLD_RATIONALE, kindOf, searchAuditorScript } from './fixtures';

describe('SearchAuditor against the mock model server (real SDKs)', function () {
  this.timeout(30000);
  let server: MockModelServer;
  let openai: ModelClient;
  let anthropic: ModelClient;
  const t = auditedTrajectory();

  beforeEach(async () => {
    server = await startMockModelServer({ script: searchAuditorScript() });
    openai = createModelClient({
      provider: 'openai',
      model: 'mock-gpt',
      baseUrl: server.openaiBaseUrl,
      apiKey: 'sk-test-secret',
      retryBaseDelayMs: 5,
      retryMaxDelayMs: 20,
      timeoutMs: 5000,
    });
    anthropic = createModelClient({
      provider: 'anthropic',
      model: 'mock-claude',
      baseUrl: server.anthropicBaseUrl,
      apiKey: 'sk-ant-test-secret',
      retryBaseDelayMs: 5,
      retryMaxDelayMs: 20,
      timeoutMs: 5000,
    });
  });
  afterEach(async () => server.close());

  it('makes exactly 5 calls, the three branches in flight at the same time', async () => {
    const result = await runSearchAuditor(t, { client: openai });
    assert.equal(server.requests.length, 5);
    assert.equal(result.usage.calls, 5);
    const branches = server.requests.filter((r) => ['holistic', 'backward', 'forward'].includes(kindOf(r)));
    assert.equal(branches.length, 3);
    const latestStart = Math.max(...branches.map((r) => r.startedAt));
    const earliestEnd = Math.min(...branches.map((r) => r.endedAt!));
    assert.ok(latestStart < earliestEnd, 'all three branch requests overlap in time');
    assert.deepEqual(
      result.branches?.map((b) => [b.name, b.criticalStep, b.rootCause]),
      [
        ['holistic', 20, 'unsupported_answer'],
        ['backward', 6, 'constraint_neglect'],
        ['forward', 8, 'candidate_mismanagement'],
      ],
    );
  });

  it('gives the outline to the backward and forward audits only, and shares the trajectory prefix', async () => {
    await runSearchAuditor(t, { client: openai });
    const byKind = Object.fromEntries(server.requests.map((r) => [kindOf(r), r]));
    assert.doesNotMatch(byKind.holistic.userText, /Outline O\(τ\)/);
    assert.match(byKind.backward.userText, /Outline O\(τ\)/);
    assert.match(byKind.forward.userText, /Outline O\(τ\)/);
    const prefix = (text: string) => text.slice(0, text.indexOf('## Your audit procedure'));
    assert.equal(prefix(byKind.holistic.userText), prefix(byKind.backward.userText).slice(0, prefix(byKind.holistic.userText).length));
    assert.ok(byKind.holistic.userText.startsWith('## Query (q)'), 'the trajectory context comes first');
  });

  it('warmCacheFirst: one branch first, the other two after it and reading the trajectory from the prompt cache', async () => {
    const run = async (warmCacheFirst: boolean) => {
      const mock = await startMockModelServer({ script: searchAuditorScript(), cacheMinTokens: 16 });
      try {
        const client = createModelClient({
          provider: 'anthropic',
          model: 'mock-claude',
          baseUrl: mock.anthropicBaseUrl,
          apiKey: 'sk-ant-test-secret',
          retryBaseDelayMs: 5,
          retryMaxDelayMs: 20,
          timeoutMs: 5000,
        });
        const result = await runSearchAuditor(t, { client, warmCacheFirst });
        const branches = mock.requests.filter((r) => ['holistic', 'backward', 'forward'].includes(kindOf(r)));
        return { result, branches };
      } finally {
        await mock.close();
      }
    };
    const cold = await run(false);
    const warm = await run(true);
    const [first, ...rest] = warm.branches.sort((x, y) => x.startedAt - y.startedAt);
    assert.equal(rest.length, 2);
    for (const r of rest) assert.ok(r.startedAt >= first.endedAt!, 'the other branches start once the first is answered');
    assert.ok(Math.max(...rest.map((r) => r.startedAt)) < Math.min(...rest.map((r) => r.endedAt!)), 'the other two overlap');
    assert.ok(
      warm.result.usage.cachedInputTokens > cold.result.usage.cachedInputTokens,
      `cached input ${warm.result.usage.cachedInputTokens} (warm) vs ${cold.result.usage.cachedInputTokens} (all at once)`,
    );
    assert.deepEqual(warm.result.diagnosis, cold.result.diagnosis, 'the same diagnosis either way');
    assert.equal(warm.result.usage.calls, 5);
  });

  it('maps an adjudicated tool message to the decision step that issued the call, and records it', async () => {
    const result = await runSearchAuditor(t, { client: openai });
    assert.equal(result.diagnosis.criticalStep, 6, 'message 7 is the return of the call issued at 6');
    assert.equal(result.diagnosis.rootCause, 'candidate_mismanagement');
    assert.deepEqual(
      result.corrections?.find((c) => c.source === 'adjudicator'),
      { source: 'adjudicator', proposed: 7, mappedTo: 6, reason: 'message 7 is a tool return; mapped to the decision step that issued the call' },
    );
    assert.deepEqual(result.adjudication?.clusters, [[6, 8], [20]]);
    assert.equal(result.repair.directives.length, 2);
  });

  it('never puts a gold field in any prompt; the repair request sees neither the trajectory nor gold', async () => {
    await runSearchAuditor(t, { client: openai });
    for (const r of server.requests) {
      assert.ok(!r.rawBody.includes(GOLD_ANSWER) && !r.rawBody.includes(GOLD_RATIONALE), `gold leaked into a ${kindOf(r)} request`);
    }
    const repair = server.requests.find((r) => kindOf(r) === 'repair')!;
    assert.ok(!repair.rawBody.includes(FAR_TOOL_TEXT), 'the repair request does not carry the whole trajectory');
    assert.match(repair.userText, /Critical step: 6/);
  });

  it('rejects a root cause outside the taxonomy and re-asks; malformed output is retried at most 3 times then reported', async () => {
    let adjudications = 0;
    server.script((request) => {
      if (kindOf(request) === 'adjudicator') {
        adjudications++;
        return adjudications === 1
          ? { text: JSON.stringify({ critical_step: 6, root_cause: 'bad luck', rationale: 'x', cited_steps: [6] }) }
          : { text: JSON.stringify({ critical_step: 6, root_cause: 'search_coverage_gap', rationale: 'ok', cited_steps: [6] }) };
      }
      return searchAuditorScript({}, 0)(request);
    });
    const result = await runSearchAuditor(t, { client: openai });
    assert.equal(adjudications, 2);
    assert.equal(result.diagnosis.rootCause, 'search_coverage_gap');
    assert.equal(result.usage.calls, 6);

    const before = server.requests.length;
    server.script((request) => (kindOf(request) === 'holistic' ? { text: '{"critical_step": "not json' } : searchAuditorScript({}, 0)(request)));
    await assert.rejects(runSearchAuditor(t, { client: openai }), /after 3 attempts/);
    assert.equal(server.requests.slice(before).filter((r) => kindOf(r) === 'holistic').length, 3);
  });

  it('retries a 429 at the transport level', async () => {
    server.failNext(faults.rateLimit(0));
    const result = await runSearchAuditor(t, { client: openai });
    assert.equal(result.usage.calls, 5);
    assert.equal(server.requests.filter((r) => r.status === 429).length, 1);
    assert.equal(server.requests.length, 6);
  });

  it('stops calls in flight when cancelled', async () => {
    server.script((request) => ({ ...searchAuditorScript({}, 0)(request), delayMs: 5000 }));
    const controller = new AbortController();
    const running = runSearchAuditor(t, { client: openai, signal: controller.signal });
    while (server.requests.length < 3) await new Promise((r) => setTimeout(r, 10));
    const abortedAt = Date.now();
    controller.abort();
    await assert.rejects(running);
    assert.ok(Date.now() - abortedAt < 1000, 'rejects promptly');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(server.requests.length, 3, 'no further call after cancel');
    assert.ok(
      server.requests.every((r) => r.outcome === 'client-closed'),
      'the in-flight requests were closed by the client',
    );
  });

  for (const variant of SEARCHAUDITOR_VARIANTS) {
    it(`ablation ${variant} runs`, async () => {
      const result = await runSearchAuditor(t, { client: anthropic, variant });
      assert.equal(server.requests.length, variant === 'vote' ? 4 : 5);
      assert.equal(result.branches?.length, 3);
      if (variant === '3x-holistic') assert.ok(server.requests.filter((r) => kindOf(r) === 'holistic').length === 3);
      if (variant === 'no-outline-windows')
        assert.match(server.requests.find((r) => kindOf(r) === 'adjudicator')!.userText, /not provided in this configuration/);
      if (variant === 'vote') assert.equal(result.diagnosis.criticalStep, 6);
    });
  }

  for (const method of ['all-at-once', 'step-by-step', 'binary-search'] as const) {
    it(`baseline ${method} runs and emits the full triple`, async () => {
      server.script(() => ({
        text: JSON.stringify({
          critical_step: 7,
          root_cause: 'candidate_mismanagement',
          rationale: 'r',
          directives: ['Compare the candidates at step 6.'],
          decisive: true,
          half: 'first',
        }),
      }));
      const result = await runModelAudit(t, method, { client: openai });
      assert.equal(result.method, method);
      assert.ok(result.diagnosis.criticalStep >= 0 && t.decisionSteps.includes(result.diagnosis.criticalStep));
      assert.equal(result.diagnosis.rootCause, 'candidate_mismanagement');
      assert.ok(result.repair.directives.length >= 1);
      if (method === 'all-at-once') assert.equal(server.requests.length, 1);
      if (method === 'step-by-step') assert.equal(server.requests.length, 1, 'commits at the first decisive step');
      if (method === 'binary-search') assert.ok(server.requests.length >= 3 && server.requests.length <= 6);
    });
  }
});
