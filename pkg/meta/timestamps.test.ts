import { LAST_TIMESTAMP_MS, rfc3339, secondsAfter } from './timestamps';

describe('secondsAfter', () => {
  it('writes the instant rounded up to the second, as RFC 3339 with a four-digit year', () => {
    expect(secondsAfter(0, 90)).toBe('1970-01-01T00:01:30Z');
    expect(secondsAfter(1500, 1)).toBe('1970-01-01T00:00:03Z');
  });

  it('answers undefined past 9999-12-31T23:59:59Z, where Date would throw or write a six-digit year', () => {
    const now = Date.UTC(2026, 10, 27);
    const last = (LAST_TIMESTAMP_MS - now) / 1000;
    expect(secondsAfter(now, last)).toBe('9999-12-31T23:59:59Z');
    expect(secondsAfter(now, last + 1)).toBeUndefined();
    expect(secondsAfter(now, 99999999999999)).toBeUndefined();
    expect(secondsAfter(now, Number.MAX_SAFE_INTEGER)).toBeUndefined();
    expect(() => rfc3339(now + 99999999999999 * 1000)).toThrow(RangeError);
  });
});
