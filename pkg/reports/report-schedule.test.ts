import type { ReportSchedule } from '../../apis';
import { nextRun } from './report-schedule';

const s = (schedule: Partial<ReportSchedule>): ReportSchedule => ({ frequency: 'daily', intervalFrequency: '', intervalAmount: 0, workdaysOnly: false, dayOfMonth: '', timeZone: 'UTC', ...schedule });
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

test('periodic schedules repeat at their start time', () => {
  const start = '2026-01-01T09:00:00.000Z';
  expect(iso(nextRun(s({ frequency: 'daily', startDate: start }), 'scheduled', at('2026-01-05T10:00:00Z'), 0))).toBe('2026-01-06T09:00:00.000Z');
  expect(iso(nextRun(s({ frequency: 'daily', startDate: start }), 'scheduled', at('2026-01-05T09:00:00Z'), 0))).toBe('2026-01-05T09:00:00.000Z');
  expect(iso(nextRun(s({ frequency: 'hourly', startDate: start }), 'scheduled', at('2026-01-05T10:30:00Z'), 0))).toBe('2026-01-05T11:00:00.000Z');
  expect(iso(nextRun(s({ frequency: 'weekly', startDate: start }), 'scheduled', at('2026-01-02T00:00:00Z'), 0))).toBe('2026-01-08T09:00:00.000Z');
  expect(iso(nextRun(s({ frequency: 'custom', intervalFrequency: 'days', intervalAmount: 3, startDate: start }), 'scheduled', at('2026-01-02T00:00:00Z'), 0))).toBe('2026-01-04T09:00:00.000Z');
  // Before its start, the start.
  expect(iso(nextRun(s({ frequency: 'daily', startDate: start }), 'scheduled', at('2025-12-01T00:00:00Z'), 0))).toBe(start);
  // Without a start, from when it was saved.
  expect(iso(nextRun(s({ frequency: 'hourly' }), 'scheduled', at('2026-01-01T00:10:00Z'), at('2026-01-01T00:00:00Z')))).toBe('2026-01-01T01:00:00.000Z');
});

test('monthly and last-day schedules follow the calendar', () => {
  expect(iso(nextRun(s({ frequency: 'monthly', startDate: '2026-01-31T08:00:00Z' }), 'scheduled', at('2026-02-01T00:00:00Z'), 0))).toBe('2026-02-28T08:00:00.000Z');
  expect(iso(nextRun(s({ frequency: 'last', startDate: '2026-01-10T08:00:00Z' }), 'scheduled', at('2026-01-10T09:00:00Z'), 0))).toBe('2026-01-31T08:00:00.000Z');
  expect(iso(nextRun(s({ frequency: 'custom', intervalFrequency: 'months', intervalAmount: 2, startDate: '2026-01-15T08:00:00Z' }), 'scheduled', at('2026-01-16T00:00:00Z'), 0))).toBe('2026-03-15T08:00:00.000Z');
});

test('workdays only skips weekends in the schedule\'s time zone', () => {
  // 2026-01-03 is a Saturday.
  expect(iso(nextRun(s({ frequency: 'daily', startDate: '2026-01-01T09:00:00Z', workdaysOnly: true }), 'scheduled', at('2026-01-02T10:00:00Z'), 0))).toBe('2026-01-05T09:00:00.000Z');
  // 23:30 UTC on Friday is already Saturday in Tokyo.
  expect(iso(nextRun(s({ frequency: 'daily', startDate: '2026-01-01T23:30:00Z', workdaysOnly: true, timeZone: 'Asia/Tokyo' }), 'scheduled', at('2026-01-02T00:00:00Z'), 0))).toBe('2026-01-04T23:30:00.000Z');
});

test('nothing is due once, after the end, or for a report that is not scheduled', () => {
  expect(iso(nextRun(s({ frequency: 'once', startDate: '2026-01-01T09:00:00Z' }), 'scheduled', at('2026-01-01T08:00:00Z'), 0))).toBe('2026-01-01T09:00:00.000Z');
  expect(nextRun(s({ frequency: 'once', startDate: '2026-01-01T09:00:00Z' }), 'scheduled', at('2026-01-01T09:00:01Z'), 0)).toBeUndefined();
  expect(nextRun(s({ frequency: 'daily', startDate: '2026-01-01T09:00:00Z', endDate: '2026-01-03T00:00:00Z' }), 'scheduled', at('2026-01-03T00:00:00Z'), 0)).toBeUndefined();
  expect(nextRun(s({ frequency: 'never' }), 'scheduled', 0, 0)).toBeUndefined();
  expect(nextRun(s({ frequency: 'daily' }), 'paused', 0, 0)).toBeUndefined();
  expect(nextRun(s({ frequency: 'daily' }), 'draft', 0, 0)).toBeUndefined();
});
