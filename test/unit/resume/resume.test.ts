// `trajaudit resume` against the scripted agent (test/fixtures/resume/scripted-agent.mjs), and
// `trajaudit score` of the resume run folder it writes, checked against a hand computation.
//
// The fixture cohort.traj.jsonl holds four failed trajectories; three (101, 102, 103) have a
// SearchAuditor audit with a repair, 104 has none. The agent answers "Try: X" from a user message
// after the query, else the prefix's first "Candidate: X", else "unknown". By hand:
//   repair  (last message = the directives): 101 "Lake Ohrid" ✓, 102 "1886" ✗ (gold 1887), 103 "Marta Vell" ✓ → 2 of 3
//   retry   (prefix only): 101 prefix has no candidate → "unknown" ✗, 102 prefix has "Candidate: 1887" ✓, 103 "unknown" ✗ → 1 of 3
//   hint    (prefix + the generic hint, no "Try:"): as retry → 1 of 3
// Wilson 95% (z = 1.96): 2/3 → [0.20766, 0.93851], 1/3 → [0.06149, 0.79234]; accuracy over the four
// trajectories (none correct before): 2/4 → [0.15004, 0.84996], 1/4 → [0.04559, 0.69936].
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startMockModelServer } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';

const FIXTURES = resolve(__dirname, '..', '..', 'fixtures', 'resume');
const AGENT = join(FIXTURES, 'scripted-agent.mjs');
const TEMPLATE = `node ${AGENT} {resume_file} {out_answer} {out_trajectory} {id}`;

const close = (actual: number[] | null, expected: number[]) => {
  assert.ok(actual, 'an interval');
  actual.forEach((x, i) => assert.ok(Math.abs(x - expected[i]) < 1e-4, `${x} ≈ ${expected[i]}`));
};

const linesOf = (folder: string) =>
  readFileSync(join(folder, 'resumes.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

async function scoreJson(folder: string) {
  const { code, out, err } = await runCli(['score', folder, '--json']);
  assert.equal(code, 0, err);
  return JSON.parse(out);
}

describe('trajaudit resume', () => {
  it('runs every audited trajectory under each condition and score gives the hand-computed fix rates', async () => {
    const out = join(tempDir('trajaudit-resume-'), 'run');
    const { code, err } = await runCli(['resume', FIXTURES, '--command', TEMPLATE, '--out', out]);
    assert.equal(code, 0, err);

    const manifest = JSON.parse(readFileSync(join(out, 'trajaudit.run.json'), 'utf8'));
    assert.equal(manifest.kind, 'resume');
    assert.deepEqual(manifest.cohort, { trajectories: 4, original_correct: 0 });
    assert.equal(manifest.resume.hint, 'resume/v1/generic-hint');
    assert.deepEqual(manifest.resume.conditions, ['repair', 'retry', 'hint']);

    const lines = linesOf(out);
    assert.equal(lines.length, 9, 'three trajectories × three conditions');
    const answer = (id: string, condition: string) => lines.find((l) => l.id === `cohort.traj.jsonl#${id}` && l.condition === condition);
    assert.equal(answer('101', 'repair').answer, 'Lake Ohrid');
    assert.equal(answer('101', 'repair').correct, true);
    assert.equal(answer('102', 'repair').answer, '1886');
    assert.equal(answer('102', 'repair').correct, false);
    assert.equal(answer('102', 'retry').answer, '1887');
    assert.equal(answer('102', 'retry').correct, true);
    assert.equal(answer('103', 'hint').answer, 'unknown');
    assert.equal(answer('101', 'repair').gold_answer, 'Lake Ohrid');
    assert.ok(!lines.some((l) => l.id.endsWith('#104')), 'the record without a repair is not resumed');
    for (const l of lines) assert.ok(existsSync(join(out, l.trajectory)), `${l.trajectory} written in the run folder`);

    const score = await scoreJson(out);
    assert.equal(score.kind, 'resume');
    assert.deepEqual(Object.keys(score.conditions), ['repair', 'retry', 'hint']);
    const { repair, retry, hint } = score.conditions;
    assert.deepEqual([repair.n, repair.fixed, retry.n, retry.fixed, hint.n, hint.fixed], [3, 2, 3, 1, 3, 1]);
    assert.ok(Math.abs(repair.fix_rate - 2 / 3) < 1e-9);
    assert.ok(Math.abs(retry.fix_rate - 1 / 3) < 1e-9);
    close(repair.ci95, [0.20766, 0.93851]);
    close(retry.ci95, [0.06149, 0.79234]);
    assert.equal(repair.accuracy, 0.5);
    assert.equal(retry.accuracy, 0.25);
    close(repair.accuracy_ci95, [0.15004, 0.84996]);
    close(hint.accuracy_ci95, [0.04559, 0.69936]);
  });

  it('gives the agent the prefix before the critical step and, per condition, the repair, nothing, or the generic hint', async () => {
    const out = join(tempDir('trajaudit-resume-'), 'run');
    assert.equal((await runCli(['resume', FIXTURES, '--command', TEMPLATE, '--out', out])).code, 0);
    const source = JSON.parse(readFileSync(join(FIXTURES, 'cohort.traj.jsonl'), 'utf8').split('\n')[0]).trajectory;
    // The scripted agent's trajectory is the payload's messages plus its answer.
    const payloadOf = (condition: string) => {
      const line = linesOf(out).find((l) => l.id === 'cohort.traj.jsonl#101' && l.condition === condition);
      return JSON.parse(readFileSync(join(out, line.trajectory), 'utf8')).messages.slice(0, -1);
    };
    const prefix = source.slice(0, 4); // critical step 4
    assert.deepEqual(payloadOf('retry'), prefix);
    assert.deepEqual(payloadOf('hint'), [...prefix, { role: 'user', content: 'Reconsider your approach carefully before continuing.' }]);
    const repair = payloadOf('repair');
    assert.deepEqual(repair.slice(0, 4), prefix);
    assert.match(repair[4].content, /^Before you continue, revise your approach from this point on:\n1\. Compare both lakes/);
  });

  it('records a failing agent run as an error for that id and condition; a rerun retries only it', async () => {
    const out = join(tempDir('trajaudit-resume-'), 'run');
    process.env.SCRIPTED_AGENT_FAIL_ID = 'cohort.traj.jsonl#103';
    let first;
    try {
      first = await runCli(['resume', FIXTURES, '--command', TEMPLATE, '--out', out, '--conditions', 'repair']);
    } finally {
      delete process.env.SCRIPTED_AGENT_FAIL_ID;
    }
    assert.equal(first.code, 1);
    assert.match(first.err, /1 agent run\(s\) failed; rerun the same command to retry them/);
    const failed = linesOf(out).find((l) => l.id === 'cohort.traj.jsonl#103');
    assert.match(failed.error, /exited with code 3: scripted agent: asked to fail/);
    assert.equal(failed.answer, null);
    let score = await scoreJson(out);
    assert.deepEqual([score.conditions.repair.n, score.conditions.repair.fixed, score.conditions.repair.errors], [2, 1, 1]);

    const again = await runCli(['resume', FIXTURES, '--command', TEMPLATE, '--out', out, '--conditions', 'repair']);
    assert.equal(again.code, 0, again.err);
    assert.match(again.err, /1 to run, 2 already done/);
    assert.equal(linesOf(out).length, 4, 'the retry is appended after the error line');
    score = await scoreJson(out);
    assert.deepEqual([score.conditions.repair.n, score.conditions.repair.fixed, score.conditions.repair.errors], [3, 2, 0]);
  });

  it("--judge llm: the model judge through the run's judgment cache; score reuses its verdicts, offline or with the same model", async () => {
    // The mock judge finds every gold item, so all nine runs are correct (the exact judge says 4 of 9).
    const server = await startMockModelServer({
      script: (request) => {
        const gold = /Torben|Lake Ohrid|1887|Marta Vell/.exec(request.userText)?.[0] ?? 'item';
        return { text: JSON.stringify({ AnswerCorrectness: { Explanation: 'found', CorrectnessDetails: { [gold]: true }, ExcessiveAnswers: [] } }) };
      },
    });
    try {
      const out = join(tempDir('trajaudit-resume-'), 'run');
      const model = ['--model', 'mock-judge', '--base-url', server.openaiBaseUrl];
      const { code, err } = await runCli(['resume', FIXTURES, '--command', TEMPLATE, '--out', out, '--judge', 'llm', ...model]);
      assert.equal(code, 0, err);
      assert.equal(server.requests.length, 9, 'one model verdict per resumed run');
      assert.ok(linesOf(out).every((l) => l.correct === true));
      const cached = readFileSync(join(out, 'judgments.jsonl'), 'utf8').trim().split('\n');
      assert.equal(cached.length, 9);
      const offline = await scoreJson(out);
      assert.deepEqual([offline.conditions.repair.fixed, offline.conditions.retry.fixed], [3, 3], 'offline: the cached model verdicts, not the exact judge');
      const again = await runCli(['score', out, '--judge', 'llm', ...model, '--json']);
      assert.equal(again.code, 0, again.err);
      assert.equal(server.requests.length, 9, 're-scoring with the same judge calls no model');
      assert.equal(JSON.parse(again.out).conditions.hint.fixed, 3);
    } finally {
      await server.close();
    }
  });

  it('refuses a placeholder the shell would parse again, naming --command', async () => {
    const out = join(tempDir('trajaudit-resume-'), 'run');
    const { code, err } = await runCli(['resume', FIXTURES, '--command', `node ${AGENT} "{resume_file}"`, '--out', out]);
    assert.equal(code, 1);
    assert.match(err, /^--command: \{resume_file\} at column \d+ is inside double quotes/);
    assert.ok(!existsSync(out), 'nothing written');
  });

  it('refuses a folder with no audit that has a repair', async () => {
    const dir = tempDir('trajaudit-resume-');
    writeFileSync(join(dir, 'one.traj.jsonl'), readFileSync(join(FIXTURES, 'cohort.traj.jsonl'), 'utf8'));
    const { code, err } = await runCli(['resume', dir, '--command', TEMPLATE, '--out', join(dir, 'run')]);
    assert.equal(code, 1);
    assert.match(err, /nothing to resume: no trajectory here has an audit with a repair; run trajaudit audit first/);
  });

  it('score names the line of a repeated resume that is not a retried error', async () => {
    const out = tempDir('trajaudit-resume-');
    const line = { id: 'a#1', condition: 'repair', answer: 'x', trajectory: null, correct: true };
    writeFileSync(join(out, 'resumes.jsonl'), `${JSON.stringify(line)}\n${JSON.stringify(line)}\n`);
    const { code, err } = await runCli(['score', out, '--json']);
    assert.equal(code, 1);
    assert.match(err, /resumes\.jsonl:2:1: resume a#1 \/ repair appears twice \(first on line 1\)/);
  });
});
