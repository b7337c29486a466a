// "Reopen as format…": the pure part (the pick list and the per-file choices); the command itself
// is a thin adapter in src/extension/commands/reopenAsFormat.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatChoiceFor, formatPicks, withFormatChoice } from '../../../src/core/load/formatChoice';
import { TRAJECTORY_READERS } from '../../../src/core/formats/registry';
import { loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';

describe('Reopen as format…', () => {
  it('offers every reader, the detected one first and marked, the one in use marked', () => {
    const picks = formatPicks('tongyi-react', 'openai-chat');
    assert.equal(picks.length, TRAJECTORY_READERS.length);
    assert.deepEqual(new Set(picks.map((p) => p.id)), new Set(TRAJECTORY_READERS.map((r) => r.id)));
    assert.equal(picks[0].id, 'tongyi-react');
    assert.equal(picks[0].description, 'tongyi-react · detected');
    assert.equal(picks.find((p) => p.id === 'openai-chat')?.description, 'openai-chat · in use');
    assert.equal(formatPicks(undefined, undefined)[0].id, TRAJECTORY_READERS[0].id, 'nothing detected: registry order');
  });

  it('remembers a choice per file, and choosing the detected format forgets it', () => {
    const one = withFormatChoice({}, 'file:///a.json', 'openai-chat', 'tongyi-react');
    assert.deepEqual(one, { 'file:///a.json': 'openai-chat' });
    const two = withFormatChoice(one, 'file:///b.json', 'swe-agent', 'who-and-when');
    assert.equal(formatChoiceFor(two, 'file:///a.json'), 'openai-chat');
    assert.equal(formatChoiceFor(two, 'file:///b.json'), 'swe-agent');
    assert.deepEqual(withFormatChoice(two, 'file:///a.json', 'tongyi-react', 'tongyi-react'), { 'file:///b.json': 'swe-agent' });
  });

  it('ignores a stored choice that names no reader, and inherited keys', () => {
    assert.equal(formatChoiceFor({ 'file:///a.json': 'no-such-format' }, 'file:///a.json'), undefined);
    assert.equal(formatChoiceFor(undefined, 'file:///a.json'), undefined);
    assert.equal(formatChoiceFor({}, 'constructor'), undefined);
  });

  it('the chosen reader reads the file, and the detection reason says it was chosen', () => {
    const text = readFileSync(join(__dirname, '..', '..', '..', 'samples', 'trajectories', 'tongyi', 'alpine-footbridge-span.traj.json'), 'utf8');
    const detected = loadText(text, 'x.json');
    const chosen = loadText(text, 'x.json', { format: 'openai-chat' });
    assert.notEqual(detected.detection.kind, 'openai-chat');
    assert.equal(chosen.detection.kind, 'openai-chat');
    assert.match(chosen.detection.reason, /OpenAI chat messages/);
    const record = chosen.records[0];
    assert.ok(isTrajectoryRecord(record));
    assert.equal(record.trajectory.format, 'openai-chat');
  });
});
