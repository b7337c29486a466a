// `trajaudit score <folder> [--json] [--out report.md] [--method M] [--partial X]
//                  [--judge exact|llm] [--provider P --model X --base-url U] [--concurrency N]`
//
// Scores a run folder (docs/run-folders.md). Without --model it runs offline: deterministic judges and
// cached verdicts only. With --model the LLM judges are available (rubric grader, nugget coverage,
// scenario criteria; `--judge llm` for DeepSearchQA/Delegation answers) and their verdicts are
// appended to the run's judgments.jsonl. `--json` prints exactly the docs/cli.md §4 keys of the
// kind on stdout; how the kind was detected, the judge/cache summary and notes go to stderr.
// Exit 1 when the input is bad or the scenario gate fails.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backboneStability, readStabilityLines, type BackboneStability } from '../../core/scoring/backboneStability';
import { InputError } from '../../core/input/inputError';
import { createModelClient } from '../../core/providers/factory';
import { structuredModelFromClient } from '../../core/scoring/judges/providerModel';
import { detectionLine, judgingLine, renderMarkdown, renderText, scoreJson } from '../../core/scoring/render';
import { scoreRunFolder, scoreRunFolderSync, type RunScoreResult, type ScoreOptions } from '../../core/scoring/scoreRunFolder';
import { CliUsageError, trajectoryFormatFrom, type CliIo } from '../io';
import { JSON_OPTION, PROVIDER_OPTIONS, TRAJECTORY_FORMAT_OPTION, concurrencyOption, type CliCommand } from '../options';
import { modelSettingsFrom } from './auditWithModel';

function optionsFrom(positionals: string[], values: Record<string, unknown>): { folder: string; options: ScoreOptions } {
  if (positionals.length !== 1) throw new CliUsageError(positionals.length ? 'expects exactly one run folder' : 'missing <folder>');
  const options: ScoreOptions = {};
  if (typeof values.method === 'string') {
    if (!values.method.trim()) throw new CliUsageError('--method needs a method name');
    options.method = values.method.trim();
  }
  if (typeof values.partial === 'string') {
    const x = Number(values.partial);
    if (!Number.isFinite(x) || x < 0 || x > 1) throw new CliUsageError(`--partial expects a number between 0 and 1, got "${values.partial}"`);
    options.partialCredit = x;
  }
  if (values.judge !== undefined) {
    if (values.judge !== 'exact' && values.judge !== 'llm') throw new CliUsageError('--judge must be exact or llm');
    if (values.judge === 'llm' && values.model === undefined) throw new CliUsageError('--judge llm needs --model (and --provider / --base-url as for audit)');
    options.judge = values.judge;
  }
  if (values.concurrency !== undefined) {
    const n = Number(values.concurrency);
    if (!Number.isInteger(n) || n < 1) throw new CliUsageError('--concurrency expects a positive whole number');
    options.concurrency = n;
  }
  const format = trajectoryFormatFrom(values);
  if (format) options.format = format;
  return { folder: positionals[0], options };
}

/**
 * `--backbone DIR`: a second clarify run of the same instances with other User Answerer / Rewriter
 * backbones; its clarifications are compared with this run's (seed 004 Table 11).
 */
function backboneFrom(result: RunScoreResult, values: Record<string, unknown>): BackboneStability | undefined {
  if (typeof values.backbone !== 'string') return undefined;
  if (result.score.kind !== 'nuggets') throw new CliUsageError(`--backbone compares two clarify runs (nuggets kind); this run is ${result.score.kind}`);
  const ours = result.detection.files.clarifications ?? join(result.detection.folder, 'clarifications.jsonl');
  return backboneStability(readStabilityLines(ours), readStabilityLines(join(values.backbone, 'clarifications.jsonl')));
}

function report(result: RunScoreResult, values: Record<string, unknown>, io: CliIo): number {
  const stability = backboneFrom(result, values);
  if (typeof values.out === 'string') {
    try {
      writeFileSync(values.out, renderMarkdown(result));
    } catch (error) {
      throw new InputError(values.out, `cannot write the report (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  if (values.json) {
    io.err(`trajaudit score: ${detectionLine(result)}; ${judgingLine(result)}`);
    for (const note of result.notes) io.err(`trajaudit score: note: ${note}`);
    io.out(JSON.stringify({ ...scoreJson(result), ...(stability ? { backbone_stability: stability } : {}) }, null, 2));
  } else {
    io.out(renderText(result));
    if (stability) io.out(`\nbackbone stability against ${String(values.backbone)}: ${JSON.stringify(stability)}`);
  }
  if (typeof values.out === 'string' && !values.json) io.out(`\nreport written to ${values.out}`);
  if (result.score.kind === 'scenarios' && !result.score.gate.passed) {
    io.err(`trajaudit score: gate failed: ${result.score.gate.reasons.join('; ')}`);
    return 1;
  }
  return 0;
}

export async function runScore(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  const { folder, options } = optionsFrom(positionals, values);
  if (values.model === undefined && values.provider === undefined) {
    // Offline: deterministic judges and cached verdicts only.
    return report(scoreRunFolderSync(folder, options), values, io);
  }
  const settings = modelSettingsFrom(values);
  const model = structuredModelFromClient(createModelClient(settings), { maxOutputTokens: settings.maxOutputTokens });
  return report(await scoreRunFolder(folder, { ...options, model }), values, io);
}

export const scoreCommand: CliCommand = {
  name: 'score',
  args: '<folder>',
  summary: 'Scores a run folder (kind from trajaudit.run.json or detected). Offline without --model/--provider: deterministic judges and cached verdicts only.',
  options: {
    ...JSON_OPTION,
    out: { type: 'string', value: 'report.md', help: 'also write a Markdown report' },
    method: { type: 'string', value: 'M', help: 'audit runs: the newest audit of method M (default: the newest audit)' },
    partial: { type: 'string', value: 'X', help: 'nuggets: credit of a partial nugget, 0..1 (default 0.5)' },
    judge: { type: 'string', value: 'exact|llm', help: 'answer judge for deepsearchqa/delegation (default exact; llm needs --model)' },
    ...TRAJECTORY_FORMAT_OPTION,
    backbone: {
      type: 'string',
      value: 'DIR',
      help: 'nuggets: another clarify run of the same instances (other --answerer/--rewriter); adds backbone_stability',
    },
    ...PROVIDER_OPTIONS,
    ...concurrencyOption('model judgments', 4),
  },
  run: runScore,
};
