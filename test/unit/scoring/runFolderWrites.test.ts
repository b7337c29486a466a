// Paths a run folder names for writing stay inside it (issue 20, finding 2): a manifest naming the
// judgment cache outside the folder (relative, absolute, or through a link) is refused before any
// model call and nothing is written there; paths named for reading may point elsewhere; a harness
// refuses a run folder whose outputs are links leading outside.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockModelServer, type MockModelServer } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';

/** A DeepSearchQA run folder at `dir/t/run` with one response; `judgments` goes into the manifest. */
function dsqaRun(dir: string, judgments?: string): string {
  const run = join(dir, 't', 'run');
  mkdirSync(run, { recursive: true });
  writeFileSync(
    join(run, 'rows.jsonl'),
    `${JSON.stringify({ id: 'r1', problem: 'Capital of France?', problem_category: 'Geo', answer: 'Paris', answer_type: 'Single Answer' })}\n`,
  );
  writeFileSync(join(run, 'responses.jsonl'), `${JSON.stringify({ id: 'r1', response: 'Paris' })}\n`);
  writeFileSync(
    join(run, 'trajaudit.run.json'),
    JSON.stringify({ kind: 'deepsearchqa', dataset: 'rows.jsonl', responses: 'responses.jsonl', ...(judgments !== undefined ? { judgments } : {}) }),
  );
  return run;
}

describe('score: the judgment cache is written only inside the run folder', function () {
  this.timeout(30_000);
  let server: MockModelServer;
  before(async () => {
    server = await startMockModelServer();
  });
  after(async () => server.close());
  beforeEach(() => server.reset());

  const llm = (run: string) => runCli(['score', run, '--judge', 'llm', '--model', 'mock-grader', '--base-url', server.openaiBaseUrl]);

  it('a relative path leading out, or an absolute path, is refused with the manifest key; nothing is created or appended', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'outside'));
    const absolute = join(dir, 'outside', 'abs.jsonl');
    writeFileSync(absolute, '');
    for (const [named, target] of [
      ['../../outside/x.jsonl', join(dir, 'outside', 'x.jsonl')],
      [absolute, absolute],
    ]) {
      const run = dsqaRun(dir, named);
      const r = await llm(run);
      assert.equal(r.code, 1, r.err);
      assert.match(r.err, /trajaudit\.run\.json: at \$\.judgments: .* is outside the run folder .*writes the judgment cache/);
      assert.doesNotMatch(r.err, /internal error/);
      assert.equal(server.requests.length, 0, 'refused before any model call');
      assert.ok(target === absolute ? readFileSync(absolute, 'utf8') === '' : !existsSync(target), `${named}: nothing written outside`);
    }
  });

  it('a judgments.jsonl that is a link to a file outside is refused too', async () => {
    const dir = tempDir();
    const outside = join(dir, 'elsewhere.jsonl');
    writeFileSync(outside, '');
    const run = dsqaRun(dir);
    symlinkSync(outside, join(run, 'judgments.jsonl'));
    const r = await llm(run);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /judgments\.jsonl.*symbolic link.*outside the run folder/);
    assert.equal(readFileSync(outside, 'utf8'), '');
  });

  it('paths named for reading may point elsewhere: an outside judgments file is read when nothing needs writing', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'shared'));
    const shared = join(dir, 'shared', 'judgments.jsonl');
    // The shared verdict names its judge: only then is it served to that judge (docs/run-folders.md §4).
    const judge_identity = { provider: 'openai', model: 'mock-grader', prompt: 'deepsearchqa-grader/v1' };
    const verdict = { id: 'r1', AnswerCorrectness: { Explanation: 'right', CorrectnessDetails: { Paris: true }, ExcessiveAnswers: [] }, judge_identity };
    const before = `${JSON.stringify(verdict)}\n`;
    writeFileSync(shared, before);
    const run = dsqaRun(dir, '../../shared/judgments.jsonl');
    const exact = await runCli(['score', run, '--json']);
    assert.equal(exact.code, 0, exact.err);
    const cached = await llm(run);
    assert.equal(cached.code, 0, cached.err);
    assert.equal(server.requests.length, 0, 'every verdict came from the shared cache');
    assert.equal(readFileSync(shared, 'utf8'), before, 'and it was not written');
  });

  it('inside the run folder the cache is written as before', async () => {
    const dir = tempDir();
    const run = dsqaRun(dir, 'cache/judgments.jsonl');
    mkdirSync(join(run, 'cache'));
    server.script(() => ({ text: JSON.stringify({ AnswerCorrectness: { Explanation: 'ok', CorrectnessDetails: { Paris: true }, ExcessiveAnswers: [] } }) }));
    const r = await llm(run);
    assert.equal(r.code, 0, r.err);
    assert.ok(readFileSync(join(run, 'cache', 'judgments.jsonl'), 'utf8').includes('"r1"'));
  });
});

describe('harness run folders: outputs that are links leading outside are refused', function () {
  this.timeout(30_000);

  it('run-agent into a folder whose responses.jsonl links outside writes nothing there', async () => {
    const dir = tempDir();
    const run = dsqaRun(dir);
    const outside = join(dir, 'victim.jsonl');
    writeFileSync(outside, 'keep\n');
    symlinkSync(outside, join(run, 'answers.jsonl'));
    symlinkSync(join(dir, 'victim-dir'), join(run, 'trajectories'));
    const r = await runCli(['harness', 'run-agent', join(run, 'rows.jsonl'), '--command', 'echo {query}', '--out', run]);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /answers\.jsonl.*symbolic link.*outside the run folder/);
    assert.equal(readFileSync(outside, 'utf8'), 'keep\n');
    assert.ok(!existsSync(join(dir, 'victim-dir')));
  });
});
