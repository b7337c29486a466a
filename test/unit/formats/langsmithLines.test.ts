// LangSmith runs as JSONL (one flat run per line, as `client.list_runs` dumps write them): one
// record per trace, the trace's runs in start order, whatever the line order.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AMBIGUITY_MARGIN, decide, rankLineFormats } from '../../../src/core/formats/registry';
import { InputError } from '../../../src/core/input/inputError';
import { loadFile, loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { Trajectory } from '../../../src/core/model/trajectory';

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'formats', 'langsmith', 'list-runs.jsonl');
const TRACE_HUBBLE = '0192f3a1-5c6d-7e8f-9a0b-1c2d3e4f5a61';
const TRACE_DOCS = '0192f3a1-77aa-7bcc-8dde-2f3a4b5c6d72';

function fixtureRuns(): Record<string, unknown>[] {
  return readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function trajectories(loaded: ReturnType<typeof loadText>): { id: string; line?: number; trajectory: Trajectory }[] {
  return loaded.records.map((record) => {
    if (!isTrajectoryRecord(record)) throw new Error(`not a trajectory: ${record.kind}`);
    return { id: record.id, line: record.line, trajectory: record.trajectory };
  });
}

describe('langsmith JSONL of runs', () => {
  it('two traces interleaved, newest line first, are two records with their runs in start order', () => {
    const loaded = loadFile(FIXTURE, { displayName: 'list-runs.jsonl' });
    assert.deepEqual(loaded.problems, []);
    assert.equal(loaded.detection.kind, 'langsmith');
    assert.equal(loaded.container, 'jsonl-session');
    const [hubble, docs] = trajectories(loaded);
    assert.deepEqual([hubble.id, docs.id], [TRACE_HUBBLE, TRACE_DOCS]);
    // The record's line is the first line holding one of its runs.
    assert.deepEqual([hubble.line, docs.line], [1, 3]);

    const h = hubble.trajectory;
    assert.deepEqual(
      h.messages.map((m) => [m.role, m.agent]),
      [
        ['system', 'research-agent'],
        ['assistant', 'ChatOpenAI'],
        ['tool', 'web_search'],
        ['assistant', 'ChatOpenAI'],
      ],
    );
    assert.deepEqual(h.decisionSteps, [1, 3]);
    assert.equal(h.messages[1].toolCalls.length, 1);
    assert.equal(h.messages[1].toolCalls[0].name, 'web_search');
    assert.deepEqual(h.messages[1].toolCalls[0].arguments, { query: 'Hubble Space Telescope launch year' });
    assert.equal(h.messages[2].toolCallId, 'call_hst1');
    assert.equal(h.messages[2].issuedBy, 1);
    assert.match(h.messages[2].content, /24 April 1990/);
    assert.equal(h.query, 'Which year did the Hubble Space Telescope launch?');
    assert.equal(h.predictedAnswer, '1990');
    // Message i is the i-th run by start time; the lines run newest first.
    assert.deepEqual(h.metadata.runLines, [7, 6, 2, 1]);
    assert.equal(h.metadata.runs, 4);

    const d = docs.trajectory;
    assert.deepEqual(
      d.messages.map((m) => m.role),
      ['system', 'tool', 'assistant'],
    );
    assert.deepEqual(d.decisionSteps, [2]);
    assert.equal(d.messages[1].content, 'billing-svc listens on port 8443 behind the mesh.');
    assert.equal(d.query, 'What port does the billing service listen on?');
    assert.equal(d.predictedAnswer, '8443');
    assert.deepEqual(d.metadata.runLines, [5, 4, 3]);
  });

  it('is detected as LangSmith lines, clear of every other reader', () => {
    const ranking = rankLineFormats(fixtureRuns());
    const verdict = decide(ranking);
    assert.equal(verdict.kind, 'reader');
    assert.equal(ranking[0].reader.id, 'langsmith');
    if (ranking[1]) assert.ok(ranking[0].score - ranking[1].score >= AMBIGUITY_MARGIN, `runner-up ${ranking[1].reader.id} ${ranking[1].score}`);
  });

  it('runs without trace_id are grouped by their root run through parent_run_id', () => {
    const runs = fixtureRuns().map((run) => {
      const copy = { ...run };
      delete copy.trace_id;
      return copy;
    });
    const loaded = loadText(runs.map((run) => JSON.stringify(run)).join('\n') + '\n', 'old-export.jsonl');
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(
      trajectories(loaded).map((r) => [r.id, r.trajectory.messages.length]),
      [
        [TRACE_HUBBLE, 4],
        [TRACE_DOCS, 3],
      ],
    );
  });

  it('a late run without its name gets the schema error with its line, column and path', () => {
    const runs = fixtureRuns();
    delete runs[5].name;
    const text = runs.map((run) => JSON.stringify(run)).join('\n');
    assert.throws(
      () => loadText(text, 'runs.jsonl'),
      (error: unknown) => error instanceof InputError && /^runs\.jsonl:6:1: at \$\.name: .*LangSmith run/.test(error.message) && !error.message.includes('\n'),
    );
  });

  it('a JSONL with one run tree per line is still one record per line', () => {
    const tree = (id: string) => ({
      id,
      name: 'agent',
      run_type: 'chain',
      start_time: '2024-09-12T14:00:00.000000',
      inputs: { input: `q ${id}` },
      outputs: { output: `a ${id}` },
      child_runs: [
        {
          id: `${id}-llm`,
          name: 'ChatOpenAI',
          run_type: 'llm',
          start_time: '2024-09-12T14:00:01.000000',
          parent_run_id: id,
          inputs: {},
          outputs: { generations: [[{ text: `a ${id}` }]] },
        },
      ],
    });
    const loaded = loadText([tree('t1'), tree('t2')].map((t) => JSON.stringify(t)).join('\n'), 'trees.jsonl');
    assert.deepEqual(
      trajectories(loaded).map((r) => [r.id, r.line, r.trajectory.messages.length, r.trajectory.predictedAnswer]),
      [
        ['t1', 1, 2, 'a t1'],
        ['t2', 2, 2, 'a t2'],
      ],
    );
  });
});
