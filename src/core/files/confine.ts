// Paths a run folder names for WRITING stay inside the run folder. A manifest may point at data
// elsewhere for reading (shared datasets), but a path trajaudit appends to or replaces — the
// judgment cache, the harness outputs — must resolve inside the folder, also after following
// symbolic links, or the write is refused with a clear message before anything is written.
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { InputError } from '../input/inputError';
import { MANIFEST_FILE } from '../runs/manifest';

const inside = (folder: string, target: string) => {
  const rel = relative(folder, target);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

/** Whether something (a file, a folder, a link, even a dangling one) is at `path`. */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Where a write to `target` lands: its real path, through links (dangling ones too) and not-yet-created folders. */
function realTarget(target: string, depth = 0): string {
  let existing = target;
  const rest: string[] = [];
  while (!present(existing)) {
    const parent = dirname(existing);
    if (parent === existing) return target;
    rest.unshift(basename(existing));
    existing = parent;
  }
  if (!existsSync(existing) && depth < 40) return join(realTarget(resolve(dirname(existing), readlinkSync(existing)), depth + 1), ...rest);
  return join(realpathSync(existing), ...rest);
}

export interface WriteTarget {
  /** The run folder. */
  folder: string;
  /** The manifest key that named the path (e.g. "judgments"), when the manifest named it. */
  manifestKey?: string;
  /** What is written there, for the message ("the judgment cache"). */
  what: string;
}

/**
 * `target` (absolute, or relative to the folder) when it stays inside the run folder after
 * following links; an InputError naming the manifest key (or the file) otherwise.
 */
export function confinedWritePath(target: string, t: WriteTarget): string {
  const folder = resolve(t.folder);
  const path = resolve(folder, target);
  let realFolder = folder;
  try {
    realFolder = realpathSync(folder);
  } catch {
    /* not created yet: the lexical check is all there is */
  }
  const lexicallyInside = inside(folder, path);
  const real = realTarget(path);
  if (lexicallyInside && inside(realFolder, real)) return path;
  const seen = lexicallyInside ? `${target}, which leads to ${real} through a symbolic link,` : target;
  const fix = t.manifestKey
    ? `name a file inside the run folder under "${t.manifestKey}" (e.g. "${t.manifestKey}.jsonl"), or copy the file into it`
    : 'replace the link by a file, or use another run folder';
  const detail = `${seen} is outside the run folder ${t.folder}; trajaudit writes ${t.what} there and writes only inside the run folder: ${fix}`;
  if (t.manifestKey) throw new InputError(join(t.folder, MANIFEST_FILE), detail, { path: `$.${t.manifestKey}` });
  throw new InputError(path, detail);
}
