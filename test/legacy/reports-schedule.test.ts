/**
 * Scheduled reports (enterprise edition): a report due by its schedule is sent once, by one of several replicas on
 * one database (each due send is claimed in a locked read-modify-write of the report), to its recipients through the
 * real SMTP server; a report not due, paused or past its end is not sent.
 */
import { silentLogger } from '../../pkg/log';
import type { ReportScheduler } from '../../pkg/reports';
import { composeServer } from '../../pkg/server/server';
import { openStorage, type Storage } from '../../storage';
import { startTestApp, type TestApp } from '../support/app';
import { DASHBOARDS } from '../support/paths';
import { header, mimeParts, pdfText, type RecordingSmtp, startRecordingSmtp } from './reports-support';

const HOUR = 3_600_000;

describe('scheduled reports on two replicas', () => {
  let t: TestApp;
  let smtp: RecordingSmtp;
  let second: Storage | undefined;
  const replicas: ReportScheduler[] = [];

  beforeAll(async () => {
    smtp = await startRecordingSmtp();
    t = await startTestApp(['--server.edition=enterprise', '--smtp.enabled=true', `--smtp.host=127.0.0.1:${smtp.port}`, '--smtp.startTLS_policy=NoStartTLS']);
    // Two more replicas: on PostgreSQL each with its own connections to the test database, embedded on its one storage.
    second = t.databaseUrl ? await openStorage({ url: t.databaseUrl, dataDir: '', inMemory: true, maxConnections: 5 }) : undefined;
    for (const storage of [t.storage, second ?? t.storage]) {
      const replica = await composeServer(t.config, silentLogger, storage, { version: 'test', commit: 'test' });
      replicas.push(replica.reportScheduler!);
    }
    await t.as.post('/api/datasources').send({ uid: 'td', name: 'td', type: 'svc-testdata-datasource', access: 'proxy' }).expect(200);
    await t.as
      .post(DASHBOARDS)
      .send({ metadata: { name: 'nightly' }, spec: { title: 'Nightly board', panels: [{ id: 1, type: 'table', title: 'Hosts', targets: [{ refId: 'A', datasource: { uid: 'td' }, scenarioId: 'csv_content', csvContent: 'host,value\ngamma,73.25' }] }] } })
      .expect(201);
  });
  afterAll(async () => {
    await second?.close();
    await t.close();
    await smtp.close();
  });
  beforeEach(() => {
    smtp.received.length = 0;
  });

  const report = (name: string, schedule: object, extra: object = {}) => ({ name, recipients: 'night@example.org', schedule, dashboards: [{ dashboard: { uid: 'nightly' } }], ...extra });
  const both = (now: number) => Promise.all(replicas.map((r) => r.runOnce(now)));

  it('sends a due report once, by one replica, and not again until its next run', async () => {
    const start = new Date(Date.now() - 2 * HOUR).toISOString();
    const id = (await t.as.post('/api/reports').send(report('Hourly digest', { frequency: 'hourly', startDate: start }))).body.id as number;
    // Not due yet: its next run is within the hour.
    expect(await both(Date.now())).toEqual([0, 0]);
    expect(smtp.received).toEqual([]);

    const due = Date.now() + HOUR + 60_000;
    const sent = await both(due);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual(['night@example.org']);
    expect(header(mail.raw, 'Subject')).toBe('Hourly digest');
    const pdf = mimeParts(mail.raw).find((p) => p.contentType === 'application/pdf')!;
    const text = (await pdfText(pdf.body)).flat().join('\n');
    expect(text).toContain('Nightly board');
    expect(text).toContain('73.25');

    // The same instant again: claimed already, nothing sent; an hour later it is due again.
    expect(await both(due)).toEqual([0, 0]);
    expect(smtp.received).toHaveLength(1);
    expect((await both(due + HOUR)).reduce((a, b) => a + b, 0)).toBe(1);
    expect(smtp.received).toHaveLength(2);
    await t.as.delete(`/api/reports/${id}`).expect(200);
    expect(await both(due + 3 * HOUR)).toEqual([0, 0]);
  });

  it('sends nothing for a paused report, one scheduled never, or one past its end', async () => {
    const start = new Date(Date.now() - 2 * HOUR).toISOString();
    await t.as.post('/api/reports').send(report('Paused', { frequency: 'hourly', startDate: start }, { state: 'paused' })).expect(200);
    await t.as.post('/api/reports').send(report('Manual', { frequency: 'never' })).expect(200);
    await t.as.post('/api/reports').send(report('Ended', { frequency: 'hourly', startDate: start, endDate: new Date(Date.now() + 30 * 60_000).toISOString() })).expect(200);
    const ended = await both(Date.now() + 2 * HOUR);
    expect(ended).toEqual([0, 0]);
    expect(smtp.received).toEqual([]);
  });

  it('sends a once report at its start, then never again; a report resumed from paused is due again', async () => {
    const at = Date.now() + 10 * 60_000;
    const once = (await t.as.post('/api/reports').send(report('One-off', { frequency: 'once', startDate: new Date(at).toISOString() }))).body.id as number;
    expect((await both(at + 1000)).reduce((a, b) => a + b, 0)).toBe(1);
    expect(await both(at + 2 * HOUR)).toEqual([0, 0]);
    expect(smtp.received.map((m) => header(m.raw, 'Subject'))).toEqual(['One-off']);
    await t.as.delete(`/api/reports/${once}`).expect(200);

    const start = new Date(Date.now() - 2 * HOUR).toISOString();
    const paused = (await t.as.post('/api/reports').send(report('Resumed', { frequency: 'hourly', startDate: start }, { state: 'paused' }))).body.id as number;
    expect(await both(Date.now() + 2 * HOUR)).toEqual([0, 0]);
    await t.as.put(`/api/reports/${paused}`).send(report('Resumed', { frequency: 'hourly', startDate: start }, { state: 'scheduled' })).expect(200);
    expect((await both(Date.now() + 2 * HOUR)).reduce((a, b) => a + b, 0)).toBe(1);
    expect(smtp.received.map((m) => header(m.raw, 'Subject'))).toEqual(['One-off', 'Resumed']);
  });
});
