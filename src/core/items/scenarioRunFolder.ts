// The `scenarios` run folder a scenario set's human marks are saved into (docs/run-folders.md §3):
// `trajaudit.run.json` {kind: "scenarios", scenarios: <set, relative>, results: "results.jsonl"}
// and the results file. The item editor saves through it; the unit tests drive it directly.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { writeFileAtomic } from '../files/atomicWrite';
import { confinedWritePath } from '../files/confine';
import { InputError } from '../input/inputError';
import { decodeText } from '../input/readText';
import { MANIFEST_FILE } from '../runs/manifest';
import { mergeResults, parseResults, type MergeInput, type ParsedLine, type ResultLine } from './scenarioResults';

export const DEFAULT_RUN_FOLDER_NAME = 'scenarios-run';
export const DEFAULT_RESULTS_FILE = 'results.jsonl';

export interface RunFolderState {
  folder: string;
  manifestPath: string;
  /** The manifest as read (undefined: none; it is written on the first save). */
  manifest?: Record<string, unknown>;
  resultsPath: string;
  /** Results text as read (undefined: no file yet). */
  resultsText?: string;
  lines: ParsedLine[];
  /** Why results cannot be saved here. */
  problem?: string;
  notices: string[];
}

export function defaultRunFolder(setPath: string): string {
  return join(dirname(setPath), DEFAULT_RUN_FOLDER_NAME);
}

/** `a/b/c` from a folder to a file, with forward slashes (as manifests are written). */
export function relativePosix(fromFolder: string, to: string): string {
  return relative(fromFolder, to).split(sep).join('/');
}

export function manifestFor(folder: string, setPath: string, resultsFile = DEFAULT_RESULTS_FILE): Record<string, unknown> {
  return { kind: 'scenarios', scenarios: relativePosix(folder, setPath), results: resultsFile };
}

function readText(path: string, display: (p: string) => string): string | undefined {
  if (!existsSync(path)) return undefined;
  return decodeText(readFileSync(path), display(path));
}

/**
 * Reads a run folder for a scenario set. Never throws for a bad file: the problem is reported
 * and saving is refused until it is fixed (nothing is overwritten blindly).
 */
export function readRunFolder(folder: string, setPath: string, display: (p: string) => string = (p) => p): RunFolderState {
  const manifestPath = join(folder, MANIFEST_FILE);
  const state: RunFolderState = { folder, manifestPath, resultsPath: join(folder, DEFAULT_RESULTS_FILE), lines: [], notices: [] };
  try {
    if (existsSync(folder) && !statSync(folder).isDirectory()) throw new InputError(display(folder), 'is not a folder');
    const manifestText = readText(manifestPath, display);
    if (manifestText !== undefined) {
      let manifest: unknown;
      try {
        manifest = JSON.parse(manifestText);
      } catch {
        throw new InputError(display(manifestPath), 'is not valid JSON; fix it or choose another run folder');
      }
      if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) throw new InputError(display(manifestPath), 'is not a JSON object');
      const m = manifest as Record<string, unknown>;
      if (m.kind !== 'scenarios')
        throw new InputError(display(manifestPath), `is a "${String(m.kind)}" run, not a "scenarios" run; choose another folder for the results`);
      state.manifest = m;
      if (typeof m.results === 'string' && m.results.trim()) {
        if (isAbsolute(m.results)) throw new InputError(display(manifestPath), `"results" must be a path relative to the run folder, got ${m.results}`);
        state.resultsPath = confinedWritePath(m.results, { folder, manifestKey: 'results', what: 'the scenario results' });
      }
      if (typeof m.scenarios === 'string') {
        const named = resolve(folder, m.scenarios);
        if (named !== resolve(setPath)) state.notices.push(`${MANIFEST_FILE} names another scenario set (${m.scenarios}); results are scored against that set`);
      } else {
        state.notices.push(`${MANIFEST_FILE} does not name the scenario set; the scorer looks for a set in the folder`);
      }
    }
    state.resultsText = readText(state.resultsPath, display);
    if (state.resultsText !== undefined) state.lines = parseResults(state.resultsText, display(state.resultsPath));
  } catch (error) {
    state.problem = error instanceof Error ? error.message : String(error);
    state.lines = [];
  }
  return state;
}

/** Lines by scenario id. */
export function resultsById(lines: readonly ParsedLine[]): Map<string, ResultLine> {
  return new Map(lines.map((l) => [l.value.scenario, structuredClone(l.value)]));
}

export interface SaveOutcome {
  conflicts: string[];
  wroteManifest: boolean;
  resultsText: string;
}

/**
 * Saves edits into the run folder: re-reads results.jsonl, merges (criterion by criterion),
 * writes it atomically, and writes the manifest when the folder has none. `confirm` is asked
 * when another writer changed a criterion this editor changed too; false cancels.
 */
export async function saveRunFolder(
  state: RunFolderState,
  setPath: string,
  edits: Pick<MergeInput, 'base' | 'current' | 'scenarioOrder' | 'criterionOrder'>,
  display: (p: string) => string = (p) => p,
  confirm: (conflicts: string[]) => boolean | Promise<boolean> = () => true,
): Promise<SaveOutcome | undefined> {
  if (state.problem) throw new Error(`${state.problem} — the results were not saved`);
  const merge = () => {
    const diskText = readText(state.resultsPath, display);
    const disk = diskText === undefined ? [] : parseResults(diskText, display(state.resultsPath));
    return mergeResults({ disk, ...edits });
  };
  let merged = merge();
  if (merged.conflicts.length) {
    if (!(await confirm(merged.conflicts))) return undefined;
    merged = merge(); // the file may have changed again while the user was asked
  }
  mkdirSync(dirname(state.resultsPath), { recursive: true });
  writeFileAtomic(state.resultsPath, merged.text);
  let wroteManifest = false;
  if (!existsSync(state.manifestPath)) {
    const manifest = manifestFor(state.folder, setPath, relativePosix(state.folder, state.resultsPath) || basename(state.resultsPath));
    writeFileAtomic(state.manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    state.manifest = manifest;
    wroteManifest = true;
  }
  state.resultsText = merged.text;
  state.lines = parseResults(merged.text, display(state.resultsPath));
  return { conflicts: merged.conflicts, wroteManifest, resultsText: merged.text };
}
