// Resumability: a harness run killed midway (SIGKILL of the CLI process) and started again with
// the same command ends with exactly one output line per unit; a torn last line is repaired.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendJsonLine, readForResume } from '../../../src/core/harness/runFolder';
import { startMockModelServer, type MockModelServer } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';
import { DELEGATION_ITEMS, DSQA_CSV, FAKE_AGENT, ROOT, delegationModel } from './helpers';

const CLI = join(ROOT, 'src', 'cli', 'main.ts');
const lineCount = (path: string) =>
  existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l.trim()).length
    : 0;

/** Starts the CLI in a child process and SIGKILLs it once `file` has at least `lines` lines. */
async function killMidway(args: string[], file: string, lines: number, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  while (lineCount(file) < lines) {
    if (child.exitCode !== null) throw new Error(`the child ended before it was killed (code ${child.exitCode}): ${stderr}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${lines} line(s) in ${file}: ${stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill('SIGKILL');
  await exited;
}

describe('harness runs are resumable', function () {
  this.timeout(90_000);
  let server: MockModelServer;
  beforeEach(async () => {
    server = await startMockModelServer();
  });
  afterEach(async () => {
    await server.close();
  });

  it('delegation: killed after a few outputs, resumed → exactly one output per item × order', async () => {
    const model = delegationModel();
    server.script((req) => ({ ...model(req), delayMs: 120 }));
    const out = join(tempDir(), 'run');
    const outputs = join(out, 'outputs.jsonl');
    const args = [
      'harness',
      'delegation',
      DELEGATION_ITEMS,
      '--setting',
      'full',
      '--model',
      'mock',
      '--base-url',
      server.openaiBaseUrl,
      '--out',
      out,
      '--concurrency',
      '2',
    ];
    await killMidway(args, outputs, 3);
    const before = lineCount(outputs);
    assert.ok(before >= 3 && before < 9, `killed midway (${before} of 9)`);
    const requestsBefore = server.requests.length;
    const resumed = await runCli(args);
    assert.equal(resumed.code, 0, resumed.err);
    const lines = readForResume<{ id: string; setting: string; order: string }>(outputs).lines;
    assert.equal(lines.length, 9);
    assert.equal(new Set(lines.map((l) => `${l.id}#${l.order}`)).size, 9, 'no duplicates');
    assert.ok(server.requests.length - requestsBefore <= 9 - before + 2, 'only the missing units (and at most the in-flight ones) ran again');
    const score = await runCli(['score', out, '--json']);
    assert.equal(score.code, 0, score.err);
    assert.equal(JSON.parse(score.out).n, 9);
  });

  it('run-agent: killed while agents run, resumed → exactly one response per row', async () => {
    const out = join(tempDir(), 'run');
    const responses = join(out, 'responses.jsonl');
    const args = [
      'harness',
      'run-agent',
      DSQA_CSV,
      '--command',
      `node ${FAKE_AGENT} --query {query} --out-answer {out_answer} --out-trajectory {out_trajectory}`,
      '--out',
      out,
      '--concurrency',
      '1',
    ];
    await killMidway(args, responses, 2, { FAKE_AGENT_MODE: 'slow', FAKE_AGENT_DELAY_MS: '300' });
    const before = lineCount(responses);
    const resumed = await runCli(args);
    assert.equal(resumed.code, 0, resumed.err);
    const lines = readForResume<{ id: string }>(responses).lines;
    const rows = readFileSync(DSQA_CSV, 'utf8').trim().split('\n').length - 1;
    assert.ok(before < rows);
    assert.equal(lines.length, rows);
    assert.equal(new Set(lines.map((l) => l.id)).size, rows);
  });

  it('a torn last line (a write killed halfway) is cut off and the unit runs again', async () => {
    server.script(delegationModel());
    const out = join(tempDir(), 'run');
    const args = [
      'harness',
      'delegation',
      DELEGATION_ITEMS,
      '--setting',
      'full',
      '--order',
      'golden_first',
      '--model',
      'mock',
      '--base-url',
      server.openaiBaseUrl,
      '--out',
      out,
    ];
    assert.equal((await runCli([...args, '--limit', '2'])).code, 0);
    const outputs = join(out, 'outputs.jsonl');
    appendFileSync(outputs, '{"id": "deleg-en-0142", "setting": "full", "order": "golden_fi');
    const r = await runCli(args);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /partial last line/);
    const lines = readForResume<{ id: string }>(outputs).lines;
    assert.deepEqual(lines.map((l) => l.id).sort(), ['deleg-en-0142', 'deleg-en-0231', 'deleg-zh-0158']);
  });

  it('a resumed run with other settings is refused', async () => {
    server.script(delegationModel());
    const out = join(tempDir(), 'run');
    const args = [
      'harness',
      'delegation',
      DELEGATION_ITEMS,
      '--setting',
      'search',
      '--model',
      'mock',
      '--base-url',
      server.openaiBaseUrl,
      '--out',
      out,
      '--limit',
      '1',
    ];
    assert.equal((await runCli(args)).code, 0);
    const again = await runCli([...args, '--budget', '9']);
    assert.equal(again.code, 1);
    assert.match(again.err, /other settings/);
  });

  it('readForResume keeps a complete last line that lacks its newline; appendJsonLine writes whole lines', () => {
    const path = join(tempDir(), 'x.jsonl');
    writeFileSync(path, '{"id": "a"}\n{"id": "b"}');
    assert.deepEqual(
      readForResume<{ id: string }>(path).lines.map((l) => l.id),
      ['a', 'b'],
    );
    appendJsonLine(path, { id: 'c' });
    assert.equal(readFileSync(path, 'utf8'), '{"id": "a"}\n{"id": "b"}\n{"id":"c"}\n');
  });
});
