import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir, writeTemp } from '../helpers';

const root = resolve(__dirname, '..', '..', '..');
const sample = join(root, 'samples', 'trajectories', 'openai-chat', 'browsecomp-footballer-penalties.traj.json');

/**
 * Runs CLI invocations in a child process with a deadline: reading a FIFO blocks the whole
 * process (a synchronous open), so a hang must fail the test, not freeze the runner.
 */
function runAll(runs: string[][]): { args: string[]; code: number; lines: string[] }[] {
  const script = `
    const { main } = require(${JSON.stringify(join(root, 'src', 'cli', 'main'))});
    (async () => {
      const results = [];
      for (const args of ${JSON.stringify(runs)}) {
        const lines = [];
        const code = await main(args, { out: (s) => lines.push(s), err: (s) => lines.push(s) });
        results.push({ args, code, lines });
      }
      process.stdout.write(JSON.stringify(results));
    })();`;
  const child = spawnSync(process.execPath, ['-r', 'tsx/cjs', '-e', script], { cwd: root, timeout: 60_000, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(child.signal, null, `the CLI hung (killed by ${child.signal}); stderr: ${child.stderr}`);
  return JSON.parse(child.stdout) as { args: string[]; code: number; lines: string[] }[];
}

describe('only regular files are read: pipes, devices and folders get a clear message', function () {
  this.timeout(90_000);

  it('a named pipe or /dev/zero as the input, the sidecar or the manifest of inspect, validate, audit, score', function () {
    const dir = tempDir();
    const fifo = join(dir, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    const withPipeSidecar = join(dir, 'a.traj.json');
    copyFileSync(sample, withPipeSidecar);
    execFileSync('mkfifo', [`${withPipeSidecar}.audit.json`]);
    const withFolderSidecar = join(dir, 'b.traj.json');
    copyFileSync(sample, withFolderSidecar);
    mkdirSync(`${withFolderSidecar}.audit.json`);
    const run = join(dir, 'run');
    mkdirSync(run);
    execFileSync('mkfifo', [join(run, 'trajaudit.run.json')]);
    const devRun = join(dir, 'dev-run');
    mkdirSync(devRun);
    writeTemp(devRun, 'trajaudit.run.json', JSON.stringify({ kind: 'audit', gold: '/dev/zero', predictions: '/dev/zero' }));

    const cases: { args: string[]; expect: RegExp }[] = [
      ...['inspect', 'validate', 'outline'].map((command) => ({ args: [command, fifo], expect: /pipe\.json: not a regular file \(a named pipe\)/ })),
      { args: ['audit', fifo, '--method', 'heuristic'], expect: /pipe\.json: not a regular file \(a named pipe\)/ },
      { args: ['inspect', '/dev/zero'], expect: /^\/dev\/zero: not a regular file \(a character device\)/ },
      { args: ['validate', '/dev/zero'], expect: /^\/dev\/zero: not a regular file \(a character device\)/ },
      { args: ['audit', withPipeSidecar, '--method', 'heuristic'], expect: /a\.traj\.json\.audit\.json: not a regular file \(a named pipe\)/ },
      { args: ['validate', `${withPipeSidecar}.audit.json`], expect: /a\.traj\.json\.audit\.json: not a regular file \(a named pipe\)/ },
      { args: ['export-repairs', withPipeSidecar, '--format', 'md'], expect: /a\.traj\.json\.audit\.json: not a regular file \(a named pipe\)/ },
      { args: ['audit', withFolderSidecar, '--method', 'heuristic'], expect: /b\.traj\.json\.audit\.json: is a folder; expected a file/ },
      { args: ['export-repairs', withFolderSidecar, '--format', 'jsonl'], expect: /b\.traj\.json\.audit\.json: is a folder; expected a file/ },
      { args: ['score', run], expect: /trajaudit\.run\.json: not a regular file \(a named pipe\)/ },
      { args: ['score', devRun], expect: /^\/dev\/zero: not a regular file \(a character device\)/ },
    ];
    const results = runAll(cases.map((c) => c.args));
    results.forEach(({ args, code, lines }, i) => {
      const text = lines.join('\n');
      assert.equal(code, 1, `${args.join(' ')}: ${text}`);
      assert.ok(
        lines.some((line) => cases[i].expect.test(line)),
        `${args.join(' ')}: ${text}`,
      );
      assert.doesNotMatch(text, /internal error|EISDIR|unexpected problem/, args.join(' '));
    });
  });
});
