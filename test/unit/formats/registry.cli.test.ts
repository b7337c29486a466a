// `--format ID` on the commands that read trajectories: it forces a reader (detection skipped),
// the reader's own error when it cannot load, and an unknown id is a usage error listing the ids.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { COMMANDS } from '../../../src/cli/main';
import { readableFormats } from '../../../src/core/load/loadFile';
import { runCli } from '../helpers';

const repo = join(__dirname, '..', '..', '..');
const TONGYI = join(repo, 'samples', 'trajectories', 'tongyi', 'alpine-footbridge-span.traj.json');
const SAB = join(repo, 'samples', 'trajectories', 'searchauditbench', 'sab-0417-delta-novel.traj.json');

describe('--format ID', () => {
  it('is an option of every command that reads trajectories', () => {
    for (const name of ['inspect', 'outline', 'validate', 'audit', 'convert', 'score', 'harness run-agent', 'harness clarify']) {
      const command = COMMANDS.find((c) => c.name === name);
      assert.ok(command, `no command ${name}`);
      assert.equal(command.options.format?.value, 'ID', `${name} --format`);
    }
  });

  it('forces the reader: a Tongyi file read as OpenAI chat messages', async () => {
    const detected = JSON.parse((await runCli(['inspect', TONGYI, '--json'])).out) as { format: string; messages: number };
    assert.equal(detected.format, 'tongyi-react');
    const forced = await runCli(['inspect', TONGYI, '--json', '--format', 'openai-chat']);
    assert.equal(forced.code, 0, forced.err);
    const report = JSON.parse(forced.out) as { format: string; messages: number };
    assert.equal(report.format, 'openai-chat');
    assert.equal(report.messages, detected.messages, 'one message per source message, whichever reader');
  });

  it("gives the forced reader's own error when it cannot load, in one line", async () => {
    for (const args of [
      ['inspect', SAB, '--format', 'who-and-when'],
      ['outline', SAB, '--format', 'who-and-when'],
    ]) {
      const result = await runCli(args);
      assert.equal(result.code, 1, args.join(' '));
      assert.match(result.err, /sab-0417-delta-novel\.traj\.json:\d+:\d+: at \$\.history: .*Who&When/);
      assert.doesNotMatch(result.err, /\n/);
    }
    const validated = await runCli(['validate', SAB, '--format', 'who-and-when']);
    assert.equal(validated.code, 1);
    assert.match(validated.out + validated.err, /at \$\.history/);
  });

  it('an unknown id is a usage error (exit 2) that lists the ids', async () => {
    const result = await runCli(['inspect', SAB, '--format', 'open-ai']);
    assert.equal(result.code, 2);
    assert.match(result.err, /--format "open-ai" is not a trajectory format; the formats are /);
    for (const id of readableFormats()) assert.ok(result.err.includes(id), id);
  });
});
