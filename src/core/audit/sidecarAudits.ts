import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Sidecar } from '../sidecar/schema';
import { emptySidecar, readSidecar, sha256Of, sidecarPathFor, writeSidecar } from '../sidecar/sidecarFile';
import type { AuditResult } from './types';

/** The cache key of an audit: same trajectory bytes, method, model and prompt version. */
export function auditKey(a: { trajectorySha256?: string; method: string; model?: string | null; promptVersion?: string | null; options?: unknown }): string {
  return JSON.stringify([a.trajectorySha256 ?? '', a.method, a.model ?? '', a.promptVersion ?? '', a.options ?? null]);
}

/** An earlier audit with the same key, reused unless a re-run is asked for. */
export function cachedAudit(sidecar: Sidecar | undefined, recordId: string, key: string): AuditResult | undefined {
  const audits = sidecar?.records[recordId]?.audits ?? [];
  return audits.find((a) => auditKey(a as never) === key) as unknown as AuditResult | undefined;
}

/**
 * Appends audits to `<file>.audit.json` (re-read just before writing, so annotations and other
 * records are kept), atomically. Human annotations are never touched.
 */
export function appendAudits(trajectoryFile: string, format: string, entries: { recordId: string; audit: AuditResult }[]): Sidecar {
  const path = sidecarPathFor(trajectoryFile);
  const sha = sha256Of(readFileSync(trajectoryFile));
  const sidecar = readSidecar(path) ?? emptySidecar(basename(trajectoryFile), sha, format);
  sidecar.trajectory = { ...sidecar.trajectory, sha256: sha, format };
  for (const { recordId, audit } of entries) {
    const record = { ...(sidecar.records[recordId] ?? {}) };
    record.audits = [...(record.audits ?? []), audit as never];
    sidecar.records[recordId] = record;
  }
  writeSidecar(path, sidecar);
  return sidecar;
}
