// The outcome a reader records in metadata.outcome: `inspect --json` prints it (null fields when
// the source has none) and the editor header shows it as text.
import assert from 'node:assert/strict';
import { loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import { outcomeOf, outcomeText } from '../../../src/core/model/outcome';
import { buildRecordView } from '../../../src/core/view/recordView';
import { runCli, tempDir, trajectoryOf, writeTemp } from '../helpers';

const messages = [
  { role: 'user', content: 'Which river flows through Vienna?' },
  { role: 'assistant', content: '<answer>Danube</answer>' },
];

describe('outcome (metadata.outcome)', () => {
  it('inspect --json prints {success, score, source}, and null fields when the source records none', async () => {
    const dir = tempDir();
    const withOutcome = writeTemp(dir, 'won.json', JSON.stringify({ messages, outcome: { success: true, score: 0.75, source: 'reward' } }));
    const without = writeTemp(dir, 'plain.json', JSON.stringify({ messages }));
    const a = JSON.parse((await runCli(['inspect', withOutcome, '--json'])).out) as { outcome: unknown };
    assert.deepEqual(a.outcome, { success: true, score: 0.75, source: 'reward' });
    const b = JSON.parse((await runCli(['inspect', without, '--json'])).out) as { outcome: unknown };
    assert.deepEqual(b.outcome, { success: null, score: null, source: null });
  });

  it('keeps only well-typed fields; an outcome with neither success nor score is none', () => {
    const of = (outcome: unknown) => outcomeOf(trajectoryOf({ messages, outcome }));
    assert.deepEqual(of({ success: 'yes', score: 1, source: 'score' }), { success: null, score: 1, source: 'score' });
    assert.deepEqual(of({ success: false, score: Number.NaN, source: 7 }), { success: false, score: null, source: null });
    assert.deepEqual(of({ source: 'reward' }), { success: null, score: null, source: null });
    assert.deepEqual(of([true]), { success: null, score: null, source: null });
  });

  it('the header shows it as text with its source', () => {
    assert.equal(outcomeText({ success: true, score: 1, source: 'reward' }), 'success (score 1)');
    assert.equal(outcomeText({ success: false, score: null, source: 'resolved' }), 'failure');
    assert.equal(outcomeText({ success: null, score: 0.4, source: 'score' }), 'score 0.4');
    const loaded = loadText(JSON.stringify({ messages, outcome: { success: false, score: 0, source: 'test_result.resolved' } }), 'x.json');
    const record = loaded.records[0];
    assert.ok(isTrajectoryRecord(record));
    const view = buildRecordView('x.json', loaded, record, undefined);
    assert.deepEqual(view.header.outcome, { text: 'failure (score 0)', source: 'test_result.resolved' });
    const plain = loadText(JSON.stringify({ messages }), 'y.json');
    const plainRecord = plain.records[0];
    assert.ok(isTrajectoryRecord(plainRecord));
    assert.equal(buildRecordView('y.json', plain, plainRecord, undefined).header.outcome, undefined);
  });
});
