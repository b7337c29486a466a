import assert from 'node:assert/strict';
import { bootstrapMeanInterval, clopperPearson, mean, meanOrNull, normalInterval, quantileLinear, ratio, wilson } from '../../../src/core/scoring/stats';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- simple-statistics' CommonJS build, as src/core/scoring/stats.ts loads it
const { quantileSorted } = require('simple-statistics') as { quantileSorted: (x: number[], p: number) => number };

const close = (actual: number | null | undefined, expected: number, eps = 1e-9) => {
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < eps, `expected ${expected}, got ${actual}`);
};

describe('scoring statistics', () => {
  it('quantiles use numpy linear interpolation (values from numpy.percentile)', () => {
    // numpy: percentile([1,2,3,4], 90) = 3.7, 50 → 2.5; [0, 41.67, 100] 90 → 88.33; [3,1,2] 25 → 1.5; [10..50] 90 → 46.
    close(quantileLinear([1, 2, 3, 4], 0.9), 3.7);
    close(quantileLinear([4, 3, 2, 1], 0.5), 2.5);
    close(quantileLinear([0, 125 / 3, 100], 0.9), 88.33333333333334);
    close(quantileLinear([3, 1, 2], 0.25), 1.5);
    close(quantileLinear([10, 20, 30, 40, 50], 0.9), 46);
    close(quantileLinear([7], 0.9), 7);
    assert.equal(quantileLinear([], 0.5), null);
    // simple-statistics' quantileSorted is the same method (this is why it is used as is).
    close(quantileSorted([1, 2, 3, 4], 0.9), 3.7);
  });

  it('means and ratios follow the zero conventions', () => {
    assert.equal(mean([]), 0);
    assert.equal(meanOrNull([]), null);
    close(mean([1, 2, 6]), 3);
    assert.equal(ratio(3, 0), 0);
    close(ratio(1, 4), 0.25);
  });

  it('Wilson score intervals (hand/numpy values)', () => {
    const w = wilson(1, 5);
    close(w?.[0], 0.03622410863243014);
    close(w?.[1], 0.6244653702374747);
    const zero = wilson(0, 5);
    close(zero?.[0], 0);
    close(zero?.[1], 0.43448246478317476);
    assert.equal(wilson(0, 0), null);
  });

  it('normal intervals use the sample standard deviation; undefined below n = 2', () => {
    const ci = normalInterval([1, 0.5, 0, 0, 0.8]);
    close(ci?.[0], 0.06024421587564788);
    close(ci?.[1], 0.859755784124352);
    assert.equal(normalInterval([0.5]), null);
    assert.equal(normalInterval([]), null);
  });

  it('Clopper–Pearson exact intervals (scipy beta.ppf values)', () => {
    const a = clopperPearson(2, 3);
    close(a?.[0], 0.09429932405024609, 1e-9);
    close(a?.[1], 0.9915962413403874, 1e-9);
    assert.deepEqual(clopperPearson(0, 4)?.[0], 0);
    close(clopperPearson(0, 4)?.[1], 0.6023646356164746, 1e-9);
    assert.equal(clopperPearson(2, 2)?.[1], 1);
    close(clopperPearson(2, 2)?.[0], 0.15811388300841897, 1e-9);
    close(clopperPearson(97, 100)?.[0], 0.91482394702572, 1e-9);
    close(clopperPearson(97, 100)?.[1], 0.9937700284616936, 1e-9);
    assert.equal(clopperPearson(0, 0), null);
  });

  it('the paired bootstrap is reproducible (fixed seed) and bounded by the data', () => {
    const d = [1, 4, -2, 3, 0.5];
    const a = bootstrapMeanInterval(d);
    const b = bootstrapMeanInterval(d);
    assert.deepEqual(a, b);
    assert.ok(a && a[0] < mean(d) && mean(d) < a[1]);
    assert.ok(a && a[0] >= -2 && a[1] <= 4);
    const many = Array.from({ length: 40 }, (_, i) => Math.sin(i) * 10 + i / 4);
    assert.notDeepEqual(bootstrapMeanInterval(many, { seed: 7 }), bootstrapMeanInterval(many));
    assert.deepEqual(bootstrapMeanInterval([5]), [5, 5]);
    assert.equal(bootstrapMeanInterval([]), null);
  });
});
