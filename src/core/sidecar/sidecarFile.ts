import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { writeFileAtomic } from '../files/atomicWrite';
import { InputError } from '../input/inputError';
import { parseJson } from '../input/jsonText';
import { readTextFile } from '../input/readText';
import { checkSchema } from '../input/schemaCheck';
import { SIDECAR_SCHEMA, sidecarSchema, type Sidecar } from './schema';

export function sidecarPathFor(trajectoryFile: string): string {
  return `${trajectoryFile}.audit.json`;
}

export function sha256Of(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function emptySidecar(trajectoryFile: string, sha256: string, format: string): Sidecar {
  return { schema: SIDECAR_SCHEMA, trajectory: { file: basename(trajectoryFile), sha256, format }, records: {} };
}

/** Parses sidecar text: schema version checked, unknown fields kept so a rewrite loses nothing. */
export function parseSidecar(text: string, displayName: string): Sidecar {
  const value = parseJson(text, displayName);
  const schema = (value as { schema?: unknown } | null)?.schema;
  if (typeof schema === 'string' && schema !== SIDECAR_SCHEMA && schema.startsWith('trajaudit.audit/')) {
    throw new InputError(displayName, `sidecar schema "${schema}" is not supported; this version reads "${SIDECAR_SCHEMA}" (upgrade Trajectory Auditor)`, { path: '$.schema' });
  }
  return checkSchema(sidecarSchema, value, { file: displayName, text }, 'an audit sidecar');
}

/** Reads `<file>.audit.json`; undefined when there is none. */
export function readSidecar(sidecarPath: string, displayName = sidecarPath): Sidecar | undefined {
  if (!existsSync(sidecarPath)) return undefined;
  return parseSidecar(readTextFile(sidecarPath, displayName), displayName);
}

export function serializeSidecar(sidecar: Sidecar): string {
  return `${JSON.stringify(sidecar, null, 2)}\n`;
}

export function writeSidecar(sidecarPath: string, sidecar: Sidecar): void {
  checkSchema(sidecarSchema, sidecar, { file: sidecarPath }, 'an audit sidecar');
  writeFileAtomic(sidecarPath, serializeSidecar(sidecar));
}
