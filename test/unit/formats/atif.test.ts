// Harbor ATIF (issue 15): reading v1.0 and v1.7 trajectories through loadFile, and writing ATIF that reads back the same.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { atifReader, writeAtif } from '../../../src/core/formats/atif';
import { AMBIGUITY_MARGIN, decide, rankFormats } from '../../../src/core/formats/registry';
import { InputError } from '../../../src/core/input/inputError';
import { loadFile, loadText } from '../../../src/core/load/loadFile';
import { isTrajectoryRecord } from '../../../src/core/load/loadRecord';
import type { Trajectory } from '../../../src/core/model/trajectory';
import { makeLarge } from '../../bench/formats/atif';
import { runCli } from '../helpers';

const REPO = join(__dirname, '..', '..', '..');
const FOLDER = join(REPO, 'test', 'fixtures', 'formats', 'atif');

function single(path: string): Trajectory {
  const loaded = loadFile(path);
  assert.deepEqual(loaded.problems, []);
  const [record] = loaded.records;
  assert.ok(record && isTrajectoryRecord(record));
  return record.trajectory;
}

/** What must survive a round trip: positions, roles, text, reasoning, decision steps, tool calls and links. */
function shape(t: Trajectory) {
  return {
    messages: t.messages.map((m) => ({
      position: m.position,
      role: m.role,
      content: m.content,
      reasoning: m.reasoning,
      agent: m.agent,
      toolCallId: m.toolCallId,
      issuedBy: m.issuedBy,
      isError: m.isError,
      calls: m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.argumentsValid ? c.arguments : c.rawArguments })),
    })),
    decisionSteps: t.decisionSteps,
    finalAnswerStep: t.finalAnswerStep,
    query: t.query,
    predictedAnswer: t.predictedAnswer,
    goldAnswer: t.goldAnswer,
  };
}

function roundTrip(t: Trajectory): { back: Trajectory; lost: string[] } {
  const { value, lost } = writeAtif(t);
  const loaded = loadText(JSON.stringify(value, null, 2), 'written.json');
  assert.equal(loaded.detection.kind, 'atif');
  const record = loaded.records[0];
  assert.ok(isTrajectoryRecord(record));
  return { back: record.trajectory, lost };
}

describe('Harbor ATIF', () => {
  it('reads a v1.0 trajectory: one message per step, agent steps are decisions with their tool calls and observations', () => {
    const t = single(join(FOLDER, 'danube-v1.0.json'));
    assert.equal(t.format, 'atif');
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'assistant', 'assistant'],
    );
    assert.deepEqual(t.decisionSteps, [2, 3, 4]);
    assert.deepEqual(
      t.messages[3].toolCalls.map((c) => [c.id, c.name]),
      [
        ['toolu_02', 'open_page'],
        ['toolu_03', 'web_search'],
      ],
    );
    assert.deepEqual(t.messages[3].toolCalls[1].arguments, { query: ['Danube Vienna', 'Danube Budapest'] });
    // The step's observation results follow its message, each under its call.
    assert.match(t.messages[2].content, /^I will search for rivers through Vienna and Budapest\.\n\n── observation \(web_search toolu_01\) ──\n1\. Danube/);
    assert.match(t.messages[3].content, /── observation \(open_page toolu_02\) ──[\s\S]*── observation \(web_search toolu_03\) ──/);
    assert.equal(t.messages[2].reasoning, 'Both cities are on a major European river; confirm with a search.');
    assert.equal(t.query, 'Which river flows through both Vienna and Budapest?');
    assert.equal(t.predictedAnswer, 'The Danube.');
    assert.equal(t.metadata.model, 'claude-sonnet-4-20250514');
    assert.equal(t.metadata.schema_version, 'ATIF-v1.0');
    assert.deepEqual((t.metadata.final_metrics as Record<string, unknown>).total_cost_usd, 0.0215);
    assert.equal(t.metadata.outcome, undefined, 'no reward recorded');
  });

  it('reads a v1.7 trajectory: content items, subagent refs, a system observation, the reward as outcome', () => {
    const t = single(join(FOLDER, 'uranus-subagent-v1.7.json'));
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'system', 'assistant', 'assistant', 'user', 'assistant'],
    );
    assert.deepEqual(t.decisionSteps, [2, 4, 5, 7]);
    assert.equal(t.query, 'How many moons did the planet discovered by William Herschel have when Voyager 2 flew past it?\n[image]');
    assert.equal(t.predictedAnswer, '15');
    assert.equal(t.finalAnswerStep, 7);
    assert.equal(t.messages[3].content, 'Context compacted: 6 earlier tool outputs summarized.');
    assert.match(t.messages[4].content, /Voyager 2 discovered 10 new moons/);
    assert.deepEqual(t.metadata.subagent_trajectories, [
      {
        position: 2,
        source_call_id: 'call_d1',
        session_id: 'sess-sub-0042-a',
        trajectory_id: 'traj-0042-sub-a',
        trajectory_path: 'subagents/traj-0042-sub-a.json',
        extra: { exit: 'ok' },
      },
    ]);
    assert.match(t.messages[2].content, /\[subagent trajectory subagents\/traj-0042-sub-a\.json\]/);
    assert.deepEqual(t.metadata.outcome, { success: false, score: 0, source: 'extra.reward' });
    assert.equal(t.metadata.trajectory_id, 'traj-0042-main');
  });

  it('a system step holding only results for calls is a tool return linked to its call', () => {
    const t = loadText(
      JSON.stringify({
        schema_version: 'ATIF-v1.2',
        session_id: 's',
        agent: { name: 'a', version: '1' },
        steps: [
          { step_id: 1, source: 'user', message: 'q' },
          { step_id: 2, source: 'agent', message: '', tool_calls: [{ tool_call_id: 'c1', function_name: 'web_search', arguments: { query: 'x' } }] },
          { step_id: 3, source: 'system', message: '', observation: { results: [{ source_call_id: 'c1', content: 'result' }] } },
          { step_id: 4, source: 'agent', message: 'done' },
        ],
      }),
      'inline.json',
    ).records[0];
    assert.ok(isTrajectoryRecord(t));
    const m = t.trajectory.messages[2];
    assert.deepEqual([m.role, m.content, m.toolCallId, m.issuedBy], ['tool', 'result', 'c1', 1]);
    assert.deepEqual(t.trajectory.decisionSteps, [1, 3]);
  });

  it('is detected as atif, clear of the runner-up', () => {
    for (const file of readdirSync(FOLDER)) {
      const value: unknown = JSON.parse(readFileSync(join(FOLDER, file), 'utf8'));
      const ranked = rankFormats(value);
      assert.equal(decide(ranked).kind, 'reader', file);
      assert.equal(ranked[0].reader.id, 'atif', file);
      if (ranked[1]) assert.ok(ranked[0].score - ranked[1].score >= AMBIGUITY_MARGIN, `${file}: ${ranked[1].reader.id} too close`);
    }
  });

  it('broken ATIF gets one line naming the format, the JSON path and line, and what is missing', () => {
    const value = JSON.parse(readFileSync(join(FOLDER, 'danube-v1.0.json'), 'utf8')) as { steps: Record<string, unknown>[] };
    value.steps[2].source = 'assistant';
    assert.throws(
      () => loadText(JSON.stringify(value, null, 2), 'bad.json'),
      (e: unknown) =>
        e instanceof InputError &&
        /^bad\.json:\d+:\d+: at \$\.steps\[2\]\.source: .*"system", "user" or "agent".*ATIF/.test(e.message) &&
        !e.message.includes('\n'),
    );
    const { steps: _steps, ...noSteps } = value;
    assert.throws(
      () => loadText(JSON.stringify(noSteps), 'nosteps.json'),
      (e: unknown) => e instanceof InputError && /ATIF/.test(e.message) && /steps/.test(e.message),
    );
  });

  it('writes ATIF that reads back to the same trajectory (its fixtures)', () => {
    for (const file of readdirSync(FOLDER)) {
      const t = single(join(FOLDER, file));
      const { back, lost } = roundTrip(t);
      assert.deepEqual(shape(back), shape(t), file);
      assert.deepEqual(lost, [], file);
      assert.deepEqual(back.metadata.subagent_trajectories, t.metadata.subagent_trajectories);
    }
  });

  it('writes ATIF that reads back to the same messages, decision steps and tool calls (samples/trajectories)', () => {
    const folder = join(REPO, 'samples', 'trajectories');
    let checked = 0;
    for (const format of readdirSync(folder)) {
      for (const file of readdirSync(join(folder, format))) {
        if (file.endsWith('.audit.json')) continue;
        let loaded;
        try {
          loaded = loadFile(join(folder, format, file));
        } catch {
          continue; // samples of other kinds (broken on purpose) are the loader tests' business
        }
        for (const record of loaded.records.filter(isTrajectoryRecord)) {
          const { back, lost } = roundTrip(record.trajectory);
          const original = shape(record.trajectory);
          assert.deepEqual(shape(back), original, `${format}/${file} record ${record.id}`);
          // Only arguments ATIF cannot hold as an object may be listed.
          for (const line of lost) assert.match(line, /arguments|call id|has no id|reasoning of a|tool calls of a/, line);
          checked++;
        }
      }
    }
    assert.ok(checked >= 5, `round-tripped ${checked} sample trajectories`);
  });

  it('lists what ATIF cannot carry: arguments that are not a JSON object', () => {
    const t = loadText(
      JSON.stringify([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"query": "tr' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'r' },
      ]),
      'chat.json',
    ).records[0];
    assert.ok(isTrajectoryRecord(t));
    const { value, lost } = atifReader.write(t.trajectory);
    assert.equal(lost.length, 1);
    assert.match(lost[0], /message 1 call 0: arguments that are not valid JSON .* written as \{\} with the text in the step's extra\.raw_arguments/);
    const steps = (value as { steps: { tool_calls?: { arguments: unknown }[]; extra?: Record<string, unknown> }[] }).steps;
    assert.deepEqual(steps[1].tool_calls?.[0].arguments, {});
    assert.deepEqual(steps[1].extra?.raw_arguments, { c1: '{"query": "tr' });
    // and reads back raw, as the source had it
    const back = loadText(JSON.stringify(value), 'back.json').records[0];
    assert.ok(isTrajectoryRecord(back));
    assert.deepEqual(back.trajectory.messages[1].toolCalls[0], t.trajectory.messages[1].toolCalls[0]);
  });

  it('makeLarge() is a large ATIF trajectory that loads', () => {
    const text = makeLarge();
    assert.ok(text.length > 5_000_000);
    const loaded = loadText(text, 'large.json');
    assert.equal(loaded.detection.kind, 'atif');
    const record = loaded.records[0];
    assert.ok(isTrajectoryRecord(record));
    assert.equal(record.trajectory.messages.length, (JSON.parse(text) as { steps: unknown[] }).steps.length);
  });

  it('inspect --json gives the counts of an ATIF file', async () => {
    const { code, out, err } = await runCli(['inspect', join(FOLDER, 'uranus-subagent-v1.7.json'), '--json']);
    assert.equal(code, 0, err);
    const report = JSON.parse(out) as { format: string; messages: number; decisionSteps: number[]; toolCalls: number; outcome: unknown };
    assert.equal(report.format, 'atif');
    assert.equal(report.messages, 8);
    assert.deepEqual(report.decisionSteps, [2, 4, 5, 7]);
    assert.equal(report.toolCalls, 3);
    assert.deepEqual(report.outcome, { success: false, score: 0, source: 'extra.reward' });
  });
});
