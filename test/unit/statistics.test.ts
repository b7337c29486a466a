import assert from 'node:assert/strict';
import { inspectTrajectory } from '../../src/core/inspect/inspect';
import { evidenceWindow, shareBudget } from '../../src/core/stats/evidenceWindow';
import { buildOutline, formatOutline } from '../../src/core/stats/outline';
import { countTrajectory, criticalPosition } from '../../src/core/stats/statistics';
import { tokenCount } from '../../src/core/stats/tokens';
import { trajectoryOf } from './helpers';

const call = (name: string, args: unknown) => ({
  id: `${name}-${JSON.stringify(args).length}`,
  type: 'function',
  function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
});

const sample = {
  query: 'q',
  predicted_answer: 'Bern',
  trajectory: [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'What is the capital?' },
    { role: 'assistant', reasoning_content: 'Batch three searches.', content: '', tool_calls: [call('search', { query: ['q1', 'q2', 'q3'] })] },
    { role: 'tool', content: 'results one two three' },
    { role: 'assistant', content: '', tool_calls: [call('visit', { url: ['u1', 'u2'] }), call('search', { query: [] })] },
    { role: 'tool', content: 'page a' },
    { role: 'tool', content: 'no results' },
    { role: 'assistant', content: '', tool_calls: [call('calculator', { expression: '1+1' }), call('visit', '{"url": "u3"')] },
    { role: 'tool', content: '2' },
    { role: 'tool', content: 'page' },
    { role: 'assistant', content: 'Bern' },
  ],
  critical_step: 4,
  tolerance_span: [2, 7],
  root_cause: 'search_coverage_gap',
};

describe('statistics (SearchAuditBench Appendix C)', () => {
  it('counts calls and atomic operations: batched lists expand, empty lists count zero, others one', () => {
    const c = countTrajectory(trajectoryOf(sample));
    assert.equal(c.messages, 11);
    assert.deepEqual(c.decisionSteps, [2, 4, 7, 10]);
    assert.equal(c.finalAnswerStep, 10);
    assert.equal(c.toolCalls, 5);
    // search[3] → 3, visit[2] → 2, search[] → 0, calculator → 1, visit (unparsable) → 1
    assert.equal(c.atomicOps, 7);
    assert.equal(c.searchCalls, 2);
    assert.equal(c.visitCalls, 2);
  });

  it('search and visit names are configurable', () => {
    const c = countTrajectory(trajectoryOf(sample), { searchNames: ['calculator'], visitNames: [] });
    assert.equal(c.searchCalls, 1);
    assert.equal(c.visitCalls, 0);
    assert.equal(c.atomicOps, 1 + 1 + 1 + 1 + 1);
  });

  it('splits o200k_base tokens into total, tool returns, reasoning and predicted answer', () => {
    const t = trajectoryOf(sample);
    const r = inspectTrajectory(t);
    const toolReturns = t.messages.filter((m) => m.role === 'tool').reduce((s, m) => s + tokenCount(m.content), 0);
    assert.equal(r.tokens.toolReturns, toolReturns);
    assert.equal(r.tokens.reasoning, tokenCount('Batch three searches.'));
    assert.equal(r.tokens.predictedAnswer, tokenCount('Bern'));
    assert.ok(r.tokens.total > r.tokens.toolReturns + r.tokens.reasoning);
    assert.equal(tokenCount('hello world'), 2);
    assert.equal(tokenCount('<|endoftext|>') > 1, true, 'special tokens in text count as plain text');
  });

  it('reports gold and the critical position (critical index over final index)', () => {
    const r = inspectTrajectory(trajectoryOf(sample));
    assert.deepEqual(r.gold, { criticalStep: 4, toleranceSpan: [2, 7], rootCause: 'search_coverage_gap', criticalPosition: 0.4 });
    assert.equal(criticalPosition(0, 5), 0);
    assert.equal(criticalPosition(4, 5), 1);
    assert.equal(criticalPosition(undefined, 5), null);
    assert.equal(criticalPosition(0, 1), 0);
    assert.equal(criticalPosition(9, 2), null, 'a gold step past the last message has no position');
    assert.equal(criticalPosition(-1, 5), null);
  });

  it('inspect --json keys are exactly those of docs/cli.md §2', () => {
    const r = inspectTrajectory(trajectoryOf(sample));
    assert.deepEqual(
      Object.keys(r).sort(),
      [
        'atomicOps',
        'decisionSteps',
        'finalAnswerStep',
        'format',
        'gold',
        'id',
        'messages',
        'outcome',
        'predictedAnswer',
        'query',
        'searchCalls',
        'tokens',
        'toolCalls',
        'visitCalls',
      ].sort(),
    );
    assert.deepEqual(Object.keys(r.tokens).sort(), ['predictedAnswer', 'reasoning', 'toolReturns', 'total']);
  });
});

describe('outline O(τ)', () => {
  it('lists every decision step with a truncated preview and its calls', () => {
    const entries = buildOutline(trajectoryOf(sample), 12);
    assert.deepEqual(
      entries.map((e) => e.position),
      [2, 4, 7, 10],
    );
    assert.equal(entries[0].preview, 'Batch three…');
    assert.equal(entries[0].calls[0], 'search(query=["q1","q2","q3"])');
    assert.ok(entries[2].calls[1].includes('[unparsed]'));
    assert.equal(entries[3].isFinalAnswer, true);
    assert.match(formatOutline(entries), /^\[2\] Batch three… → search/);
  });
});

describe('evidence windows', () => {
  const long = 'word '.repeat(5000);
  const t = trajectoryOf({ ...sample, trajectory: sample.trajectory.map((m, i) => (i === 5 ? { ...m, content: long } : m)) });

  it('returns the original messages around the anchor, clamped to the trajectory', () => {
    const w = evidenceWindow(t, 9, { radius: 2, tokenBudget: 100000 });
    assert.deepEqual([w.start, w.end], [7, 10]);
    assert.deepEqual(
      w.messages.map((m) => m.position),
      [7, 8, 9, 10],
    );
    assert.ok(w.messages.every((m) => m.cutTokens === 0));
  });

  it('cuts long messages head-and-tail to the budget and says how much was cut', () => {
    const w = evidenceWindow(t, 4, { radius: 1, tokenBudget: 300 });
    const cut = w.messages.find((m) => m.position === 5);
    assert.ok(cut && cut.cutTokens > 4000);
    assert.match(cut.text, /\[… \d+ tokens cut …\]/);
    const total = w.messages.reduce((s, m) => s + tokenCount(m.text), 0);
    assert.ok(total <= 330, `window has ${total} tokens`);
    assert.deepEqual(evidenceWindow(t, 4, { radius: 1, tokenBudget: 300 }), w, 'deterministic');
  });

  it('shares a budget so small messages stay whole', () => {
    assert.deepEqual(shareBudget([10, 1000, 20], 300), [10, 270, 20]);
    assert.deepEqual(shareBudget([500, 500], 300), [150, 150]);
  });
});
