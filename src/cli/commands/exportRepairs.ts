import { statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { collectRepairs, repairsAsJsonl, repairsAsMarkdown, resumePayload, writeResumePayloads } from '../../core/export/repairs';
import { writeFileAtomic } from '../../core/files/atomicWrite';
import { CliUsageError, oneFile, type CliIo } from '../io';
import type { CliCommand } from '../options';

const FORMATS = ['jsonl', 'md', 'resume'] as const;

/** `trajaudit export-repairs <file or folder> --format jsonl|md|resume [--out F] [--method M]` */
export function runExportRepairs(positionals: string[], values: Record<string, unknown>, io: CliIo): number {
  const path = oneFile(positionals);
  const format = (values.format ?? 'jsonl') as (typeof FORMATS)[number];
  if (!FORMATS.includes(format)) throw new CliUsageError(`--format must be one of ${FORMATS.join(', ')}`);
  const { sources, skipped } = collectRepairs(path, values.method as string | undefined);
  for (const s of skipped) io.err(`skipped: ${s}`);
  if (sources.length === 0) {
    const method = values.method ? ` by ${String(values.method)}` : '';
    const why = skipped.length ? `no record has an audit${method} with a repair` : 'no trajectory here has an audit sidecar (<file>.audit.json)';
    io.err(`${path}: nothing to export: ${why}; run trajaudit audit first`);
    return 1;
  }
  const out = values.out as string | undefined;
  if (format === 'resume') {
    const payloads = sources.map((s) => ({ source: s, ...resumePayload(s) }));
    if (out && payloads.length !== 1) {
      writeResumePayloads(sources, out, statSync(path).isDirectory() ? path : dirname(path));
      io.err(`${payloads.length} resume payload(s) written to ${out}`);
    } else if (out) {
      writeFileAtomic(out, `${JSON.stringify(payloads[0].payload, null, 2)}\n`);
      io.err(`resume payload written to ${out}`);
    } else {
      io.out(JSON.stringify(payloads.length === 1 ? payloads[0].payload : payloads.map((p) => p.payload), null, 2));
    }
  } else {
    const text = format === 'jsonl' ? repairsAsJsonl(sources) : repairsAsMarkdown(sources);
    if (out) {
      writeFileSync(out, text);
      io.err(`${sources.length} repair(s) written to ${out}`);
    } else io.out(text.trimEnd());
  }
  return sources.length === 0 ? 1 : 0;
}

export const exportRepairsCommand: CliCommand = {
  name: 'export-repairs',
  args: '<file or folder>',
  summary: 'Repair directives of the audited trajectories; resume = the source messages before the critical step plus the repair as a user message.',
  options: {
    format: { type: 'string', value: FORMATS.join('|'), help: 'output format (default jsonl)' },
    out: { type: 'string', value: 'F', help: 'write to this file (resume with several trajectories: this folder) instead of stdout' },
    method: { type: 'string', value: 'M', help: 'the newest audit of method M (default: the newest audit)' },
  },
  run: runExportRepairs,
};
