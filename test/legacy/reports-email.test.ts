/**
 * Reports emailed and rendered (enterprise edition), through HTTP against a real local SMTP server: POST
 * /api/reports/email and /test-email hand the mail server a message with the report's PDF (and CSVs), whose text
 * holds the dashboard's title and the values its panels' queries answered from the testdata data source; GET
 * /api/reports/render/pdf(s) answer that PDF. Without `[smtp] enabled` sending is the anchor's 412.
 */
import { internalKinds, reportKind } from '../../apis';
import { SYSTEM } from '../../pkg/auth/identity/identity-directory';
import { anyKind } from '../../pkg/meta';
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS } from '../support/paths';
import { as, createUser } from '../support/users';
import { header, mimeParts, pdfText, type RecordingSmtp, startRecordingSmtp } from './reports-support';

const SMTP_USER = 'reports-bot';
const SMTP_PASSWORD = 'smtp-s3cret-pw';
const CSV = 'host,value\nalpha,42.5\nbeta,17';

/** A dashboard with a table of CSV content and a time series, both queried from the testdata data source `td`. */
const dashboardSpec = (title: string) => ({
  title,
  time: { from: 'now-1h', to: 'now' },
  panels: [
    { id: 1, type: 'table', title: 'Hosts', datasource: { uid: 'td', type: 'svc-testdata-datasource' }, targets: [{ refId: 'A', scenarioId: 'csv_content', csvContent: CSV }] },
    { id: 2, type: 'timeseries', title: 'Load', targets: [{ refId: 'A', datasource: { uid: 'td' }, scenarioId: 'csv_metric_values', stringInput: '1,20,90,30,5,0', alias: 'load' }] },
  ],
});

const reportBody = (uid: string, extra: object = {}) => ({
  name: 'Weekly ops',
  recipients: 'ops@example.org, dev@example.org',
  replyTo: 'owner@example.org',
  message: 'Please find the report attached.',
  schedule: { frequency: 'weekly', timeZone: 'UTC' },
  dashboards: [{ dashboard: { uid } }],
  formats: ['pdf', 'csv'],
  ...extra,
});

/** All the drawn strings of a PDF, pages joined. */
const allText = async (pdf: Uint8Array) => (await pdfText(pdf)).flat().join('\n');

async function storedReportCount(t: TestApp): Promise<number> {
  const registry = t.registry.companion(internalKinds);
  return (await registry.list({ requester: SYSTEM, namespace: 'default', fieldManager: 'test' }, anyKind(reportKind), {})).items.length;
}

describe('with a mail server', () => {
  let t: TestApp;
  let smtp: RecordingSmtp;
  let reportId: number;
  beforeAll(async () => {
    smtp = await startRecordingSmtp({ user: SMTP_USER, password: SMTP_PASSWORD });
    t = await startTestApp([
      '--server.edition=enterprise',
      '--smtp.enabled=true',
      `--smtp.host=127.0.0.1:${smtp.port}`,
      `--smtp.user=${SMTP_USER}`,
      `--smtp.password=${SMTP_PASSWORD}`,
      '--smtp.from_address=reports@svc.example',
      '--smtp.from_name=Svc Reports',
    ]);
    await t.as.post('/api/datasources').send({ uid: 'td', name: 'td', type: 'svc-testdata-datasource', access: 'proxy' }).expect(200);
    await t.as.post(DASHBOARDS).send({ metadata: { name: 'ops-overview' }, spec: dashboardSpec('Ops overview') }).expect(201);
    await t.as.post(DASHBOARDS).send({ metadata: { name: 'second' }, spec: dashboardSpec('Second board') }).expect(201);
    reportId = (await t.as.post('/api/reports').send(reportBody('ops-overview'))).body.id;
    await t.as.post('/api/reports/settings').send({ branding: { emailFooterMode: 'sent-by', emailFooterText: 'Ops team', emailFooterLink: 'https://ops.example.org/' } }).expect(200);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => {
    smtp.received.length = 0;
  });

  it('POST /api/reports/email renders the report and mails it to its recipients, with the PDF and the table as CSV', async () => {
    const res = await t.as.post('/api/reports/email').send({ id: String(reportId), useEmailsFromReport: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Report was sent' });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.user).toBe(SMTP_USER);
    expect(mail.from).toBe('reports@svc.example');
    expect(mail.to.sort()).toEqual(['dev@example.org', 'ops@example.org']);
    expect(header(mail.raw, 'Subject')).toBe('Weekly ops');
    expect(header(mail.raw, 'From')).toBe('Svc Reports <reports@svc.example>');
    expect(header(mail.raw, 'Reply-To')).toBe('owner@example.org');

    const parts = mimeParts(mail.raw);
    const text = parts.find((p) => p.contentType === 'text/plain')!.body.toString('utf8');
    expect(text).toContain('Please find the report attached.');
    expect(text).toContain('Ops overview: http://localhost:3000/d/ops-overview');
    expect(text).toContain('Sent by Ops team (https://ops.example.org/)');

    const pdf = parts.find((p) => p.contentType === 'application/pdf')!;
    expect(pdf.filename).toBe('Weekly ops.pdf');
    expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const drawn = await allText(pdf.body);
    expect(drawn).toContain('Ops overview');
    expect(drawn).toContain('Hosts');
    // Values the testdata data source answered for the panels' saved queries.
    expect(drawn).toContain('alpha');
    expect(drawn).toContain('42.5');
    expect(drawn).toContain('Load');
    expect(drawn).toMatch(/last 0\b/);

    const csv = parts.find((p) => p.contentType === 'text/csv')!;
    expect(csv.filename).toBe('Hosts.csv');
    expect(csv.body.toString('utf8')).toBe('host,value\r\nalpha,42.5\r\nbeta,17\r\n');
  });

  it('sends to the addresses given instead of the report\'s', async () => {
    const res = await t.as.post('/api/reports/email').send({ id: reportId, emails: 'someone@example.org' });
    expect(res.status).toBe(200);
    expect(smtp.received.map((m) => m.to)).toEqual([['someone@example.org']]);
  });

  it('POST /api/reports/test-email mails the report of the body, storing nothing', async () => {
    const before = await storedReportCount(t);
    const res = await t.as.post('/api/reports/test-email').send(reportBody('second', { name: 'Trial run', recipients: 'trial@example.org', formats: ['pdf'] }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Test email sent' });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['trial@example.org']);
    expect(header(smtp.received[0]!.raw, 'Subject')).toBe('Trial run');
    const parts = mimeParts(smtp.received[0]!.raw);
    expect(parts.filter((p) => p.contentType === 'text/csv')).toEqual([]);
    expect(await allText(parts.find((p) => p.contentType === 'application/pdf')!.body)).toContain('Second board');
    expect(await storedReportCount(t)).toBe(before);
  });

  it.each([
    ['no report id', { useEmailsFromReport: true }, 400, 'invalid report id'],
    ['an id that is no number', { id: 'abc', useEmailsFromReport: true }, 400, 'invalid report id'],
    ['neither addresses nor useEmailsFromReport', { id: '1' }, 400, 'emails or useEmailsFromReport is required'],
    ['an address that is none', { id: '1', emails: 'nobody' }, 400, 'emails: must be comma-separated email addresses'],
    ['a report that does not exist', { id: '999999', useEmailsFromReport: true }, 404, 'Report not found'],
  ])('POST /api/reports/email with %s: %i, nothing sent', async (_what, body, status, message) => {
    const res = await t.as.post('/api/reports/email').send(body);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ message });
    expect(smtp.received).toEqual([]);
  });

  it('POST /api/reports/test-email with a bad body: 400, nothing sent', async () => {
    const res = await t.as.post('/api/reports/test-email').send(reportBody('second', { recipients: 'not-an-address' }));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('recipients[0]');
    expect(smtp.received).toEqual([]);
  });

  it('answers 502 when the mail server refuses the email, without the SMTP password', async () => {
    const res = await t.as.post('/api/reports/email').send({ id: String(reportId), emails: 'refuse@example.org' });
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/^Failed to send report: the mail server 127\.0\.0\.1:\d+ did not take the email/);
    expect(JSON.stringify(res.body)).not.toContain(SMTP_PASSWORD);
    expect(smtp.received).toEqual([]);
  });

  it('sends only for those holding reports:send', async () => {
    await createUser(t, 'rm-editor', { 1: 'Editor' });
    await createUser(t, 'rm-admin', { 1: 'Admin' });
    const refused = await as(t, 'rm-editor').post('/api/reports/email').send({ id: String(reportId), useEmailsFromReport: true });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('reports:send');
    expect((await as(t, 'rm-editor').post('/api/reports/test-email').send(reportBody('second'))).status).toBe(403);
    expect(smtp.received).toEqual([]);
    expect((await as(t, 'rm-admin').post('/api/reports/email').send({ id: String(reportId), useEmailsFromReport: true })).status).toBe(200);
    expect(smtp.received).toHaveLength(1);
  });

  describe('rendering', () => {
    it('GET /api/reports/render/pdf/:dashboardID answers a PDF of the dashboard with its panels\' data', async () => {
      const id = (await t.as.get('/api/dashboards/uid/ops-overview')).body.dashboard.id as number;
      const res = await t.as.get(`/api/reports/render/pdf/${id}?orientation=portrait&layout=simple&from=now-2h&to=now`).buffer(true).parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const body = res.body as Buffer;
      expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const pages = await pdfText(body);
      const text = pages.flat().join('\n');
      expect(text).toContain('Ops overview');
      expect(text).toContain('42.5');
      expect(text).toMatch(/\(UTC\)/);
    });

    it('GET /api/reports/render/pdfs answers one PDF of several dashboards, by id or uid', async () => {
      const id = (await t.as.get('/api/dashboards/uid/ops-overview')).body.dashboard.id as number;
      const res = await t.as.get(`/api/reports/render/pdfs?dashboardID=${id},second`).buffer(true).parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
      expect(res.status).toBe(200);
      const pages = await pdfText(res.body as Buffer);
      expect(pages.length).toBeGreaterThanOrEqual(2);
      expect(pages[0]!.join('\n')).toContain('Ops overview');
      expect(pages.slice(1).flat().join('\n')).toContain('Second board');
    });

    it('substitutes template variables: the dashboard\'s current values, else the report\'s or the query\'s', async () => {
      const panels = [{ id: 1, type: 'table', title: 'Host $host', targets: [{ refId: 'A', datasource: { uid: 'td' }, scenarioId: 'csv_content', csvContent: 'host,value\n$host,7' }] }];
      await t.as.post(DASHBOARDS).send({ metadata: { name: 'templated' }, spec: { title: 'Templated', panels, templating: { list: [{ name: 'host', type: 'custom', current: { value: 'alpha' } }] } } }).expect(201);
      const pdfOf = async (path: string) => {
        const res = await t.as.get(path).buffer(true).parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        });
        expect(res.status).toBe(200);
        return allText(res.body as Buffer);
      };
      expect(await pdfOf('/api/reports/render/pdfs?dashboardID=templated')).toMatch(/Host alpha[\s\S]*alpha/);
      const delta = await pdfOf(`/api/reports/render/pdfs?dashboardID=templated&variables=${encodeURIComponent('{"host":"delta"}')}`);
      expect(delta).toContain('Host delta');
      expect(delta).not.toContain('alpha');
      expect((await t.as.get('/api/reports/render/pdfs?dashboardID=templated&variables=nope')).body).toEqual({ message: 'variables: expected a JSON object of variable values' });

      smtp.received.length = 0;
      const sent = await t.as.post('/api/reports/test-email').send({ ...reportBody('templated'), dashboards: [{ dashboard: { uid: 'templated' }, reportVariables: { host: 'omega' } }], formats: ['pdf'] });
      expect(sent.status).toBe(200);
      const pdf = mimeParts(smtp.received[0]!.raw).find((p) => p.contentType === 'application/pdf')!;
      expect(await allText(pdf.body)).toContain('Host omega');
    });

    it.each([
      ['/api/reports/render/pdf/abc', 400, 'invalid dashboard id'],
      ['/api/reports/render/pdf/999999', 404, 'Dashboard not found'],
      ['/api/reports/render/pdfs', 400, 'dashboardID is required'],
      ['/api/reports/render/pdfs?dashboardID=no-such-board', 404, 'Dashboard not found'],
      ['/api/reports/render/pdfs?dashboardID=second&orientation=diagonal', 400, 'orientation: expected portrait or landscape'],
      ['/api/reports/render/pdfs?dashboardID=second&layout=spiral', 400, 'layout: expected grid or simple'],
      ['/api/reports/render/pdfs?dashboardID=second&from=now-1h', 400, 'from and to go together'],
      ['/api/reports/render/pdfs?dashboardID=second&from=yesterday&to=now', 400, 'invalid time range'],
      ['/api/reports/render/pdfs?dashboardID=second&timezone=Mars/Olympus', 400, 'unknown time zone "Mars/Olympus"'],
    ])('GET %s: %i', async (path, status, message) => {
      const res = await t.as.get(path);
      expect(res.status).toBe(status);
      expect(res.body.message).toContain(message);
    });

    it('renders only dashboards the caller may read; another organization\'s are not found', async () => {
      const other = (await t.users.createOrg(SYSTEM, 'Render elsewhere')).id;
      await createUser(t, 'rr-other', { [other]: 'Admin' });
      const res = await as(t, 'rr-other').get('/api/reports/render/pdfs?dashboardID=ops-overview');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Dashboard not found' });
      expect((await t.anonymous.get('/api/reports/render/pdfs?dashboardID=ops-overview')).status).toBe(401);
      // A Viewer of org 1 whose access to the dashboard is taken away is refused.
      await createUser(t, 'rr-viewer', { 1: 'Viewer' });
      await t.as.post('/api/dashboards/uid/second/permissions').send({ items: [] }).expect(200);
      const refused = await as(t, 'rr-viewer').get('/api/reports/render/pdfs?dashboardID=second');
      expect(refused.status).toBe(403);
    });
  });
});

describe('without a mail server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(['--server.edition=enterprise']);
    await t.as.post(DASHBOARDS).send({ metadata: { name: 'quiet' }, spec: { title: 'Quiet' } }).expect(201);
  });
  afterAll(() => t.close());

  it('answers the anchor\'s 412 on sending, as it does for invites', async () => {
    const id = (await t.as.post('/api/reports').send(reportBody('quiet'))).body.id;
    for (const res of [await t.as.post('/api/reports/email').send({ id: String(id), useEmailsFromReport: true }), await t.as.post('/api/reports/test-email').send(reportBody('quiet'))]) {
      expect(res.status).toBe(412);
      expect(res.body).toEqual({ message: "SMTP not configured, check your config file's [smtp] section" });
    }
  });
});

describe('open-source edition', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves none of sending and rendering (404)', async () => {
    for (const res of [
      await t.as.post('/api/reports/email').send({ id: '1', useEmailsFromReport: true }),
      await t.as.post('/api/reports/test-email').send(reportBody('x')),
      await t.as.get('/api/reports/render/pdf/1'),
      await t.as.get('/api/reports/render/pdfs?dashboardID=1'),
    ]) expect(res.status).toBe(404);
  });
});
