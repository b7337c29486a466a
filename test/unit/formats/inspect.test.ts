// Inspect AI eval logs (issue 15): the .json log and the .eval zip (deflated and zstd), loaded through loadFile.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8 } from 'fflate';
import { AMBIGUITY_MARGIN, decide, rankFormats } from '../../../src/core/formats/registry';
import { outcomeOfScoreValue } from '../../../src/core/formats/inspect';
import { InputError } from '../../../src/core/input/inputError';
import { loadFile, loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord, type TrajectoryRecord } from '../../../src/core/load/loadRecord';
import { entrySpans, loadZipBytes } from '../../../src/core/load/loadZip';
import type { Trajectory } from '../../../src/core/model/trajectory';
import { buildRecordList } from '../../../src/core/view/recordView';
import { deflatedEval, zipWithMethod } from '../../fixtures/formats/inspect/makeEval';
import { makeLarge } from '../../bench/formats/inspect';
import { runCli, tempDir, writeTemp } from '../helpers';

const FOLDER = join(__dirname, '..', '..', 'fixtures', 'formats', 'inspect');
const JSON_LOG = join(FOLDER, 'web-research-2x2.json');
const LOGS = ['web-research-2x2.json', 'web-research-2x2.eval', 'web-research-2x2-zstd.eval'];

function records(file: string): TrajectoryRecord[] {
  const loaded = loadFile(join(FOLDER, file));
  assert.deepEqual(loaded.problems, []);
  assert.equal(loaded.detection.kind, 'inspect');
  return loaded.records.filter(isTrajectoryRecord);
}

function byId(file: string, id: string): Trajectory {
  const record = records(file).find((r) => r.id === id);
  assert.ok(record, `record ${id} in ${file}`);
  return record.trajectory;
}

function logJson(): Record<string, unknown> & { samples: Record<string, unknown>[]; eval: Record<string, unknown> } {
  return JSON.parse(readFileSync(JSON_LOG, 'utf8'));
}

describe('Inspect AI logs', () => {
  for (const file of LOGS) {
    describe(file, () => {
      it('has one record per sample and epoch, ids <sample id>#<epoch> (the log has 2 epochs)', () => {
        assert.deepEqual(
          records(file).map((r) => r.id),
          ['1#1', '1#2', 'q-2#1', 'q-2#2'],
        );
      });

      it("reads a sample's messages in order: roles, decision steps, tool calls and their linked returns", () => {
        const t = byId(file, '1#2');
        assert.equal(t.format, 'inspect');
        assert.deepEqual(
          t.messages.map((m) => m.role),
          ['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'tool', 'assistant'],
        );
        assert.deepEqual(t.decisionSteps, [2, 4, 7]);
        assert.equal(t.finalAnswerStep, 7);
        assert.deepEqual(
          t.messages[2].toolCalls.map((c) => [c.id, c.name, c.arguments]),
          [['call_12a', 'web_search', { query: 'Gallic rooster symbol' }]],
        );
        assert.deepEqual(
          t.messages[4].toolCalls.map((c) => c.id),
          ['call_12b', 'call_12c'],
        );
        assert.deepEqual(
          t.messages.filter((m) => m.role === 'tool').map((m) => [m.position, m.toolCallId, m.issuedBy]),
          [
            [3, 'call_12a', 2],
            [5, 'call_12b', 4],
            [6, 'call_12c', 4],
          ],
        );
        // A tool error with empty content shows the error.
        assert.equal(t.messages[6].isError, true);
        assert.match(t.messages[6].content, /timeout: fetch timed out after 30s/);
        // Reasoning parts are reasoning, text parts the content.
        assert.equal(t.messages[2].reasoning, 'I should search for Gallic rooster symbol.');
        assert.equal(t.messages[2].content, 'Let me search.');
      });

      it('takes the query from input, the predicted answer from the score, the gold answer from target, the outcome from the score', () => {
        const wrong = byId(file, '1#2');
        assert.equal(wrong.query, 'What is the capital of the country whose national animal is the Gallic rooster?');
        assert.equal(wrong.predictedAnswer, 'Brussels');
        assert.equal(wrong.goldAnswer, 'Paris');
        assert.deepEqual(wrong.metadata.outcome, { success: false, score: 0, source: 'scores.match.value' });
        const right = byId(file, 'q-2#1');
        assert.equal(right.query, 'In which year did the first ascent of the Matterhorn take place?');
        assert.equal(right.predictedAnswer, '1865');
        assert.deepEqual(right.metadata.outcome, { success: true, score: 1, source: 'scores.match.value' });
        assert.equal(right.metadata.model, 'gpt-4.1-mini-2025-04-14');
        assert.equal(right.metadata.task, 'web_research');
        assert.equal(right.metadata.dataset, 'tiny_web_qa');
        assert.equal(right.metadata.epoch, 1);
      });
    });
  }

  it('reads the same trajectories from the .json log and from both .eval zips', () => {
    const strip = (t: Trajectory) => ({ ...t, metadata: { ...t.metadata, log_status: undefined } });
    const fromJson = records(LOGS[0]).map((r) => strip(r.trajectory));
    for (const file of LOGS.slice(1))
      assert.deepEqual(
        records(file).map((r) => strip(r.trajectory)),
        fromJson,
      );
  });

  it('names records by sample id alone when the log has one epoch', () => {
    const log = logJson();
    log.samples = log.samples.filter((s) => s.epoch === 1);
    (log.eval.config as Record<string, unknown>).epochs = 1;
    const loaded = loadText(JSON.stringify(log), 'one-epoch.json');
    assert.deepEqual(
      loaded.records.map((r) => r.id),
      ['1', 'q-2'],
    );
  });

  it('maps score values as Inspect does (C/I/P/N, booleans, numbers, yes/no)', () => {
    assert.deepEqual(outcomeOfScoreValue('P', 's'), { success: null, score: 0.5, source: 's' });
    assert.deepEqual(outcomeOfScoreValue('N', 's'), { success: false, score: 0, source: 's' });
    assert.deepEqual(outcomeOfScoreValue(true, 's'), { success: true, score: 1, source: 's' });
    assert.deepEqual(outcomeOfScoreValue(0.25, 's'), { success: null, score: 0.25, source: 's' });
    assert.deepEqual(outcomeOfScoreValue('yes', 's'), { success: true, score: 1, source: 's' });
    assert.equal(outcomeOfScoreValue({ a: 1 }, 's'), undefined);
  });

  it('is detected as inspect, clear of the runner-up, and a lone sample file too', () => {
    const log = logJson();
    for (const value of [log, log.samples[0]]) {
      const ranked = rankFormats(value);
      const verdict = decide(ranked);
      assert.equal(verdict.kind, 'reader');
      assert.equal(ranked[0].reader.id, 'inspect');
      if (ranked[1]) assert.ok(ranked[0].score - ranked[1].score >= AMBIGUITY_MARGIN, `${ranked[1].reader.id} too close`);
    }
  });

  it('a log without samples gets one line naming Inspect and the missing samples', () => {
    const { samples: _samples, ...header } = logJson();
    assert.throws(
      () => loadText(JSON.stringify(header, null, 2), 'header-only.json'),
      (error: unknown) => error instanceof InputError && /Inspect AI/.test(error.message) && /samples/.test(error.message) && !/\n/.test(error.message),
    );
  });

  it('a broken sample is a problem naming its JSON path and line; the other samples still load', () => {
    const log = logJson();
    delete (log.samples[1].messages as Record<string, unknown>[])[3].role;
    const text = JSON.stringify(log, null, 2);
    const loaded = loadText(text, 'broken.json');
    assert.deepEqual(
      loaded.records.map((r) => r.id),
      ['1#1', 'q-2#1', 'q-2#2'],
    );
    assert.equal(loaded.problems.length, 1);
    assert.equal(loaded.problems[0].path, '$.samples[1].messages[3].role');
    assert.ok(loaded.problems[0].line && loaded.problems[0].line > 1);
    assert.match(loaded.problems[0].message, /role/);
  });

  it('a zip that is not an Inspect log, and a broken sample entry, get clear one-line messages', () => {
    const notInspect = zipWithMethod([['readme.txt', strToU8('hello')]], 0, (d) => d);
    assert.throws(
      () => loadZipBytes(notInspect, 'other.zip'),
      (e: unknown) => e instanceof InputError && /without header\.json/.test(e.message) && /readme\.txt/.test(e.message),
    );
    const log = logJson();
    const bytes = deflatedEval(log);
    const loaded = loadZipBytes(bytes, 'ok.eval');
    assert.equal(loaded.records.length, 4);
    const broken = zipWithMethod(
      [
        ['header.json', strToU8(JSON.stringify({ version: 2, status: 'success', eval: log.eval }))],
        ['samples/1_epoch_1.json', strToU8('{"id": 1, "epoch": 1, "input": "q", "messages": [')],
      ],
      0,
      (d) => d,
    );
    const record = loadZipBytes(broken, 'broken.eval').records[0] as TrajectoryRecord;
    assert.throws(
      () => record.trajectory,
      (e: unknown) => e instanceof InputError && /broken\.eval \(samples\/1_epoch_1\.json\)/.test(e.message) && /:1:\d+/.test(e.message),
    );
  });

  it('listing a large .eval inflates no sample; opening the first sample inflates only its entry', function () {
    this.timeout(60000);
    const log = logJson();
    const base = log.samples[0];
    const page = 'The Gallic rooster is a national symbol of France. '.repeat(2000);
    log.samples = Array.from({ length: 120 }, (_, i) => ({
      ...base,
      id: i + 1,
      epoch: 1,
      messages: (base.messages as Record<string, unknown>[]).map((m) => (m.role === 'tool' ? { ...m, content: `${i} ${page}` } : m)),
    }));
    (log.eval.config as Record<string, unknown>).epochs = 1;
    const bytes = deflatedEval(log, 1);
    const inflated: string[] = [];
    const loaded = loadZipBytes(bytes, 'large.eval', { onInflate: (name) => inflated.push(name) });
    assert.equal(loaded.records.length, 120);
    buildRecordList(loaded, {});
    assert.deepEqual(
      inflated.filter((n) => n.startsWith('samples/')),
      [],
      'no sample inflated by listing and labelling',
    );
    const first = loaded.records[0] as TrajectoryRecord;
    assert.equal(first.trajectory.messages.length, 8);
    assert.equal(first.trajectory.messages[3].content.length > 100000, true);
    void first.trajectory;
    assert.deepEqual(
      inflated.filter((n) => n.startsWith('samples/')),
      ['samples/1_epoch_1.json'],
    );
  });

  it("finds each entry's own bytes, so opening one sample reads only that entry", () => {
    for (const file of LOGS.slice(1)) {
      const bytes = readFileSync(join(FOLDER, file));
      const names = [
        '_journal/start.json',
        'samples/1_epoch_1.json',
        'samples/1_epoch_2.json',
        'samples/q-2_epoch_1.json',
        'samples/q-2_epoch_2.json',
        'summaries.json',
        'reductions.json',
        'header.json',
      ];
      const spans = entrySpans(bytes, names);
      assert.ok(spans, file);
      let end = 0;
      for (const name of names) {
        const [start, stop]: [number, number] = spans.get(name)!;
        assert.equal(start, end, `${file}: ${name} starts where the previous entry ends`);
        assert.equal(bytes.subarray(start + 30, start + 30 + name.length).toString('utf8'), name);
        end = stop;
      }
      assert.equal(bytes.readUInt32LE(end), 0x02014b50, `${file}: the last entry ends at the central directory`);
      // One entry's bytes alone are an archive of that entry and nothing else.
      const [sampleStart, sampleStop] = spans.get('samples/q-2_epoch_2.json')!;
      assert.throws(
        () => loadZipBytes(bytes.subarray(sampleStart, sampleStop), 'one.eval'),
        /without header\.json or _journal\/start\.json \(entries: samples\/q-2_epoch_2\.json\)/,
      );
    }
  });

  it('makeLarge() is a large Inspect log that loads with every sample', () => {
    const text = makeLarge();
    assert.ok(text.length > 5_000_000);
    const loaded = loadText(text, 'large.json');
    assert.equal(loaded.detection.kind, 'inspect');
    assert.deepEqual(loaded.problems, []);
    assert.equal(loaded.records.length, (JSON.parse(text) as { samples: unknown[] }).samples.length);
  });

  it('inspect --json gives the counts of a .eval record', async () => {
    const dir = tempDir();
    const file = writeTemp(dir, 'copy.eval', readFileSync(join(FOLDER, 'web-research-2x2.eval')));
    const { code, out, err } = await runCli(['inspect', file, '--record', '1#2', '--json']);
    assert.equal(code, 0, err);
    const report = JSON.parse(out) as {
      format: string;
      messages: number;
      decisionSteps: number[];
      toolCalls: number;
      searchCalls: number;
      visitCalls: number;
      outcome: unknown;
    };
    assert.equal(report.format, 'inspect');
    assert.equal(report.messages, 8);
    assert.deepEqual(report.decisionSteps, [2, 4, 7]);
    assert.equal(report.toolCalls, 3);
    assert.equal(report.searchCalls, 1);
    assert.equal(report.visitCalls, 2);
    assert.deepEqual(report.outcome, { success: false, score: 0, source: 'scores.match.value' });
  });
});
