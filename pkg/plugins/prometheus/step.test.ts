import { formatInterval, goDuration, parseInterval, roundInterval } from './duration';
import { IntervalError, interpolate, stepMs, type StepInput } from './step';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const hour = { from: 1_700_000_000_000, to: 1_700_000_000_000 + H };
const base: StepInput = { range: hour, interval: '', intervalFactor: 1, intervalMs: 1000, maxDataPoints: 100 };

describe('the step of a Prometheus query (anchor-breadth §3.6)', () => {
  test.each<[string, Partial<StepInput>, number]>([
    ["the reference's example: 1 h over 100 points is 36 s, rounded to 30 s", {}, 30 * S],
    ['5 min over 100 points: 3 s rounds to 2 s', { range: { from: 0, to: 5 * M } }, 2 * S],
    ['below the request interval (intervalMs): the interval', { range: { from: 0, to: 5 * M }, maxDataPoints: 1000 }, S],
    ['a query interval is the minimum step', { interval: '1m' }, M],
    ['a query interval below the calculated one changes nothing', { interval: '10s' }, 30 * S],
    ['a variable as interval counts as unset', { interval: '$__interval' }, 30 * S],
    ['so does ${__interval}', { interval: '${__interval}' }, 30 * S],
    ['0s counts as unset', { interval: '0s', range: { from: 0, to: 5 * M }, maxDataPoints: 1000 }, S],
    ['`>10s` is 10 s at least', { interval: '>10s', range: { from: 0, to: 5 * M } }, 10 * S],
    ['a bare number is seconds', { interval: '15', range: { from: 0, to: 5 * M } }, 15 * S],
    ['no interval and intervalMs 0: the scrape interval', { intervalMs: 0, scrapeInterval: '10s', range: { from: 0, to: 5 * M } }, 10 * S],
    ['no interval, intervalMs 0, no scrape interval: 15 s', { intervalMs: 0, range: { from: 0, to: 5 * M } }, 15 * S],
    ['the minimum wins over the unrounded calculation (1.6 s raw, 1.8 s minimum)', { range: { from: 0, to: 160 * S }, interval: '1800ms' }, 1800],
    ['maxDataPoints 0 means 1500: 1 h / 1500 = 2.4 s → 2 s', { maxDataPoints: 0 }, 2 * S],
    ['the 11,000-point limit: 7 days at 1,000,000 points is 1 s, but 7 d / 11,000 = 55 s → 1 min', { range: { from: 0, to: 7 * D }, maxDataPoints: 1_000_000 }, M],
    ['intervalFactor multiplies the step', { intervalFactor: 2 }, 60 * S],
    ['intervalFactor 0 counts as 1', { intervalFactor: 0 }, 30 * S],
    ['interval $__rate_interval: max(step + 15 s, 4 × 15 s)', { interval: '$__rate_interval' }, 60 * S],
    ['interval $__rate_interval with a 5 s scrape: max(30 s + 5 s, 20 s)', { interval: '$__rate_interval', scrapeInterval: '5s' }, 35 * S],
    ['interval $__rate_interval ignores intervalFactor', { interval: '$__rate_interval', intervalFactor: 3 }, 60 * S],
    ['30 days over 100 points: 7.2 h → 6 h', { range: { from: 0, to: 30 * D } }, 6 * H],
    ['a year over 100 points: 3.65 d → 24 h', { range: { from: 0, to: 365 * D } }, 24 * H],
  ])('%s', (_name, change, expected) => {
    expect(stepMs({ ...base, ...change })).toBe(expected);
  });

  it('an interval that is no duration is an IntervalError naming it', () => {
    expect(() => stepMs({ ...base, interval: 'soon' })).toThrow(IntervalError);
    expect(() => stepMs({ ...base, interval: 'soon' })).toThrow('invalid interval: "soon"');
    expect(() => stepMs({ ...base, intervalMs: 0, scrapeInterval: '1 minute' })).toThrow(IntervalError);
  });
});

describe('the rounding table', () => {
  test.each<[number, number]>([
    [0, 1],
    [10, 1],
    [11, 10],
    [15, 10],
    [16, 20],
    [36, 50],
    [151, 200],
    [751, S],
    [1500, S],
    [1501, 2 * S],
    [3501, 5 * S],
    [7501, 10 * S],
    [12501, 15 * S],
    [17501, 20 * S],
    [25001, 30 * S],
    [45001, M],
    [90001, 2 * M],
    [210001, 5 * M],
    [450001, 10 * M],
    [750001, 15 * M],
    [1050001, 20 * M],
    [1500001, 30 * M],
    [2700001, H],
    [5400001, 2 * H],
    [9000001, 3 * H],
    [16200001, 6 * H],
    [32400001, 12 * H],
    [D + 1, D],
    [2 * D + 1, D],
    [7 * D + 1, 7 * D],
    [21 * D + 1, 30 * D],
    [2 * 365 * D, 365 * D],
  ])('%d ms → %d ms', (ms, rounded) => {
    expect(roundInterval(ms)).toBe(rounded);
  });
});

describe('durations as text', () => {
  it('parses the units of the anchor, combined, and refuses the rest', () => {
    expect(parseInterval('1m30s')).toBe(90 * S);
    expect(parseInterval('500ms')).toBe(500);
    expect(parseInterval('1.5h')).toBe(90 * M);
    expect(parseInterval('2d')).toBe(2 * D);
    expect(parseInterval('1w')).toBe(7 * D);
    expect(parseInterval('<5m')).toBe(5 * M);
    expect(parseInterval('')).toBeUndefined();
    expect(parseInterval('5 m')).toBeUndefined();
    expect(parseInterval('-5m')).toBeUndefined();
  });

  it('writes $__interval as the largest whole unit and Go durations for the rest', () => {
    expect([formatInterval(30 * S), formatInterval(90 * S), formatInterval(2 * D), formatInterval(500), formatInterval(0.5)]).toEqual(['30s', '1m', '2d', '500ms', '1ms']);
    expect([goDuration(30 * S), goDuration(M), goDuration(75 * S), goDuration(H + 30 * M), goDuration(500), goDuration(1500), goDuration(0)]).toEqual(['30s', '1m0s', '1m15s', '1h30m0s', '500ms', '1s500ms', '0s']);
  });
});

describe('variables in the expression', () => {
  it('replaces the interval, rate interval and range variables in both spellings, longest name first', () => {
    const expr = 'rate(x[$__interval]) + rate(x[${__rate_interval}]) / $__interval_ms + $__rate_interval_ms + $__range_ms + $__range_s + count_over_time(x[$__range]) + ${__interval}';
    expect(interpolate(expr, 30 * S, hour, undefined, '')).toBe('rate(x[30s]) + rate(x[1m0s]) / 30000 + 60000 + 3600000 + 3600 + count_over_time(x[3600s]) + 30s');
  });

  it('builds $__rate_interval on the data source scrape interval; a step that already is the rate interval is kept', () => {
    expect(interpolate('rate(x[$__rate_interval])', 30 * S, hour, '5s', '')).toBe('rate(x[35s])');
    expect(interpolate('rate(x[$__rate_interval])', 60 * S, hour, undefined, '$__rate_interval')).toBe('rate(x[1m0s])');
  });

  it('leaves unknown variables and text that only looks like one alone', () => {
    expect(interpolate('up{job="$job"} + $__intervalx + $__from', 30 * S, hour, undefined, '')).toBe('up{job="$job"} + $__intervalx + $__from');
  });
});
