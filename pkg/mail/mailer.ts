import nodemailer from 'nodemailer';
import type { Config } from '../config';

/** The anchor's answer when something is to be emailed and `[smtp] enabled` is false (notifications.ErrSmtpNotEnabled). */
export const SMTP_NOT_CONFIGURED = "SMTP not configured, check your config file's [smtp] section";

/** One attachment of an email. */
export interface MailAttachment {
  filename: string;
  content: Buffer | Uint8Array;
  contentType: string;
}

/** One email, to every address of `to`. */
export interface Mail {
  to: readonly string[];
  replyTo?: readonly string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: readonly MailAttachment[];
}

/** A failure of the mail server (refused, unreachable, bad credentials): what the caller of a send is told. */
export class MailError extends Error {}

/**
 * Sends email through the server's `[smtp]` mail server, as the anchor's notification service does: `host:port`
 * (465: TLS from the start; otherwise STARTTLS per `startTLS_policy`), authenticated when `user` is set, from
 * `from_name <from_address>`. One SMTP connection per email: reports are few, and a pooled connection would outlive
 * a configuration. The password stays here: errors name the server, never the credentials.
 *
 * @example
 *   const mailer = new Mailer(config.smtp);
 *   if (mailer.enabled) await mailer.send({ to: ['ops@example.org'], subject: 'Weekly', text: 'Attached.' });
 */
export class Mailer {
  constructor(private readonly smtp: Config['smtp']) {}

  get enabled(): boolean {
    return this.smtp.enabled;
  }

  async send(mail: Mail): Promise<void> {
    const s = this.smtp;
    const sep = s.host.lastIndexOf(':');
    const host = s.host.slice(0, sep).replace(/^\[(.*)\]$/, '$1');
    const port = Number(s.host.slice(sep + 1));
    const transport = nodemailer.createTransport({
      host,
      port,
      secure: port === 465,
      ...(s.user !== '' ? { auth: { user: s.user, pass: s.password } } : {}),
      ...(s.ehlo_identity !== '' ? { name: s.ehlo_identity } : {}),
      ignoreTLS: s.startTLS_policy === 'NoStartTLS',
      requireTLS: s.startTLS_policy === 'MandatoryStartTLS',
      tls: { rejectUnauthorized: !s.skip_verify },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 60_000,
    });
    try {
      await transport.sendMail({
        from: { name: s.from_name, address: s.from_address },
        to: [...mail.to],
        ...(mail.replyTo?.length ? { replyTo: [...mail.replyTo] } : {}),
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        attachments: (mail.attachments ?? []).map((a) => ({ filename: a.filename, content: Buffer.from(a.content), contentType: a.contentType })),
      });
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new MailError(`the mail server ${s.host} did not take the email: ${reason.replaceAll(s.password || '\u0000', '*****')}`);
    } finally {
      transport.close();
    }
  }
}
