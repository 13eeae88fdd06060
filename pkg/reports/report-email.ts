import type { ReportBranding, ReportSpec } from '../../apis';
import type { Mail, MailAttachment } from '../mail';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The email of a report: the report's name as subject, its message, a link to each dashboard (with
 * `enableDashboardUrl`), the organization's "Sent by" footer, and the attachments (the PDF, CSVs), to `to`.
 *
 * @example reportEmail(report.spec, ['ops@example.org'], [{ title: 'API', url: 'http://svc/d/api' }], branding, [pdf])
 */
export function reportEmail(spec: Pick<ReportSpec, 'name' | 'message' | 'replyTo' | 'enableDashboardUrl'>, to: readonly string[], dashboards: readonly { title: string; url: string }[], branding: ReportBranding, attachments: readonly MailAttachment[]): Mail {
  const links = spec.enableDashboardUrl ? dashboards.map((d) => ({ text: `${d.title}: ${d.url}`, html: `<p><a href="${escape(d.url)}">${escape(d.title)}</a></p>` })) : [];
  const sentBy = branding.emailFooterMode === 'sent-by' && branding.emailFooterText !== '';
  const footerText = sentBy ? `Sent by ${branding.emailFooterText}${branding.emailFooterLink ? ` (${branding.emailFooterLink})` : ''}` : '';
  const footerHtml = sentBy ? `<p>Sent by ${branding.emailFooterLink ? `<a href="${escape(branding.emailFooterLink)}">${escape(branding.emailFooterText)}</a>` : escape(branding.emailFooterText)}</p>` : '';
  const logo = branding.emailLogoUrl ? `<p><img src="${escape(branding.emailLogoUrl)}" alt="" height="40"></p>` : '';
  return {
    to,
    ...(spec.replyTo ? { replyTo: [spec.replyTo] } : {}),
    subject: spec.name,
    text: [spec.message, ...links.map((l) => l.text), footerText].filter((s) => s !== '').join('\n\n'),
    html: `${logo}${spec.message.split('\n').map((l) => `<p>${escape(l)}</p>`).join('')}${links.map((l) => l.html).join('')}${footerHtml}`,
    attachments,
  };
}
