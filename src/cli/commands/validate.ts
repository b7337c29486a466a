import { readdirSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { BATCH_JOBS_DIR } from '../../core/audit/batch/folderBatch';
import { problemLine, type Problem } from '../../core/input/inputError';
import { validateFile } from '../../core/inspect/validate';
import { acceptAnnotationContent, sidecarPathOf } from '../../core/sidecar/acceptContent';
import { CliUsageError, reportProblems, trajectoryFormatFrom, type CliIo } from '../io';
import { JSON_OPTION, TRAJECTORY_FORMAT_OPTION, type CliCommand } from '../options';

const VALIDATABLE = /\.(json|jsonl|csv)$/i;

/** Files to check: the given files, and the JSON/JSONL/CSV files under given folders. */
function expand(paths: string[]): string[] {
  const out: string[] = [];
  for (const path of paths) {
    let isDir = false;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      out.push(path); // reported as unreadable by validateFile
      continue;
    }
    if (!isDir) {
      out.push(path);
      continue;
    }
    for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) {
      const full = join(entry.parentPath, entry.name);
      // Batch audit jobs (`.trajaudit-batch/`) hold state files, not trajectories.
      if (entry.isFile() && VALIDATABLE.test(entry.name) && !full.includes('node_modules') && !full.split(sep).includes(BATCH_JOBS_DIR)) out.push(full);
    }
  }
  return out.sort();
}

export function runValidate(positionals: string[], values: Record<string, unknown>, io: CliIo): number {
  if (positionals.length === 0) throw new CliUsageError('missing <file…>');
  const files = expand(positionals);
  // Files of one run folder are checked together: a problem of one file can surface while
  // checking its sibling. Report each finding once, under the file it names.
  const seen = new Set<string>();
  const format = trajectoryFormatFrom(values);
  const surfaced = files.map((file) => validateFile(file, file, { format }).filter((p) => !seen.has(problemLine(p)) && seen.add(problemLine(p))));
  const all = surfaced.flat();
  const listed = new Set(files.map((file) => resolve(file)));
  const owner = (p: Problem, surfacedBy: string) => (listed.has(resolve(p.file)) ? resolve(p.file) : resolve(surfacedBy));
  const byFile = new Map<string, Problem[]>();
  files.forEach((file, i) => {
    for (const p of surfaced[i]) {
      const key = owner(p, file);
      byFile.set(key, [...(byFile.get(key) ?? []), p]);
    }
  });
  if (!values.json) {
    for (const file of files) {
      const problems = byFile.get(resolve(file)) ?? [];
      if (problems.length === 0) io.out(`${file}: ok`);
      reportProblems(problems, io);
    }
  }
  const errors = all.filter((p) => p.severity === 'error').length;
  if (values.json)
    io.out(JSON.stringify({ files: files.length, errors, warnings: all.length - errors, problems: all.map((p) => ({ ...p, text: problemLine(p) })) }, null, 2));
  else io.err(`${files.length} file(s) checked: ${errors} error(s), ${all.length - errors} warning(s)`);
  return errors > 0 ? 1 : 0;
}

/**
 * `--accept-content`: a person confirms that the annotations of the given sidecars (or of the
 * given trajectories' sidecars) hold for the trajectories as they are now. Refused for a sidecar
 * with errors (an annotation step that is no decision step of the new content, say).
 */
async function runAcceptContent(positionals: string[], io: CliIo): Promise<number> {
  if (positionals.length === 0) throw new CliUsageError('missing <file…>');
  let code = 0;
  for (const path of positionals) {
    const sidecarPath = sidecarPathOf(path);
    const problems = validateFile(sidecarPath);
    const errors = problems.filter((p) => p.severity === 'error');
    if (errors.length) {
      reportProblems(errors, io);
      io.err(`${sidecarPath}: not accepted — fix the error(s) above first`);
      code = 1;
      continue;
    }
    const { accepted, trajectory, sha256 } = await acceptAnnotationContent(sidecarPath);
    io.out(`${sidecarPath}: ${accepted} annotation(s) confirmed for ${trajectory} as it is now (sha256 ${sha256.slice(0, 12)}…)`);
  }
  return code;
}

export const validateCommand: CliCommand = {
  name: 'validate',
  args: '<file or folder…>',
  summary: 'Schema check of trajectories, benchmark items, sidecars and run folders: one line per problem, file:line:column: message.',
  options: {
    ...JSON_OPTION,
    ...TRAJECTORY_FORMAT_OPTION,
    'accept-content': {
      type: 'boolean',
      help: "confirm the sidecars' annotations for the trajectories as they are now (after checking the steps); clears the 'made on other content' warning",
    },
  },
  run: (positionals, values, io) => (values['accept-content'] ? runAcceptContent(positionals, io) : runValidate(positionals, values, io)),
};
