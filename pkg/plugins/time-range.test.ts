import { StatusError } from '../errors';
import { parseTime, parseTimeRange } from './time-range';

// Wednesday 2024-03-13 14:25:36.789 UTC.
const NOW = Date.UTC(2024, 2, 13, 14, 25, 36, 789);

describe('parseTime', () => {
  it.each([
    ['epoch ms string', '1700000000000', false, 1700000000000],
    ['epoch ms integer', 1700000000000, false, 1700000000000],
    ['zero', '0', false, 0],
    ['now', 'now', false, NOW],
    ['bare minutes', '5m', false, NOW - 300_000],
    ['bare hours', '1h', true, NOW - 3_600_000],
    ['bare days', '2d', false, NOW - 2 * 86_400_000],
    ['now-6h', 'now-6h', false, NOW - 6 * 3_600_000],
    ['now+1h', 'now+1h', false, NOW + 3_600_000],
    ['now-30s', 'now-30s', false, NOW - 30_000],
    ['now-h (one unit)', 'now-h', false, NOW - 3_600_000],
    ['now-1d/d start', 'now-1d/d', false, Date.UTC(2024, 2, 12)],
    ['now-1d/d end', 'now-1d/d', true, Date.UTC(2024, 2, 13) - 1],
    ['now/d start', 'now/d', false, Date.UTC(2024, 2, 13)],
    ['now/d end', 'now/d', true, Date.UTC(2024, 2, 14) - 1],
    ['now/h', 'now/h', false, Date.UTC(2024, 2, 13, 14)],
    ['now/w start (Monday)', 'now/w', false, Date.UTC(2024, 2, 11)],
    ['now/w end (Sunday)', 'now/w', true, Date.UTC(2024, 2, 18) - 1],
    ['now/M', 'now/M', false, Date.UTC(2024, 2, 1)],
    ['now/M end', 'now/M', true, Date.UTC(2024, 3, 1) - 1],
    ['now-1M (calendar)', 'now-1M', false, Date.UTC(2024, 1, 13, 14, 25, 36, 789)],
    ['now-1y/y', 'now-1y/y', false, Date.UTC(2023, 0, 1)],
    ['now-1y/y end', 'now-1y/y', true, Date.UTC(2024, 0, 1) - 1],
    ['chained', 'now-1d+2h/h', false, Date.UTC(2024, 2, 12, 16)],
  ])('%s: %p', (_name, value, roundUp, expected) => {
    expect(parseTime(value, roundUp, NOW)).toBe(expected);
  });

  it.each([
    ['garbage', 'yesterday'],
    ['empty', ''],
    ['negative integer', -1],
    ['fraction', 1.5],
    ['unknown unit', 'now-5x'],
    ['trailing text', 'now-5m!'],
    ['space', 'now - 5m'],
    ['ISO date', '2024-01-01'],
    ['too far', 'now-999999999y'],
    ['huge digits', '99999999999999999999'],
    ['object', { from: 1 }],
    ['boolean', true],
    ['null', null],
    ['many operations', `now${'-1s'.repeat(40)}`],
  ])('refuses %s', (_name, value) => {
    expect(parseTime(value, false, NOW)).toBeUndefined();
  });
});

describe('parseTimeRange', () => {
  it('reads both bounds, defaulting to the last 6 hours', () => {
    expect(parseTimeRange('now-5m', 'now', NOW)).toEqual({ from: NOW - 300_000, to: NOW });
    expect(parseTimeRange(1000, '2000', NOW)).toEqual({ from: 1000, to: 2000 });
    expect(parseTimeRange(undefined, undefined, NOW)).toEqual({ from: NOW - 6 * 3_600_000, to: NOW });
    expect(parseTimeRange('now-1d/d', 'now-1d/d', NOW)).toEqual({ from: Date.UTC(2024, 2, 12), to: Date.UTC(2024, 2, 13) - 1 });
  });

  it('answers 400 naming the bad bound, and for a range that ends before it starts', () => {
    const err = (f: unknown, t: unknown) => {
      try {
        parseTimeRange(f, t, NOW);
      } catch (e) {
        return e instanceof StatusError ? [e.code, e.message] : e;
      }
      return 'no error';
    };
    expect(err('garbage', 'now')).toEqual([400, expect.stringMatching(/^Invalid time range: from "garbage"/)]);
    expect(err('now', 'x'.repeat(500))).toEqual([400, expect.stringMatching(/^Invalid time range: to "x+…/)]);
    expect(err('now', 'now-1h')).toEqual([400, 'Invalid time range: from is after to']);
  });
});
