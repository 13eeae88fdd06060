import { durationMs, raisedRefresh } from './dashboard-refresh';

describe('refresh', () => {
  it('parses the anchor durations', () => {
    expect([durationMs('500ms'), durationMs('5s'), durationMs('1m'), durationMs('2h'), durationMs('1d'), durationMs('1w'), durationMs('soon')]).toEqual([
      500, 5000, 60000, 7200000, 86400000, 604800000, undefined,
    ]);
  });

  it('raises a refresh below the minimum, and one it cannot read, to the minimum', () => {
    expect(['1s', 'often', '5s', '1h', '', false, undefined].map((r) => raisedRefresh(r, '5s'))).toEqual(['5s', '5s', '5s', '1h', '', false, undefined]);
  });

  it('keeps every refresh when no minimum is configured', () => {
    expect(raisedRefresh('1ms', undefined)).toBe('1ms');
  });
});
