// Run-folder kind detection (docs/run-folders.md §2): the manifest's kind, else the files present; the
// result always says why.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { type WriteTarget } from '../../files/confine';
import { InputError } from '../../input/inputError';
import { parseJson } from '../../input/jsonText';
import { readTextFile } from '../../input/readText';
import { checkSchema } from '../../input/schemaCheck';
import { loadFile } from '../../load/loadFile';
import { MANIFEST_FILE, runManifestSchema, type RunKind, type RunManifest } from '../../runs/manifest';
import type { FileKey, RunDetection } from './types';

const SKIP_DIRS = new Set(['node_modules', '.git']);
export const KNOWN_RUN_FILES = new Set([
  MANIFEST_FILE,
  'gold.jsonl',
  'predictions.jsonl',
  'responses.jsonl',
  'judgments.jsonl',
  'answers.jsonl',
  'clarifications.jsonl',
  'gold_nuggets.jsonl',
  'results.jsonl',
  'outputs.jsonl',
  'resumes.jsonl',
  'weights.json',
]);

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `*.audit.json` sidecars under a folder (recursive; dot folders and node_modules skipped), sorted. */
export function findSidecars(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || SKIP_DIRS.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith('.audit.json')) out.push(path);
    }
  };
  walk(folder);
  return out;
}

/** The detected kind of a file; a file that cannot be read is remembered so a failed search can name it. */
function kindOfFile(path: string, failures?: unknown[]): string | undefined {
  try {
    return loadFile(path).detection.kind;
  } catch (error) {
    failures?.push(error);
    return undefined;
  }
}

/** The first candidate of the wanted kind; when none is and some candidate failed to load, that error is the better message. */
function findOfKind(paths: string[], kind: string): string | undefined {
  const failures: unknown[] = [];
  const found = paths.find((p) => kindOfFile(p, failures) === kind);
  if (!found && failures.length > 0) throw failures[0];
  return found;
}

/** The DeepSearchQA dataset in a folder: a CSV, else a JSON/JSONL file of DeepSearchQA rows. */
function findDataset(folder: string): string | undefined {
  const names = readdirSync(folder).sort();
  const csv = names.find((n) => n.toLowerCase().endsWith('.csv') && isFile(join(folder, n)));
  if (csv) return join(folder, csv);
  return findOfKind(
    names.filter((n) => /\.jsonl?$/i.test(n) && !KNOWN_RUN_FILES.has(n) && isFile(join(folder, n))).map((n) => join(folder, n)),
    'deepsearchqa',
  );
}

function findScenarioSet(folder: string): string | undefined {
  return findOfKind(
    readdirSync(folder)
      .sort()
      .filter((n) => n.toLowerCase().endsWith('.json') && !KNOWN_RUN_FILES.has(n) && isFile(join(folder, n)))
      .map((n) => join(folder, n)),
    'scenario-set',
  );
}

function findItems(folder: string): string | undefined {
  for (const name of ['items.jsonl', 'items.json', 'items']) {
    if (existsSync(join(folder, name))) return join(folder, name);
  }
  const candidates = readdirSync(folder)
    .sort()
    .filter((n) => /\.jsonl?$/i.test(n) && !n.endsWith('.audit.json') && !KNOWN_RUN_FILES.has(n) && isFile(join(folder, n)))
    .map((n) => join(folder, n));
  return findOfKind(candidates, 'delegation-item') ? folder : undefined;
}

function present(folder: string, name: string): string | undefined {
  const path = join(folder, name);
  return isFile(path) ? path : undefined;
}

function readManifest(path: string): RunManifest {
  const text = readTextFile(path);
  return checkSchema(runManifestSchema, parseJson(text, path), { file: path, text }, `a run manifest (${MANIFEST_FILE})`);
}

const rel = (folder: string, path: string | undefined) =>
  path ? (path.startsWith(folder) ? path.slice(folder.length).replace(/^[\\/]+/, '') || basename(path) : path) : '';

/** The files of a kind: manifest paths (relative to the folder, or absolute) win over the conventional names. */
function filesFor(kind: RunKind, folder: string, manifest?: RunManifest): Partial<Record<FileKey, string>> {
  const given = (key: FileKey): string | undefined => {
    const v = manifest?.[key as keyof RunManifest];
    return typeof v === 'string' ? resolve(folder, v) : undefined;
  };
  const pick = (key: FileKey, fallback: () => string | undefined) => given(key) ?? fallback();
  const files: Partial<Record<FileKey, string>> = {};
  const set = (key: FileKey, value: string | undefined) => {
    if (value) files[key] = value;
  };
  switch (kind) {
    case 'audit':
      set(
        'gold',
        pick('gold', () => present(folder, 'gold.jsonl')),
      );
      set(
        'predictions',
        pick('predictions', () => present(folder, 'predictions.jsonl')),
      );
      break;
    case 'deepsearchqa':
      set(
        'dataset',
        pick('dataset', () => findDataset(folder)),
      );
      set(
        'responses',
        pick('responses', () => present(folder, 'responses.jsonl')),
      );
      break;
    case 'nuggets':
      set(
        'gold',
        pick('gold', () => present(folder, 'gold_nuggets.jsonl')),
      );
      set(
        'answers',
        pick('answers', () => present(folder, 'answers.jsonl')),
      );
      set(
        'clarifications',
        pick('clarifications', () => present(folder, 'clarifications.jsonl')),
      );
      break;
    case 'scenarios':
      set(
        'scenarios',
        pick('scenarios', () => findScenarioSet(folder)),
      );
      set(
        'results',
        pick('results', () => present(folder, 'results.jsonl')),
      );
      set(
        'weights',
        pick('weights', () => present(folder, 'weights.json')),
      );
      break;
    case 'resume':
      set(
        'resumes',
        pick('resumes', () => present(folder, 'resumes.jsonl')),
      );
      break;
    case 'delegation':
      set(
        'items',
        pick('items', () => findItems(folder)),
      );
      set(
        'outputs',
        pick('outputs', () => present(folder, 'outputs.jsonl')),
      );
      break;
  }
  // The judgment cache lives in the run folder unless the manifest names another file.
  files.judgments = given('judgments') ?? join(folder, 'judgments.jsonl');
  return files;
}

const REQUIRED: Record<RunKind, FileKey[]> = {
  audit: [],
  deepsearchqa: ['dataset', 'responses'],
  nuggets: ['gold'],
  scenarios: ['scenarios', 'results'],
  delegation: ['items', 'outputs'],
  resume: ['resumes'],
};

const DESCRIBE: Partial<Record<FileKey, string>> = {
  dataset: 'the DeepSearchQA dataset (a CSV, or JSON/JSONL rows with problem, answer, answer_type)',
  responses: 'responses.jsonl',
  gold: 'gold_nuggets.jsonl',
  scenarios: 'the scenario-set JSON (meta + scenarios)',
  results: 'results.jsonl',
  items: 'the Delegation items (items.jsonl, items.json, an items/ folder, or item JSON files)',
  outputs: 'outputs.jsonl',
  resumes: 'resumes.jsonl',
};

/** Where the judgment cache may be written: inside the run folder (a manifest naming a file elsewhere is refused on write). */
export function judgmentsWriteTarget(detection: RunDetection): WriteTarget {
  return {
    folder: detection.folder,
    ...(typeof detection.manifest?.judgments === 'string' ? { manifestKey: 'judgments' } : {}),
    what: 'the judgment cache (fresh judge verdicts)',
  };
}

export function detectRun(folder: string): RunDetection {
  if (!existsSync(folder)) throw new InputError(folder, 'no such folder; expected a run folder');
  if (!isDir(folder)) throw new InputError(folder, `is a file; expected a run folder (with ${MANIFEST_FILE}, or the files of one run kind)`);
  const manifestPath = join(folder, MANIFEST_FILE);
  let detection: RunDetection;
  // Whatever sits at the manifest's name is read (a folder or a pipe gets readTextFile's message, not silence).
  if (existsSync(manifestPath)) {
    const manifest = readManifest(manifestPath);
    const files = filesFor(manifest.kind, folder, manifest);
    detection = { kind: manifest.kind, reason: `${MANIFEST_FILE} says "kind": "${manifest.kind}"`, folder, manifest, files };
    if (manifest.kind === 'audit' && !(files.gold && files.predictions)) {
      detection.sidecars = findSidecars(folder);
      detection.reason += `; ${detection.sidecars.length} *.audit.json sidecar(s)`;
    }
  } else {
    const has = (name: string) => isFile(join(folder, name));
    const sidecars = () => findSidecars(folder);
    const kindFrom = (kind: RunKind, reason: string): RunDetection => ({ kind, reason: `no manifest; ${reason}`, folder, files: filesFor(kind, folder) });
    if (has('gold.jsonl') && has('predictions.jsonl')) detection = kindFrom('audit', 'found gold.jsonl and predictions.jsonl');
    else if (has('responses.jsonl')) {
      detection = kindFrom('deepsearchqa', 'found responses.jsonl');
      if (detection.files.dataset) detection.reason += ` and the dataset ${rel(folder, detection.files.dataset)}`;
    } else if (has('gold_nuggets.jsonl'))
      detection = kindFrom(
        'nuggets',
        `found gold_nuggets.jsonl${has('judgments.jsonl') ? ' and judgments.jsonl' : has('answers.jsonl') ? ' and answers.jsonl' : ''}`,
      );
    else if (has('results.jsonl')) {
      detection = kindFrom('scenarios', 'found results.jsonl');
      if (detection.files.scenarios) detection.reason += ` and the scenario set ${rel(folder, detection.files.scenarios)}`;
    } else if (has('outputs.jsonl')) detection = kindFrom('delegation', 'found outputs.jsonl');
    else if (has('resumes.jsonl')) detection = kindFrom('resume', 'found resumes.jsonl');
    else {
      const found = sidecars();
      if (found.length === 0) {
        throw new InputError(
          folder,
          `cannot tell the run kind: no ${MANIFEST_FILE}, and none of gold.jsonl + predictions.jsonl (audit), responses.jsonl (deepsearchqa), gold_nuggets.jsonl (nuggets), results.jsonl (scenarios), outputs.jsonl (delegation), resumes.jsonl (resume) or *.audit.json sidecars (audit)`,
        );
      }
      detection = {
        kind: 'audit',
        reason: `no manifest; found ${found.length} *.audit.json sidecar(s) beside trajectories`,
        folder,
        files: filesFor('audit', folder),
        sidecars: found,
      };
    }
  }
  for (const key of REQUIRED[detection.kind]) {
    const path = detection.files[key];
    if (!path)
      throw new InputError(
        folder,
        `${detection.kind} run (${detection.reason}) lacks ${DESCRIBE[key] ?? key}${detection.manifest ? ` — name it under "${key}" in ${MANIFEST_FILE}` : ''}`,
      );
    if (!existsSync(path)) throw new InputError(path, `not found (the ${key} file of this ${detection.kind} run)`);
  }
  return detection;
}
