// Wall-clock timing for the load benches: one run, and the best of several with a GC between.

export function time(fn: () => void): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The fastest of `runs` runs (garbage collected before each when node runs with --expose-gc). */
export function best(runs: number, fn: () => void): number {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    min = Math.min(min, time(fn));
  }
  return min;
}

/**
 * The fastest run of `fn`, repeated at least `minRuns` times and until `minMs` have been spent:
 * a reader's JavaScript reaches its optimised tiers only after a few runs of a small file (a
 * 4 MiB file's load fell 66 → 45 → 17 → 13 ms), which a fixed best of 3 would not wait for.
 */
export function bestSteady(minRuns: number, minMs: number, fn: () => void): number {
  let min = Infinity;
  let spent = 0;
  for (let i = 0; i < minRuns || spent < minMs; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    const ms = time(fn);
    spent += ms;
    min = Math.min(min, ms);
  }
  return min;
}
