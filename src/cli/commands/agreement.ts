// `trajaudit agreement <annotation files…> [--json] [--out report.md]`
//
// Multi-annotator human validation (seed 000): majority labels, confirmation and residual defect
// rates with exact (Clopper–Pearson) 95% intervals, raw agreement (not chance-corrected). The
// annotation file shape is documented in src/core/scoring/agreementInputs.ts and docs/metrics.md §6.
import { writeFileSync } from 'node:fs';
import { InputError } from '../../core/input/inputError';
import { scoreAgreement } from '../../core/scoring/agreement';
import { readAnnotationFiles } from '../../core/scoring/agreementInputs';
import { renderAgreementMarkdown, renderAgreementText, tidyJson } from '../../core/scoring/render';
import { CliUsageError, type CliIo } from '../io';
import { JSON_OPTION, type CliCommand } from '../options';

export function runAgreement(positionals: string[], values: Record<string, unknown>, io: CliIo): number {
  if (positionals.length === 0) throw new CliUsageError('missing <annotation file…>');
  const score = scoreAgreement(readAnnotationFiles(positionals));
  if (typeof values.out === 'string') {
    try {
      writeFileSync(values.out, renderAgreementMarkdown(score));
    } catch (error) {
      throw new InputError(values.out, `cannot write the report (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  if (values.json) io.out(JSON.stringify(tidyJson(score), null, 2));
  else io.out(renderAgreementText(score));
  return 0;
}

export const agreementCommand: CliCommand = {
  name: 'agreement',
  args: '<annotation files…>',
  summary: 'Multi-annotator agreement (human validation): majority labels, confirmation and residual defect rates with exact 95% intervals.',
  options: { ...JSON_OPTION, out: { type: 'string', value: 'FILE', help: 'also write a Markdown report' } },
  run: runAgreement,
};
