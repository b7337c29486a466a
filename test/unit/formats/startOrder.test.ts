// The trace readers' hand-read ISO 8601 times agree with Date.parse (what they used before), and
// their start order keeps ties and unreadable times in source order.
import assert from 'node:assert/strict';
import { isoMicros, startOrder } from '../../../src/core/formats/startOrder';

/** The readers' former reading: Date.parse, the fraction's digits 4–6 as microseconds. */
function byDateParse(value: string, naive: 'utc' | 'date-parse'): number {
  const ms = Date.parse(naive === 'utc' && !/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value + 'Z' : value);
  if (Number.isNaN(ms)) return Number.NaN;
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? '';
  return ms * 1000 + Number((fraction + '000000').slice(3, 6));
}

const TIMES = [
  '2024-05-01T10:00:00',
  '2024-05-01T10:00:00.1',
  '2024-05-01T10:00:00.123',
  '2024-05-01T10:00:00.123456',
  '2024-05-01T10:00:00.123456789Z',
  '2024-05-01T10:00:00.000001Z',
  '2024-05-01t10:00:00z',
  '2024-05-01 10:00:00.5',
  '2024-12-31T23:59:59.999999+00:00',
  '2024-03-10T01:30:00.25+05:30',
  '2024-03-10T01:30:00-08:00',
  '2024-02-29T12:00:00Z',
  '2023-02-29T12:00:00Z',
  '2024-04-31T00:00:00Z',
  '2024-05-01T24:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-05-01T10:60:00Z',
  '0050-05-01T10:00:00Z',
  '2024-05-01T10:00:00+0530',
  '2024-05-01',
  '2024-05-01T10:00Z',
  'May 1, 2024 10:00:00 GMT',
  'not a time',
  '',
];

describe('trace start times', () => {
  for (const naive of ['utc', 'date-parse'] as const)
    it(`isoMicros reads every time as Date.parse does (naive times: ${naive})`, () => {
      for (const time of TIMES) assert.deepEqual(isoMicros(time, naive), byDateParse(time, naive), JSON.stringify(time));
    });

  it('isoMicros agrees with Date.parse over a sweep of dates, fractions and offsets', () => {
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    for (let i = 0; i < 3000; i++) {
      const fraction =
        i % 4 === 0
          ? ''
          : '.' +
            String((i * 7919) % 1e9)
              .padStart(9, '0')
              .slice(0, 1 + (i % 9));
      const offset = ['', 'Z', `+${pad(i % 14)}:${pad((i * 15) % 60)}`, `-${pad(i % 12)}:30`][i % 4];
      const time = `${1970 + (i % 90)}-${pad(1 + (i % 12))}-${pad(1 + (i % 31))}T${pad(i % 24)}:${pad((i * 7) % 60)}:${pad((i * 13) % 60)}${fraction}${offset}`;
      assert.deepEqual(isoMicros(time, 'utc'), byDateParse(time, 'utc'), time);
      assert.deepEqual(isoMicros(time, 'date-parse'), byDateParse(time, 'date-parse'), time);
    }
  });

  it('startOrder: undefined when already in order, else the indexes by start with ties and NaN in source order', () => {
    assert.equal(startOrder([1, 2, 2, 5]), undefined);
    assert.equal(startOrder([]), undefined);
    assert.deepEqual(startOrder([5, 1, 3, 1]), [1, 3, 2, 0]);
    assert.deepEqual(startOrder([3, 1, 2]), [1, 2, 0]);
    const withNaN = startOrder([Number.NaN, 1]);
    assert.ok(withNaN, 'a NaN start is not taken as in order');
    assert.deepEqual([...withNaN].sort(), [0, 1]);
  });
});
