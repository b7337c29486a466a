// Statistics shared by the scorers (docs/metrics.md). Pure functions, no I/O.
import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';
import { mulberry32 } from '../random';

// simple-statistics is a "type": "module" package whose types TypeScript reads as ESM only; its
// CommonJS build (the "require" export) is loaded here, typed by the ESM declarations.
type SimpleStatistics = typeof import('simple-statistics', { with: { 'resolution-mode': 'import' } });
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS build, see above
const { mean: ssMean, quantileSorted, sampleStandardDeviation } = require('simple-statistics') as SimpleStatistics;

/** 97.5th percentile of the standard normal, the z of every 95% interval here. */
export const Z95 = 1.959963984540054;

/** Arithmetic mean; 0 for an empty list (a metric over no cases is reported as 0, not NaN). */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : ssMean(values as number[]);
}

/** Mean, or null for an empty list (where "no value" must stay distinguishable from 0). */
export function meanOrNull(values: readonly number[]): number | null {
  return values.length === 0 ? null : ssMean(values as number[]);
}

/** n/d, or 0 when d is 0 (the zero-denominator convention of docs/metrics.md). */
export function ratio(n: number, d: number): number {
  return d === 0 ? 0 : n / d;
}

/**
 * Quantile by linear interpolation between closest ranks — numpy's default (`method="linear"`,
 * Hyndman–Fan type 7): h = (n−1)·p, x[⌊h⌋] + (h−⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]).
 * simple-statistics 7.12 `quantileSorted` implements exactly this (checked in the unit tests
 * against numpy values), so it is used as is. Null for an empty list.
 */
export function quantileLinear(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return quantileSorted(sorted, p);
}

/** quantileLinear of values already in ascending order (neither copied nor sorted again). */
export function quantileLinearSorted(sorted: readonly number[] | Float64Array, p: number): number | null {
  // quantileSorted reads only `length` and indexes, so a typed array serves as well as an array.
  return sorted.length === 0 ? null : quantileSorted(sorted as readonly number[], p);
}

export type Interval = [number, number];

/** Wilson score interval for a proportion k/n; null when n = 0. */
export function wilson(k: number, n: number, z = Z95): Interval | null {
  if (n === 0) return null;
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return [clamp01(centre - half), clamp01(centre + half)];
}

/** Normal interval mean ± z·s/√n with the sample standard deviation; null when n < 2 (s undefined). */
export function normalInterval(values: readonly number[], z = Z95): Interval | null {
  if (values.length < 2) return null;
  const m = ssMean(values as number[]);
  const half = (z * sampleStandardDeviation(values as number[])) / Math.sqrt(values.length);
  return [m - half, m + half];
}

/** Exact (Clopper–Pearson) binomial interval for k successes in n trials; null when n = 0. */
export function clopperPearson(k: number, n: number, confidence = 0.95): Interval | null {
  if (n === 0) return null;
  const alpha = 1 - confidence;
  const lo = k === 0 ? 0 : betaQuantile(alpha / 2, k, n - k + 1);
  const hi = k === n ? 1 : betaQuantile(1 - alpha / 2, k + 1, n - k);
  return [lo, hi];
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

export const BOOTSTRAP_SEED = 20260101;
export const BOOTSTRAP_RESAMPLES = 10_000;

/**
 * Percentile bootstrap of the mean of paired differences: `resamples` resamples of the n
 * differences drawn with replacement (mulberry32 with a fixed seed), the interval is the 2.5th
 * and 97.5th percentiles (numpy linear) of the resampled means. Null when there are no pairs.
 */
export function bootstrapMeanInterval(differences: readonly number[], options: { resamples?: number; seed?: number } = {}): Interval | null {
  const n = differences.length;
  if (n === 0) return null;
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const random = mulberry32(options.seed ?? BOOTSTRAP_SEED);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += differences[Math.floor(random() * n)];
    means[r] = sum / n;
  }
  means.sort();
  const sorted = Array.from(means);
  return [quantileSorted(sorted, 0.025), quantileSorted(sorted, 0.975)];
}

/** Rounds for display and JSON stability (12 significant decimals removes float noise like 0.30000000000000004). */
export function tidy(x: number): number {
  return Number.isFinite(x) ? Number(x.toFixed(12)) : x;
}
