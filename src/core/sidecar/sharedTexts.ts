import { createHash } from 'node:crypto';
import type { z } from 'zod';

/**
 * Long texts repeated inside a sidecar's audits (a model that returns the same 5 MB rationale
 * in three branches and the adjudicator; the same reply in every re-run) are stored once, in
 * the top-level `texts` table, and referred to as `{"$text": "<sha256 of the text>"}`.
 * Annotations are never rewritten this way: people read and edit them.
 */
export const SHARED_TEXT_MIN_CHARS = 256;
const REF = '$text';
/** Texts are looked for this deep into an audit, no deeper (a hostile sidecar nested 100,000 deep must not overflow the stack). */
const MAX_DEPTH = 64;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function refOf(value: unknown): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === REF && typeof value[REF] === 'string' ? value[REF] : undefined;
}

/** Every `audits` array of the sidecar's records. */
function auditArrays(sidecar: Record<string, unknown>): unknown[][] {
  const records = sidecar.records;
  if (!isPlainObject(records)) return [];
  return Object.values(records).flatMap((r) => (isPlainObject(r) && Array.isArray(r.audits) ? [r.audits] : []));
}

/** Copies `node` with each string chosen by `replace` swapped (a new tree; the input is not changed). */
function mapStrings(
  node: unknown,
  replace: (s: string) => unknown,
  resolveRef?: (ref: string, path: (string | number)[]) => unknown,
  path: (string | number)[] = [],
): unknown {
  if (typeof node === 'string') return replace(node);
  const ref = resolveRef ? refOf(node) : undefined;
  if (ref !== undefined) return resolveRef!(ref, path);
  if (path.length > MAX_DEPTH) return node;
  if (Array.isArray(node)) return node.map((v, i) => mapStrings(v, replace, resolveRef, [...path, i]));
  if (!isPlainObject(node)) return node;
  const out: Record<string, unknown> = Object.create(Object.getPrototypeOf(node) as object | null);
  for (const key of Object.keys(node))
    Object.defineProperty(out, key, {
      value: mapStrings(node[key], replace, resolveRef, [...path, key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/** Before the schema check: put the shared texts back where they are referred to. */
export function inflateTexts(value: unknown, ctx: z.RefinementCtx): unknown {
  if (!isPlainObject(value) || !isPlainObject(value.texts) || !isPlainObject(value.records)) return value;
  const texts = value.texts;
  const records = Object.create(null) as Record<string, unknown>;
  for (const [id, record] of Object.entries(value.records)) {
    if (!isPlainObject(record) || !Array.isArray(record.audits)) {
      records[id] = record;
      continue;
    }
    const audits = mapStrings(
      record.audits,
      (s) => s,
      (ref, path) => {
        const text = Object.hasOwn(texts, ref) ? texts[ref] : undefined;
        if (typeof text === 'string') return text;
        ctx.addIssue({
          code: 'custom',
          path: ['records', id, 'audits', ...path],
          message: `text reference ${JSON.stringify(ref)} is not in the sidecar's "texts" table`,
        });
        return '';
      },
    );
    records[id] = { ...record, audits };
  }
  return { ...value, records };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The sidecar as written: texts of at least SHARED_TEXT_MIN_CHARS that occur more than once in
 * its audits go to `texts` (rebuilt each time, so a text no audit uses any more is dropped).
 */
export function deflateTexts<T extends Record<string, unknown>>(sidecar: T): T & { texts?: Record<string, string> } {
  const counts = new Map<string, number>();
  const count = (node: unknown, depth: number): void => {
    if (typeof node === 'string') {
      if (node.length >= SHARED_TEXT_MIN_CHARS) counts.set(node, (counts.get(node) ?? 0) + 1);
    } else if (depth > MAX_DEPTH) return;
    else if (Array.isArray(node)) for (const v of node) count(v, depth + 1);
    else if (isPlainObject(node)) for (const key of Object.keys(node)) count(node[key], depth + 1);
  };
  for (const audits of auditArrays(sidecar)) count(audits, 0);
  const shared = new Map<string, string>();
  for (const [text, n] of counts) if (n > 1) shared.set(text, sha256(text));
  const { texts: _old, ...rest } = sidecar as T & { texts?: unknown };
  if (shared.size === 0) return rest as T;
  const records = Object.create(null) as Record<string, unknown>;
  for (const [id, record] of Object.entries(rest.records as Record<string, unknown>)) {
    records[id] =
      isPlainObject(record) && Array.isArray(record.audits)
        ? { ...record, audits: mapStrings(record.audits, (s) => (shared.has(s) ? { [REF]: shared.get(s)! } : s)) }
        : record;
  }
  const texts = Object.create(null) as Record<string, string>;
  for (const [text, hash] of shared) texts[hash] = text;
  return { ...rest, records, texts } as unknown as T & { texts: Record<string, string> };
}
