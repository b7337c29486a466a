import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { InputError } from '../input/inputError';
import { readFileBytes } from '../input/readText';
import { readSidecar, sha256Of, sidecarPathFor, updateSidecar } from './sidecarFile';

/** The sidecar of a path given on the command line: the path itself, or `<file>.audit.json`. */
export function sidecarPathOf(path: string): string {
  return path.endsWith('.audit.json') ? path : sidecarPathFor(path);
}

/** The trajectory a sidecar describes: `trajectory.file` beside it, else its own name without `.audit.json`. */
export function trajectoryOfSidecar(sidecarPath: string, trajectoryFile: string): string | undefined {
  const named = join(dirname(sidecarPath), trajectoryFile);
  const fallback = sidecarPath.replace(/\.audit\.json$/, '');
  return existsSync(named) ? named : existsSync(fallback) ? fallback : undefined;
}

/**
 * A person's confirmation that the annotations of a sidecar hold for the trajectory as it is now:
 * every annotation made against other content gets the file's current sha256 (under the lock).
 * Returns how many were confirmed.
 */
export async function acceptAnnotationContent(
  sidecarPath: string,
  displayName = sidecarPath,
): Promise<{ accepted: number; trajectory: string; sha256: string }> {
  const sidecar = readSidecar(sidecarPath, displayName);
  if (!sidecar) throw new InputError(displayName, 'no such sidecar; nothing to accept');
  const trajectory = trajectoryOfSidecar(sidecarPath, sidecar.trajectory.file);
  if (!trajectory) throw new InputError(displayName, `the trajectory ${sidecar.trajectory.file} is not beside the sidecar; nothing was accepted`);
  const sha256 = sha256Of(readFileBytes(trajectory));
  let accepted = 0;
  await updateSidecar(
    sidecarPath,
    (current) => {
      accepted = 0;
      if (!current) return undefined;
      for (const record of Object.values(current.records)) {
        if (record.annotation && record.annotation.trajectorySha256 !== sha256) {
          record.annotation = { ...record.annotation, trajectorySha256: sha256 };
          accepted++;
        }
      }
      return accepted ? current : undefined;
    },
    { displayName },
  );
  return { accepted, trajectory, sha256 };
}
