import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { readFileBytes } from '../input/readText';
import type { Trajectory } from '../model/trajectory';
import type { AuditEntry, Sidecar } from '../sidecar/schema';
import { emptySidecar, sha256Of, sidecarPathFor, updateSidecar } from '../sidecar/sidecarFile';
import type { AuditResult } from './types';

/**
 * A sidecar keeps, per record, the newest MAX_AUDITS_PER_CONFIGURATION audits of each
 * configuration (method, model, prompt version, options); older ones are dropped when a newer
 * one is written. With results reused (below), that bounds a sidecar however often it is audited.
 */
export const MAX_AUDITS_PER_CONFIGURATION = 3;

type KeyParts = { method: string; model?: string | null; promptVersion?: string | null; options?: unknown };

/** What an audit was configured with, without the content it ran on. */
export function auditConfigurationKey(a: KeyParts): string {
  return JSON.stringify([a.method, a.model ?? '', a.promptVersion ?? '', a.options ?? null]);
}

/**
 * The cache key of an audit: same record content, method, model, prompt version and options.
 * Content is the record's own hash (contentSha256) when the audit has one; older audits carry
 * only the whole file's (trajectorySha256).
 */
export function auditKey(a: KeyParts & { contentSha256?: string | null; trajectorySha256?: string | null }): string {
  return JSON.stringify([a.contentSha256 ?? a.trajectorySha256 ?? '', auditConfigurationKey(a)]);
}

/**
 * sha256 of the canonical trajectory of one record: what an auditor reads. Independent of the
 * other records of a JSONL file and of formatting, so an unchanged record keeps its results
 * when a neighbour is edited.
 */
export function recordContentSha256(t: Trajectory): string {
  return hashJsonValue(t);
}

class KeyToken {
  constructor(readonly key: string) {}
}
const CLOSE_ARRAY = Symbol('close array');
const CLOSE_OBJECT = Symbol('close object');

/**
 * sha256 of a JSON-like value, walked with an explicit stack: metadata nested 100,000 deep (any
 * field a format does not read is kept) would overflow JSON.stringify's recursion.
 */
function hashJsonValue(value: unknown): string {
  const hash = createHash('sha256');
  let pending = '';
  const emit = (text: string) => {
    pending += text;
    if (pending.length > 65_536) {
      hash.update(pending);
      pending = '';
    }
  };
  const stack: unknown[] = [value];
  while (stack.length) {
    const node = stack.pop();
    if (node === CLOSE_ARRAY) emit(']');
    else if (node === CLOSE_OBJECT) emit('}');
    else if (node instanceof KeyToken) emit(`${JSON.stringify(node.key)}:`);
    else if (Array.isArray(node)) {
      emit('[');
      stack.push(CLOSE_ARRAY);
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
    } else if (node !== null && typeof node === 'object') {
      emit('{');
      stack.push(CLOSE_OBJECT);
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) stack.push((node as Record<string, unknown>)[keys[i]], new KeyToken(keys[i]));
    } else emit(`${node === undefined ? 'u' : JSON.stringify(node)},`);
  }
  hash.update(pending);
  return hash.digest('hex');
}

/** An earlier audit with the same key, reused unless a re-run is asked for. */
export function cachedAudit(sidecar: Sidecar | undefined, recordId: string, key: string): AuditResult | undefined {
  const audits = sidecar?.records[recordId]?.audits ?? [];
  for (let i = audits.length - 1; i >= 0; i--) if (auditKey(audits[i] as never) === key) return audits[i] as unknown as AuditResult;
  return undefined;
}

/** Keeps the newest MAX_AUDITS_PER_CONFIGURATION of each configuration, in their order. */
export function boundAudits(audits: AuditEntry[]): AuditEntry[] {
  const seen = new Map<string, number>();
  const kept: AuditEntry[] = [];
  for (let i = audits.length - 1; i >= 0; i--) {
    const key = auditConfigurationKey(audits[i] as never);
    const n = seen.get(key) ?? 0;
    if (n >= MAX_AUDITS_PER_CONFIGURATION) continue;
    seen.set(key, n + 1);
    kept.push(audits[i]);
  }
  return kept.reverse();
}

export interface AuditToStore {
  recordId: string;
  audit: AuditResult;
}

export interface AppendOptions {
  /** Store even when an audit with the same key is there (a re-run asked for); default false. */
  rerun?: boolean;
}

/**
 * Adds audits to `<file>.audit.json`: read, changed and written under the sidecar's lock (so
 * concurrent audits and editor saves are all kept), atomically. Human annotations are never
 * touched, their own `trajectorySha256` included; `trajectory.sha256` becomes the file audited.
 * An audit whose key is already stored (another process did the same work) is not stored twice
 * unless `rerun`. Returns how many were stored.
 */
export async function appendAudits(
  trajectoryFile: string,
  format: string,
  entries: AuditToStore[],
  options: AppendOptions = {},
): Promise<{ written: number; sidecar: Sidecar }> {
  const path = sidecarPathFor(trajectoryFile);
  const sha = sha256Of(readFileBytes(trajectoryFile));
  let written = 0;
  const sidecar = await updateSidecar(path, (current) => {
    written = 0;
    const next = current ?? emptySidecar(basename(trajectoryFile), sha, format);
    next.trajectory = { ...next.trajectory, sha256: sha, format };
    for (const { recordId, audit } of entries) {
      const record = { ...(next.records[recordId] ?? {}) };
      const audits = record.audits ?? [];
      if (!options.rerun && cachedAudit(next, recordId, auditKey(audit))) continue;
      record.audits = boundAudits([...audits, audit as never]);
      next.records[recordId] = record;
      written++;
    }
    return next;
  });
  return { written, sidecar: sidecar! };
}
