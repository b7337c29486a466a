// Option tables of the `trajaudit` commands: each command module declares its own table (built
// from the shared groups below), and one strict parser turns a wrong, misplaced or incomplete flag
// into a one-line usage error that names the flag and lists the command's options.
import { parseArgs } from 'node:util';
import { readableFormats } from '../core/load/loadFile';
import type { ReasoningEffort } from '../core/providers/types';
import { CliUsageError, type CliIo } from './io';

/** One option: node:util parseArgs' settings plus what the usage text shows. */
export interface CliOption {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** The value's placeholder in usage text (string options), e.g. `ID`, `N`, `jsonl|md|resume`. */
  value?: string;
  /** One line for `trajaudit <command> --help`. */
  help: string;
  /** Shown without brackets in the usage line; the command checks it and says which values it takes. */
  required?: boolean;
}

export type OptionTable = Record<string, CliOption>;

export type CommandRun = (positionals: string[], values: Record<string, unknown>, io: CliIo) => number | Promise<number>;

export interface CliCommand {
  /** As typed after `trajaudit`: `inspect`, `harness delegation`. */
  name: string;
  /** The positional arguments as usage shows them, e.g. `<file>`. */
  args: string;
  summary: string;
  options: OptionTable;
  run: CommandRun;
}

// ---- Shared option groups (each defined once; commands spread the ones they read) ----

export const HELP_OPTION: OptionTable = { help: { type: 'boolean', short: 'h', help: "this command's usage" } };

export const JSON_OPTION: OptionTable = { json: { type: 'boolean', help: 'print exactly one JSON document on stdout' } };

export const RECORD_OPTION: OptionTable = {
  record: { type: 'string', value: 'ID', help: 'only the record with this id (JSONL files and JSON arrays hold several)' },
};

/** Read by `trajectoryFormatFrom` (io.ts): every command that reads trajectories takes it. */
export const TRAJECTORY_FORMAT_OPTION: OptionTable = {
  format: { type: 'string', value: 'ID', help: `read trajectories with this format's reader, skipping detection: ${readableFormats().join(', ')}` },
};

/** Read by `toolNamesFrom` (io.ts). */
export const TOOL_NAME_OPTIONS: OptionTable = {
  'search-names': { type: 'string', value: 'A,B', help: 'tool names counted as search calls (default: search)' },
  'visit-names': { type: 'string', value: 'A,B', help: 'tool names counted as visit calls (default: visit)' },
};

export const REASONING_EFFORTS: readonly ReasoningEffort[] = ['low', 'medium', 'high'];

/** Read by `modelSettingsFrom` (commands/auditWithModel.ts); keys come from the environment only. */
export const PROVIDER_OPTIONS: OptionTable = {
  provider: {
    type: 'string',
    value: 'openai|anthropic',
    help: 'model provider (default openai, or TRAJAUDIT_PROVIDER); key from OPENAI_API_KEY / ANTHROPIC_API_KEY',
  },
  model: { type: 'string', value: 'X', help: 'model name (or TRAJAUDIT_MODEL)' },
  'base-url': { type: 'string', value: 'U', help: 'an OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio) or a proxy (or TRAJAUDIT_BASE_URL)' },
  'max-output-tokens': { type: 'string', value: 'N', help: 'output token cap per model call' },
  temperature: { type: 'string', value: 'T', help: 'sampling temperature, 0..2 (OpenAI-compatible servers only)' },
  'reasoning-effort': { type: 'string', value: REASONING_EFFORTS.join('|'), help: 'reasoning effort for reasoning models' },
  'timeout-ms': { type: 'string', value: 'N', help: 'timeout of one model request in milliseconds (default 120000)' },
  'max-retries': { type: 'string', value: 'N', help: 'transport retries on 429/5xx/timeouts (default 3)' },
};

export function concurrencyOption(what: string, fallback: number): OptionTable {
  return { concurrency: { type: 'string', value: 'N', help: `${what} in parallel (default ${fallback})` } };
}

/** Read by the harness runners (commands/harnessCommon.ts: `--limit`, `reportSummary` for `--json`). */
export const HARNESS_RUN_OPTIONS: OptionTable = {
  limit: { type: 'string', value: 'N', help: 'only the first N items' },
  out: { type: 'string', value: 'DIR', help: 'the run folder (default trajaudit-runs/<kind>-<input name>); rerun to resume' },
  ...JSON_OPTION,
};

/** Read by `runBatchAudit` (commands/auditBatch.ts). */
export const BATCH_OPTIONS: OptionTable = {
  batch: {
    type: 'boolean',
    help: "through the provider's batch API (half price), stage by stage (a baseline: round by round) over every trajectory; rerun the same command to resume",
  },
  detach: { type: 'boolean', help: 'with --batch: submit the next stage or round (or poll once) and exit; rerun to collect and continue' },
  'poll-seconds': { type: 'string', value: 'N', help: 'with --batch: seconds between polls of a running batch (default 30)' },
};

/** Read by `pricingFlag` (commands/harnessCommon.ts). */
export const PRICE_OPTION: OptionTable = {
  price: { type: 'string', value: 'IN,CACHED,OUT', help: 'USD per million input, cached input and output tokens, for the cost line' },
};

// ---- Usage text ----

function optionWithValue(name: string, option: CliOption): string {
  return option.type === 'string' ? `--${name} ${option.value ?? 'VALUE'}` : `--${name}`;
}

function tableWithHelp(command: CliCommand): OptionTable {
  return { ...command.options, ...HELP_OPTION };
}

/** `--json, --record ID, …, -h/--help`: the one-line list a usage error ends with. */
export function optionList(command: CliCommand): string {
  return Object.entries(tableWithHelp(command))
    .map(([name, option]) => (option.short ? `-${option.short}/` : '') + optionWithValue(name, option) + (option.multiple ? ' …' : ''))
    .join(', ');
}

export function wrap(words: string[], width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** `trajaudit audit <file> --method M [--record ID] …`, wrapped; every option of the table appears. */
export function synopsis(command: CliCommand, width = 110, indent = '      '): string[] {
  const parts = Object.entries(command.options).map(([name, option]) => {
    const text = optionWithValue(name, option) + (option.multiple ? ' …' : '');
    return option.required ? text : `[${text}]`;
  });
  return wrap([`trajaudit ${command.name}`, ...(command.args ? [command.args] : []), ...parts], width, indent);
}

/** What `trajaudit <command> --help` prints. */
export function commandUsage(command: CliCommand): string {
  const entries = Object.entries(tableWithHelp(command)).map(([name, option]) => ({
    left: (option.short ? `-${option.short}, ` : '') + optionWithValue(name, option) + (option.multiple ? ' (repeatable)' : ''),
    help: option.help + (option.required ? ' (required)' : ''),
  }));
  const column = Math.min(34, Math.max(...entries.map((e) => e.left.length)) + 2);
  const rows = entries.map((e) => (e.left.length + 2 > column ? `  ${e.left}\n  ${' '.repeat(column)}${e.help}` : `  ${e.left.padEnd(column)}${e.help}`));
  return [`Usage: ${synopsis(command).join('\n')}`, '', command.summary, '', 'Options:', ...rows].join('\n');
}

// ---- Parsing ----

export interface ParsedCommandArgs {
  help: boolean;
  positionals: string[];
  values: Record<string, unknown>;
}

/** A usage error about a flag itself; its message already lists the command's options. */
export class CliOptionError extends CliUsageError {}

function flagError(command: CliCommand, message: string): CliOptionError {
  return new CliOptionError(`${message} (options: ${optionList(command)})`);
}

/**
 * Parses a command's arguments against its own table only (node:util parseArgs, strict). Throws a
 * CliUsageError naming the flag for an unknown flag, a flag of another command, a string option
 * without a value and a boolean option given one.
 */
export function parseCommandArgs(command: CliCommand, args: string[], allCommands: readonly CliCommand[]): ParsedCommandArgs {
  const table = tableWithHelp(command);
  const config = Object.fromEntries(
    Object.entries(table).map(([name, option]) => [
      name,
      { type: option.type, ...(option.multiple ? { multiple: true } : {}), ...(option.short ? { short: option.short } : {}) },
    ]),
  );
  // A lenient pass first: its tokens let the error name the flag and say what was wrong with it.
  const { tokens } = parseArgs({ args, options: config, strict: false, allowPositionals: true, tokens: true });
  if (tokens.some((t) => t.kind === 'option' && t.name === 'help' && t.value === undefined)) return { help: true, positionals: [], values: {} };
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = table[token.name];
    if (!option) {
      const owners = allCommands.filter((c) => c !== command && token.rawName.startsWith('--') && c.options[token.name]).map((c) => c.name);
      throw flagError(
        command,
        owners.length ? `option ${token.rawName} belongs to ${owners.join(', ')}, not to ${command.name}` : `unknown option ${token.rawName}`,
      );
    }
    if (option.type === 'boolean' && token.value !== undefined) throw flagError(command, `option ${token.rawName} takes no value, got "${token.value}"`);
    if (option.type === 'string') {
      if (token.value === undefined) throw flagError(command, `option ${token.rawName} needs a value ${option.value ?? ''}`.trimEnd());
      if (!token.inlineValue && token.value.startsWith('-')) {
        throw flagError(
          command,
          `option ${token.rawName} needs a value ${option.value ?? ''}, got "${token.value}" (write ${token.rawName}=${token.value} for a value that starts with "-")`,
        );
      }
    }
  }
  try {
    const parsed = parseArgs({ args, options: config, strict: true, allowPositionals: true });
    return { help: false, positionals: parsed.positionals, values: { ...parsed.values } };
  } catch (error) {
    // Everything strict mode rejects is caught above; this keeps any other case a usage error.
    throw flagError(command, (error as Error).message.split('\n')[0]);
  }
}
