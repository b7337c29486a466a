import { InputError } from '../core/input/inputError';
import { redactSecrets, registerSecretsFromEnv } from '../core/secrets/redact';
import { agreementCommand } from './commands/agreement';
import { auditCommand } from './commands/audit';
import { collectionCommand } from './commands/collection';
import { compareCommand } from './commands/compare';
import { convertCommand } from './commands/convert';
import { exportRepairsCommand } from './commands/exportRepairs';
import { BUILD_COMMANDS } from './commands/build';
import { HARNESS_COMMANDS } from './commands/harness';
import { inspectCommand } from './commands/inspect';
import { outlineCommand } from './commands/outline';
import { resumeCommand } from './commands/resume';
import { scoreCommand } from './commands/score';
import { statsCommand } from './commands/stats';
import { studyCommand } from './commands/study';
import { validateCommand } from './commands/validate';
import { CliUsageError, type CliIo } from './io';
import { CliOptionError, commandUsage, parseCommandArgs, synopsis, wrap, type CliCommand } from './options';

/** Every command, in the order the usage text lists them; each parses only its own options. */
export const COMMANDS: readonly CliCommand[] = [
  inspectCommand,
  outlineCommand,
  validateCommand,
  scoreCommand,
  agreementCommand,
  auditCommand,
  exportRepairsCommand,
  convertCommand,
  statsCommand,
  collectionCommand,
  compareCommand,
  resumeCommand,
  studyCommand,
  ...HARNESS_COMMANDS,
  ...BUILD_COMMANDS,
];

const EXIT_CODES = 'Exit codes: 0 success, 1 bad input or failed check (message on stderr), 2 wrong usage.';

function commandEntry(command: CliCommand): string {
  return [...synopsis(command), ...wrap(command.summary.split(' '), 104, '').map((line) => `      ${line}`)].map((line) => `  ${line}`).join('\n');
}

/** The global usage, generated from the commands' option tables. */
export function globalUsage(): string {
  return [
    'trajaudit — audit failed deep-search agent trajectories',
    '',
    'Usage:',
    ...COMMANDS.map(commandEntry),
    '',
    '`trajaudit <command> --help` says what each option of the command does.',
    'API keys come from OPENAI_API_KEY / ANTHROPIC_API_KEY only, never from flags.',
    '',
    EXIT_CODES,
  ].join('\n');
}

/** `harness` and the like: the first word of commands named with two. */
function groupOf(word: string): CliCommand[] {
  return COMMANDS.filter((c) => c.name.startsWith(`${word} `));
}

function groupUsage(group: string, members: CliCommand[]): string {
  return [
    `Usage: trajaudit ${group} <${members.map((c) => c.name.slice(group.length + 1)).join('|')}> …`,
    '',
    ...members.map(commandEntry),
    '',
    EXIT_CODES,
  ].join('\n');
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h';

type Resolved = { command: CliCommand; args: string[] } | { exit: number };

/** Finds the command argv names, or prints the usage that fits and says how to exit. */
function resolveCommand(argv: string[], io: CliIo): Resolved {
  const [first, second, ...rest] = argv;
  const names = COMMANDS.map((c) => c.name).join(', ');
  if (first === undefined) {
    io.err(globalUsage());
    return { exit: 2 };
  }
  if (isHelp(first)) {
    io.out(globalUsage());
    return { exit: 0 };
  }
  if (first.startsWith('-')) {
    io.err(`trajaudit: the command comes first, got option ${first} (commands: ${names})`);
    return { exit: 2 };
  }
  const command = COMMANDS.find((c) => c.name === first);
  if (command) return { command, args: argv.slice(1) };
  const members = groupOf(first);
  if (members.length === 0) {
    io.err(`trajaudit: unknown command "${first}" (commands: ${names})`);
    return { exit: 2 };
  }
  if (second === undefined || isHelp(second)) {
    (second === undefined ? io.err : io.out)(groupUsage(first, members));
    return { exit: second === undefined ? 2 : 0 };
  }
  const member = members.find((c) => c.name === `${first} ${second}`);
  if (!member) {
    io.err(`trajaudit ${first}: unknown ${first} command "${second}" (commands: ${members.map((c) => c.name).join(', ')})`);
    return { exit: 2 };
  }
  return { command: member, args: rest };
}

export async function main(argv: string[], rawIo: CliIo): Promise<number> {
  // Every configured API key, in every form, is redacted from all the CLI prints.
  registerSecretsFromEnv();
  const io: CliIo = { out: (s) => rawIo.out(redactSecrets(s)), err: (s) => rawIo.err(redactSecrets(s)) };
  const resolved = resolveCommand(argv, io);
  if ('exit' in resolved) return resolved.exit;
  const { command, args } = resolved;
  try {
    const parsed = parseCommandArgs(command, args, COMMANDS);
    if (parsed.help) {
      io.out(commandUsage(command));
      return 0;
    }
    return await command.run(parsed.positionals, parsed.values, io);
  } catch (error) {
    if (error instanceof CliUsageError) {
      // Some commands' messages start with their own name already.
      const message = error.message.startsWith(`${command.name}: `) ? error.message.slice(command.name.length + 2) : error.message;
      io.err(`trajaudit ${command.name}: ${message}${error instanceof CliOptionError ? '' : ` (see trajaudit ${command.name} --help)`}`);
      return 2;
    }
    if (error instanceof InputError) {
      io.err(error.message);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(`trajaudit ${command.name}: internal error: ${message.split('\n')[0]} (set TRAJAUDIT_DEBUG=1 for details)`);
    if (process.env.TRAJAUDIT_DEBUG) io.err(String((error as Error).stack));
    return 1;
  }
}

if (require.main === module) {
  const io: CliIo = { out: (s) => process.stdout.write(`${s}\n`), err: (s) => process.stderr.write(`${s}\n`) };
  void main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
