export { type Mail, type MailAttachment, MailError, Mailer, SMTP_NOT_CONFIGURED } from './mailer';
