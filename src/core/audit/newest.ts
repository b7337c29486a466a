// Which audit of a record is the newest: one rule for the host (record list, scores, exports)
// and the webview (audit panel, markers). Pure, no Node or VS Code: the webview bundles it.

interface Stamped {
  createdAt?: string | null;
}

// ISO 8601 / RFC 3339 date or date-time: `2026-01-02`, `2026-01-02T10:00+02:00`,
// `2026-01-02 10:00:00.123Z`. Read by hand rather than with Date.parse, whose reading of
// stamps without an offset depends on the machine's time zone.
const STAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

/**
 * The instant of an audit's `createdAt` in milliseconds since the epoch, or undefined when it
 * is missing or not an ISO 8601 date(-time). A stamp without an offset is read as UTC, so the
 * reading is the same on every machine.
 */
export function auditInstant(createdAt: string | null | undefined): number | undefined {
  if (typeof createdAt !== 'string') return undefined;
  const m = STAMP.exec(createdAt.trim());
  if (!m) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part))) as number[];
  const millis = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const offsetHours = m[10] === undefined ? 0 : Number(m[10]);
  const offsetMinutes = m[11] === undefined ? 0 : Number(m[11]);
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC rolls 31 February over into March; such a date is not a date.
  if (new Date(local).getUTCDate() !== day) return undefined;
  const offset = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return local - offset;
}

/**
 * The audits oldest → newest, by the instant of `createdAt` (so `10:00+02:00` is before
 * `09:00Z`). Ties in instant keep file order (the later entry is the newer). Audits without a
 * readable `createdAt` (missing, or not ISO 8601) are older than every dated one, in file order.
 */
export function sortAuditsOldestFirst<T extends Stamped>(audits: readonly T[] | null | undefined): T[] {
  return (audits ?? [])
    .map((audit, index) => ({ audit, index, instant: auditInstant(audit.createdAt) }))
    .sort((a, b) => {
      if (a.instant !== b.instant) {
        if (a.instant === undefined) return -1;
        if (b.instant === undefined) return 1;
        return a.instant - b.instant;
      }
      return a.index - b.index;
    })
    .map((entry) => entry.audit);
}

/** The id of an audit as written in a sidecar: its method, plus `:<variant>` for a SearchAuditor ablation (`searchauditor:vote`). */
export function auditMethodId(audit: { method: string; options?: unknown }): string {
  const variant = (audit.options as { variant?: unknown } | null | undefined)?.variant;
  return typeof variant === 'string' && variant !== '' && variant !== 'full' ? `${audit.method}:${variant}` : audit.method;
}

/** Whether an audit is of `wanted`: a plain method name matches every audit of it; `method:ablation` only that ablation. */
export function auditMatchesMethod(audit: { method: string; options?: unknown }, wanted: string): boolean {
  return wanted.includes(':') ? auditMethodId(audit) === wanted : audit.method === wanted;
}

/**
 * The audit a view, a score or an export uses by default: the last of sortAuditsOldestFirst,
 * among the audits of `method` when given (`method:ablation`, e.g. `searchauditor:vote`, only that ablation).
 */
export function newestAudit<T extends Stamped & { method: string; options?: unknown }>(
  audits: readonly T[] | null | undefined,
  method?: string,
): T | undefined {
  const sorted = sortAuditsOldestFirst(method ? (audits ?? []).filter((a) => auditMatchesMethod(a, method)) : audits);
  return sorted[sorted.length - 1];
}
