// The editor's nugget evidence (issue 18 item 4): the gold_nuggets.jsonl beside a trajectory (or
// given), its line for the record (record id, or the file stem build nuggets writes for a
// one-trajectory file), and each evidence id mapped to its message, result and quote; an id that
// does not resolve is kept as unresolved.
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { buildNuggetsView, resolveEvidence } from '../../../src/core/view/nuggetEvidence';
import { InputError } from '../../../src/core/input/inputError';
import { collectionFiles } from '../../../src/core/collections/collect';
import { loadFile } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { Trajectory } from '../../../src/core/model/trajectory';
import { tempDir, writeTemp } from '../helpers';

const SAMPLES = resolve(__dirname, '..', '..', '..', 'samples', 'trajectories', 'openai-chat');

/** A small intent run in the OpenAI chat shape: a search returning a JSON result list (m3), a visit (m5). */
const INTENT_RUN = {
  id: 'run-7',
  query: 'When is the museum open and what does a ticket cost?',
  messages: [
    { role: 'system', content: 'Use search and visit.' },
    { role: 'user', content: 'When is the museum open and what does a ticket cost?' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"query": ["museum hours ticket"]}' } }],
    },
    {
      role: 'tool',
      tool_call_id: 'c1',
      content: JSON.stringify([
        { title: 'Tickets', url: 'https://museum.example/tickets', snippet: 'Adults 12 euros, children free.' },
        { title: 'Hours', url: 'https://museum.example/hours', snippet: 'Open Tuesday to Sunday,   9:00 to 17:00.' },
      ]),
    },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'c2', type: 'function', function: { name: 'visit', arguments: '{"url": ["https://museum.example/hours"]}' } }],
    },
    { role: 'tool', tool_call_id: 'c2', content: 'Closed on Mondays. '.repeat(40) },
    { role: 'assistant', content: 'Tuesday to Sunday 9-17; adults 12 euros.' },
  ],
};

function trajectoryOf(path: string): Trajectory {
  const record = loadFile(path).records[0];
  assert.ok(isTrajectoryRecord(record));
  return record.trajectory;
}

const goldLine = (id: string, evidence: (string | number)[][]) =>
  JSON.stringify({ id, nuggets: evidence.map((ids, i) => ({ text: `nugget ${i + 1}`, weight: 1 + (i % 3), evidence_ids: ids })) });

describe('nugget evidence in the editor', () => {
  it('maps m<p> and m<p>.r<k> to the message, the result and a quote; an id that does not resolve stays, unresolved', () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'run-7.traj.json', JSON.stringify(INTENT_RUN));
    writeTemp(
      dir,
      'gold_nuggets.jsonl',
      `${goldLine('other', [['m3']])}\n${goldLine('run-7', [
        ['m3.r2', '[M5]'],
        ['m9.r1', 'm3'],
      ])}\n`,
    );
    const view = buildNuggetsView(file, 'run-7', trajectoryOf(file), { oneTrajectoryFile: true });
    assert.equal(view.goldFile, join(dir, 'gold_nuggets.jsonl'));
    assert.equal(view.instanceId, 'run-7');
    assert.equal(view.line, 2);
    assert.deepEqual(
      view.nuggets.map((n) => [n.text, n.weight, n.evidence.map((e) => [e.id, e.resolved, e.position, e.result])]),
      [
        [
          'nugget 1',
          1,
          [
            ['m3.r2', true, 3, 2],
            ['m5', true, 5, undefined],
          ],
        ],
        [
          'nugget 2',
          2,
          [
            ['m9.r1', false, undefined, undefined],
            ['m3', true, 3, undefined],
          ],
        ],
      ],
    );
    const [r2, visit] = view.nuggets[0].evidence;
    // Result 2's own text, whitespace squeezed; not the whole return.
    assert.match(r2.quote ?? '', /"snippet":"Open Tuesday to Sunday, 9:00 to 17:00\."/);
    assert.doesNotMatch(r2.quote ?? '', /Adults/);
    assert.equal(visit.kind, 'visit');
    assert.ok((visit.quote ?? '').length <= 241 && visit.quote?.endsWith('…'), 'a long page is cut');
  });

  it('finds the line by file stem for a one-trajectory file, as build nuggets names it', () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'cts-0099.intent-run.traj.json', JSON.stringify(INTENT_RUN));
    writeTemp(dir, 'gold_nuggets.jsonl', `${goldLine('cts-0099', [['m5']])}\n`);
    const t = trajectoryOf(file);
    const view = buildNuggetsView(file, 'run-7', t, { oneTrajectoryFile: true });
    assert.equal(view.instanceId, 'cts-0099');
    assert.deepEqual(view.candidates, ['run-7', 'cts-0099']);
    // A record of a many-record file is only matched by its own id.
    const many = buildNuggetsView(file, 'run-7', t, { oneTrajectoryFile: false });
    assert.equal(many.instanceId, undefined);
    assert.deepEqual(many.nuggets, []);
    assert.equal(many.goldFile, join(dir, 'gold_nuggets.jsonl'), 'the gold file is named even when it has no line for the record');
  });

  it('no gold file beside the trajectory: no gold file in the view; a given one is read instead', () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'run-7.traj.json', JSON.stringify(INTENT_RUN));
    const t = trajectoryOf(file);
    assert.equal(buildNuggetsView(file, 'run-7', t, { oneTrajectoryFile: true }).goldFile, undefined);
    const elsewhere = writeTemp(tempDir(), 'nuggets.jsonl', `${goldLine('run-7', [['m3.r1']])}\n`);
    const view = buildNuggetsView(file, 'run-7', t, { oneTrajectoryFile: true, goldFile: elsewhere });
    assert.equal(view.goldFile, elsewhere);
    assert.equal(view.nuggets[0].evidence[0].result, 1);
  });

  it('<stem>.gold_nuggets.jsonl beside the trajectory comes before the folder’s gold_nuggets.jsonl', () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'run-7.traj.json', JSON.stringify(INTENT_RUN));
    writeTemp(dir, 'gold_nuggets.jsonl', `${goldLine('run-7', [['m3']])}\n`);
    writeTemp(dir, 'run-7.gold_nuggets.jsonl', `${goldLine('run-7', [['m5']])}\n`);
    const view = buildNuggetsView(file, 'run-7', trajectoryOf(file), { oneTrajectoryFile: true });
    assert.equal(view.goldFile, join(dir, 'run-7.gold_nuggets.jsonl'));
    assert.equal(view.nuggets[0].evidence[0].id, 'm5');
  });

  it('a folder walk (collections) does not read <stem>.gold_nuggets.jsonl as a trajectory', () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'run-7.traj.json', JSON.stringify(INTENT_RUN));
    writeTemp(dir, 'run-7.gold_nuggets.jsonl', `${goldLine('run-7', [['m5']])}\n`);
    assert.deepEqual(collectionFiles([dir]), { files: [file], unreadable: [] });
  });

  it('a bad gold line is a one-line error naming the file, line and field', () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'run-7.traj.json', JSON.stringify(INTENT_RUN));
    writeTemp(dir, 'gold_nuggets.jsonl', `${goldLine('run-7', [['m3']])}\n{"id": "x", "nuggets": [{"text": "t", "weight": "heavy"}]}\n`);
    assert.throws(
      () => buildNuggetsView(file, 'run-7', trajectoryOf(file), { oneTrajectoryFile: true, displayName: () => 'gold_nuggets.jsonl' }),
      (error: unknown) =>
        error instanceof InputError && /^gold_nuggets\.jsonl:2:\d+: .*nuggets\[0\]\.weight/.test(error.message) && !error.message.includes('\n'),
    );
  });

  it('every evidence id of the sample intent run’s cts-0021.gold_nuggets.jsonl resolves', () => {
    const file = join(SAMPLES, 'cts-0021.intent-run.traj.json');
    const record = loadFile(file).records[0];
    // The openai-chat reader does not take the top-level id as the record id: the file stem finds the line.
    assert.notEqual(record.id, 'cts-0021');
    const view = buildNuggetsView(file, record.id, trajectoryOf(file), { oneTrajectoryFile: true });
    assert.equal(view.goldFile, join(SAMPLES, 'cts-0021.gold_nuggets.jsonl'));
    assert.equal(view.instanceId, 'cts-0021');
    const evidence = view.nuggets.flatMap((n) => n.evidence);
    assert.ok(evidence.length >= 5);
    assert.deepEqual(
      evidence.filter((e) => !e.resolved).map((e) => e.id),
      [],
    );
    assert.ok(evidence.some((e) => e.result !== undefined));
  });

  it('resolveEvidence keeps the order and the unknown ids', () => {
    const dir = tempDir();
    const t = trajectoryOf(writeTemp(dir, 'run-7.traj.json', JSON.stringify(INTENT_RUN)));
    assert.deepEqual(
      resolveEvidence(t, ['m4', 'm3.r3', 'm3.r1']).map((e) => [e.id, e.resolved]),
      [
        ['m4', false],
        ['m3.r3', false],
        ['m3.r1', true],
      ],
    );
  });
});
