/**
 * The audit a view, a score or an export uses by default: the newest (latest createdAt; ties and
 * missing dates: the later in the list), of `method` when given.
 */
export function newestAudit<T extends { method: string; createdAt?: string | null }>(audits: readonly T[] | null | undefined, method?: string): T | undefined {
  let best: T | undefined;
  for (const a of audits ?? []) {
    if (method && a.method !== method) continue;
    if (!best || (a.createdAt ?? '').localeCompare(best.createdAt ?? '') >= 0) best = a;
  }
  return best;
}
