import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockModelServer, type MockModelServer } from '../../mock/mockModelServer';
import { runCli, tempDir } from '../helpers';
import { kindOf, searchAuditorScript } from './fixtures';

const sample = join(__dirname, '..', '..', '..', 'samples', 'trajectories', 'tongyi', 'alpine-footbridge-span.traj.json');

describe('trajaudit audit (CLI) writes a valid sidecar for every method', function () {
  this.timeout(60000);
  let server: MockModelServer;
  let file: string;
  before(async () => {
    server = await startMockModelServer({ script: searchAuditorScript({}, 0) });
  });
  after(async () => server.close());
  beforeEach(() => {
    file = join(tempDir('trajaudit-audit-'), 'case.traj.json');
    copyFileSync(sample, file);
  });

  it('heuristic: offline, no model, labelled as such', async () => {
    const { code, out } = await runCli(['audit', file, '--method', 'heuristic', '--json']);
    assert.equal(code, 0);
    const [entry] = JSON.parse(out);
    assert.equal(entry.audit.provider, 'offline');
    assert.ok(entry.audit.evidence.length > 0);
    assert.equal((await runCli(['validate', `${file}.audit.json`])).code, 0);
  });

  for (const method of ['searchauditor', 'all-at-once', 'step-by-step', 'binary-search']) {
    it(`${method} against the mock`, async () => {
      server.script(
        method === 'searchauditor'
          ? searchAuditorScript({}, 0)
          : () => ({
              text: JSON.stringify({
                critical_step: 4,
                root_cause: 'unverified_source_reliance',
                rationale: 'r',
                directives: ['Open the primary source at step 4.'],
                decisive: true,
                half: 'first',
              }),
            }),
      );
      const args = ['audit', file, '--method', method, '--model', 'mock-gpt', '--base-url', server.openaiBaseUrl, '--json'];
      const first = await runCli(args);
      assert.equal(first.code, 0, first.err);
      const sidecar = JSON.parse(readFileSync(`${file}.audit.json`, 'utf8'));
      assert.equal(sidecar.records['0'].audits.length, 1);
      assert.equal(sidecar.records['0'].audits[0].method, method);
      assert.equal((await runCli(['validate', `${file}.audit.json`])).code, 0);
      const calls = server.requests.length;
      const again = await runCli(args);
      assert.equal(JSON.parse(again.out)[0].cached, true, 'the second run reuses the cached result');
      assert.equal(server.requests.length, calls, 'and calls no model');
      await runCli([...args, '--rerun']);
      assert.ok(server.requests.length > calls, '--rerun calls the model again');
      assert.equal(JSON.parse(readFileSync(`${file}.audit.json`, 'utf8')).records['0'].audits.length, 2);
    });
  }

  it('--warm-cache sends one SearchAuditor branch before the other two', async () => {
    server.script(searchAuditorScript({}, 20));
    const before = server.requests.length;
    const { code, err } = await runCli([
      'audit',
      file,
      '--method',
      'searchauditor',
      '--model',
      'mock-gpt',
      '--base-url',
      server.openaiBaseUrl,
      '--warm-cache',
      '--rerun',
    ]);
    assert.equal(code, 0, err);
    const branches = server.requests
      .slice(before)
      .filter((r) => ['holistic', 'backward', 'forward'].includes(kindOf(r)))
      .sort((x, y) => x.startedAt - y.startedAt);
    assert.equal(branches.length, 3);
    assert.ok(branches[1].startedAt >= branches[0].endedAt! && branches[2].startedAt >= branches[0].endedAt!);
  });

  it('--help lists every audit option the command takes', async () => {
    const { code, out, err } = await runCli(['--help']);
    const help = out + err;
    assert.equal(code, 0);
    for (const option of [
      '--method',
      '--record',
      '--provider',
      '--model',
      '--base-url',
      '--concurrency',
      '--rerun',
      '--context-limit',
      '--warm-cache',
      '--ablation',
      '--no-full-trajectory',
      '--max-output-tokens',
      '--temperature',
      '--reasoning-effort',
    ]) {
      assert.ok(help.includes(option), `--help does not mention ${option}`);
    }
  });

  it('refuses a model method without a model or key, with exit 2', async () => {
    const { code, err } = await runCli(['audit', file, '--method', 'searchauditor']);
    assert.equal(code, 2);
    assert.match(err, /--model is required/);
  });
});
