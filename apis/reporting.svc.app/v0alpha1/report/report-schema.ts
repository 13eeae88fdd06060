import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../../../../pkg/meta';

/** How often a report is sent (the anchor's schedule frequencies; `never` keeps it unscheduled). */
export const REPORT_FREQUENCIES = ['once', 'hourly', 'daily', 'weekly', 'monthly', 'last', 'custom', 'never'] as const;
/** The unit of a `custom` schedule's interval. */
export const REPORT_INTERVALS = ['hours', 'days', 'weeks', 'months'] as const;
/** What a report attaches: a PDF of each dashboard, a CSV of each table panel, an image in the body. */
export const REPORT_FORMATS = ['pdf', 'csv', 'image'] as const;
export const REPORT_ORIENTATIONS = ['portrait', 'landscape'] as const;
export const REPORT_LAYOUTS = ['grid', 'simple'] as const;
/** A report's state as its owner sets it: `paused` and `draft` reports are never sent on schedule. */
export const REPORT_STATES = ['scheduled', 'paused', 'draft'] as const;

/** An address as a report's recipients and reply-to hold them: no spaces, separators or angle brackets, one `@`. */
export const EMAIL_ADDRESS = /^[^\s@,;<>"]+@[^\s@,;<>"]+$/;
const email = z.string().regex(EMAIL_ADDRESS, 'must be an email address');
const timeRange = z.object({ from: z.string().max(100).default(''), to: z.string().max(100).default('') });
/** An RFC 3339 instant, as the anchor's schedule dates are written. */
const instant = z.string().refine((s) => !Number.isNaN(Date.parse(s)) && /^\d{4}-\d{2}-\d{2}T/.test(s), 'must be a date-time such as 2026-10-02T10:00:00+02:00');

export const reportScheduleSchema = z.object({
  frequency: z.enum(REPORT_FREQUENCIES),
  startDate: instant.optional(),
  endDate: instant.optional(),
  intervalFrequency: z.union([z.enum(REPORT_INTERVALS), z.literal('')]).default(''),
  intervalAmount: z.number().int().min(0).max(1000).default(0),
  workdaysOnly: z.boolean().default(false),
  dayOfMonth: z.string().max(10).default(''),
  /** IANA time zone the schedule's hours are in. */
  timeZone: z.string().min(1).max(100).default('UTC'),
});

export const reportDashboardSchema = z.object({
  uid: z.string().min(1, 'must not be empty').max(40),
  timeRange: timeRange.prefault({}),
  reportVariables: z.record(z.string(), z.unknown()).default({}),
});

/**
 * Report spec: a named email of dashboards rendered as PDFs (or CSVs), sent to `recipients` on `schedule`. The
 * dashboards are named by uid in the report's organization; the owner's numeric user id is a label (legacy data).
 */
export const reportSpecSchema = z
  .object({
    name: z.string().max(MAX_NAME_LENGTH).refine((s) => s.trim() !== '', 'must not be empty'),
    recipients: z.array(email).min(1, 'at least one recipient is required').max(1000),
    replyTo: z.union([email, z.literal('')]).default(''),
    message: z.string().max(10_000).default(''),
    schedule: reportScheduleSchema,
    options: z.object({ orientation: z.enum(REPORT_ORIENTATIONS).default('landscape'), layout: z.enum(REPORT_LAYOUTS).default('grid'), timeRange: timeRange.prefault({}) }).prefault({}),
    enableDashboardUrl: z.boolean().default(true),
    enableCsv: z.boolean().default(false),
    state: z.enum(REPORT_STATES).default('scheduled'),
    dashboards: z.array(reportDashboardSchema).min(1, 'at least one dashboard is required').max(100),
    formats: z.array(z.enum(REPORT_FORMATS)).min(1).max(3).default(['pdf']),
    scaleFactor: z.number().int().min(1).max(3).default(2),
    templateVars: z.record(z.string(), z.unknown()).default({}),
  })
  .superRefine((s, ctx) => {
    if (s.schedule.frequency === 'custom' && (s.schedule.intervalFrequency === '' || s.schedule.intervalAmount < 1)) {
      ctx.addIssue({ code: 'custom', path: ['schedule', 'intervalAmount'], message: 'a custom schedule needs intervalFrequency and an intervalAmount of at least 1' });
    }
    if (s.schedule.startDate && s.schedule.endDate && Date.parse(s.schedule.endDate) <= Date.parse(s.schedule.startDate)) {
      ctx.addIssue({ code: 'custom', path: ['schedule', 'endDate'], message: 'must be after startDate' });
    }
  });

export type ReportSpec = z.infer<typeof reportSpecSchema>;
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;
