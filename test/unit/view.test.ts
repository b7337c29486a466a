import assert from 'node:assert/strict';
import { answerTrace } from '../../src/core/view/answerTrace';
import { buildRows, MIN_ROW_JSON_CHARS } from '../../src/core/view/rows';
import type { AuditData } from '../../src/shared/protocol';
import { disagrees, newestAudit } from '../../src/core/view/recordView';
import { searchMessages } from '../../src/core/view/search';
import { trajectoryOf } from './helpers';

const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
const t = trajectoryOf({
  query: 'Which architect designed the Ravenna ferry terminal?',
  predicted_answer: 'Aldo  Brera',
  gold_answer: 'Lucia Ferri',
  trajectory: [
    { role: 'user', content: 'Which architect designed the Ravenna ferry terminal?' },
    {
      role: 'assistant',
      reasoning_content: 'Search broadly.',
      content: '',
      tool_calls: [call('s1', 'search', { query: ['Ravenna ferry terminal architect'] })],
    },
    { role: 'tool', tool_call_id: 's1', content: '1. Terminal opens — snippet: designed by aldo brera studio (press release)' },
    {
      role: 'assistant',
      reasoning_content: 'Aldo Brera looks right; open the official page.',
      content: '',
      tool_calls: [call('v1', 'visit', { url: 'https://port.example/terminal', goal: 'architect' })],
    },
    { role: 'tool', tool_call_id: 'v1', content: 'Design competition won by Lucia Ferri; Aldo Brera was site engineer.' },
    { role: 'assistant', content: 'Aldo Brera' },
  ],
});

describe('timeline rows', () => {
  it('summarize each message without its body', () => {
    const rows = buildRows(t);
    assert.equal(rows.length, 6);
    assert.deepEqual(rows[1].calls, ['search(query=["Ravenna ferry terminal architect"])']);
    assert.equal(rows[2].toolName, 'search');
    assert.equal(rows[2].issuedBy, 1);
    assert.equal(rows[4].toolName, 'visit');
    assert.equal(rows[1].hasReasoning, true);
    assert.equal(rows[1].preview, 'Search broadly.');
    assert.deepEqual(
      rows.filter((r) => r.isDecision).map((r) => r.position),
      [1, 3, 5],
    );
    assert.equal(rows[5].isFinalAnswer, true);
  });

  it('are never shorter in JSON than the lower bound the host uses to skip embedding a view', () => {
    const empty = trajectoryOf({
      trajectory: [
        { role: 'user', content: '' },
        { role: 'assistant', content: '' },
      ],
    });
    for (const row of buildRows(empty)) assert.ok(JSON.stringify(row).length >= MIN_ROW_JSON_CHARS, JSON.stringify(row));
  });
});

describe('search over every message', () => {
  it('matches content, reasoning and call arguments, case-insensitively by default', () => {
    assert.deepEqual(searchMessages(t, { text: 'brera' }), [2, 3, 4, 5]);
    assert.deepEqual(searchMessages(t, { text: 'brera', caseSensitive: true }), [2]);
    assert.deepEqual(searchMessages(t, { text: 'port.example' }), [3]);
  });
  it('filters by role and tool, and supports regular expressions', () => {
    assert.deepEqual(searchMessages(t, { text: 'brera', roles: ['tool'] }), [2, 4]);
    assert.deepEqual(searchMessages(t, { text: 'brera', tools: ['visit'] }), [3, 4]);
    assert.deepEqual(searchMessages(t, { text: 'L\\w+ Ferri', regex: true }), [4]);
    assert.throws(() => searchMessages(t, { text: '(', regex: true }), /invalid regular expression/);
    assert.deepEqual(searchMessages(t, { text: '' }), []);
  });
});

describe('answer trace', () => {
  it('finds every occurrence and flags the first with its source type', () => {
    const trace = answerTrace(t);
    assert.deepEqual(trace.predicted?.occurrences, [
      { position: 2, source: 'search snippet' },
      { position: 3, source: 'reasoning' },
      { position: 4, source: 'visited page' },
      { position: 5, source: 'answer' },
    ]);
    assert.deepEqual(trace.predicted?.first, { position: 2, source: 'search snippet' });
    assert.deepEqual(trace.gold?.first, { position: 4, source: 'visited page' });
  });
});

describe('human vs audit', () => {
  const audits: AuditData[] = [
    { id: 'a', method: 'heuristic', createdAt: '2026-01-02T00:00:00Z', diagnosis: { criticalStep: 9, rootCause: 'constraint_neglect' } },
    { id: 'b', method: 'searchauditor', createdAt: '2026-03-01T00:00:00Z', diagnosis: { criticalStep: 3, rootCause: 'unverified_source_reliance' } },
  ];
  it('takes the newest audit by createdAt', () => {
    assert.equal(newestAudit(audits)?.id, 'b');
    assert.equal(newestAudit([]), undefined);
  });
  it('disagrees when the step falls outside the span or the root cause differs', () => {
    assert.equal(disagrees({ criticalStep: 3, toleranceSpan: [1, 3], rootCause: 'unverified_source_reliance' }, audits), false);
    assert.equal(disagrees({ criticalStep: 1, toleranceSpan: [1, 1], rootCause: 'unverified_source_reliance' }, audits), true);
    assert.equal(disagrees({ criticalStep: 3, rootCause: 'search_coverage_gap' }, audits), true);
    assert.equal(disagrees(undefined, audits), false);
  });
});
