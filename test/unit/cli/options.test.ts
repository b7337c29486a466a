// Each command parses only its own option table: a flag of another command, an unknown flag, a
// missing value or a value given to a switch is a one-line usage error (exit 2) naming the flag and
// listing the command's options; `<command> --help` prints that command's usage.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, globalUsage } from '../../../src/cli/main';
import { commandUsage, optionList, parseCommandArgs, type CliCommand } from '../../../src/cli/options';
import { runCli, tempDir } from '../helpers';

const repo = join(__dirname, '../../..');
const TRAJECTORY = join(repo, 'samples/trajectories/tongyi/alpine-footbridge-span.traj.json');
const DELEGATION_ITEMS = join(repo, 'samples/items/delegation');
const FAKE_AGENT = join(repo, 'test/fixtures/harness/fake-agent.mjs');

/** The words after `trajaudit` that select the command. */
const words = (command: CliCommand) => command.name.split(' ');
const byName = (name: string) => COMMANDS.find((c) => c.name === name)!;

/** A flag some other command takes and this one does not. */
function foreignFlag(command: CliCommand): { flag: string; owner: string } {
  for (const other of COMMANDS) {
    const flag = Object.keys(other.options).find((name) => !(name in command.options));
    if (other !== command && flag) return { flag, owner: other.name };
  }
  throw new Error(`every flag of every command is a flag of ${command.name}`);
}

function assertUsageLine(result: { code: number; out: string; err: string }, command: CliCommand, mentions: RegExp): void {
  assert.equal(result.code, 2, result.err);
  assert.equal(result.out, '');
  assert.equal(result.err.split('\n').length, 1, `one line, got:\n${result.err}`);
  assert.ok(result.err.startsWith(`trajaudit ${command.name}: `), result.err);
  assert.match(result.err, mentions);
  assert.ok(result.err.endsWith(`(options: ${optionList(command)})`), result.err);
  for (const name of Object.keys(command.options)) assert.ok(result.err.includes(`--${name}`), `the error lists --${name}: ${result.err}`);
  assert.doesNotMatch(result.err, /\n\s+at |internal error/);
}

describe('CLI option tables', function () {
  this.timeout(60_000);

  it('covers every command and harness subcommand', () => {
    assert.deepEqual(
      COMMANDS.map((c) => c.name),
      [
        'inspect',
        'outline',
        'validate',
        'score',
        'agreement',
        'audit',
        'export-repairs',
        'convert',
        'stats',
        'collection',
        'compare',
        'resume',
        'study',
        'harness delegation',
        'harness stage-c',
        'harness clarify',
        'harness run-agent',
        'build items',
        'build distractors',
        'build release',
        'build nuggets',
      ],
    );
  });

  for (const command of COMMANDS) {
    describe(command.name, () => {
      it('rejects a flag of another command with exit 2, naming the flag and its command', async () => {
        const { flag, owner } = foreignFlag(command);
        const result = await runCli([...words(command), 'input', `--${flag}`, 'x']);
        assertUsageLine(result, command, new RegExp(`option --${flag} belongs to .*${owner}.*, not to ${command.name}`));
      });

      it('rejects an unknown flag and a short flag it does not have', async () => {
        assertUsageLine(await runCli([...words(command), 'input', '--frobnicate']), command, /unknown option --frobnicate /);
        assertUsageLine(await runCli([...words(command), '-x', 'input']), command, /unknown option -x /);
      });

      it('rejects a value option without its value, and a switch given a value', async () => {
        const valueName = Object.keys(command.options).find((name) => command.options[name].type === 'string');
        if (valueName) {
          assertUsageLine(await runCli([...words(command), 'input', `--${valueName}`]), command, new RegExp(`option --${valueName} needs a value`));
          // The next flag is not taken as the value (write --x=-y for a value that starts with "-").
          assertUsageLine(
            await runCli([...words(command), 'input', `--${valueName}`, '--help']),
            command,
            new RegExp(`option --${valueName} needs a value .*got "--help"`),
          );
        }
        const [switchName] = Object.entries(command.options).find(([, o]) => o.type === 'boolean') ?? ['help'];
        assertUsageLine(
          await runCli([...words(command), 'input', `--${switchName}=yes`]),
          command,
          new RegExp(`option --${switchName} takes no value, got "yes"`),
        );
      });

      it('--help and -h print its usage with every option, exit 0', async () => {
        for (const help of ['--help', '-h']) {
          const result = await runCli([...words(command), help]);
          assert.equal(result.code, 0, result.err);
          assert.equal(result.err, '');
          assert.equal(result.out, commandUsage(command));
          assert.ok(result.out.startsWith(`Usage: trajaudit ${command.name} ${command.args}`), result.out);
          for (const [name, option] of Object.entries(command.options)) {
            assert.ok(result.out.includes(`--${name}`), `--help shows --${name}`);
            assert.ok(result.out.includes(option.help), `--help explains --${name}`);
          }
        }
      });

      it('parses an invocation that gives every one of its options', () => {
        const args = ['input'];
        for (const [name, option] of Object.entries(command.options)) {
          if (option.type === 'boolean') args.push(`--${name}`);
          else args.push(`--${name}`, `value-of-${name}`, ...(option.multiple ? [`--${name}`, 'second'] : []));
        }
        const parsed = parseCommandArgs(command, args, COMMANDS);
        assert.equal(parsed.help, false);
        assert.deepEqual(parsed.positionals, ['input']);
        for (const [name, option] of Object.entries(command.options)) {
          const expected = option.type === 'boolean' ? true : option.multiple ? [`value-of-${name}`, 'second'] : `value-of-${name}`;
          assert.deepEqual(parsed.values[name], expected, `--${name}`);
        }
        assert.deepEqual(Object.keys(parsed.values).sort(), Object.keys(command.options).sort());
      });
    });
  }

  it('reproduces the issue: inspect --budget 5 --judge llm is refused, not ignored', async () => {
    const result = await runCli(['inspect', TRAJECTORY, '--budget', '5', '--judge', 'llm']);
    assertUsageLine(result, byName('inspect'), /option --budget belongs to harness delegation, not to inspect/);
  });

  it('a value that starts with "-" can still be given as --flag=value', () => {
    const parsed = parseCommandArgs(byName('harness delegation'), ['items', '--seed=-5', '--setting', 'full'], COMMANDS);
    assert.equal(parsed.values.seed, '-5');
    const verifiers = parseCommandArgs(byName('harness stage-c'), ['items', '--verifier', 'openai:a', '--verifier=openai:b'], COMMANDS);
    assert.deepEqual(verifiers.values.verifier, ['openai:a', 'openai:b']);
  });

  it('an option value error from a command is one line pointing at the command help', async () => {
    // A copy: the audit writes its sidecar beside the trajectory, and samples/ is never written.
    const copy = join(tempDir(), 'case.traj.json');
    copyFileSync(TRAJECTORY, copy);
    const result = await runCli(['audit', copy, '--method', 'heuristic', '--concurrency', 'many']);
    assert.equal(result.code, 0, 'the heuristic method reads no --concurrency');
    const model = await runCli([
      'audit',
      TRAJECTORY,
      '--method',
      'searchauditor',
      '--model',
      'm',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--temperature',
      'warm',
    ]);
    assert.equal(model.code, 2);
    assert.equal(model.err, 'trajaudit audit: --temperature expects a number from 0 to 2, got "warm" (see trajaudit audit --help)');
    const effort = await runCli([
      'score',
      join(repo, 'samples/runs/audit-gold-pred'),
      '--model',
      'm',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--reasoning-effort',
      'max',
    ]);
    assert.equal(effort.code, 2);
    assert.equal(effort.err, 'trajaudit score: --reasoning-effort must be low, medium, high, got "max" (see trajaudit score --help)');
    const setting = await runCli(['harness', 'delegation', DELEGATION_ITEMS, '--setting', 'both']);
    assert.equal(
      setting.err,
      'trajaudit harness delegation: --setting must be full (setting I) or search (setting II) (see trajaudit harness delegation --help)',
    );
  });
});

describe('CLI commands and usage', function () {
  this.timeout(60_000);

  it('an unknown command exits 2 with the list of commands; a missing one prints the usage', async () => {
    const unknown = await runCli(['frobnicate', 'x']);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.err, `trajaudit: unknown command "frobnicate" (commands: ${COMMANDS.map((c) => c.name).join(', ')})`);
    const none = await runCli([]);
    assert.equal(none.code, 2);
    assert.equal(none.err, globalUsage());
    const optionFirst = await runCli(['--json', 'inspect', TRAJECTORY]);
    assert.equal(optionFirst.code, 2);
    assert.match(optionFirst.err, /^trajaudit: the command comes first, got option --json \(commands: inspect, /);
  });

  it('harness without a subcommand, with an unknown one, and harness --help', async () => {
    const bare = await runCli(['harness']);
    assert.equal(bare.code, 2);
    assert.match(bare.err, /^Usage: trajaudit harness <delegation\|stage-c\|clarify\|run-agent> …/);
    const unknown = await runCli(['harness', 'replay', 'x']);
    assert.equal(unknown.code, 2);
    assert.equal(
      unknown.err,
      'trajaudit harness: unknown harness command "replay" (commands: harness delegation, harness stage-c, harness clarify, harness run-agent)',
    );
    const help = await runCli(['harness', '--help']);
    assert.equal(help.code, 0);
    for (const name of ['delegation', 'stage-c', 'clarify', 'run-agent']) assert.match(help.out, new RegExp(`trajaudit harness ${name} <`));
  });

  it('--help lists every command with every option of its table', async () => {
    const { code, out } = await runCli(['--help']);
    assert.equal(code, 0);
    assert.equal(out, globalUsage());
    for (const command of COMMANDS) {
      const entry = out.slice(out.indexOf(`trajaudit ${command.name} ${command.args}`));
      const next = COMMANDS[COMMANDS.indexOf(command) + 1];
      const text = next ? entry.slice(0, entry.indexOf(`trajaudit ${next.name} `)) : entry;
      for (const name of Object.keys(command.options)) assert.match(text, new RegExp(`--${name}\\b`), `${command.name}: --${name}`);
    }
  });

  it("every flag the README documents for a command is in that command's table", () => {
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
    const invocations: string[] = [];
    for (const line of blocks.join('\n').split('\n')) {
      const text = line.replace(/\s+#.*$/, '');
      if (/^(node dist\/cli\.js|trajaudit) /.test(text)) invocations.push(text.replace(/^node dist\/cli\.js /, 'trajaudit '));
      else if (/^\s+[[-]/.test(text) && invocations.length) invocations[invocations.length - 1] += ` ${text.trim()}`;
    }
    const auditOptions = /`audit` options:([\s\S]*?)\n\n/.exec(readme);
    assert.ok(auditOptions, 'the README lists the audit options');
    invocations.push(`trajaudit audit ${auditOptions[1]}`);
    assert.ok(invocations.length >= 12, `found ${invocations.length} invocations`);
    for (const invocation of invocations) {
      const [, first, second] = invocation.split(/\s+/);
      const command = COMMANDS.find((c) => c.name === first) ?? COMMANDS.find((c) => c.name === `${first} ${second}`);
      assert.ok(command, `README documents an unknown command: ${invocation}`);
      for (const [flag] of invocation.matchAll(/--[a-z][a-z-]*/g))
        assert.ok(flag.slice(2) in command.options, `README: ${command.name} ${flag} (${invocation})`);
    }
  });
});

describe('CLI valid invocations still run', function () {
  this.timeout(120_000);

  const run = async (args: string[]) => {
    const result = await runCli(args);
    assert.notEqual(result.code, 2, `${args.join(' ')}: ${result.err}`);
    return result;
  };

  it('inspect, outline, validate with their flags', async () => {
    const inspect = await run(['inspect', TRAJECTORY, '--json', '--record', '0', '--search-names', 'search', '--visit-names', 'visit']);
    assert.equal(inspect.code, 0, inspect.err);
    assert.equal(JSON.parse(inspect.out).format, 'tongyi-react');
    const outline = await run(['outline', TRAJECTORY, '--json']);
    assert.equal(outline.code, 0, outline.err);
    assert.ok(Array.isArray(JSON.parse(outline.out).entries));
    const validate = await run(['validate', TRAJECTORY, '--json']);
    assert.equal(validate.code, 0, validate.err);
    assert.equal(JSON.parse(validate.out).errors, 0);
  });

  it('audit --method heuristic, then export-repairs and score of the result', async () => {
    const dir = tempDir();
    const file = join(dir, 'case.traj.json');
    copyFileSync(TRAJECTORY, file);
    const audit = await run(['audit', file, '--method', 'heuristic', '--json', '--rerun', '--search-names', 'search']);
    assert.equal(audit.code, 0, audit.err);
    assert.equal(JSON.parse(audit.out)[0].audit.method, 'heuristic');
    const repairs = await run(['export-repairs', file, '--format', 'jsonl', '--method', 'heuristic', '--out', join(dir, 'repairs.jsonl')]);
    assert.equal(repairs.code, 0, repairs.err);
    const score = await run(['score', join(repo, 'samples/runs/audit-gold-pred'), '--json', '--out', join(dir, 'report.md')]);
    assert.equal(score.code, 0, score.err);
    assert.equal(JSON.parse(score.out).kind, 'audit');
  });

  it('agreement with --json and --out', async () => {
    const dir = tempDir();
    const result = await run(['agreement', join(repo, 'test/fixtures/scoring/agreement-example.jsonl'), '--json', '--out', join(dir, 'agreement.md')]);
    assert.equal(result.code, 0, result.err);
    assert.equal(JSON.parse(result.out).kind, 'agreement');
  });

  it('harness delegation --dry-run and stage-c --precheck-only', async () => {
    const delegation = await run([
      'harness',
      'delegation',
      DELEGATION_ITEMS,
      '--setting',
      'search',
      '--k',
      '2',
      '--budget',
      '3',
      '--withhold',
      '1',
      '--seed',
      '7',
      '--doc-ids',
      'original',
      '--limit',
      '1',
      '--dry-run',
      '--json',
    ]);
    assert.equal(delegation.code, 0, delegation.err);
    assert.equal(JSON.parse(delegation.out).length, 1);
    const stageC = await run(['harness', 'stage-c', DELEGATION_ITEMS, '--precheck-only', '--json', '--report', join(tempDir(), 'stage-c.md')]);
    assert.ok(Array.isArray(JSON.parse(stageC.out)), stageC.err);
  });

  it('harness run-agent and clarify get past their options', async () => {
    const out = join(tempDir(), 'agent');
    const agent = await run([
      'harness',
      'run-agent',
      join(repo, 'samples/items/deepsearchqa/deepsearchqa-sample.csv'),
      '--command',
      `node ${FAKE_AGENT} --query {query} --out-answer {out_answer}`,
      '--condition',
      'plain',
      '--timeout',
      '60',
      '--concurrency',
      '1',
      '--limit',
      '1',
      '--out',
      out,
      '--json',
    ]);
    assert.equal(agent.code, 0, agent.err);
    assert.equal(JSON.parse(agent.out).completed, 1);
    // Not Clarify instances: a bad-input error (exit 1) once every option was accepted.
    const clarify = await run([
      'harness',
      'clarify',
      TRAJECTORY,
      '--command',
      'true',
      '--k',
      '1,2',
      '--answerer',
      'openai:a',
      '--rewriter',
      'openai:b',
      '--out',
      join(tempDir(), 'c'),
    ]);
    assert.equal(clarify.code, 1, clarify.err);
    assert.match(clarify.err, /expected Clarify-Then-Search instances/);
  });
});
