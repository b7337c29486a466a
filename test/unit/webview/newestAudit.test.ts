import { strict as assert } from 'node:assert';
import { auditInstant, newestAudit, sortAuditsOldestFirst } from '../../../src/core/audit/newest';
import { loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import { parseSidecar } from '../../../src/core/sidecar/sidecarFile';
import { buildRecordList, buildRecordView } from '../../../src/core/view/recordView';
import { Store } from '../../../webview/src/editor/state';

const trajectory = {
  query: 'Which river flows through the old town?',
  predicted_answer: 'Aare',
  trajectory: [
    { role: 'user', content: 'Which river flows through the old town?' },
    { role: 'assistant', content: '', tool_calls: [{ id: 's1', type: 'function', function: { name: 'search', arguments: '{"query":["old town river"]}' } }] },
    { role: 'tool', tool_call_id: 's1', content: 'The Aare loops around the old town.' },
    { role: 'assistant', content: 'Aare' },
  ],
};

/** A sidecar whose two audits are stamped in different zones: 10:00+02:00 is 08:00Z, before 09:00Z. */
function sidecarText(audits: unknown[]): string {
  return JSON.stringify({
    schema: 'trajaudit.audit/v1',
    trajectory: { file: 'tz.json' },
    records: { '0': { annotation: { criticalStep: 1, toleranceSpan: [1, 1], rootCause: 'search_coverage_gap' }, audits } },
  });
}

const mixedZones = [
  // Listed first and lexically later ("10:00" > "09:00"), but the earlier instant.
  { id: 'east', method: 'heuristic', createdAt: '2026-03-01T10:00+02:00', diagnosis: { criticalStep: 3, rootCause: 'unsupported_answer' } },
  { id: 'utc', method: 'heuristic', createdAt: '2026-03-01T09:00Z', diagnosis: { criticalStep: 1, rootCause: 'search_coverage_gap' } },
];

function hostAndWebview(audits: unknown[]) {
  const loaded = loadText(JSON.stringify(trajectory), 'tz.json');
  const record = loaded.records[0];
  if (!isTrajectoryRecord(record)) throw new Error('fixture is not a trajectory');
  const sidecar = parseSidecar(sidecarText(audits), 'tz.json.audit.json');
  const records = buildRecordList(loaded, sidecar.records);
  const view = buildRecordView('tz.json', loaded, record, sidecar.records['0']);
  // The webview receives the view as JSON, as it does through postMessage.
  const store = new Store();
  store.setView(JSON.parse(JSON.stringify(view)));
  return { host: newestAudit(sidecar.records['0'].audits), disagreeing: records[0].disagreeing, store };
}

describe('newest audit: one rule for host and webview', () => {
  it('picks the same audit on both sides when the stamps are in different time zones', () => {
    const { host, disagreeing, store } = hostAndWebview(mixedZones);
    assert.equal(host?.id, 'utc');
    assert.equal(store.newestAudit()?.id, 'utc');
    assert.deepEqual(
      store.sortedAudits().map((a) => a.id),
      ['east', 'utc'],
    );
    // The record list's "disagreeing" flag is computed from the same (newest, agreeing) audit.
    assert.equal(disagreeing, false);
  });

  it('agrees on both sides in the other listing order too', () => {
    const { host, disagreeing, store } = hostAndWebview([...mixedZones].reverse());
    assert.equal(host?.id, 'utc');
    assert.equal(store.newestAudit()?.id, 'utc');
    assert.equal(disagreeing, false);
  });

  it('reads ISO 8601 stamps as instants, an offset-less stamp as UTC, and rejects what is not a date', () => {
    assert.equal(auditInstant('2026-03-01T10:00+02:00'), Date.UTC(2026, 2, 1, 8, 0));
    assert.equal(auditInstant('2026-03-01T09:00:30.25Z'), Date.UTC(2026, 2, 1, 9, 0, 30, 250));
    assert.equal(auditInstant('2026-03-01 09:00-0130'), Date.UTC(2026, 2, 1, 10, 30));
    assert.equal(auditInstant('2026-03-01T09:00:00'), Date.UTC(2026, 2, 1, 9, 0));
    assert.equal(auditInstant('2026-03-01'), Date.UTC(2026, 2, 1));
    for (const bad of ['yesterday', '2026-02-30T00:00Z', '2026-13-01', '2026-03-01T25:00Z', '03/01/2026', '', null, undefined]) {
      assert.equal(auditInstant(bad), undefined, String(bad));
    }
  });

  it('breaks ties by file order and puts undated or unreadable stamps before every dated audit', () => {
    const audits = [
      { id: 'late', method: 'm', createdAt: '2026-03-01T09:00:00Z' },
      { id: 'undated', method: 'm' },
      { id: 'same-instant', method: 'm', createdAt: '2026-03-01T11:00:00+02:00' },
      { id: 'garbled', method: 'm', createdAt: 'soon' },
      { id: 'early', method: 'other', createdAt: '2026-01-01T00:00:00Z' },
    ];
    assert.deepEqual(
      sortAuditsOldestFirst(audits).map((a) => a.id),
      ['undated', 'garbled', 'early', 'late', 'same-instant'],
    );
    assert.equal(newestAudit(audits)?.id, 'same-instant');
    assert.equal(newestAudit(audits, 'other')?.id, 'early');
    assert.equal(
      newestAudit([
        { id: 'a', method: 'm' },
        { id: 'b', method: 'm' },
      ])?.id,
      'b',
    );
    assert.equal(newestAudit(undefined), undefined);
  });
});
