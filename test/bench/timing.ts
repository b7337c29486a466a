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
