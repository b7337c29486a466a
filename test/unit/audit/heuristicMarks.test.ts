import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runHeuristicAudit } from '../../../src/core/audit/runAudit';
import { messageText } from '../../../src/core/audit/signals/text';
import { loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import { auditSchema } from '../../../src/core/sidecar/schema';
import { buildRecordView } from '../../../src/core/view/recordView';
import { M, MARKED_SUSPECTS, Markers } from '../../../webview/src/editor/markers';
import { Store } from '../../../webview/src/editor/state';

const sample = join(__dirname, '..', '..', '..', 'samples', 'trajectories', 'who-and-when', 'whowhen-ag-2.json');

describe('heuristic auditor: the editor marks the top three suspects with their evidence', () => {
  it('timeline notes and density-strip flags on the three suspect steps, the tooltip quoting each piece of evidence', () => {
    const loaded = loadText(readFileSync(sample, 'utf8'), 'whowhen-ag-2.json');
    const record = loaded.records[0];
    if (!isTrajectoryRecord(record)) throw new Error('the sample is not a trajectory');
    // The audit as the sidecar stores and reads it (through the schema, as the host sends it).
    const audit = auditSchema.parse(JSON.parse(JSON.stringify(runHeuristicAudit(record.trajectory))));
    assert.ok(audit.suspects && audit.suspects.length > MARKED_SUSPECTS);
    const view = buildRecordView('whowhen-ag-2.json', loaded, record, { audits: [audit] });
    const store = new Store();
    store.setView(JSON.parse(JSON.stringify(view)));
    const markers = new Markers(store);
    markers.recompute();

    const flagged = store.rows.filter((_, i) => markers.flags[i] & M.SUSPECT).map((row) => row.position);
    const top = audit.suspects.slice(0, MARKED_SUSPECTS);
    assert.deepEqual(
      flagged,
      top.map((s) => s.step).sort((a, b) => a - b),
    );
    top.forEach((suspect, rank) => {
      const notes = markers.notes.get(store.indexOf(suspect.step)) ?? [];
      const note = notes.find((n) => n.kind === 'suspect');
      assert.ok(note, `a suspect note on step ${suspect.step}`);
      assert.equal(note.badge, `S${rank + 1}`);
      for (const e of suspect.evidence.slice(0, 6)) {
        assert.ok(messageText(record.trajectory.messages[e.step]).includes(e.quote), `evidence ${JSON.stringify(e.quote)} is in message ${e.step}`);
        assert.ok(note.text.includes(`message ${e.step}: “${e.quote.slice(0, 119)}`), `the tooltip quotes message ${e.step}`);
      }
    });
    // The fourth suspect is not marked.
    const fourth = audit.suspects[MARKED_SUSPECTS].step;
    assert.equal(markers.flags[store.indexOf(fourth)] & M.SUSPECT, 0);
  });
});
