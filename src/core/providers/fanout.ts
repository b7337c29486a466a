// Running several requests that share a cacheable prefix.

/** Starts every task at once; results keep the tasks' order. */
export async function allAtOnce<T>(tasks: ReadonlyArray<() => Promise<T>>): Promise<T[]> {
  return Promise.all(tasks.map((task) => task()));
}

/**
 * Runs the first task alone, then the others in parallel. A provider's prompt
 * cache entry becomes readable only once the request that writes it has been
 * answered (Anthropic: once the response starts; for a non-streaming call that is
 * its completion), so N requests fired at once over the same long prefix all pay
 * for it in full — on Anthropic each one even pays the 1.25× cache-write price.
 * Warming with one request first costs one extra request's latency and saves
 * (N-1) × prefix input at the cached rate. Results keep the tasks' order; the
 * first rejection rejects the whole (the others still run to completion).
 */
export async function warmThenParallel<T>(tasks: ReadonlyArray<() => Promise<T>>): Promise<T[]> {
  if (tasks.length === 0) return [];
  const first = await tasks[0]();
  const rest = await Promise.all(tasks.slice(1).map((task) => task()));
  return [first, ...rest];
}
