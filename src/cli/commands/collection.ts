// `trajaudit collection <file or folder…> [--json] [--export csv|parquet --out DIR]
//   [--assignments FILE] [--cache DIR] [--format ID]`
//
// The collection's rows (issue 16), read through the collection index kept in a cache folder
// (never beside the data): a second run parses and tokenizes only the files that changed.
// `--export` writes rows, annotations and audits as CSV or Parquet; `--assignments` adds each
// annotator's progress. Reads the trajectories and sidecars only.
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readIndexedCollection, rowIndexOptions } from '../../core/collections/collectionIndex';
import { EXPORT_KINDS, writeExportFolder, type ExportKind } from '../../core/collections/exportFiles';
import { annotatorProgress, parseAssignments, type AnnotatorProgress } from '../../core/collections/queue';
import type { CollectionRow } from '../../core/collections/rows';
import { summarize } from '../../core/collections/table';
import type { Unreadable } from '../../core/collections/collect';
import { parseJson } from '../../core/input/jsonText';
import { readTextFile } from '../../core/input/readText';
import { CliUsageError, toolNamesFrom, trajectoryFormatFrom, type CliIo } from '../io';
import { JSON_OPTION, TOOL_NAME_OPTIONS, TRAJECTORY_FORMAT_OPTION, type CliCommand, type OptionTable } from '../options';

/** Read by `readCollectionRows`: `stats` and `collection` keep their index there. */
export const CACHE_OPTION: OptionTable = {
  cache: { type: 'string', value: 'DIR', help: 'where the collection index is kept (default $XDG_CACHE_HOME/trajaudit, else ~/.cache/trajaudit)' },
};

/** The OS cache folder of trajaudit: XDG_CACHE_HOME, else the platform's cache folder. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'trajaudit');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'trajaudit');
  if (platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'trajaudit', 'Cache');
  return join(home, '.cache', 'trajaudit');
}

function cacheDirFrom(values: Record<string, unknown>): string {
  const cache = values.cache;
  if (cache === undefined) return defaultCacheDir();
  if (typeof cache !== 'string' || !cache.trim()) throw new CliUsageError('--cache needs a folder');
  return cache;
}

export interface CollectionRows {
  rows: CollectionRow[];
  unreadable: Unreadable[];
}

/** The rows of the collection under `positionals`, through its index; index notes (rebuilt, not writable) go to stderr. */
export async function readCollectionRows(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<CollectionRows> {
  if (positionals.length === 0) throw new CliUsageError('missing <file or folder…>');
  const indexed = await readIndexedCollection(
    rowIndexOptions({ storageDir: cacheDirFrom(values), paths: positionals, format: trajectoryFormatFrom(values), names: toolNamesFrom(values) }),
  );
  for (const note of indexed.notes) io.err(note);
  return { rows: indexed.values, unreadable: indexed.unreadable };
}

function exportKindFrom(values: Record<string, unknown>): { kind: ExportKind; out: string } | undefined {
  const kind = values.export;
  if (kind === undefined) {
    if (values.out !== undefined) throw new CliUsageError('--out goes with --export csv|parquet');
    return undefined;
  }
  if (!(EXPORT_KINDS as readonly unknown[]).includes(kind))
    throw new CliUsageError(`--export ${JSON.stringify(kind)} is not an export format; expected csv or parquet`);
  if (typeof values.out !== 'string' || !values.out.trim()) throw new CliUsageError('--export needs --out DIR (the folder the three tables are written to)');
  return { kind: kind as ExportKind, out: values.out };
}

function readAssignmentsFrom(values: Record<string, unknown>): { file: string; value: unknown } | undefined {
  const file = values.assignments;
  if (file === undefined) return undefined;
  if (typeof file !== 'string' || !file.trim()) throw new CliUsageError('--assignments needs a file');
  const text = readTextFile(file);
  return { file, value: parseJson(text, file) };
}

/** A fixed-width cell; `keepEnd` cuts the start instead (an id's record is at its end). */
function cell(value: string | number | null | undefined, width: number, keepEnd = false): string {
  const text = value === null || value === undefined ? '—' : String(value);
  if (text.length <= width) return text.padEnd(width);
  return keepEnd ? `…${text.slice(text.length - width + 1)}` : `${text.slice(0, width - 1)}…`;
}

function renderText(rows: readonly CollectionRow[], progress: AnnotatorProgress[] | undefined): string {
  const header = `${cell('id', 44)} ${cell('format', 16)} ${cell('model', 14)} ${'msgs'.padStart(5)} ${'steps'.padStart(5)} ${'tokens'.padStart(8)}  ${cell('human', 26)} ${cell('audit', 26)} state`;
  const label = (l: CollectionRow['human']) => (l ? `${l.criticalStep ?? '—'} ${l.rootCause ?? '—'}` : null);
  const lines = [header];
  for (const r of rows) {
    lines.push(
      `${cell(r.id, 44, true)} ${cell(r.format, 16)} ${cell(r.model, 14)} ${String(r.messages).padStart(5)} ${String(r.decisionSteps).padStart(5)} ${String(r.tokens).padStart(8)}  ${cell(label(r.human), 26)} ${cell(label(r.audit), 26)} ${r.state}`,
    );
  }
  const summary = summarize(rows);
  lines.push('', `${summary.rows} rows, ${summary.annotated} annotated, ${summary.audited} audited`);
  for (const p of progress ?? []) {
    const others = p.annotatedByOthers ? `, ${p.annotatedByOthers} by others` : '';
    const missing = p.missing.length ? `; not in the collection: ${p.missing.join(', ')}` : '';
    lines.push(`  ${p.annotator}: ${p.annotated}/${p.assigned} annotated${others}${missing}`);
  }
  return lines.join('\n');
}

export async function runCollection(positionals: string[], values: Record<string, unknown>, io: CliIo): Promise<number> {
  const exporting = exportKindFrom(values);
  const assignments = readAssignmentsFrom(values);
  const { rows, unreadable } = await readCollectionRows(positionals, values, io);
  const progress = assignments ? annotatorProgress(rows, parseAssignments(assignments.value, assignments.file)) : undefined;
  const written = exporting ? writeExportFolder(rows, exporting.kind, exporting.out) : [];
  if (values.json) {
    io.out(JSON.stringify({ rows, unreadable, ...(progress ? { progress } : {}), ...(exporting ? { written } : {}) }, null, 2));
  } else {
    io.out(renderText(rows, progress));
    for (const file of written) io.out(`wrote ${file} (${(statSync(file).size / 1024).toFixed(1)} KiB)`);
  }
  for (const u of unreadable) io.err(`${u.file}: ${u.message}`);
  return unreadable.length > 0 ? 1 : 0;
}

export const collectionCommand: CliCommand = {
  name: 'collection',
  args: '<file or folder…>',
  summary:
    'The rows of a collection (one per trajectory record: format, model, dataset, outcome, counts, tokens, the human label, the newest audit, agreement), read through an index in the cache folder so a second run reads only changed files; exports rows, annotations and audits as CSV or Parquet; per-annotator progress of an assignment file.',
  options: {
    ...JSON_OPTION,
    export: { type: 'string', value: EXPORT_KINDS.join('|'), help: 'write rows, annotations and audits (.csv or .parquet) into --out' },
    out: { type: 'string', value: 'DIR', help: 'the export folder (created if missing; rows.*, annotations.*, audits.* are replaced)' },
    assignments: { type: 'string', value: 'FILE', help: 'JSON {"annotators": {"<name>": ["<file>#<record>", …]}}: each annotator\'s progress' },
    ...CACHE_OPTION,
    ...TRAJECTORY_FORMAT_OPTION,
    ...TOOL_NAME_OPTIONS,
  },
  run: runCollection,
};
