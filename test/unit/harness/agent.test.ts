// The agent command: template variables and quoting, failures, timeouts, and run-agent over each
// dataset kind into a run folder that `trajaudit score` scores.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderCommand, runAgentCommand, shellQuote, templateProblems } from '../../../src/core/harness/agent/command';
import { loadFile } from '../../../src/core/load/loadFile';
import { runCli, tempDir } from '../helpers';
import { CLARIFY_INSTANCES, DELEGATION_ITEMS, DSQA_CSV, FAKE_AGENT } from './helpers';

const AGENT = `node ${FAKE_AGENT} --query {query} --out-answer {out_answer} --out-trajectory {out_trajectory}`;
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('harness agent command', function () {
  this.timeout(60_000);

  it('template variables are shell-quoted; unknown and quoted variables are refused', () => {
    assert.deepEqual(templateProblems(AGENT), []);
    assert.match(templateProblems('agent {question}').join(), /unknown template variable \{question\}/);
    assert.match(templateProblems(`agent --q '{query}'`).join(), /inside single quotes.*agent --q \{query\}/);
    assert.equal(shellQuote(`it's "x" $(rm -rf /)`, 'linux'), `'it'\\''s "x" $(rm -rf /)'`);
    assert.equal(shellQuote('say "hi"', 'win32'), '"say ""hi"""');
    assert.equal(
      renderCommand('a {query} {id}', { query: 'q;x', id: '7', query_file: '', condition: '', out_answer: '', out_trajectory: '', workdir: '' }, 'linux'),
      `a 'q;x' '7'`,
    );
  });

  it('a hostile query stays one argument (no shell injection)', async () => {
    const dir = tempDir();
    const query = `x'; touch ${join(dir, 'pwned')}; echo '$(whoami) "\`id\`"`;
    const r = await runAgentCommand({ template: AGENT, query, id: '1', condition: 'c', workdir: join(dir, 'w'), trajectoryTarget: join(dir, 't.traj.json') });
    assert.equal(r.answer, `Fake agent answer for: ${query}`);
    assert.ok(!existsSync(join(dir, 'pwned')));
    assert.equal(r.trajectoryFormat, 'openai-chat');
    assert.ok(!existsSync(join(dir, 'w')), 'the scratch folder is removed');
  });

  it('stdout is the answer when the template has no {out_answer}; env variables are set', async () => {
    const dir = tempDir();
    const r = await runAgentCommand({
      template: `node ${FAKE_AGENT}`,
      query: 'from env',
      id: '1',
      condition: 'c',
      workdir: join(dir, 'w'),
      trajectoryTarget: join(dir, 't.traj.json'),
    });
    assert.equal(r.answer, 'Fake agent answer for: from env', 'the fake agent wrote TRAJAUDIT_OUT_ANSWER from the environment');
    const viaStdout = await runAgentCommand({
      template: `node ${FAKE_AGENT} --query {query}`,
      query: 'q',
      id: '1',
      condition: 'c',
      workdir: join(dir, 'w'),
      trajectoryTarget: join(dir, 't2.traj.json'),
    });
    assert.match(viaStdout.answer, /Fake agent answer for: (q|)$/);
  });

  it('a failing, silent or slow agent fails the unit', async () => {
    const dir = tempDir();
    const base = { query: 'q', id: '1', condition: 'c', workdir: join(dir, 'w'), trajectoryTarget: join(dir, 't.traj.json') };
    await assert.rejects(runAgentCommand({ ...base, template: `FAKE_AGENT_MODE=fail ${AGENT}` }), /exited with code 3: fake agent: simulated failure/);
    await assert.rejects(runAgentCommand({ ...base, template: `FAKE_AGENT_MODE=no-answer ${AGENT}` }), /did not write \{out_answer\}/);
    const started = Date.now();
    await assert.rejects(runAgentCommand({ ...base, template: `FAKE_AGENT_MODE=slow FAKE_AGENT_DELAY_MS=5000 ${AGENT}`, timeoutMs: 300 }), /timed out/);
    assert.ok(Date.now() - started < 4000);
  });

  it('DeepSearchQA CSV → responses.jsonl + manifest pointing at the dataset; scored', async () => {
    const out = join(tempDir(), 'dsqa');
    const r = await runCli(['harness', 'run-agent', DSQA_CSV, '--command', AGENT, '--out', out, '--json']);
    assert.equal(r.code, 0, r.err);
    const manifest = JSON.parse(readFileSync(join(out, 'trajaudit.run.json'), 'utf8'));
    assert.equal(manifest.kind, 'deepsearchqa');
    assert.equal(manifest.responses, 'responses.jsonl');
    assert.ok(existsSync(join(out, manifest.dataset)), 'the manifest points at the dataset (relative)');
    const responses = lines(join(out, 'responses.jsonl'));
    assert.equal(responses.length, 12);
    for (const x of responses) assert.equal(loadFile(join(out, x.trajectory)).detection.kind, 'openai-chat');
    const score = await runCli(['score', out, '--json']);
    assert.equal(score.code, 0, score.err);
    assert.equal(JSON.parse(score.out).kind, 'deepsearchqa');
  });

  it('Delegation items → a delegation run (setting "agent"); intent queries → a nuggets run', async () => {
    const out = join(tempDir(), 'deleg');
    const r = await runCli(['harness', 'run-agent', DELEGATION_ITEMS, '--command', AGENT, '--out', out]);
    assert.equal(r.code, 0, r.err);
    const outputs = lines(join(out, 'outputs.jsonl'));
    assert.equal(outputs.length, 3);
    assert.ok(outputs.every((o) => o.setting === 'agent' && Array.isArray(o.cited_doc_ids)));
    const score = await runCli(['score', out, '--json']);
    assert.equal(score.code, 0, score.err);
    assert.equal(JSON.parse(score.out).n, 3);

    const intent = join(tempDir(), 'intent');
    const i = await runCli(['harness', 'run-agent', CLARIFY_INSTANCES, '--command', AGENT, '--out', intent]);
    assert.equal(i.code, 0, i.err);
    const answers = lines(join(intent, 'answers.jsonl'));
    assert.ok(answers.every((a) => a.condition === 'intent'));
    const gold = lines(join(intent, 'gold_nuggets.jsonl'));
    assert.equal(gold.length, answers.length);
    assert.equal(JSON.parse(readFileSync(join(intent, 'trajaudit.run.json'), 'utf8')).kind, 'nuggets');
    const orig = join(tempDir(), 'orig');
    assert.equal((await runCli(['harness', 'run-agent', CLARIFY_INSTANCES, '--command', AGENT, '--out', orig, '--query-field', 'blurred_query'])).code, 0);
    assert.ok(lines(join(orig, 'answers.jsonl')).every((a) => a.condition === 'orig'));
  });

  it('usage errors: no --command, a bad template', async () => {
    assert.equal((await runCli(['harness', 'run-agent', DSQA_CSV])).code, 2);
    const bad = await runCli(['harness', 'run-agent', DSQA_CSV, '--command', 'agent {nope}', '--out', join(tempDir(), 'x')]);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /unknown template variable/);
  });
});
