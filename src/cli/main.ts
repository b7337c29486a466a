import { parseArgs } from 'node:util';
import { InputError } from '../core/input/inputError';
import { runAuditCommand } from './commands/audit';
import { runExportRepairs } from './commands/exportRepairs';
import { HARNESS_USAGE, runHarness } from './commands/harness';
import { runAgreement } from './commands/agreement';
import { runInspect } from './commands/inspect';
import { runOutline } from './commands/outline';
import { runScore } from './commands/score';
import { runValidate } from './commands/validate';
import { CliUsageError, type CliIo } from './io';

const USAGE = `trajaudit — audit failed deep-search agent trajectories

Usage:
  trajaudit inspect <file> [--json] [--record ID]     format, counts and statistics
  trajaudit outline <file> [--json] [--record ID]     the decision-step outline O(τ)
  trajaudit validate <file or folder…> [--json]       schema check: one line per problem
  trajaudit score <folder> [--json] [--out report.md] [--method M] [--partial X]
                  [--judge exact|llm] [--provider P --model X --base-url U] [--concurrency N]
                                                      score a run folder (kind from trajaudit.run.json or detected)
  trajaudit agreement <annotation files…> [--json] [--out report.md]
                                                      multi-annotator agreement (human validation)
  trajaudit audit <file> --method M [--record ID] [--provider P --model X --base-url U]
                  [--concurrency N] [--rerun] [--json] [--context-limit N] [--warm-cache]
                  [--ablation full|3x-holistic|no-forward|no-backward|vote|no-outline-windows]
                  [--no-full-trajectory] [--max-output-tokens N] [--temperature T] [--reasoning-effort E]
                                                      methods: searchauditor, all-at-once, step-by-step,
                                                      binary-search, heuristic (offline, no model)
  trajaudit export-repairs <file or folder> --format jsonl|md|resume [--out F] [--method M]
                                                      repair directives; resume = the prefix before the
                                                      critical step + the repair as a user message
${HARNESS_USAGE}

Options:
  --search-names a,b   tool names counted as search calls (default: search)
  --visit-names a,b    tool names counted as visit calls (default: visit)
  --method M           score: the newest audit of method M (default: the newest audit)
  --out FILE           score, agreement: also write a Markdown report
  --partial X          score (nuggets): credit of a partial nugget, 0..1 (default 0.5)
  --judge exact|llm    score: answer judge for deepsearchqa/delegation (default exact; llm needs --model)
  --help               this text

Exit codes: 0 success, 1 bad input or failed check (message on stderr), 2 wrong usage.`;

type Command = (positionals: string[], values: Record<string, unknown>, io: CliIo) => number | Promise<number>;

const COMMANDS: Record<string, Command> = {
  audit: runAuditCommand,
  'export-repairs': runExportRepairs,
  inspect: runInspect,
  outline: runOutline,
  validate: runValidate,
  score: runScore,
  agreement: runAgreement,
  harness: runHarness,
};

export async function main(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        record: { type: 'string' },
        'search-names': { type: 'string' },
        'visit-names': { type: 'string' },
        method: { type: 'string' },
        provider: { type: 'string' },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        concurrency: { type: 'string' },
        'context-limit': { type: 'string' },
        'max-output-tokens': { type: 'string' },
        temperature: { type: 'string' },
        'reasoning-effort': { type: 'string' },
        ablation: { type: 'string' },
        'no-full-trajectory': { type: 'boolean' },
        'warm-cache': { type: 'boolean' },
        rerun: { type: 'boolean' },
        'timeout-ms': { type: 'string' },
        'max-retries': { type: 'string' },
        out: { type: 'string' },
        format: { type: 'string' },
        partial: { type: 'string' },
        judge: { type: 'string' },
        // harness (delegation, stage-c, clarify, run-agent)
        setting: { type: 'string' },
        order: { type: 'string' },
        k: { type: 'string' },
        budget: { type: 'string' },
        withhold: { type: 'string' },
        seed: { type: 'string' },
        'doc-ids': { type: 'string' },
        'dry-run': { type: 'boolean' },
        limit: { type: 'string' },
        price: { type: 'string' },
        verifier: { type: 'string', multiple: true },
        verifiers: { type: 'string' },
        views: { type: 'string' },
        aggregate: { type: 'string' },
        'precheck-only': { type: 'boolean' },
        report: { type: 'string' },
        command: { type: 'string' },
        'query-field': { type: 'string' },
        condition: { type: 'string' },
        timeout: { type: 'string' },
        answerer: { type: 'string' },
        rewriter: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.err(`trajaudit: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || !command) {
    (command || parsed.values.help ? io.out : io.err)(USAGE);
    return parsed.values.help ? 0 : 2;
  }
  const run = COMMANDS[command];
  if (!run) {
    io.err(`trajaudit: unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  try {
    return await run(rest, parsed.values, io);
  } catch (error) {
    if (error instanceof CliUsageError) {
      io.err(`trajaudit ${command}: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof InputError) {
      io.err(error.message);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(`trajaudit ${command}: internal error: ${message.split('\n')[0]} (set TRAJAUDIT_DEBUG=1 for details)`);
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
