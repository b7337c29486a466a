import assert from 'node:assert/strict';
import { scrubSecrets } from '../../../src/core/providers/errors';
import { backoffDelayMs, retryAfterFromHeaders } from '../../../src/core/providers/retry';

const policy = { baseDelayMs: 500, maxDelayMs: 8_000, retryAfterMaxMs: 60_000 };

describe('providers: retry timing', () => {
  it('backs off exponentially with equal jitter, capped', () => {
    const low = (n: number) => backoffDelayMs(n, policy, undefined, () => 0);
    const high = (n: number) => backoffDelayMs(n, policy, undefined, () => 1);
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map(high), [500, 1000, 2000, 4000, 8000, 8000, 8000]);
    assert.deepEqual([1, 2, 3].map(low), [250, 500, 1000], 'jitter draws from the upper half');
    for (let i = 0; i < 100; i++) {
      const d = backoffDelayMs(3, policy);
      assert.ok(d >= 1000 && d <= 2000);
    }
  });

  it('uses the server retry-after instead, capped at retryAfterMaxMs', () => {
    assert.equal(backoffDelayMs(1, policy, 1500), 1500);
    assert.equal(backoffDelayMs(1, policy, 0), 0);
    assert.equal(backoffDelayMs(1, policy, 3_600_000), 60_000);
    assert.equal(backoffDelayMs(1, policy, -5), 0);
  });

  it('reads retry-after-ms, retry-after seconds and HTTP dates', () => {
    const h = (o: Record<string, string>) => new Headers(o);
    assert.equal(retryAfterFromHeaders(h({ 'retry-after-ms': '250' })), 250);
    assert.equal(retryAfterFromHeaders(h({ 'retry-after': '2' })), 2000);
    assert.equal(retryAfterFromHeaders(h({ 'retry-after-ms': '10', 'retry-after': '2' })), 10);
    const date = retryAfterFromHeaders(h({ 'retry-after': new Date(Date.now() + 5_000).toUTCString() }))!;
    assert.ok(date > 3_000 && date <= 5_000);
    assert.equal(retryAfterFromHeaders(h({ 'retry-after': 'soon' })), undefined);
    assert.equal(retryAfterFromHeaders(h({})), undefined);
    assert.equal(retryAfterFromHeaders(undefined), undefined);
  });
});

describe('providers: secret scrubbing', () => {
  it('removes the given key and anything key-shaped', () => {
    const key = 'my-custom-gateway-key-42';
    assert.equal(scrubSecrets(`bad key ${key}!`, [key]), 'bad key [redacted]!');
    assert.equal(scrubSecrets('Incorrect API key provided: sk-proj-abc123def456ghi'), 'Incorrect API key provided: [redacted]');
    assert.equal(scrubSecrets('Incorrect API key provided: sk-abc1*********wxyz'), 'Incorrect API key provided: [redacted]');
    assert.equal(scrubSecrets('header Authorization: Bearer abcdefghijkl'), 'header Authorization: Bearer [redacted]');
    assert.equal(scrubSecrets('{"x-api-key": "abcdefghijkl"}'), '{"x-api-key": "[redacted]"}');
    assert.equal(scrubSecrets('nothing secret here', ['none']), 'nothing secret here', 'short "secrets" are not scrubbed');
  });
});
