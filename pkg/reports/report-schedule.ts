import type { ReportSchedule, ReportSpec } from '../../apis';

/**
 * When a report is next due, from its schedule (the anchor's frequencies). Pure. The schedule starts at `startDate`
 * (else when the report was saved) and repeats at its start's time: every hour, day or week (`custom`: every
 * `intervalAmount` hours, days, weeks or months), on the same day of each month (`monthly`, the month's last day when
 * it is shorter) or on the last day of each month (`last`); `once` is its start alone. `workdaysOnly` skips Saturdays
 * and Sundays in the schedule's time zone (hourly and daily). Nothing is due after `endDate`, nor for a `never`,
 * `paused` or `draft` report. Steps are in UTC: across a daylight-saving change the local hour moves by one.
 *
 * @example nextRun({ frequency: 'daily', startDate: '2026-01-01T09:00:00Z', ... }, 'scheduled', Date.parse('2026-01-05T10:00:00Z'), 0) // 2026-01-06T09:00:00Z
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STEP_MS: Readonly<Record<string, number>> = { hourly: HOUR, daily: DAY, weekly: 7 * DAY, hours: HOUR, days: DAY, weeks: 7 * DAY };
/** A schedule yields a due time within this many steps, or none (a workdays-only rule looks a few days ahead). */
const MAX_STEPS = 10_000;

function weekday(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short' }).format(new Date(ms));
}

/** `start` moved by `months` calendar months (UTC), on its day of the month or the month's last day. */
function addMonths(start: number, months: number, lastDay: boolean): number {
  const d = new Date(start);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const daysIn = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = lastDay ? daysIn : Math.min(d.getUTCDate(), daysIn);
  return Date.UTC(y, m, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

/** The first run at or after `from` (epoch ms), or undefined when the report is not due again. */
export function nextRun(schedule: ReportSchedule, state: ReportSpec['state'], from: number, savedAt: number): number | undefined {
  if (state !== 'scheduled' || schedule.frequency === 'never') return undefined;
  const start = schedule.startDate ? Date.parse(schedule.startDate) : savedAt;
  const end = schedule.endDate ? Date.parse(schedule.endDate) : Number.POSITIVE_INFINITY;
  let t: number | undefined;
  const f = schedule.frequency;
  if (f === 'once') t = start >= from ? start : undefined;
  else if (f === 'monthly' || f === 'last' || (f === 'custom' && schedule.intervalFrequency === 'months')) {
    const every = f === 'custom' ? Math.max(1, schedule.intervalAmount) : 1;
    const base = f === 'last' ? addMonths(start, 0, true) : start;
    for (let k = 0; k < MAX_STEPS; k++) {
      const c = addMonths(start, k * every, f === 'last');
      if (c >= from && c >= base) {
        t = c;
        break;
      }
    }
  } else {
    const step = f === 'custom' ? (STEP_MS[schedule.intervalFrequency] ?? 0) * Math.max(1, schedule.intervalAmount) : STEP_MS[f];
    if (!step) return undefined;
    let c = from <= start ? start : start + Math.ceil((from - start) / step) * step;
    if (schedule.workdaysOnly && (f === 'hourly' || f === 'daily')) {
      for (let k = 0; k < MAX_STEPS && ['Sat', 'Sun'].includes(weekday(c, schedule.timeZone)); k++) c += step;
    }
    t = c;
  }
  return t !== undefined && t <= end ? t : undefined;
}
