// Start times and start order for the trace readers (LangSmith runs, OpenTelemetry spans): exports
// run to tens of thousands of entries, each with an ISO 8601 time, and a regex plus Date.parse per
// entry cost more than the rest of reading it.

const ZERO = 48;

/** The digits of `text` from `start` to `end` as a number, or -1 when one is not a digit. */
function digits(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) {
    const d = text.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * Microseconds since the epoch of an ISO 8601 date-time, `YYYY-MM-DDTHH:MM:SS[.fraction][Z|±HH:MM]`
 * read by hand, anything else by Date.parse (microseconds from the fraction's digits 4–6). A time
 * without an offset is UTC when `naive` is `'utc'` (LangSmith writes naive UTC), else it is left to
 * Date.parse, which reads it as local time.
 */
export function isoMicros(value: string, naive: 'utc' | 'date-parse'): number {
  const fast = fastIsoMicros(value, naive);
  if (fast !== undefined) return fast;
  const ms = Date.parse(naive === 'utc' && !/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value + 'Z' : value);
  if (Number.isNaN(ms)) return Number.NaN;
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? '';
  return ms * 1000 + Number((fraction + '000000').slice(3, 6));
}

function fastIsoMicros(v: string, naive: 'utc' | 'date-parse'): number | undefined {
  if (v.length < 19 || v.charCodeAt(4) !== 45 || v.charCodeAt(7) !== 45 || v.charCodeAt(13) !== 58 || v.charCodeAt(16) !== 58) return undefined;
  const separator = v.charCodeAt(10);
  if (separator !== 84 && separator !== 116 && separator !== 32) return undefined; // T, t or a space
  const year = digits(v, 0, 4);
  const month = digits(v, 5, 7);
  const day = digits(v, 8, 10);
  const hour = digits(v, 11, 13);
  const minute = digits(v, 14, 16);
  const second = digits(v, 17, 19);
  // Days past the 28th, hour 24, leap seconds and years below 100 (Date.UTC reads 50 as 1950) are Date.parse's to judge.
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > 28 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59)
    return undefined;
  let i = 19;
  let micros = 0;
  if (v.charCodeAt(i) === 46) {
    // Up to nine fraction digits; the first six are microseconds.
    const start = ++i;
    while (i < v.length && v.charCodeAt(i) >= ZERO && v.charCodeAt(i) <= ZERO + 9) i++;
    if (i === start || i - start > 9) return undefined;
    const six = Math.min(i - start, 6);
    micros = digits(v, start, start + six) * 10 ** (6 - six);
  }
  let offsetMinutes = 0;
  if (i === v.length) {
    if (naive !== 'utc') return undefined;
  } else if ((v.charCodeAt(i) === 90 || v.charCodeAt(i) === 122) && i + 1 === v.length) {
    // Z
  } else if ((v.charCodeAt(i) === 43 || v.charCodeAt(i) === 45) && i + 6 === v.length && v.charCodeAt(i + 3) === 58) {
    const hours = digits(v, i + 1, i + 3);
    const minutes = digits(v, i + 4, i + 6);
    if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return undefined;
    offsetMinutes = (v.charCodeAt(i) === 43 ? 1 : -1) * (hours * 60 + minutes);
  } else return undefined;
  return (Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60000) * 1000 + micros;
}

/**
 * The source indexes in start order, ties (and unreadable times, NaN) in source order — or
 * undefined when the entries are in start order already (exports mostly are), so nothing is copied.
 */
export function startOrder(starts: ArrayLike<number>): number[] | undefined {
  let ordered = true;
  for (let i = 0; i < starts.length && ordered; i++) ordered = !Number.isNaN(starts[i]) && (i === 0 || starts[i] >= starts[i - 1]);
  if (ordered) return undefined;
  const indexes = Array.from({ length: starts.length }, (_, i) => i);
  return indexes.sort((a, b) => starts[a] - starts[b] || a - b);
}
