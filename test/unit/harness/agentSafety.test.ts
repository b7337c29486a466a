// The agent command against hostile data and unruly agents (issue 20, findings 3, 4, 14, 16):
// placeholders the shell would parse again are refused, hostile queries never run, a background
// process holding stdout does not lose the answer or hang the CLI, the process group dies on
// timeout, a signal is named, an oversized answer is cut and the cut recorded, and the product's
// API keys neither reach the agent nor leave through its output.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAgentCommand, templateProblems } from '../../../src/core/harness/agent/command';
import { clearRegisteredSecrets, registerSecret } from '../../../src/core/secrets/redact';
import { runCli, tempDir } from '../helpers';
import { ROOT } from './helpers';

const CLI = join(ROOT, 'src', 'cli', 'main.ts');
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

/** Waits until `check` holds (polling), failing after `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Whether a process runs (a zombie waiting for init to reap it counts as dead). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return true; // no /proc: kill(pid, 0) is all there is
  }
};

/** A DeepSearchQA dataset (JSONL rows) whose problems are `queries`. */
function dataset(dir: string, queries: string[]): string {
  const path = join(dir, 'rows.jsonl');
  writeFileSync(
    path,
    queries.map((q, i) => JSON.stringify({ id: `q${i}`, problem: q, problem_category: 'Test', answer: 'x', answer_type: 'Single Answer' })).join('\n') + '\n',
  );
  return path;
}

function hostileQueries(marker: string): string[] {
  return [
    `$(touch ${marker})`,
    `\`touch ${marker}\``,
    `'; touch ${marker}; '`,
    `"; touch ${marker}; "`,
    `\\'$(touch ${marker})\\'`,
    `x\ntouch ${marker}\n`,
    `$'\\x27'; touch ${marker}`,
  ];
}

describe('agent command: placeholders the shell would parse again are refused', function () {
  this.timeout(30_000);

  const refused = [
    'echo "Q: {query}"',
    "echo 'Q: {query}'",
    "echo $'Q: {query}'",
    'echo `printf %s {query}`',
    'echo $(printf %s {query})',
    'echo "$(printf %s {query})"',
    'echo ${X:-{query}}',
    'cat <<EOF\n{query}\nEOF',
    'cat <<-"END"\n\t{id}\n\tEND\necho ok',
    'echo \\{query}',
    'echo ${query}',
    'echo "${query}"',
    'eval {query}',
    'bash -c {query}',
    '/bin/sh -ec {query}',
    'python3 -c {query}',
    'node -e {query}',
    'echo "a" "b {id}" {query}',
  ];
  const allowed = [
    'echo Q: {query}',
    'echo "Q: "{query}',
    "printf '%s\\n' {query} > {out_answer}",
    '( echo {query} )',
    'echo {query} # "{id}"',
    'Q={query} node agent.mjs',
    `bash -c 'echo "$TRAJAUDIT_QUERY"' x`,
    'node agent --q={query}',
    'cat <<<{query}',
    'cat <<EOF\nhi\nEOF\necho {query}',
    'bash -c "$X" {query}',
    'sh script.sh {query}',
  ];

  it('refuses every quoted, substituted, escaped or evaluated placeholder, and accepts plain words', () => {
    for (const t of refused) assert.ok(templateProblems(t).length > 0, `should refuse ${JSON.stringify(t)}`);
    for (const t of allowed) assert.deepEqual(templateProblems(t), [], JSON.stringify(t));
  });

  it('the message shows the safe form', () => {
    const [message] = templateProblems('echo "Q: {query}"');
    assert.match(message, /\{query\} at column 10 is inside double quotes/);
    assert.ok(message.includes('echo "Q: "{query}'), message);
    assert.ok(message.includes('echo "Q: $TRAJAUDIT_QUERY"'), message);
    assert.ok(templateProblems('echo $(cat {query_file})')[0].includes('"$TRAJAUDIT_QUERY_FILE"'));
    assert.ok(templateProblems("agent --q '{query}'")[0].includes('agent --q {query}'));
  });

  it('a refused template runs nothing: hostile dataset queries create no file', async () => {
    const dir = tempDir();
    const marker = join(dir, 'pwned');
    const rows = dataset(dir, hostileQueries(marker));
    for (const command of ['echo "Q: {query}"', 'echo `echo {query}`', 'echo "$(echo {query})"']) {
      const r = await runCli(['harness', 'run-agent', rows, '--command', command, '--out', join(dir, 'run')]);
      assert.equal(r.code, 1, r.err);
      assert.match(r.err, /--command.*inside/);
      assert.ok(!existsSync(marker), `${command} ran a query`);
    }
  });

  it('an accepted template passes every hostile query as one argument, verbatim', async () => {
    const dir = tempDir();
    const marker = join(dir, 'pwned');
    for (const template of [
      'printf %s {query}',
      'printf %s "Q: "{query}',
      'printf %s {query} > {out_answer}',
      '( printf %s {query} )',
      'printf %s {query} | cat',
    ]) {
      for (const query of hostileQueries(marker)) {
        const r = await runAgentCommand({ template, query, id: '1', condition: 'c', workdir: join(dir, 'w'), trajectoryTarget: join(dir, 't.traj.json') });
        const expected = template.includes('"Q: "') ? `Q: ${query}` : query;
        assert.equal(r.answer, expected.trim(), `${template} with ${JSON.stringify(query)}`);
        assert.ok(!existsSync(marker), `${template} ran ${JSON.stringify(query)}`);
      }
    }
  });
});

describe('agent command: unruly processes', function () {
  this.timeout(60_000);
  const leftovers: number[] = [];
  after(() => {
    for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  it('a background process that keeps stdout open does not lose the answer: it is taken when the agent exits', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'bg.pid');
    const started = Date.now();
    const r = await runAgentCommand({
      template: `setsid sleep 60 & echo $! > ${pidFile}; echo answered`,
      query: 'q',
      id: '1',
      condition: 'c',
      workdir: join(dir, 'w'),
      trajectoryTarget: join(dir, 't.traj.json'),
      timeoutMs: 20_000,
    });
    leftovers.push(Number(readFileSync(pidFile, 'utf8')));
    assert.equal(r.answer, 'answered');
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
  });

  it("the agent's own background processes are killed with its process group (after exit and on timeout)", async () => {
    const dir = tempDir();
    const afterExit = join(dir, 'after-exit.pid');
    await runAgentCommand({
      template: `sleep 60 & echo $! > ${afterExit}; echo done`,
      query: 'q',
      id: '1',
      condition: 'c',
      workdir: join(dir, 'w'),
      trajectoryTarget: join(dir, 't.traj.json'),
      timeoutMs: 20_000,
    });
    const first = Number(readFileSync(afterExit, 'utf8'));
    leftovers.push(first);
    await until(() => !alive(first), 5_000, 'the background sleep to die');

    const onTimeout = join(dir, 'timeout.pid');
    const started = Date.now();
    await assert.rejects(
      runAgentCommand({
        template: `sleep 60 & echo $! > ${onTimeout}; sleep 60`,
        query: 'q',
        id: '1',
        condition: 'c',
        workdir: join(dir, 'w2'),
        trajectoryTarget: join(dir, 't2.traj.json'),
        timeoutMs: 1_000,
      }),
      /timed out after 1 s \(its process group was killed\)/,
    );
    assert.ok(Date.now() - started < 8_000);
    await until(() => existsSync(onTimeout) && readFileSync(onTimeout, 'utf8').trim() !== '', 5_000, 'the pid file');
    const second = Number(readFileSync(onTimeout, 'utf8'));
    leftovers.push(second);
    await until(() => !alive(second), 5_000, 'the timed-out group to die');
  });

  it('the CLI exits after run-agent although an agent left a process holding its stdout', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'bg.pid');
    const rows = dataset(dir, ['q']);
    const out = join(dir, 'run');
    const child = spawn(
      process.execPath,
      [
        '-r',
        'tsx/cjs',
        CLI,
        'harness',
        'run-agent',
        rows,
        '--command',
        `setsid sleep 60 & echo $! > ${pidFile}; echo answered`,
        '--timeout',
        '3',
        '--out',
        out,
      ],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(-1);
      }, 45_000);
      child.once('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    if (existsSync(pidFile)) leftovers.push(Number(readFileSync(pidFile, 'utf8')));
    assert.equal(code, 0, `the CLI ${code === -1 ? 'did not exit' : `exited ${code}`}: ${stderr}`);
    assert.deepEqual(
      lines(join(out, 'responses.jsonl')).map((l) => l.response),
      ['answered'],
    );
  });

  it('an agent killed by a signal is reported with the signal', async () => {
    const dir = tempDir();
    const base = { query: 'q', id: '1', condition: 'c', workdir: join(dir, 'w'), trajectoryTarget: join(dir, 't.traj.json') };
    await assert.rejects(
      runAgentCommand({ ...base, template: 'kill -9 $$' }),
      (e: Error) => /killed by signal SIGKILL/.test(e.message) && !/code null/.test(e.message),
    );
    await assert.rejects(runAgentCommand({ ...base, template: "sh -c 'kill -TERM $$'; exit $?" }), /exited with code 143 \(128 \+ SIGTERM/);
  });

  it('an answer longer than the bound is cut on a character boundary, and the cut is recorded', async () => {
    const dir = tempDir();
    const base = { query: 'q', id: '1', condition: 'c', workdir: join(dir, 'w'), trajectoryTarget: join(dir, 't.traj.json'), maxAnswerBytes: 1001 };
    const viaStdout = await runAgentCommand({ ...base, template: `node -e "process.stdout.write('é'.repeat(5000))"` });
    assert.equal(viaStdout.answer, 'é'.repeat(500), 'whole characters only');
    assert.deepEqual(viaStdout.answerCut, { source: 'stdout', keptBytes: 1000, totalBytes: 10000 });
    const viaFile = await runAgentCommand({
      ...base,
      template: `node -e "require('fs').writeFileSync(process.env.TRAJAUDIT_OUT_ANSWER, 'a'.repeat(3000))" {out_answer}`,
    });
    assert.equal(viaFile.answer.length, 1001);
    assert.deepEqual(viaFile.answerCut, { source: 'out_answer', keptBytes: 1001, totalBytes: 3000 });
    const small = await runAgentCommand({ ...base, template: 'echo short' });
    assert.equal(small.answerCut, undefined);
  });

  it('run-agent records a cut answer in its line and says so', async () => {
    const dir = tempDir();
    const rows = dataset(dir, ['q']);
    const out = join(dir, 'run');
    // 5 MB on stdout: more than the default bound of 4 MB.
    const r = await runCli(['harness', 'run-agent', rows, '--command', `node -e "process.stdout.write('a'.repeat(5*1024*1024))"`, '--out', out]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /the answer was cut to its first 4\.0 MB of 5\.0 MB written to standard output/);
    const [line] = lines(join(out, 'responses.jsonl'));
    assert.equal(line.response.length, 4 * 1024 * 1024);
    assert.deepEqual(line.answer_cut, { source: 'stdout', kept_bytes: 4 * 1024 * 1024, total_bytes: 5 * 1024 * 1024 });
  });
});

describe('agent command: API keys', function () {
  this.timeout(30_000);
  const KEY = 'sk-agent-test-0123456789abcdefSECRET';
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = KEY;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved;
    clearRegisteredSecrets();
  });

  it("the product's keys are not passed to the agent unless asked for", async () => {
    const dir = tempDir();
    const base = { query: 'q', id: '1', condition: 'c', workdir: join(dir, 'w'), trajectoryTarget: join(dir, 't.traj.json') };
    const template = 'printf %s "${OPENAI_API_KEY:-none}"';
    assert.equal((await runAgentCommand({ ...base, template })).answer, 'none');
    assert.equal((await runAgentCommand({ ...base, template, passApiKeys: true })).answer, KEY, 'passed when asked for (nothing registered to redact)');
  });

  it('a key the agent prints (as it is, upper-cased, base64) is redacted from its stderr line, answer and trajectory', async () => {
    registerSecret(KEY);
    const dir = tempDir();
    const base = { query: 'q', id: '1', condition: 'c', workdir: join(dir, 'w'), trajectoryTarget: join(dir, 't.traj.json'), passApiKeys: true };
    for (const echo of [
      'echo "key $OPENAI_API_KEY" >&2',
      'echo "$OPENAI_API_KEY" | tr a-z A-Z >&2',
      'printf "Basic %s\\n" "$(printf u:%s "$OPENAI_API_KEY" | base64 -w0)" >&2',
    ]) {
      const error = await runAgentCommand({ ...base, template: `${echo}; exit 1` }).then(
        () => undefined,
        (e: Error) => e,
      );
      assert.ok(error, echo);
      assert.match(error.message, /exited with code 1: .*\[redacted\]/, echo);
      assert.ok(!error.message.toLowerCase().includes(KEY.slice(3, 20).toLowerCase()), error.message);
      assert.ok(!error.message.includes(Buffer.from(`u:${KEY}`).toString('base64').slice(4, 30)), error.message);
    }
    const answered = await runAgentCommand({
      ...base,
      template: `echo "the key is $OPENAI_API_KEY"; printf '{"messages":[{"role":"user","content":"%s"},{"role":"assistant","content":"ok"}]}' "$OPENAI_API_KEY" > {out_trajectory}`,
    });
    assert.equal(answered.answer, 'the key is [redacted]');
    assert.ok(!readFileSync(join(dir, 't.traj.json'), 'utf8').includes(KEY), 'the trajectory kept in the run folder is redacted');
  });

  it('harness run-agent does not hand OPENAI_API_KEY to the agent, and --pass-api-keys does', async () => {
    const dir = tempDir();
    const rows = dataset(dir, ['q']);
    const template = 'printf %s "${OPENAI_API_KEY:-none}"';
    const plain = await runCli(['harness', 'run-agent', rows, '--command', template, '--out', join(dir, 'a')]);
    assert.equal(plain.code, 0, plain.err);
    assert.equal(lines(join(dir, 'a', 'responses.jsonl'))[0].response, 'none');
    const passed = await runCli(['harness', 'run-agent', rows, '--command', template, '--out', join(dir, 'b'), '--pass-api-keys']);
    assert.equal(passed.code, 0, passed.err);
    assert.equal(lines(join(dir, 'b', 'responses.jsonl'))[0].response, '[redacted]', 'the agent got the key; the run folder does not keep it');
  });
});
