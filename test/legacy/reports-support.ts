/**
 * Test support for the reporting suites: a real SMTP server that records each message it receives, a minimal MIME
 * reader for its attachments, and the text a PDF draws, read back with pdf-lib's own parser.
 */
import type { AddressInfo } from 'node:net';
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream } from 'pdf-lib';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The user the client authenticated as, if it did. */
  user?: string;
  raw: string;
}

export interface RecordingSmtp {
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A local SMTP server (no TLS) that accepts mail from `user`/`password` when given (any client otherwise), refuses
 * recipients at `refuse@...`, and records each message.
 */
export async function startRecordingSmtp(auth?: { user: string; password: string }): Promise<RecordingSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', ...(auth ? [] : ['AUTH'])],
    authOptional: !auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(a, _session, cb) {
      if (auth && a.username === auth.user && a.password === auth.password) cb(null, { user: a.username });
      else cb(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, cb) {
      if (address.address.startsWith('refuse@')) cb(new Error('Mailbox unavailable'));
      else cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mailFrom = session.envelope.mailFrom;
        received.push({
          from: mailFrom ? mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          ...(typeof session.user === 'string' ? { user: session.user } : {}),
          raw: Buffer.concat(chunks).toString('latin1'),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address()).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A header of a MIME entity (unfolded), or undefined. */
export function header(entity: string, name: string): string | undefined {
  const head = entity.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const m = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head);
  return m?.[1];
}

/** The parts of a multipart message, nested ones flattened: their headers and decoded bodies. */
export function mimeParts(raw: string): { contentType: string; filename?: string; body: Buffer }[] {
  const out: { contentType: string; filename?: string; body: Buffer }[] = [];
  const walk = (entity: string) => {
    const type = header(entity, 'Content-Type') ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    const body = entity.slice(entity.search(/\r?\n\r?\n/) + 2).replace(/^\r?\n/, '');
    if (/^multipart\//i.test(type) && boundary) {
      for (const part of body.split(`--${boundary}`).slice(1)) if (!part.startsWith('--')) walk(part.replace(/^\r?\n/, ''));
      return;
    }
    const encoding = (header(entity, 'Content-Transfer-Encoding') ?? '').toLowerCase();
    const decoded = encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64') : encoding === 'quoted-printable' ? Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1') : Buffer.from(body, 'latin1');
    const filename = /filename="?([^";]+)"?/i.exec(header(entity, 'Content-Disposition') ?? '')?.[1];
    out.push({ contentType: type.split(';')[0]!.trim().toLowerCase(), ...(filename ? { filename } : {}), body: decoded });
  };
  walk(raw);
  return out;
}

/** Each page's drawn strings (the `<hex> Tj` operators pdf-lib writes with the standard fonts), parsed with pdf-lib. */
export async function pdfText(bytes: Uint8Array): Promise<string[][]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    const text: string[] = [];
    for (const s of streams) {
      if (!(s instanceof PDFRawStream)) continue;
      const ops = Buffer.from(decodePDFRawStream(s).decode()).toString('latin1');
      for (const m of ops.matchAll(/<([0-9A-Fa-f]*)> Tj/g)) text.push(Buffer.from(m[1]!, 'hex').toString('latin1'));
    }
    return text;
  });
}
