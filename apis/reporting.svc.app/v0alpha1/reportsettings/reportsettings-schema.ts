import { z } from 'zod';

export const EMAIL_FOOTER_MODES = ['sent-by', 'none'] as const;

/** '' or an http(s) URL. */
const link = z.string().max(2048).refine((s) => s === '' || (URL.canParse(s) && ['http:', 'https:'].includes(new URL(s).protocol)), 'must be an http or https URL');

/** The branding of an organization's reports (the anchor's BrandingOptionsDTO). */
export const reportBrandingSchema = z
  .object({
    reportLogoUrl: link.default(''),
    emailLogoUrl: link.default(''),
    emailFooterMode: z.enum(EMAIL_FOOTER_MODES).default('sent-by'),
    emailFooterText: z.string().max(200).default(''),
    emailFooterLink: link.default(''),
  })
  .superRefine((b, ctx) => {
    if (b.emailFooterMode !== 'sent-by') return;
    if (b.emailFooterText.trim() === '') ctx.addIssue({ code: 'custom', path: ['emailFooterText'], message: 'required with emailFooterMode sent-by' });
  });

/** ReportSettings spec: one per organization, its reports' branding. */
export const reportSettingsSpecSchema = z.object({ branding: reportBrandingSchema.prefault({}) });

export type ReportSettingsSpec = z.infer<typeof reportSettingsSpecSchema>;
export type ReportBranding = z.infer<typeof reportBrandingSchema>;
