// `--format ID` on `score` and on the harness commands that read trajectories (run-agent, clarify):
// a trajectory that detection refuses (it fits two readers equally) is read with the reader named,
// and an unknown id is a usage error (exit 2) that lists the ids.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadFile, readableFormats } from '../../../src/core/load/loadFile';
import { scoreRunFolderSync } from '../../../src/core/scoring/scoreRunFolder';
import { startMockModelServer, type MockModelServer, type MockReply, type MockRequest } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';
import { CLARIFY_INSTANCES, DSQA_CSV, FAKE_AGENT } from '../harness/helpers';

const TWO_READERS = resolve(__dirname, '..', '..', 'fixtures', 'harness', 'two-readers.traj.json');
// Answers like the fake agent, then leaves the two-reader trajectory at {out_trajectory}.
const AGENT = `node ${FAKE_AGENT} --query {query} --out-answer {out_answer} && cp ${TWO_READERS} {out_trajectory}`;
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function assertUnknownFormatError(result: { code: number; err: string }) {
  assert.equal(result.code, 2, result.err);
  assert.match(result.err, /--format "open-ai" is not a trajectory format; the formats are /);
  for (const id of readableFormats()) assert.ok(result.err.includes(id), id);
}

describe('--format ID on score and the harness commands', function () {
  this.timeout(60_000);

  it('the fixture is refused by detection and read by the openai-chat reader', () => {
    assert.throws(() => loadFile(TWO_READERS), /fits two formats equally/);
    assert.equal(loadFile(TWO_READERS, { format: 'openai-chat' }).detection.kind, 'openai-chat');
  });

  it('score: an audit run whose trajectory only the named reader reads', async () => {
    const dir = tempDir();
    copyFileSync(TWO_READERS, join(dir, 't.json'));
    const record = loadFile(TWO_READERS, { format: 'openai-chat' }).records[0].id;
    writeFileSync(
      join(dir, 't.json.audit.json'),
      JSON.stringify({
        schema: 'trajaudit.audit/v1',
        trajectory: { file: 't.json' },
        records: {
          [record]: {
            annotation: { criticalStep: 1, toleranceSpan: [1, 1], rootCause: 'constraint_neglect' },
            audits: [{ id: 'a1', method: 'heuristic', createdAt: '2026-01-01T00:00:00Z', diagnosis: { criticalStep: 1, rootCause: 'constraint_neglect' } }],
          },
        },
      }),
    );
    const detected = await runCli(['score', dir, '--json']);
    assert.equal(detected.code, 1);
    assert.match(detected.err, /t\.json:1:1: .*fits two formats equally/);
    const forced = await runCli(['score', dir, '--json', '--format', 'openai-chat']);
    assert.equal(forced.code, 0, forced.err);
    const score = JSON.parse(forced.out) as { kind: string; n: number; metrics: { diag: number } };
    assert.deepEqual([score.kind, score.n, score.metrics.diag], ['audit', 1, 1]);
    // The critical position needs the trajectory: step 1 of a 4-message trajectory is at 1 / 3.
    const positions = scoreRunFolderSync(dir, { format: 'openai-chat' }).score;
    if (positions.kind !== 'audit') throw new Error(positions.kind);
    assert.deepEqual(positions.positions.gold, { n: 1, median: 1 / 3, final_third_share: 0 });
    assertUnknownFormatError(await runCli(['score', dir, '--format', 'open-ai']));
  });

  it('harness run-agent: the trajectory the agent writes is read with the named reader', async () => {
    const base = tempDir();
    const detected = join(base, 'detected');
    const r1 = await runCli(['harness', 'run-agent', DSQA_CSV, '--command', AGENT, '--out', detected, '--limit', '1', '--json']);
    assert.equal(r1.code, 0, r1.err);
    assert.match(String(lines(join(detected, 'responses.jsonl'))[0].trajectory_problem), /fits two formats equally/);
    const forced = join(base, 'forced');
    const r2 = await runCli(['harness', 'run-agent', DSQA_CSV, '--command', AGENT, '--out', forced, '--limit', '1', '--format', 'openai-chat', '--json']);
    assert.equal(r2.code, 0, r2.err);
    const [line] = lines(join(forced, 'responses.jsonl'));
    assert.equal(line.trajectory_problem, undefined);
    assert.equal(line.trajectory, `trajectories/${String(line.id)}.agent.traj.json`);
    assertUnknownFormatError(await runCli(['harness', 'run-agent', DSQA_CSV, '--command', AGENT, '--format', 'open-ai']));
  });

  describe('harness clarify', () => {
    let server: MockModelServer;
    beforeEach(async () => {
      server = await startMockModelServer();
    });
    afterEach(async () => {
      await server.close();
    });

    // The three roles in their smallest valid replies: one question, an unknown answer, the query as it was.
    const roles = (r: MockRequest): MockReply => {
      const text = `${r.system}\n${r.userText}`;
      if (text.includes('clarification question(s)')) return { text: JSON.stringify(['Which year do you mean?']) };
      if (text.includes('The search assistant asks you')) return { text: JSON.stringify({ answer: 'unknown' }) };
      const original = /Original request:\n([^\n]*)/.exec(text)?.[1] ?? 'q';
      return { text: JSON.stringify({ rewritten_query: original }) };
    };

    it('reads the agent trajectories with the named reader', async () => {
      server.script(roles);
      const run = (out: string, ...extra: string[]) =>
        runCli([
          'harness',
          'clarify',
          CLARIFY_INSTANCES,
          '--command',
          AGENT,
          '--k',
          '1',
          '--model',
          'clarifier',
          '--base-url',
          server.openaiBaseUrl,
          '--out',
          out,
          '--limit',
          '1',
          '--json',
          ...extra,
        ]);
      const detected = join(tempDir(), 'clarify');
      const r1 = await run(detected);
      assert.equal(r1.code, 0, r1.err);
      const refused = lines(join(detected, 'answers.jsonl'));
      assert.equal(refused.length, 2, 'orig and k1');
      for (const l of refused) assert.match(String(l.trajectory_problem), /fits two formats equally/);
      const forced = join(tempDir(), 'clarify');
      const r2 = await run(forced, '--format', 'openai-chat');
      assert.equal(r2.code, 0, r2.err);
      for (const l of lines(join(forced, 'answers.jsonl'))) {
        assert.equal(l.trajectory_problem, undefined);
        assert.ok(l.trajectory);
      }
      assertUnknownFormatError(await run(join(tempDir(), 'clarify'), '--format', 'open-ai'));
    });
  });
});
